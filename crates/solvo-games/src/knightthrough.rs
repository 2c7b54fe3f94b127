//! Knightthrough and Misère Knightthrough (a GGP game; Cazenave's PPAF games).
//!
//! Rules: the set-up of Breakthrough (two full home rows each, the first player at the
//! bottom moving up, the first player moves first) with **knights that only move
//! forward**: the four leaps (+1 row, ±2 columns) and (+2 rows, ±1 column), towards the
//! opponent. A knight lands on an empty cell or captures an enemy knight there (any of
//! the four leaps may capture). A leap that would leave the board does not exist (so a
//! +2 leap from the next-to-last row is impossible). No passes.
//!
//! End: normal play — the first knight to land on the far row wins; a side with no legal
//! move loses. Misère — the first to reach the far row **loses**; a side with no legal move
//! loses by default (option `no-move=win`, see [`RaceOptions::misere_no_move`]). With at
//! least 4 columns "no move" means all knights captured; on narrower boards a knight can be
//! stuck.
//!
//! Orientation: `rows x cols` with rows along the movement (the paper's "7×6" may mean
//! either `7x6` or `6x7`). Moves are written `b1-c3`, captures `b1xc3`. Symmetry: the
//! left-right mirror.

use crate::error::GameError;
pub use crate::race::{Race, RaceKind, RaceMove, RaceOptions};

/// A Knightthrough position (a [`Race`] of knights).
pub type Knightthrough = Race;

/// The starting position of Knightthrough (or Misère Knightthrough with
/// `options.misere`) on `rows x cols` (rows along the movement, at least 4; at most 64 cells).
pub fn new(rows: usize, cols: usize, options: RaceOptions) -> Result<Knightthrough, GameError> {
    Race::new(RaceKind::Knight, rows, cols, options)
}
