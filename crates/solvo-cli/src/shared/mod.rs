//! What several commands share, in one place, so that commands never import each
//! other: engine options (`engine_args`), exact-solver options, `--tune` and progress
//! (`solver`), the selective ladder's options (`ladder_args`), evaluation weights
//! (`weights`), WTHOR game files read with their damage named and their name files
//! (`wthor_names`), midgame-search options (`search_args`) — these six in
//! [`solvo_shell::shared`], as the lab's binary and the Python package need them too —
//! and the command line's own: positions and move names (`positions`), peak memory
//! (`memory`), perft with its time (`timed_perft`), the input of the protocol front ends
//! (`protocol_input`).

pub mod memory;
pub mod positions;
pub mod protocol_input;
pub mod timed_perft;

pub use memory::peak_rss_kib;
pub use positions::{move_name, move_names, positions_of, status_line};
pub use solvo_shell::shared::*;
pub use timed_perft::timed_perft;
