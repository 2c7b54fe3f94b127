//! The exact search.
//!
//! Given a position and a window `(alpha, beta)`, it returns the exact final disc
//! difference for the side to move (empties to the winner) when that value lies inside
//! the window, and otherwise a bound on the correct side of the window (fail-soft
//! negamax). Layers inside:
//! - the table is the crate's one table ([`crate::table`]), shared with the selective search;
//! - [`local_table`]: each thread's own small table for the nodes near the leaves;
//! - [`shallow`]: the last few empties without table or sorting (parity order);
//! - [`ordering`]: move ordering for deeper nodes (TT move, fastest first, ...);
//! - [`mc_hints`]: optional Monte Carlo (GRAVE + PPAF) move ordering;
//! - [`knowledge`]: proven bounds kept outside the solve (a store), so long solves resume;
//! - [`search`]: principal variation search with the table, ETC and cutoffs;
//! - threads: the crate's young-brothers-wait splitting (`parallel`) at nodes of
//!   `ExactConfig::split_min_empties` empties and more;
//! - [`solve`]: the public API (`solve`, options, result, statistics);
//! - [`every_move`]: every legal move's exact value in one call, over one table;
//! - [`playouts`]: a rough first value from random games (boards without an evaluation).

pub(crate) mod every_move;
pub(crate) mod hints;
pub(crate) mod knowledge;
pub(crate) mod local_table;
pub(crate) mod mc_hints;
pub(crate) mod ordering;
pub(crate) mod playouts;
pub(crate) mod search;
pub(crate) mod shallow;
pub(crate) mod solve;
pub(crate) mod stability;

pub(crate) use every_move::{solve_every_move, EveryMoveResult, MoveBounds};
pub(crate) use solve::{solve, SolveOptions, SolveResult, Window};
