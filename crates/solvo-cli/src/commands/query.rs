//! `solvo solution query`: the value and best move of a position from a solution store, or
//! solved on demand when the store does not hold it (below its threshold, or missing),
//! saying which.

use crate::error::CliError;
use crate::input::parse_input;
use crate::shared::table_mib_for;
use crate::Common;
use serde_json::json;
use solvo_othello::formats::board_string::format_position;
use solvo_othello::BoardSize;
use solvo_othello_search::SolveOptions;
use solvo_solve::lookup::{lookup, LookupSource};
use solvo_solve::Store;
use std::path::PathBuf;

/// Arguments of `solvo solution query`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A board string, OBF line or transcript (with --size for transcripts).
    #[arg(allow_hyphen_values = true)]
    pub position: String,
    /// The store file.
    #[arg(long)]
    pub store: Option<PathBuf>,
    /// Endgame transposition table in MiB for on-demand solves (default: sized by the
    /// position, as for `solve`).
    #[arg(long, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: Option<usize>,
}

/// Runs `solvo solution query`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let common = Common { size: Some(common.size.unwrap_or(BoardSize::Four)), ..common };
    let pos = parse_input(&args.position, common)?.position;
    let size = pos.size;
    let path = args.store.unwrap_or_else(|| solvo_solve::semistrong::default_store_path(size));
    let store = Store::open_existing(&path).map_err(|e| CliError(e.to_string()))?;
    if store.size() != size || store.variant() != pos.variant {
        return Err(CliError(format!(
            "store {} holds {} {} positions, the position is {size} {} (use --size / --variant)",
            path.display(),
            store.size(),
            store.variant(),
            pos.variant
        )));
    }
    let mut options = SolveOptions::try_new(args.hash_mb.unwrap_or_else(|| table_mib_for(pos.empties())))?;
    let found = lookup(&store, &pos, &mut options).map_err(|e| CliError(e.to_string()))?;
    let (value, best, passed) = (found.value, found.best_move, found.passed);
    let source = match found.source {
        LookupSource::GameOver => "game over".to_string(),
        LookupSource::Store { kinds } => format!("store (kinds {kinds})"),
        LookupSource::Solved { why, .. } => format!("solved on demand ({why})"),
    };
    let best = best.map(|m| m.to_string());
    if common.json {
        out!(
            "{}",
            json!({"board": format_position(&pos), "value": value, "best_move": best, "pass": passed,
                   "source": source})
        );
    } else {
        let mover = if passed { "side to move (who must pass)" } else { "side to move" };
        let best = match (passed, best) {
            (true, Some(m)) => format!("pass, then the opponent plays {m}"),
            (_, Some(m)) => m,
            (_, None) => "-".to_string(),
        };
        out!("value {value:+} for the {mover}; best move {best}; from {source}");
    }
    Ok(())
}
