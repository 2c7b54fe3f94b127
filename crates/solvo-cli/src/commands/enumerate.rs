//! `solvo solution enumerate`: the number of unique positions per disc count (see
//! `solvo_solve::enumerate` for the definition and the external-memory method).

use crate::error::CliError;
use crate::shared::peak_rss_kib;
use crate::Common;
use serde_json::json;
use solvo_othello::BoardSize;
use solvo_solve::enumerate::{enumerate, EnumerateOptions};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `solvo solution enumerate` (the board comes from the global `--size`).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Count levels from 4 discs up to this many discs.
    #[arg(long)]
    pub discs: u32,
    /// Directory for level files and sorted runs; finished levels found there are reused
    /// (resume). Without it everything stays in memory.
    #[arg(long)]
    pub data_dir: Option<PathBuf>,
    /// Memory budget for one level's boards, in MiB (16 bytes per board).
    #[arg(long, default_value_t = 4096, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub memory_mb: usize,
    /// Rayon threads (default: all cores).
    #[arg(long, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: Option<usize>,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// Runs `solvo solution enumerate`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let size = common.size.unwrap_or(BoardSize::Eight);
    if args.memory_mb == 0 {
        return Err(CliError("--memory-mb must be at least 1".into()));
    }
    if let Some(t) = args.threads {
        // Only fails if a pool exists already, which cannot happen this early.
        let _ = rayon::ThreadPoolBuilder::new().num_threads(t.max(1)).build_global();
    }
    let opts = EnumerateOptions {
        size,
        max_discs: args.discs,
        data_dir: args.data_dir.clone(),
        memory_bytes: args.memory_mb << 20,
        progress: !args.quiet && !common.json && std::io::stderr().is_terminal(),
    };
    let start = Instant::now();
    let mut total = 0u64;
    if !common.json {
        out!("{size} positions (side to move can move; unique under the 8 symmetries)");
        out!("{:>5} {:>16} {:>16} {:>5} {:>10} {:>10}", "discs", "positions", "children", "runs", "level s", "total s");
    }
    enumerate(&opts, |r| {
        total += r.count;
        let elapsed = start.elapsed().as_secs_f64();
        if common.json {
            out!(
                "{}",
                json!({"size": size.side(), "discs": r.discs, "positions": r.count, "children": r.generated,
                       "runs": r.runs, "reused": r.reused, "level_seconds": r.time.as_secs_f64(),
                       "total_seconds": elapsed, "peak_rss_kib": peak_rss_kib()})
            );
        } else {
            out!(
                "{:>5} {:>16} {:>16} {:>5} {:>10.2} {:>10.2}{}",
                r.discs,
                r.count,
                r.generated,
                r.runs,
                r.time.as_secs_f64(),
                elapsed,
                if r.reused { "  (reused level file)" } else { "" }
            );
        }
    })
    .map_err(|e| CliError(e.to_string()))?;
    if !common.json {
        let rss = peak_rss_kib().map_or("unknown".to_string(), |k| format!("{:.0} MiB", k as f64 / 1024.0));
        out!("total {total} positions, {:.2} s, peak RSS {rss}", start.elapsed().as_secs_f64());
    }
    Ok(())
}
