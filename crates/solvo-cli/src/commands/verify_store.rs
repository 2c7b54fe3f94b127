//! `solvo solution verify`: layer-by-layer consistency check of a semi-strong store;
//! exit code 1 when a violation is found.

use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_solve::semistrong::stored_min_empties;
use solvo_solve::verify::{verify_store_with, VerifyReport};
use solvo_solve::Store;
use std::path::PathBuf;

/// Arguments of `solvo solution verify`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The store file (default: data/semistrong-NxN.redb for --size, else 4x4).
    #[arg(long)]
    pub store: Option<PathBuf>,
    /// Threshold below which positions are not stored: only for stores that do not record
    /// theirs (a store built by semi-strong records it, and only that value is accepted).
    #[arg(long)]
    pub min_empties: Option<u32>,
    /// How many violations to describe.
    #[arg(long, default_value_t = 20)]
    pub max_report: usize,
    /// Search threads for the children solved on demand.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Transposition table of the on-demand solves, in MiB.
    #[arg(long, default_value_t = 256, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
}

/// Runs `solvo solution verify`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let side = common.size.map_or(4, |s| s.side());
    let path = args.store.unwrap_or_else(|| PathBuf::from(format!("data/semistrong-{side}x{side}.redb")));
    let mut store = Store::open_existing(&path).map_err(|e| CliError(e.to_string()))?;
    let recorded = stored_min_empties(&store).map_err(|e| CliError(e.to_string()))?;
    let min_empties = match (args.min_empties, recorded) {
        (Some(given), Some(built)) if given != built => {
            return Err(CliError(format!(
                "--min-empties {given}: the store {} was built with min empties {built}; another threshold would report positions it never stored (or stored on purpose) as violations: leave --min-empties out",
                path.display()
            )))
        }
        (given, built) => given.or(built).unwrap_or(0),
    };
    let most = store.size().squares() - 4;
    if min_empties >= most {
        return Err(CliError(format!(
            "--min-empties {min_empties}: must be below {most}, the empties of the {} start",
            store.size()
        )));
    }
    if !common.json {
        eprintln!("  checking the checksums of every page of {}...", path.display());
    }
    if !store.check_integrity().map_err(|e| CliError(e.to_string()))? {
        eprintln!("  note: an interrupted commit was rolled back to the last durable one");
    }
    let solver = crate::shared::options(args.threads, args.hash_mb, None)?;
    let start = std::time::Instant::now();
    let quiet = common.json;
    let terminal = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let mut last_line = std::time::Instant::now();
    let mut progress = |discs: usize, r: &VerifyReport, layer_finished: bool| {
        if quiet {
            return;
        }
        let secs = start.elapsed().as_secs_f64();
        if layer_finished {
            if terminal {
                eprint!("\r{:100}\r", "");
            }
            eprintln!(
                "  {discs} discs checked: {} records, {} children solved, {} violations so far, {secs:.0} s",
                r.records[discs],
                r.solved,
                r.total_violations(),
            );
        } else if terminal {
            eprint!(
                "\r  checking {discs} discs: {} records checked in all, {} children solved, {secs:.0} s   ",
                r.checked, r.solved
            );
        } else if last_line.elapsed().as_secs() >= 10 {
            // A log (not a terminal): a line every 10 s while a long layer is checked.
            eprintln!(
                "  checking {discs} discs: {} records checked in all, {} children solved, {secs:.0} s",
                r.checked, r.solved
            );
            last_line = std::time::Instant::now();
        }
    };
    let report = verify_store_with(&store, min_empties, args.max_report, solver, &mut progress)
        .map_err(|e| CliError(e.to_string()))?;
    let total = report.total_violations();
    if common.json {
        out!(
            "{}",
            json!({"store": path.display().to_string(), "size": store.size().to_string(), "min_empties": min_empties,
                   "records": report.records, "exact": report.exact, "violations": report.violations,
                   "first_violations": report.first, "solved_on_demand": report.solved, "ok": total == 0})
        );
    } else {
        out!("store {} ({} {}, min empties {min_empties})", path.display(), store.size(), store.variant());
        out!("{:>5} {:>12} {:>12} {:>12}", "discs", "records", "exact", "violations");
        for d in 0..report.records.len() {
            if report.records[d] > 0 {
                out!("{d:>5} {:>12} {:>12} {:>12}", report.records[d], report.exact[d], report.violations[d]);
            }
        }
        let n: u64 = report.records.iter().sum();
        out!("{n} records checked, {} children solved on demand, {total} violations", report.solved);
        for v in &report.first {
            out!("violation: {v}");
        }
    }
    if total > 0 {
        return Err(CliError(format!("{total} violations in {}", path.display())));
    }
    Ok(())
}
