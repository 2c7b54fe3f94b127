//! `solvo bench wthor`: solve WTHOR games at their theoretical-score depth and check the
//! score the database records (black's discs with perfect play from that position,
//! computed by third-party programs). One row per position, progress on long solves,
//! totals; exits with an error if any score disagrees.

use crate::error::CliError;
use crate::shared::solve_with_progress;
use crate::shared::{peak_rss_kib, read_wthor};
use crate::Common;
use serde_json::json;
use solvo_othello::Color;
use solvo_othello_search::SolveOptions;
use std::path::PathBuf;

/// Arguments of `solvo bench wthor`.
#[derive(clap::Args, Debug)]
pub struct WthorArgs {
    /// WTHOR game files (`WTH_<year>.wtb`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Take every N-th game of each file.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::at_least_one, allow_negative_numbers = true)]
    pub every: usize,
    /// Stop after this many positions in all.
    #[arg(long)]
    pub limit: Option<usize>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Transposition table size in MiB (cleared between positions).
    #[arg(long, default_value_t = 256, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
    /// The selective ladder.
    #[command(flatten)]
    pub ladder: crate::shared::LadderArgs,
}

/// Totals of a WTHOR run.
#[derive(Default)]
struct Totals {
    positions: usize,
    nodes: u64,
    ordering: u64,
    secs: f64,
    slowest: (f64, String),
    bad: Vec<String>,
}

/// Runs `solvo bench wthor`.
pub fn run(args: WthorArgs, common: Common) -> Result<(), CliError> {
    let mut opts = crate::shared::options(args.threads, args.hash_mb, None)?;
    opts.ladder = std::sync::Arc::new(args.ladder.ladder(args.threads, None, common)?);
    let limit = args.limit.unwrap_or(usize::MAX);
    if !common.json {
        out!(
            "{:<14} {:>6} {:>3} {:>6} {:>6} {:>4} {:>14} {:>12} {:>9}",
            "game",
            "#",
            "emp",
            "theory",
            "solvo",
            "ok",
            "nodes",
            "+ordering",
            "seconds"
        );
    }
    let mut t = Totals::default();
    'files: for file in &args.files {
        let db = read_wthor(file)?;
        let name = file.file_stem().map_or_else(|| file.display().to_string(), |s| s.to_string_lossy().into_owned());
        for (i, g) in db.games.iter().enumerate().step_by(args.every.max(1)) {
            if t.positions >= limit {
                break 'files;
            }
            if db.damage(i).is_some() {
                continue; // named by read_wthor
            }
            let Some(pos) = g.position_at_empties(u32::from(db.header.depth)) else { continue };
            one_position(&mut t, &opts, &pos, &name, i + 1, g.theoretical_black_discs, common.json);
        }
    }
    summary(&t, common.json);
    if !t.bad.is_empty() {
        return Err(CliError(format!("{} position(s) disagree with the database: {}", t.bad.len(), t.bad.join(", "))));
    }
    Ok(())
}

fn one_position(
    t: &mut Totals,
    opts: &SolveOptions,
    pos: &solvo_othello::Position,
    file: &str,
    game: usize,
    theory_discs: u8,
    json: bool,
) {
    opts.tt.clear();
    let r = solve_with_progress(pos, opts, json);
    let secs = r.time.as_secs_f64();
    let theory = 2 * i32::from(theory_discs) - pos.size.squares() as i32;
    let black = r.score().map(|s| if pos.side == Color::Black { s } else { -s });
    let ok = black == Some(theory);
    let label = format!("{file}:{game}");
    t.positions += 1;
    t.nodes += r.nodes;
    t.ordering += r.ordering_nodes;
    t.secs += secs;
    if secs > t.slowest.0 {
        t.slowest = (secs, label.clone());
    }
    if !ok {
        t.bad.push(label.clone());
    }
    if json {
        out!(
            "{}",
            json!({"bench": "wthor", "game": label, "empties": pos.empties(), "theoretical_black": theory,
                   "black": black, "ok": ok, "nodes": r.nodes, "ordering_nodes": r.ordering_nodes, "time_ms": secs * 1e3})
        );
    } else {
        out!(
            "{label:<14} {:>6} {:>3} {theory:>+6} {:>6} {:>4} {:>14} {:>12} {secs:>9.3}",
            t.positions,
            pos.empties(),
            black.map_or("?".to_string(), |b| format!("{b:+}")),
            if ok { "ok" } else { "BAD" },
            r.nodes,
            r.ordering_nodes,
        );
    }
}

fn summary(t: &Totals, json: bool) {
    let rss = peak_rss_kib();
    let rate = (t.nodes + t.ordering) as f64 / t.secs.max(1e-9);
    if json {
        out!(
            "{}",
            json!({"bench": "wthor", "positions": t.positions, "mismatches": t.bad.len(), "total_nodes": t.nodes,
                   "total_ordering_nodes": t.ordering, "total_time_ms": t.secs * 1e3, "nodes_per_second": rate,
                   "slowest": t.slowest.1, "slowest_ms": t.slowest.0 * 1e3, "peak_rss_kib": rss})
        );
    } else {
        out!(
            "total: {} positions, {} disagree; {} + {} ordering nodes, {:.1} s ({:.2} s mean, slowest {} {:.1} s), {:.1} M nodes/s (search + ordering), peak RSS {:.0} MiB",
            t.positions,
            t.bad.len(),
            t.nodes,
            t.ordering,
            t.secs,
            t.secs / t.positions.max(1) as f64,
            t.slowest.1,
            t.slowest.0,
            rate / 1e6,
            rss.unwrap_or(0) as f64 / 1024.0
        );
    }
}
