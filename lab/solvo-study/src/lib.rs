//! solvo-study: the Reversed Reversi study, redone properly (see
//! `../shared/design/reversed-reversi-study.md`): the report's hand-made feature
//! evaluation, its tuning by a genetic algorithm and by simulated annealing with
//! fitness from self-play matches, a depth-limited alpha-beta player with and without
//! pre-sorting, and an MCTS (UCT) player with random playouts. The players are
//! `solvo-engine` contestants, so `solvo match` plays them against each other and
//! against the trained engine.
//!
//! - [`features`]: the evaluation and its weights;
//! - [`alphabeta`]: the depth-limited search;
//! - [`mcts`]: UCT with random playouts;
//! - [`players`]: both as match contestants;
//! - [`tune`]: the genetic algorithm and simulated annealing.

#![warn(missing_docs)]

mod alphabeta;
pub mod features;
mod mcts;
pub mod players;
pub mod tune;
