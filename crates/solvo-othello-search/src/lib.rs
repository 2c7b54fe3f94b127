//! solvo-othello-search: the Othello search, exact and selective, over one board type.
//!
//! The face is small:
//! - [`solve`]: the exact value of a position (or a bound outside a window), the best
//!   solve there is: on 8x8 positions of 18 empties and more under normal rules it
//!   first climbs the selective ladder (a 73% Multi-ProbCut search almost to the end),
//!   whose moves order the exact search and whose value centres its first window;
//!   values never depend on it; `SolveOptions::ladder` set to [`Ladder::off`] keeps the
//!   plain exact search. [`solve_every_move`]: every legal move's exact value in one
//!   call, over one table.
//! - [`SelectiveSearch`]: analysis by depth, selectivity and time (iterative deepening,
//!   Multi-ProbCut, threads, a clock), ending in the same exact solve when the depth
//!   reaches the end of the game.
//!
//! Inside, `exact/` holds the exact solver (table, last empties, ordering, stability,
//! PVS) and `selective/` the selective search (table, Multi-ProbCut, ordering, PVS, the
//! ladder); `parallel` splits the nodes of both over threads (YBWC, written once).
//! [`internals`] opens a few of their parts to measurement tools and tests.

#![warn(missing_docs)]

mod eval_alphabeta;
mod exact;
mod parallel;
mod selective;
mod table;

pub use eval_alphabeta::{eval_alphabeta, EvalChild, EvalSearch, MAX_CHILDREN};
pub use exact::every_move::{solve_every_move, EveryMoveResult, MoveBounds};
pub use exact::hints::MoveHints;
pub use exact::knowledge::Knowledge;
pub use exact::ordering::{eval_search, mobility_eval, OrderingEval, TrainedEval};
pub use exact::playouts::playout_estimate;
pub use exact::search::ExactConfig;
pub use exact::solve::{solve_from_estimate, SolveOptions, SolveResult, Window};
pub use selective::driver::{
    pv_extension_for, MoveScore, SearchError, SearchLimits, SearchResult, SelectiveSearch, MAX_THREADS, SOLVE_EMPTIES,
    TABLES_PER_SEARCHER,
};
pub use selective::ladder::{
    climb, climb_with, Ladder, LadderMode, LadderOptions, LadderResult, ASPIRATION, AUTO_MIN_EMPTIES, AUTO_MIN_WINDOW,
};
pub use selective::mpc::Selectivity;
pub use table::{Replacement, SearchTable, TtStats};

use solvo_othello::Position;

/// Solves `pos` exactly within `options.window`: the exact final disc difference for
/// the side to move when it lies inside the window, else a bound on the right side of
/// it; with a time or node budget or the stop flag, proven bounds (`stopped`). Climbs
/// `options.ladder` first when it applies (see [`Ladder::solve`]): the value never
/// depends on it, only the time does.
pub fn solve(pos: &Position, options: &SolveOptions) -> SolveResult {
    options.ladder.solve(pos, options)
}

/// Parts of the searches opened to measurement tools (the lab's Multi-ProbCut
/// statistics) and to tests that check them one by one. Not needed to search.
pub mod internals {
    pub use crate::exact::solve::solve as solve_without_ladder;
    pub use crate::selective::mpc::{probe_depth, MpcTable, MPC_MIN_DEPTH};
    pub use crate::selective::search::{Context, SelectiveSearcher, SelectiveShared, SPLIT_MIN_DEPTH};
}
