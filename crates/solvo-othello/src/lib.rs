//! solvo-othello: Othello (Reversi) on `u64` bitboards.
//!
//! Bit `i` of a bitboard is the square in row `i / 8`, column `i % 8` (a1 = 0, h1 = 7,
//! a8 = 56, h8 = 63). The 6x6 and 4x4 games are played in the centre of the same grid
//! (b2..g7 and c3..f6), so their squares keep their 8x8 names, as published 6x6
//! solutions do; a [`BoardSize`] supplies the mask of playable squares.
//!
//! Layers inside this crate:
//! - [`square`], [`size`], [`variant`]: small value types;
//! - [`moves`] (legal-move generation) and [`flips`] (discs turned by a move): the hot
//!   kernels, with an AVX2 path and a portable path that tests hold equal;
//! - [`board`]: the colour-less (player, opponent) pair the solvers work on;
//! - [`position`]: a board plus colours, size and variant; implements `solvo_core::Game`;
//! - [`symmetry`], [`hash`]: the 8 board symmetries, canonical forms, hashing;
//! - [`formats`]: board strings, OBF, transcripts, GGF, WTHOR;
//! - [`perft`]: leaf counting under the three published conventions.

#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
mod avx2;
mod board;
pub mod flips;
pub mod formats;
pub mod hash;
pub mod moves;
pub mod perft;
mod position;
pub mod random_games;
pub mod rules;
mod size;
pub mod square;
pub mod symmetry;
mod variant;

pub use board::Board;
pub use position::{Color, Position};
pub use size::BoardSize;
pub use square::Square;
pub use variant::Variant;
