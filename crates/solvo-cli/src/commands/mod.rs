//! One module per `solvo` subcommand.

pub mod analyze;
pub mod bench;
pub mod bench_eval;
pub mod bench_hard;
pub mod bench_random;
pub mod bench_wthor;
pub mod convert;
pub mod enumerate;
pub mod eval;
pub mod game;
pub mod gtp;
pub mod match_play;
pub mod nboard;
pub mod perft;
pub mod play;
pub mod query;
pub mod semistrong;
pub mod show;
pub mod solve;
pub mod strong_solve;
pub mod study;
pub mod train;
pub mod train_mpc;
pub mod verify_store;
pub mod weak_solve;
pub mod wthor;
