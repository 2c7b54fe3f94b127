//! solvo-search: generic algorithms over [`solvo_core::Game`].
//!
//! They are written for clarity and generality, not speed: games with fast paths of
//! their own (Othello) are tested against them. Later layers add alpha-beta with a
//! transposition table, proof-number search and Monte Carlo move ordering here.

pub mod minimax;
pub mod perft;

pub use minimax::negamax;
pub use perft::{perft, PassRule};
