//! solvo-lab: the lab wing's library, what its studies and reproductions compute beside
//! the product's crates (which never depend on the lab):
//!
//! - [`mc_study`]: the Monte Carlo Game Solver study's tables, as published, for
//!   `solvo-lab bench games` to print beside its own figures;
//! - [`published`]: the published 8x8 run's task list, its invariant, and solvo's
//!   estimates against the published ones;
//! - [`reproduce`]: what can be reproduced of that run on one machine (selection
//!   overlap, expansion sizes, the cost per leaf) and the projected cost of the full run;
//! - [`othello_solved`]: the published run's Figures 2-4 and Table 1 from a pipeline
//!   store and the task list, drawn by [`figures`] (SVG).
//!
//! The other lab crates: `solvo-study` (the Reversed Reversi study's players and tuning)
//! and `solvo-train` (how the evaluation's weights, residual network and Multi-ProbCut
//! statistics are made).

pub mod figures;
pub mod mc_study;
pub mod othello_solved;
pub mod published;
pub mod reproduce;
