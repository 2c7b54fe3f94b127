//! solvo-othello-search: the Othello search, exact and selective, over one board type.
//!
//! - [`exact`]: the exact solver: given a position and a window it returns the exact
//!   final disc difference when it lies inside the window, else a bound on the right
//!   side of it (fail-soft); every legal move's value in one call;
//! - [`selective`]: depth-limited search on the trained evaluation with Multi-ProbCut,
//!   iterative deepening, threads and a clock, ending in an exact solve when the depth
//!   reaches the end; the selective ladder that orders an exact solve.

#![warn(missing_docs)]

pub mod exact;
pub mod selective;

pub use exact::{
    solve, solve_every_move, solve_from_estimate, EveryMoveResult, MoveBounds, SolveOptions, SolveResult, Window,
};
pub use selective::{
    pv_extension_for, MoveScore, SearchError, SearchLimits, SearchResult, SelectiveSearch, Selectivity, MAX_THREADS,
    TABLES_PER_SEARCHER,
};
