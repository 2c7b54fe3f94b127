//! `solvo solution strong`: the value and a best move of every position reachable from
//! the 4x4 start (retrograde over the enumeration levels), optionally into a store.

use crate::error::{context, CliError};
use crate::Common;
use serde_json::json;
use solvo_othello::{Board, BoardSize};
use solvo_solve::store::Store;
use solvo_solve::strong::{strong_solve, write_to_store};
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `solvo solution strong` (board from the global `--size`; only 4 fits).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Write every position (exact value, best move, kind STRONG) into this store.
    #[arg(long)]
    pub store: Option<PathBuf>,
}

/// Runs `solvo solution strong`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let size = common.size.unwrap_or(BoardSize::Four);
    if size != BoardSize::Four {
        return Err(CliError(format!(
            "strong-solve --size {}: only 4x4 can be solved strongly here (use semi-strong for 6x6)",
            size.side()
        )));
    }
    let start = Instant::now();
    let sol = strong_solve(size, common.variant).map_err(|e| CliError(format!("strong-solve: {e}")))?;
    let solve_secs = start.elapsed().as_secs_f64();
    let value = sol.value(&Board::start()).ok_or_else(|| CliError("strong-solve: the start is missing".into()))?;
    let stored = match &args.store {
        Some(path) => {
            let store = Store::open(path, size, common.variant).map_err(context(path.display()))?;
            write_to_store(&sol, &store).map_err(context(path.display()))?;
            Some(store.len().map_err(context(path.display()))?)
        }
        None => None,
    };
    let total_secs = start.elapsed().as_secs_f64();
    if common.json {
        let per_level: Vec<_> =
            sol.levels.iter().enumerate().map(|(i, l)| json!({"discs": i + 4, "positions": l.len()})).collect();
        out!(
            "{}",
            json!({"size": size.side(), "variant": common.variant, "positions": sol.len(), "start_value": value,
                   "levels": per_level, "solve_seconds": solve_secs, "total_seconds": total_secs,
                   "store": args.store.as_ref().map(|p| p.display().to_string()), "store_records": stored})
        );
    } else {
        out!("{size} {} strong solution: {} positions, start value {value:+} for black", common.variant, sol.len());
        out!("{:>5} {:>9} {:>7} {:>7} {:>7}", "discs", "positions", "wins", "draws", "losses");
        for (i, l) in sol.levels.iter().enumerate() {
            let wins = l.iter().filter(|s| s.value > 0).count();
            let draws = l.iter().filter(|s| s.value == 0).count();
            out!("{:>5} {:>9} {:>7} {:>7} {:>7}", i + 4, l.len(), wins, draws, l.len() - wins - draws);
        }
        out!("solved in {solve_secs:.3} s");
        if let (Some(p), Some(n)) = (&args.store, stored) {
            out!("store {}: {n} records after writing ({total_secs:.3} s in all)", p.display());
        }
    }
    Ok(())
}
