//! solvo-eval: the trained evaluation of Othello positions.
//!
//! A position's value is estimated as a sum of weights, one per active feature:
//! pattern contents ([`pattern`]: corner blocks, edges, ranks, diagonals, read in all
//! their symmetric instances), mobility and parity ([`features`]); one weight table per
//! game stage ([`weights`]). Scores are final disc differences for the side to move,
//! in units of `1 / SCALE` disc. Weight sets live in a checksummed binary format
//! ([`format`]); the trained default sets are embedded in the binary ([`embedded`]).
//! 8x8 and 6x6 boards have their own pattern layouts ([`features`], [`features6`]);
//! a weight set evaluates one size only and says which ([`Weights::check_for`]).
//! With the cargo feature `residual` (off by default; the lab's crates turn it on), an
//! 8x8 set may also carry a residual network (`residual`) whose correction is added to
//! the linear sum (not in the embedded sets: see docs/results/evaluation.md); without
//! it, a weight file carrying a network is refused with a message saying so.
//!
//! Evaluation reads every pattern instance from scratch with BMI2 `pext` on the 8
//! symmetric images of the board (no incremental state to carry through the search);
//! `solvo bench eval` prints the rate.

pub mod checksum;
pub mod embedded;
pub mod features;
pub mod features6;
pub mod format;
mod layout;
pub mod pattern;
#[cfg(feature = "residual")]
pub mod residual;
pub mod tying;
mod weights;

pub use embedded::{embedded, embedded_for, embedded_shared, embedded_shared_for, read_file};
pub use features6::NUM_STAGES6;
pub use format::WeightFileError;
pub use weights::{layout_of, stage_of, stage_of_size, MpcStat, Weights, MAX_EVAL, NUM_STAGES, SCALE};
