//! Commands that moved to the lab's binary, `solvo-lab` (studies, reproductions,
//! weight-making): `solvo study`, `solvo train`, `solvo bench games` and `solvo pipeline
//! published` take any arguments and end with exit code 2 and a message naming the new
//! command line.

use crate::Common;

/// Whatever followed the moved command (ignored).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The moved command's arguments.
    #[arg(trailing_var_arg = true, allow_hyphen_values = true, num_args = 0..)]
    pub rest: Vec<String>,
}

impl Args {
    /// Ends the process: `command` moved to the lab (exit code 2); the message's new
    /// command line keeps the subcommand given (`solvo train fit ...` -> `solvo-lab train
    /// fit ...`).
    pub fn moved(&self, command: &str, common: Common) -> ! {
        let json = common.json || self.rest.iter().any(|a| a == "--json");
        let sub = self
            .rest
            .first()
            .filter(|w| !w.starts_with('-') && w.chars().all(|c| c.is_ascii_alphanumeric() || c == '-'));
        solvo_shell::moved_to_lab(command, sub.map(String::as_str), json)
    }
}
