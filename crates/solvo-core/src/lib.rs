//! solvo-core: the abstraction every generic algorithm in solvo is written against.
//!
//! A [`Game`] is a two-player, zero-sum, perfect-information game seen from the side to
//! move (negamax convention): every value is "how good is this for the player who is
//! about to move". Othello implements it in `solvo-othello`; the generic algorithms
//! (perft, minimax, alpha-beta, proof-number search, MCTS) live in `solvo-search`.

pub mod busy;
pub mod contained_panic;
pub mod fuzz;
mod game;
pub mod hugemem;
mod opening;
pub mod rng;

pub use game::{Game, Status};
pub use opening::random_opening;
