//! `solvo engine match`: the engine and external programs (GTP, NBoard) play every opening
//! twice, colours swapped ([`solvo_shell::matches`]); the Reversed Reversi study's
//! players (`ab:...`, `mcts:...`) are the lab's (`solvo-lab match`).

use crate::error::CliError;
use crate::Common;
use solvo_shell::matches::MoreContestants;

pub use solvo_shell::matches::Args;

/// The study's player kinds, named so that their error says where they went.
const MOVED: MoreContestants<'static> = MoreContestants {
    syntax: "",
    parse: &|kind, _, _| {
        matches!(kind, "ab" | "mcts").then(|| {
            Err(format!(
                "the Reversed Reversi study's players moved to the lab: run `solvo-lab match --engine {kind}:...`"
            ))
        })
    },
};

/// Runs `solvo engine match`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    solvo_shell::matches::run(args, common, &MOVED)
}
