//! The selective search: depth-limited search with the trained evaluation, for analysis and
//! play before the exact solver can take over.
//!
//! Layers, one file each:
//! - the table is the crate's one table ([`crate::table`]), shared with the exact search;
//! - [`mpc`]: Multi-ProbCut selectivity levels, probe depths, the statistics table;
//! - [`ordering`]: move lists and move ordering (table move, shallow searches, mobility);
//! - [`search`]: fail-soft principal variation search with Multi-ProbCut (one thread);
//! - [`root`]: the root moves, aspiration windows;
//! - [`driver`]: the public API: iterative deepening, threads (the null-window nodes
//!   split over them, as the exact search's: the crate's `parallel`), time limit, stop
//!   flag, exact solve by [`crate::exact`] when the depth reaches the end;
//! - [`ladder`]: the selective ladder before an exact solve (a selective search to
//!   the end whose table's moves order the exact solver).
//!
//! Measuring the Multi-ProbCut statistics of a weight set is weight-making: the lab's
//! `solvo-train` (`mpc_stats.rs`).

pub(crate) mod driver;
pub(crate) mod ladder;
pub(crate) mod mpc;
pub(crate) mod ordering;
pub(crate) mod root;
pub(crate) mod search;
