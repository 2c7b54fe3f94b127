//! Breakthrough and Misère Breakthrough (Troyka 2000; Cazenave's PPAF games).
//!
//! Rules: on `rows x cols` (rows = direction of movement, at least 4), each side fills its
//! two home rows with pawns; the first player (`W`) starts on rows 1–2 and moves up, the
//! second (`B`) on the top two rows and moves down; the first player moves first. A pawn
//! moves one cell straight forward to an **empty** cell, or one cell diagonally forward to
//! an empty cell **or** capturing an enemy pawn there. Captures are optional, there are
//! no chained captures, straight moves never capture, no passes.
//!
//! End: normal play — the first player to put a pawn on the far row wins; a side with no
//! legal move (all pawns captured, or every pawn blocked on a 1-column board) loses.
//! Misère — the first player to reach the far row **loses**; a side with no legal move
//! loses by default (option `no-move=win` flips it, see [`RaceOptions::misere_no_move`]).
//!
//! Orientation: the size is always `rows x cols` with rows along the movement, so the
//! paper's ambiguous "4×5" is either `4x5` (armies in contact) or `5x4` (one empty row
//! between them); both are offered. Moves are written `a2-a3`, captures `a2xb3`.
//! Symmetry: the left-right mirror.

use crate::error::GameError;
pub use crate::race::{Race, RaceKind, RaceMove, RaceOptions};

/// A Breakthrough position (a [`Race`] of pawns).
pub type Breakthrough = Race;

/// The starting position of Breakthrough (or Misère Breakthrough with `options.misere`)
/// on `rows x cols` (rows along the movement, at least 4; at most 64 cells).
pub fn new(rows: usize, cols: usize, options: RaceOptions) -> Result<Breakthrough, GameError> {
    Race::new(RaceKind::Pawn, rows, cols, options)
}
