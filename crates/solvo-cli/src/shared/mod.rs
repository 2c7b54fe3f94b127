//! What several commands share, in one place, so that commands never import each
//! other: engine options (`engine_args`), exact-solver options, `--tune` and progress
//! (`solver`), the selective ladder's options (`ladder_args`), evaluation weights
//! (`weights`), positions and move names (`positions`), midgame-search options
//! (`search_args`), peak memory (`memory`), WTHOR game files read with their damage
//! named, and their name files (`wthor_names`), the input of the protocol front ends
//! (`protocol_input`).

pub mod engine_args;
pub mod ladder_args;
pub mod memory;
pub mod positions;
pub mod protocol_input;
pub mod search_args;
pub mod solver;
pub mod weights;
pub mod wthor_names;

pub use engine_args::EngineArgs;
pub use ladder_args::LadderArgs;
pub use memory::peak_rss_kib;
pub use positions::{move_name, move_names, positions_of, status_line};
pub use search_args::{nps, SearchArgs};
pub use solver::{apply_tune, options, ordering_eval, parse_tune, solve_with_progress, table_mib_for};
pub use weights::load_weights;
pub use wthor_names::read_wthor;
