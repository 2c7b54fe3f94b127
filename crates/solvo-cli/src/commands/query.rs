//! `solvo query`: the value and best move of a position from a solution store, or
//! solved on demand when the store does not hold it (below its threshold, or missing),
//! saying which.

use crate::error::CliError;
use crate::input::parse_input;
use crate::Common;
use serde_json::json;
use solvo_endgame::SolveOptions;
use solvo_othello::formats::board_string::format_position;
use solvo_othello::BoardSize;
use solvo_solve::semistrong::stored_min_empties;
use solvo_solve::{kind, Store};
use std::path::PathBuf;

/// Arguments of `solvo query`.
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

/// Runs `solvo query`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let common = Common { size: Some(common.size.unwrap_or(BoardSize::Four)), ..common };
    let mut pos = parse_input(&args.position, common)?.position;
    let size = pos.size;
    let path = args.store.unwrap_or_else(|| PathBuf::from(format!("data/semistrong-{0}x{0}.redb", size.side())));
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
    let mut passed = false;
    if pos.moves() == 0 && !pos.is_game_over() {
        pos = pos.passed();
        passed = true;
    }
    let sign = if passed { -1 } else { 1 };
    let threshold = stored_min_empties(&store).map_err(|e| CliError(e.to_string()))?;
    let record = if pos.is_game_over() { None } else { store.get(&pos.board).map_err(|e| CliError(e.to_string()))? };
    let (value, best, source) = if pos.is_game_over() {
        (pos.final_score(), None, "game over".to_string())
    } else if let Some(r) = record.filter(|r| r.is_exact()) {
        (r.lower as i32, r.best_move, format!("store (kinds {})", kind::names(r.kinds)))
    } else {
        let why = match (threshold, record) {
            (Some(e), _) if pos.empties() <= e => format!("{} empties <= store threshold {e}", pos.empties()),
            (_, Some(r)) => format!("store has only the bound {r}"),
            _ => "not in the store".to_string(),
        };
        let (v, m, _) = solvo_solve::exact::exact_value(
            &pos,
            &mut SolveOptions::try_new(
                args.hash_mb.unwrap_or_else(|| crate::commands::solve::table_mib_for(pos.empties())),
            )?,
        );
        (v, m, format!("solved on demand ({why})"))
    };
    let value = sign * value;
    let best = best.map(|m| m.to_string());
    let shown = if passed { pos.passed() } else { pos };
    if common.json {
        out!(
            "{}",
            json!({"board": format_position(&shown), "value": value, "best_move": best, "pass": passed,
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
