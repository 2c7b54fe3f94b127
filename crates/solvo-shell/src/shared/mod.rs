//! Options several commands of both binaries share: engine options (`engine_args`),
//! exact-solver options, `--tune` and a solve with progress (`solver`), the selective
//! ladder's options (`ladder_args`), evaluation weights (`weights`), WTHOR game files
//! with their damage named and their name files (`wthor_names`), midgame-search options
//! (`search_args`: `solvo analyze`, `solvo bench hard` and the Python package's
//! `analyze`).

mod engine_args;
mod ladder_args;
mod search_args;
mod solver;
mod weights;
pub mod wthor_names;

pub use engine_args::{open_stores, EngineArgs};
pub use ladder_args::LadderArgs;
pub use search_args::{nps, SearchArgs};
pub use solver::{
    apply_tune, describe, options, ordering_eval, parse_tune, parse_window, result_move, solve_with_progress,
    table_mib_for,
};
pub use weights::load_weights;
pub use wthor_names::read_wthor;
