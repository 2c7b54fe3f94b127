//! One module per `solvo-lab` subcommand.

pub mod bench;
pub mod bench_games;
pub mod match_play;
pub mod pipeline;
pub mod pipeline_figures;
pub mod pipeline_published;
pub mod study;
pub mod train;
pub mod train_mpc;
