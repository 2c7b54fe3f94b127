//! `solvo bench`: benchmarks that print figures (never pass/fail).

use crate::error::CliError;
use crate::shared::peak_rss_kib;
use crate::shared::timed_perft;
use crate::Common;
use serde_json::json;
use solvo_othello::perft::PerftMode;
use solvo_othello::{Board, BoardSize};

/// Arguments of `solvo bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

/// The benchmarks.
#[derive(clap::Subcommand, Debug)]
pub enum What {
    /// perft from the 8x8 start at each depth on each thread count: time and leaves/s.
    Perft {
        /// Depths to run.
        #[arg(long, value_delimiter = ',', default_value = "11,12")]
        depths: Vec<u32>,
        /// Thread counts to run.
        #[arg(long, value_delimiter = ',', default_value = "1,2", value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
        threads: Vec<usize>,
        /// Repetitions of each run (the best time is reported).
        #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::repetitions, allow_negative_numbers = true)]
        repeat: usize,
    },
    /// Solve every position of OBF files (e.g. FFO #40-#59): one row per position, then
    /// totals (time, nodes, nodes/s) and peak memory. Exits with an error if a score or
    /// best move disagrees with the file.
    Ffo {
        /// OBF files.
        #[arg(required = true)]
        files: Vec<std::path::PathBuf>,
        /// Search threads.
        #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
        threads: usize,
        /// Transposition table size in MiB (128: the size `solve` gives a position of
        /// 22 or more empties, which the ladder's climb shares; larger tables are slower
        /// per node and save few nodes, see `table_mib_for`).
        #[arg(long, default_value_t = 128, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
        hash_mb: usize,
        /// Only positions numbered from this one (1-based over all files).
        #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::at_least_one, allow_negative_numbers = true)]
        first: usize,
        /// Only positions up to this one.
        #[arg(long, value_parser = crate::option_ranges::at_least_one, allow_negative_numbers = true)]
        last: Option<usize>,
        /// Transposition-table replacement scheme: cost (default), depth or always.
        #[arg(long, default_value = "cost")]
        replacement: solvo_othello_search::Replacement,
        /// Number of the first position of the first file (e.g. 40 for fforum-40-59.obf),
        /// for the printed labels.
        #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::at_least_one, allow_negative_numbers = true)]
        label_from: usize,
        /// Search switches, `name=value` (repeatable), as for `solvo solve --tune`.
        #[arg(long, value_parser = crate::shared::parse_tune)]
        tune: Vec<(String, u32)>,
        /// Monte Carlo move ordering playouts before each solve (0: off), as for
        /// `solvo solve --mc-playouts`; their time counts in the position's time.
        #[arg(long, default_value_t = 0, value_parser = crate::option_ranges::playouts, allow_negative_numbers = true)]
        mc_playouts: u32,
        /// Weight file whose evaluation orders the moves (default: the embedded one).
        #[arg(long)]
        eval_file: Option<std::path::PathBuf>,
        /// The selective ladder.
        #[command(flatten)]
        ladder: crate::shared::LadderArgs,
    },
    /// Moved to the lab: `solvo-lab bench games`.
    #[command(hide = true, disable_help_flag = true)]
    Games(crate::commands::moved::Args),
    /// Solve WTHOR games at the depth of their theoretical score and check it (one row
    /// per position, totals); exits with an error if any score disagrees.
    Wthor(crate::commands::bench_wthor::WthorArgs),
    /// Static evaluations per second (positions of random games).
    Eval(crate::commands::bench_eval::EvalArgs),
    /// Exact solves of positions from seeded random games (either variant): rows, totals.
    Random(crate::commands::bench_random::RandomArgs),
    /// Midgame search move quality on fully scored OBF files: best_rate, mean_loss, mae.
    Hard(crate::commands::bench_hard::HardArgs),
    /// Every legal move's exact value through the engine (as the web board asks) on
    /// fully scored OBF files: nodes, time and peak memory, each value checked.
    EveryMove(crate::commands::bench_every_move::EveryMoveArgs),
}

/// Runs `solvo bench`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    match args.what {
        What::Games(a) => a.moved("bench games", common),
        What::Wthor(a) => crate::commands::bench_wthor::run(a, common),
        What::Eval(a) => crate::commands::bench_eval::run(a, common),
        What::Random(a) => crate::commands::bench_random::run(a, common),
        What::Hard(a) => crate::commands::bench_hard::run(a, common),
        What::EveryMove(a) => crate::commands::bench_every_move::run(a, common),
        What::Ffo {
            files,
            threads,
            hash_mb,
            first,
            last,
            replacement,
            label_from,
            tune,
            mc_playouts,
            eval_file,
            ladder,
        } => {
            let range = (first, last.unwrap_or(usize::MAX));
            let table = solvo_othello_search::SearchTable::try_with_replacement(hash_mb << 20, replacement)?;
            let mut opts = solvo_othello_search::SolveOptions::with_table(std::sync::Arc::new(table));
            opts.threads = threads;
            crate::shared::apply_tune(&mut opts, &tune)?;
            opts.mc_playouts = mc_playouts;
            opts.eval = crate::shared::ordering_eval(eval_file.as_deref(), common)?;
            opts.ladder = std::sync::Arc::new(ladder.ladder(threads, eval_file.as_deref(), common)?);
            bench_ffo(&files, opts, hash_mb, range, label_from, common)
        }
        What::Perft { depths, threads, repeat } => {
            let size = common.size.unwrap_or(BoardSize::Eight);
            if !common.json {
                out!("perft from the {size} start, mode pass-ply-end-counted, best of {repeat}");
                out!("{:>5} {:>7} {:>16} {:>10} {:>14}", "depth", "threads", "leaves", "seconds", "M leaves/s");
            }
            for &depth in &depths {
                for &t in &threads {
                    let best = (0..repeat.max(1))
                        .map(|_| timed_perft(Board::start(), size, depth, PerftMode::PassPlyEndCounted, t.max(1)))
                        .min_by(|a, b| a.seconds.total_cmp(&b.seconds))
                        .expect("at least one repetition");
                    let rate = best.leaves as f64 / best.seconds.max(1e-9);
                    if common.json {
                        out!(
                            "{}",
                            json!({"bench": "perft", "size": size.side(), "depth": depth, "threads": t,
                                   "leaves": best.leaves, "time_ms": best.seconds * 1e3, "leaves_per_second": rate})
                        );
                    } else {
                        out!("{depth:>5} {t:>7} {:>16} {:>10.3} {:>14.1}", best.leaves, best.seconds, rate / 1e6);
                    }
                }
            }
            let rss = peak_rss_kib();
            if common.json {
                out!("{}", json!({"bench": "perft", "peak_rss_kib": rss}));
            } else if let Some(kib) = rss {
                out!("peak RSS: {:.1} MiB", kib as f64 / 1024.0);
            }
            Ok(())
        }
    }
}

fn bench_ffo(
    files: &[std::path::PathBuf],
    opts: solvo_othello_search::SolveOptions,
    hash_mb: usize,
    (first, last): (usize, usize),
    label_from: usize,
    common: Common,
) -> Result<(), CliError> {
    use crate::error::context;
    use crate::shared::solve_with_progress;
    let mut problems = Vec::new();
    for f in files {
        let text = crate::input_file::read_text(f)?;
        let parsed =
            solvo_othello::formats::obf::parse_obf(&text, common.size, common.variant).map_err(context(f.display()))?;
        problems.extend(parsed.into_iter().map(|(_, p)| p));
    }
    let threads = opts.threads;
    let count = problems.len();
    let last = last.min(count);
    if count == 0 {
        return Err(CliError("no positions in the given files (an OBF file has one problem per line)".into()));
    }
    if first > last {
        return Err(CliError(format!(
            "--first {first} --last {last}: no position selected (the files hold positions 1 to {count}; --first must not exceed --last)"
        )));
    }
    if !common.json {
        out!(
            "solve {} of {count} positions ({first} to {last}), {threads} thread(s), {hash_mb} MiB table (cleared between positions)",
            last - first + 1
        );
        out!(
            "{:>4} {:>3} {:>6} {:>5} {:>4} {:>14} {:>12} {:>9} {:>8} {:>8}",
            "#",
            "emp",
            "score",
            "move",
            "ok",
            "nodes",
            "+ordering",
            "seconds",
            "Mn/s",
            "all Mn/s"
        );
        out!("     (nodes: the search tree; +ordering: positions of the move-ordering searches; all = both, as Edax counts)");
    }
    let (mut nodes, mut ordering, mut secs, mut bad, mut unchecked) = (0u64, 0u64, 0f64, 0, 0);
    for (i, p) in problems.iter().enumerate() {
        let k = i + 1;
        if k < first || k > last {
            continue;
        }
        opts.tt.clear();
        let r = solve_with_progress(&p.position, &opts, common.json);
        let t = r.time.as_secs_f64();
        nodes += r.nodes;
        ordering += r.ordering_nodes;
        secs += t;
        // `None`: the line lists no score, so there is nothing to check the solve against.
        let ok = p.check(r.score(), r.best_move).map(|(s, m)| s && m);
        bad += usize::from(ok == Some(false));
        unchecked += usize::from(ok.is_none());
        let label = (k - 1).saturating_add(label_from);
        if common.json {
            out!(
                "{}",
                json!({"bench": "ffo", "position": label, "empties": p.position.empties(), "score": r.score(),
                       "best_move": r.best_move.map(|m| m.to_string()), "ok": ok, "nodes": r.nodes,
                       "ordering_nodes": r.ordering_nodes, "time_ms": t * 1e3, "nodes_per_second": r.nodes as f64 / t.max(1e-9)})
            );
        } else {
            out!(
                "{label:>4} {:>3} {:>6} {:>5} {:>4} {:>14} {:>12} {:>9.3} {:>8.1} {:>8.1}",
                p.position.empties(),
                r.score().map_or("?".to_string(), |s| format!("{s:+}")),
                r.best_move.map_or("--".to_string(), |m| m.to_string()),
                match ok {
                    Some(true) => "ok",
                    Some(false) => "BAD",
                    None => "-",
                },
                r.nodes,
                r.ordering_nodes,
                t,
                r.nodes as f64 / t.max(1e-9) / 1e6,
                (r.nodes + r.ordering_nodes) as f64 / t.max(1e-9) / 1e6
            );
        }
    }
    let rss = peak_rss_kib();
    if common.json {
        out!(
            "{}",
            json!({"bench": "ffo", "total_nodes": nodes, "total_ordering_nodes": ordering, "total_time_ms": secs * 1e3,
                          "nodes_per_second": nodes as f64 / secs.max(1e-9), "peak_rss_kib": rss, "mismatches": bad,
                          "unchecked": unchecked})
        );
    } else {
        if unchecked > 0 {
            out!(
                "{unchecked} of {} position(s) list no score in the file: nothing to check them against (ok: -)",
                last - first + 1
            );
        }
        out!(
            "total: {nodes} nodes + {ordering} ordering nodes, {secs:.3} s, {:.1} M nodes/s ({:.1} M/s all), peak RSS {:.0} MiB",
            nodes as f64 / secs.max(1e-9) / 1e6,
            (nodes + ordering) as f64 / secs.max(1e-9) / 1e6,
            rss.unwrap_or(0) as f64 / 1024.0
        );
    }
    if bad > 0 {
        return Err(CliError(format!("{bad} position(s) disagree with the file")));
    }
    Ok(())
}
