//! solvo-search: generic algorithms over [`solvo_core::Game`].
//!
//! They are written for generality first: games with fast paths of their own (Othello)
//! are tested against them. Besides plain negamax and perft, the solvers of the
//! Monte Carlo Game Solver study live here: alpha-beta with a transposition table
//! (depth-first and iterative deepening), Monte Carlo move ordering (GRAVE + PPAF),
//! PN2, df-pn and MCTS-Solver, all behind [`solve`] with a common [`Budget`] and
//! [`SolverStats`].

pub mod algorithm;
pub mod alphabeta;
pub mod budget;
pub mod dfpn;
pub mod game_result;
pub mod grave;
pub mod keyhash;
pub mod mc_ordering;
pub mod mcts_solver;
pub mod minimax;
pub mod outcome;
pub mod perft;
pub mod play_out;
pub mod pn2;
pub mod policy;
pub mod proven;
pub mod reopening;
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
