//! solvo-games: two-player games other than Othello, each behind [`solvo_core::Game`],
//! so that every generic algorithm of `solvo-search` solves them.
//!
//! Every game is won or lost (no draws, except tiny Go with an integer komi): a finished
//! position has the value `+1` when the side to move has won and `-1` when it has lost;
//! `max_value()` is 1. Boards are `rows x cols` with at most 64 cells, held as `u64`
//! bitboards ([`grid::Grid`]); row 1 is the bottom row (the first player's side), cells
//! are named like `b3` (column letter, row number). Passes exist only in tiny Go, where
//! they are a move ([`go::GoMove::Pass`]).
//!
//! The [`catalog`] lists the games and builds one from a name, a size and options for
//! generic code ([`catalog::dispatch`]).

#![warn(missing_docs)]

mod atarigo;
pub mod breakthrough;
mod catalog;
mod domineering;
mod domineering_bounds;
mod domineering_regions;
mod error;
mod go;
mod go_key;
pub mod grid;
pub mod knightthrough;
mod lazy_word;
mod move_text;
mod nogo;
mod options;
mod race;
mod race_guard;
mod race_tactics;
mod stones;
mod symmetry;

pub use atarigo::{Atarigo, AtarigoOptions, StudyOrdering};
pub use catalog::{
    dispatch, dispatch_with, find, list, parse_semi_strong_identity, parse_size, proof_store_identity,
    semi_strong_identity, GameSpec, GameVisitor,
};
pub use domineering::{Domineering, DomineeringMove, DomineeringOptions};
pub use error::GameError;
pub use go::{Go, GoMove, GoOptions};
pub use move_text::{move_name, move_names, play_text};
pub use nogo::{Nogo, NogoOptions};
pub use options::{GameOptions, NoMoveRule};
pub use race::{Race, RaceKind, RaceMove, RaceOptions};
pub use stones::Point;
