//! Options several commands of both binaries share: engine options (`engine_args`),
//! exact-solver options, `--tune` and a solve with progress (`solver`), the selective
//! ladder's options (`ladder_args`), evaluation weights (`weights`).

pub mod engine_args;
pub mod ladder_args;
pub mod solver;
pub mod weights;

pub use engine_args::EngineArgs;
pub use ladder_args::LadderArgs;
pub use solver::{apply_tune, options, ordering_eval, parse_tune, solve_with_progress, table_mib_for};
pub use weights::load_weights;
