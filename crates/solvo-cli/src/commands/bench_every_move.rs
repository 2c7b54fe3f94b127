//! `solvo bench every-move`: every legal move's exact value, asked of the engine the way
//! the web board and the Python package ask it (`Engine::analyze_moves`: the midgame
//! search's values, then every move solved exactly in one call), on OBF files whose
//! lines score every legal move (the Edax "hard" sets): per position and in total,
//! nodes, time and peak memory, each value checked against the file.

use crate::commands::bench_hard::read_problems;
use crate::error::CliError;
use crate::shared::peak_rss_kib;
use crate::Common;
use serde_json::json;
use solvo_engine::{Engine, EngineSettings, Level, TimeControl};
use solvo_othello::formats::transcript::Ply;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `solvo bench every-move`.
#[derive(clap::Args, Debug)]
pub struct EveryMoveArgs {
    /// OBF file: every line lists every legal move with its exact score.
    pub file: PathBuf,
    /// Engine level: it gives every move's exact value from twice its number of
    /// empties, so the level must reach the file's positions (12 reaches 24 empties).
    #[arg(long, default_value_t = 12, value_parser = crate::option_ranges::level, allow_negative_numbers = true)]
    pub level: u32,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Transposition table size in MiB (the engine's one table).
    #[arg(long, default_value_t = 64, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
    /// Only the first this many positions.
    #[arg(long, value_parser = crate::option_ranges::at_least_one, allow_negative_numbers = true)]
    pub limit: Option<usize>,
}

/// Runs `solvo bench every-move`.
pub fn run(args: EveryMoveArgs, common: Common) -> Result<(), CliError> {
    let mut problems = read_problems(&args.file, common)?;
    if let Some(n) = args.limit {
        problems.truncate(n);
    }
    let level = Level::new(args.level).ok_or_else(|| CliError(format!("--level {}: out of range", args.level)))?;
    if let Some((line, p)) = problems.iter().find(|(_, p)| p.position.empties() > level.exact_values_from()) {
        return Err(CliError(format!(
            "{} line {line}: {} empties, beyond level {}'s exact solves (from {} empties); use --level {} or more",
            args.file.display(),
            p.position.empties(),
            args.level,
            level.exact_values_from(),
            p.position.empties().div_ceil(2)
        )));
    }
    let settings =
        EngineSettings { level, time: TimeControl::None, threads: args.threads, hash_mb: args.hash_mb, eval: None };
    let mut engine = Engine::new(settings).map_err(|e| CliError(e.to_string()))?;
    let (mut nodes, mut time, mut wrong) = (0u64, Duration::ZERO, 0usize);
    for (k, (line, problem)) in problems.iter().enumerate() {
        engine.clear();
        let table = engine
            .analyze_moves(&problem.position, None, &mut |_| {})
            .map_err(|e| CliError(format!("{} line {line}: {e}", args.file.display())))?;
        // Every listed move must come back exact with the listed value.
        let mismatches: Vec<String> = problem
            .move_scores
            .iter()
            .filter_map(|&(ply, listed)| {
                let Ply::Move(sq) = ply else { return None };
                match table.value_of(sq) {
                    Some(v) if v.exact && v.score == f64::from(listed) => None,
                    Some(v) if v.exact => Some(format!("{sq} {:+} (file {listed:+})", v.score)),
                    _ => Some(format!("{sq} not solved (file {listed:+})")),
                }
            })
            .collect();
        wrong += usize::from(!mismatches.is_empty());
        nodes += table.nodes;
        time += table.time;
        if common.json {
            out!(
                "{}",
                json!({"n": k + 1, "line": line, "empties": problem.position.empties(), "moves": table.legal,
                       "ok": mismatches.is_empty(), "mismatches": mismatches, "nodes": table.nodes,
                       "seconds": table.time.as_secs_f64()})
            );
        } else {
            out!(
                "#{:<4} {:>2} empties {:>2} moves  {:>13} nodes {:8.3} s  {}",
                k + 1,
                problem.position.empties(),
                table.legal,
                table.nodes,
                table.time.as_secs_f64(),
                if mismatches.is_empty() { "ok".to_string() } else { format!("MISMATCH: {}", mismatches.join(", ")) }
            );
        }
    }
    let secs = time.as_secs_f64();
    let peak = peak_rss_kib();
    if common.json {
        out!(
            "{}",
            json!({"total": true, "file": args.file.display().to_string(), "positions": problems.len(),
                   "level": args.level, "threads": args.threads, "hash_mb": args.hash_mb, "wrong": wrong,
                   "nodes": nodes, "seconds": secs, "nodes_per_second": nodes as f64 / secs.max(1e-9),
                   "peak_rss_kib": peak})
        );
    } else {
        out!(
            "total {} positions, level {}, {} thread(s): {} nodes  {:.2} s  ({:.2} M nodes/s)  peak {} KiB  {} wrong",
            problems.len(),
            args.level,
            args.threads,
            nodes,
            secs,
            nodes as f64 / secs.max(1e-9) / 1e6,
            peak.map_or("?".to_string(), |k| k.to_string()),
            wrong
        );
    }
    if wrong > 0 {
        return Err(CliError(format!("{wrong} position(s) disagree with the values in the file")));
    }
    Ok(())
}
