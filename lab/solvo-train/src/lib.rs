//! solvo-train: how solvo's evaluation weights are made.
//!
//! - [`sample`]: labelled positions and their checksummed file format;
//! - [`games`]: samples from WTHOR-format game databases, exact labels near the end;
//! - [`exact`]: exact labels, solved in parallel;
//! - [`selfplay`]: samples from generated games (random moves and a rule of thumb);
//! - [`search_play`]: samples from games solvo plays with its own search;
//! - [`fit`]: per-stage ridge regression by preconditioned conjugate gradients;
//! - [`mpc_stats`]: the Multi-ProbCut statistics of a weight set, measured by
//!   `solvo-othello-search`'s selective search.
//!
//! Every step is deterministic for its inputs (parallel sums are reduced in a fixed
//! order), so the committed weights can be reproduced from the documented commands.

pub mod accuracy;
mod exact;
pub mod fit;
pub mod fit_net;
pub mod games;
pub mod mpc_stats;
pub mod sample;
pub mod search_play;
pub mod selfplay;
