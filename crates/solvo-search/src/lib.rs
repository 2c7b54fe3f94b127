//! solvo-search: generic algorithms over [`solvo_core::Game`].
//!
//! They are written for generality first: games with fast paths of their own (Othello)
//! are tested against them. Besides plain negamax and perft, the solvers of the
//! Monte Carlo Game Solver study live here: alpha-beta with a transposition table
//! (depth-first and iterative deepening), Monte Carlo move ordering (GRAVE + PPAF),
//! PN2, df-pn (optionally in the Monte Carlo order), MCTS-Solver, score-bounded MCTS
//! and product propagation, all behind [`solve`] with a common [`Budget`] and
//! [`SolverStats`].

mod algorithm;
pub mod alphabeta;
pub mod budget;
mod dfpn;
mod game_result;
pub mod grave;
pub mod keyhash;
pub mod mc_ordering;
mod mcts_solver;
mod minimax;
mod outcome;
pub mod perft;
pub mod play_out;
mod pn2;
mod policy;
mod product_propagation;
pub mod proven;
pub mod reopening;
mod score_bounded;
mod search_tree;
/// The workspace's seeded generator (re-exported from `solvo-core`).
pub use solvo_core::rng;
pub mod tt;

pub use algorithm::{solve, solve_with_proofs, Algorithm, SolverConfig};
pub use budget::{stop_flag, Budget, SolverStats};
pub use game_result::GameResult;
pub use mc_ordering::McOrdering;
pub use minimax::negamax;
pub use outcome::{SolverAnswer, Verdict};
pub use perft::{perft, PassRule};
