//! What several commands share, in one place, so that commands never import each
//! other: engine options (`engine_args`), exact-solver options, `--tune` and progress
//! (`solver`), the selective ladder's options (`ladder_args`), evaluation weights
//! (`weights`), WTHOR game files read with their damage named and their name files
//! (`wthor_names`) — these five in [`solvo_shell::shared`], as the lab's binary needs
//! them too — and the command line's own: positions and move names (`positions`),
//! midgame-search options (`search_args`), peak memory (`memory`), perft with its time
//! (`timed_perft`), the input of the protocol front ends (`protocol_input`).

pub mod memory;
pub mod positions;
pub mod protocol_input;
pub mod search_args;
pub mod timed_perft;

pub use memory::peak_rss_kib;
pub use positions::{move_name, move_names, positions_of, status_line};
pub use search_args::{nps, SearchArgs};
pub use solvo_shell::shared::*;
pub use timed_perft::timed_perft;
