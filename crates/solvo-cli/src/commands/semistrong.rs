//! `solvo solution semi-strong`: the semi-strong solution of 4x4 or 6x6 by reopening alpha-beta,
//! into a resumable store; or (`--count`) the table of unique positions plain and
//! reopening alpha-beta visit.

use crate::error::{context, CliError};
use crate::Common;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;
use solvo_othello::{BoardSize, Variant};
use solvo_solve::count::{count_visited_with, Oracle};
use solvo_solve::semistrong::{
    default_min_empties, default_store_path, layer_counts, semi_strong, SemiError, SemiOptions, SemiStats,
};
use solvo_solve::{kind, Store};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Arguments of `solvo solution semi-strong`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The store file (created if missing; a rerun resumes it). With `--count`: an
    /// existing store, only read, whose exact records give the oracle's best moves.
    #[arg(long)]
    pub store: Option<PathBuf>,
    /// Positions with this many empties or fewer are not stored (solved on demand).
    /// Default: 0 on 4x4, 14 on 6x6.
    #[arg(long)]
    pub min_empties: Option<u32>,
    /// Endgame solver threads.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Endgame transposition table in MiB.
    #[arg(long, default_value_t = 1024, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
    /// Commit a batch at least this often (milliseconds).
    #[arg(long, default_value_t = 3000, value_parser = crate::option_ranges::commit_ms, allow_negative_numbers = true)]
    pub commit_ms: u64,
    /// Instead of solving into a store, count the unique positions (per disc count,
    /// above the threshold) that plain and reopening alpha-beta visit, in memory.
    #[arg(long)]
    pub count: bool,
    /// With `--count`: a journal file (created if missing) where every oracle solve is
    /// appended and from which a rerun (after a kill, or at another threshold) starts.
    #[arg(long, requires = "count")]
    pub journal: Option<PathBuf>,
    /// With `--count`: whose rules choose the principal line, the move order and the
    /// moves at A' and C nodes: solvo's own (an oracle's best or cutting moves), or the
    /// published 6x6 experiment's (its fixed line, its move order, its stages; the
    /// paper's Table 3 is printed beside).
    #[arg(long, value_enum, default_value_t = CountRules::Solvo, requires = "count")]
    pub rules: CountRules,
    /// With `--rules published`: the table the published program's first stage wrote
    /// (`obf,disccount,nodekindcode,lowerbound,upperbound`, positions with 4-10 discs):
    /// the reopening column takes its rows 4-10 from it and starts its second stage from
    /// its 10-disc positions, as the published run did (without it the reopening first
    /// stage runs here: about 36 hours by the published note).
    #[arg(long, requires = "count")]
    pub restarts: Option<PathBuf>,
    /// With `--rules published`: run every stage program into this directory (resumable:
    /// a rerun skips the finished programs; `--threads` programs at a time) and count
    /// the union per disc count on disk, for the deep rows.
    #[arg(long, requires = "count")]
    pub layers: Option<PathBuf>,
    /// With `--layers`: stop after this many seconds (a running program halts after
    /// saving its checkpoint) and count what has finished (a rerun resumes).
    #[arg(long, requires = "layers")]
    pub for_seconds: Option<u64>,
    /// With `--rules published`: which columns to count (each is its own run; the plain
    /// column's first stage alone is one program of hours, checkpointed with `--layers`).
    #[arg(long, value_enum, default_value_t = Columns::Both, requires = "count")]
    pub columns: Columns,
}

/// Which columns of the table a published-rules count makes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Columns {
    /// Plain and reopening alpha-beta.
    Both,
    /// Plain alpha-beta only.
    Plain,
    /// Reopening alpha-beta only.
    Reopening,
}

impl Columns {
    /// Whether the reopening (`true`) or plain column is asked for.
    fn wants(self, reopening: bool) -> bool {
        match self {
            Columns::Both => true,
            Columns::Plain => !reopening,
            Columns::Reopening => reopening,
        }
    }
}

/// Whose rules a count follows.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum CountRules {
    /// solvo's: oracle moves (the default).
    Solvo,
    /// The published 6x6 experiment's.
    Published,
}

/// Runs `solvo solution semi-strong`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let size = common.size.unwrap_or(BoardSize::Four);
    if size == BoardSize::Eight {
        return Err(CliError("semi-strong: --size must be 4 or 6 (8x8 is far out of reach)".into()));
    }
    let min_empties = args.min_empties.unwrap_or_else(|| default_min_empties(size));
    if min_empties >= size.squares() - 4 {
        return Err(CliError(format!(
            "--min-empties {min_empties}: must be below {} on {size} (the start has {} empties)",
            size.squares() - 4,
            size.squares() - 4
        )));
    }
    if args.count && args.rules == CountRules::Published {
        if size != BoardSize::Six || common.variant != Variant::Normal {
            return Err(CliError(
                "--rules published: the published experiment is 6x6 under normal rules (--size 6)".into(),
            ));
        }
        if let Some(dir) = args.layers.as_deref() {
            return count_published_layers(
                &common,
                min_empties,
                args.restarts.as_deref(),
                args.columns,
                dir,
                args.threads,
                args.for_seconds,
            );
        }
        return count_published_rules(size, common, min_empties, args.restarts.as_deref(), args.columns);
    }
    if args.restarts.is_some() || args.columns != Columns::Both || args.layers.is_some() {
        return Err(CliError("--restarts, --columns and --layers: only with --rules published".into()));
    }
    if args.count {
        return count(size, common, min_empties, args.store.as_deref(), args.journal.as_deref());
    }
    let path = args.store.unwrap_or_else(|| default_store_path(size));
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(context(format!("creating {}", dir.display())))?;
    }
    let mut store = Store::open(&path, size, common.variant).map_err(|e| CliError(e.to_string()))?;
    // Resuming on a damaged store would build on records that cannot be trusted.
    store.check_integrity().map_err(|e| CliError(e.to_string()))?;
    let before = layer_counts(&store).map_err(|e| CliError(e.to_string()))?;
    let mut opts = SemiOptions::new(min_empties);
    opts.threads = args.threads.max(1);
    opts.hash_mb = args.hash_mb;
    opts.commit_every = Duration::from_millis(args.commit_ms);
    let start = Instant::now();
    let terminal = std::io::stderr().is_terminal();
    let bar = if terminal { ProgressBar::new_spinner() } else { ProgressBar::hidden() };
    bar.set_style(ProgressStyle::with_template("{spinner} [{elapsed_precise}] {msg}").expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(250));
    let stored_before: u64 = before.iter().map(|l| l.iter().sum::<u64>()).sum();
    eprintln!(
        "semi-strong {size} {}: store {} ({stored_before} records already), min empties {min_empties}",
        common.variant,
        path.display()
    );
    let nodes = opts.solver_nodes.clone();
    let last_msg = std::sync::Mutex::new(String::from("searching (first commit after the first completed subtree)"));
    let mut last_line = Instant::now();
    let mut on_commit = |s: &SemiStats| {
        let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        let msg = progress_message(s, nodes.load(Ordering::Relaxed), start.elapsed(), bytes);
        bar.set_message(msg.clone());
        if !terminal && last_line.elapsed() >= Duration::from_secs(30) {
            eprintln!("[{:.0}s] {msg}", start.elapsed().as_secs_f64());
            eprintln!(
                "[{:.0}s] subtrees done by discs (count, mean s): {}",
                start.elapsed().as_secs_f64(),
                subtree_summary(s)
            );
            eprintln!("[{:.0}s] path (discs kind child/moves): {}", start.elapsed().as_secs_f64(), path_summary(s));
            last_line = Instant::now();
        }
        *last_msg.lock().unwrap_or_else(|e| e.into_inner()) = msg;
    };
    // Between commits (long solves near the root) a ticker shows the solver's nodes.
    let done = std::sync::atomic::AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        scope.spawn(|| {
            let mut last_print = Instant::now();
            let mut printed = 0u64;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                let n = nodes.load(Ordering::Relaxed);
                let secs = start.elapsed().as_secs_f64().max(1e-3);
                let line = format!("solver {:.3e} nodes ({:.2e}/s)", n as f64, n as f64 / secs);
                if terminal {
                    let msg = last_msg.lock().unwrap_or_else(|e| e.into_inner()).clone();
                    bar.set_message(format!("{msg} | {line}"));
                } else if (printed == 0 && secs >= 1.0) || last_print.elapsed() >= Duration::from_secs(30) {
                    // A log (not a terminal): a first line after a second, then every 30 s.
                    printed += 1;
                    eprintln!("[{secs:.0}s] {line}");
                    last_print = Instant::now();
                }
            }
        });
        let r = semi_strong(&store, &opts, &mut on_commit);
        done.store(true, Ordering::Relaxed);
        r
    });
    bar.finish_and_clear();
    let outcome = match result {
        Ok(o) => o,
        Err(SemiError::Stopped) => return Err(CliError("semi-strong stopped; rerun to continue".into())),
        Err(e) => return Err(CliError(format!("semi-strong: {e}"))),
    };
    let after = layer_counts(&store).map_err(|e| CliError(e.to_string()))?;
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let secs = start.elapsed().as_secs_f64();
    let s = &outcome.stats;
    if common.json {
        out!(
            "{}",
            json!({
                "size": size.to_string(), "variant": common.variant.name(), "store": path.display().to_string(),
                "min_empties": min_empties, "value": outcome.value,
                "best_move": outcome.best_move.map(|m| m.to_string()),
                "layers": after, "layer_columns": ["P", "A'", "P'", "C", "A"],
                "new_exact": s.new_exact, "solves": s.solves, "solver_nodes": s.solver_nodes,
                "expanded": s.expanded, "reused": s.reused, "commits": s.commits,
                "solve_bounds_written": s.solve_bounds_written, "solve_bounds_used": s.solve_bounds_used,
                "subtrees": s.subtrees, "subtree_secs": s.subtree_secs,
                "seconds": secs, "store_bytes": bytes,
            })
        );
        return Ok(());
    }
    out!(
        "value {:+} for the first player, designated move {}",
        outcome.value,
        outcome.best_move.map_or("-".to_string(), |m| m.to_string())
    );
    out!("records per disc count (a position counts under every kind it was searched as):");
    out!("{:>5} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}", "discs", "P", "A'", "P'", "C", "A", "new exact");
    for (discs, l) in after.iter().enumerate() {
        if l.iter().sum::<u64>() > 0 {
            out!(
                "{discs:>5} {:>12} {:>12} {:>12} {:>12} {:>12} {:>12}",
                l[0],
                l[1],
                l[2],
                l[3],
                l[4],
                s.new_exact[discs]
            );
        }
    }
    let total: u64 = after.iter().map(|l| l.iter().sum::<u64>()).sum();
    out!(
        "store {}: {} records (kind entries {total}), {:.1} MiB; this run: {} expanded, {} reused, {} solver calls, {} solver nodes, {} commits, {:.1} s",
        path.display(),
        store.len().map_err(|e| CliError(e.to_string()))?,
        bytes as f64 / (1 << 20) as f64,
        s.expanded,
        s.reused,
        s.solves,
        s.solver_nodes,
        s.commits,
        secs
    );
    out!("subtrees finished this run by discs (count@mean seconds): {}", subtree_summary(s));
    Ok(())
}

/// One progress line of this run (the bar or the log line shows the elapsed time): exact positions and bounds written per
/// disc count (`discs:exact/bounds`), their rate, solver nodes and rate, commits and
/// the store file's size.
fn progress_message(s: &SemiStats, nodes: u64, elapsed: Duration, store_bytes: u64) -> String {
    let layers: Vec<String> = s
        .new_exact
        .iter()
        .zip(&s.bounds)
        .enumerate()
        .filter(|(_, (e, b))| **e + **b > 0)
        .map(|(d, (e, b))| format!("{d}:{e}/{b}"))
        .collect();
    let written: u64 = s.new_exact.iter().sum();
    let bounds: u64 = s.bounds.iter().sum();
    let secs = elapsed.as_secs_f64().max(1e-3);
    format!(
        "{written} new exact + {bounds} bounds ({:.2} records/s) by discs exact/bounds [{}] | {:.3e} nodes ({:.2e}/s) | solver bounds kept {} (used {}) | {} commits | store {:.1} MiB",
        (written + bounds) as f64 / secs,
        layers.join(" "),
        nodes as f64,
        nodes as f64 / secs,
        s.solve_bounds_written,
        s.solve_bounds_used,
        s.commits,
        store_bytes as f64 / (1 << 20) as f64
    )
}

/// Expanded nodes finished in this run per disc count and kind, with the mean wall
/// time of their searches: `discs:P count@seconds,A' ...,P' ...` (kinds with none left
/// out).
fn subtree_summary(s: &SemiStats) -> String {
    let mut parts = Vec::new();
    for (d, (n, t)) in s.subtrees.iter().zip(&s.subtree_secs).enumerate() {
        let kinds: Vec<String> = ["P", "A'", "P'"]
            .iter()
            .enumerate()
            .filter(|(i, _)| n[*i] > 0)
            .map(|(i, name)| format!("{name} {}@{:.3}", n[i], t[i] / n[i] as f64))
            .collect();
        if !kinds.is_empty() {
            parts.push(format!("{d}:{}", kinds.join(",")));
        }
    }
    parts.join(" ")
}

/// Where the depth-first walk is: per node on the path, discs, kind and child `i/n`.
fn path_summary(s: &SemiStats) -> String {
    let steps: Vec<String> =
        s.path.iter().map(|p| format!("{}{}:{}/{}", p.discs, kind::names(p.kind), p.child, p.children)).collect();
    steps.join(" ")
}

/// `--count`: the visited-positions table.
fn count(
    size: BoardSize,
    common: Common,
    min_empties: u32,
    store: Option<&std::path::Path>,
    journal: Option<&std::path::Path>,
) -> Result<(), CliError> {
    let mut oracle = Oracle::default();
    let mut seeded = 0;
    if let Some(path) = store {
        seed_oracle(&mut oracle, path, size, common.variant)?;
        seeded = oracle.len();
        if !common.json {
            out!("oracle: {} exact values and best moves from the records of {}", oracle.len(), path.display());
        }
    }
    if let Some(path) = journal {
        let n = oracle.attach_journal(path, size, common.variant).map_err(CliError)?;
        if !common.json {
            out!("oracle: {n} facts from the journal {} (new solves are appended to it)", path.display());
        }
    }
    let quiet = common.json;
    let report = |what: &str, start: Instant| {
        let what = what.to_string();
        move |visited: u64, solves: u64| {
            if !quiet {
                eprintln!(
                    "  {what}: {visited} positions visited, {solves} oracle solves (best or cutting moves), {:.0} s",
                    start.elapsed().as_secs_f64()
                );
            }
        }
    };
    let t = Instant::now();
    let (plain, v1) =
        count_visited_with(size, common.variant, min_empties, false, &mut oracle, &mut report("plain", t));
    let t_plain = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let (reop, v2) =
        count_visited_with(size, common.variant, min_empties, true, &mut oracle, &mut report("reopening", t));
    let t_reop = t.elapsed().as_secs_f64();
    if v1 != v2 {
        return Err(CliError(format!("internal error: plain value {v1} != reopening value {v2}")));
    }
    if let Some(e) = &oracle.journal_error {
        eprintln!("warning: the journal stopped being written ({e}); the counts below are complete");
    }
    if common.json {
        out!(
            "{}",
            json!({"size": size.to_string(), "min_empties": min_empties, "value": v1,
                   "plain": plain, "reopening": reop, "plain_seconds": t_plain, "reopening_seconds": t_reop,
                   "oracle_solves": oracle.solves, "cut_solves": oracle.cut_solves,
                   "leaf_solves": oracle.leaf_solves, "oracle_seeded": seeded})
        );
        return Ok(());
    }
    out!(
        "{size}: value {v1:+}; unique positions visited with more than {min_empties} empties (oracle ordering: {} exact solves for best moves, {} null-window solves for cutting moves, {} solves at the threshold)",
        oracle.solves,
        oracle.cut_solves,
        oracle.leaf_solves
    );
    out!("{:>5} {:>14} {:>14}", "discs", "plain a-b", "reopening a-b");
    for d in 0..plain.len() {
        if plain[d] + reop[d] > 0 {
            out!("{d:>5} {:>14} {:>14}", plain[d], reop[d]);
        }
    }
    out!(
        "{:>5} {:>14} {:>14}   ({t_plain:.1} s / {t_reop:.1} s)",
        "total",
        plain.iter().sum::<u64>(),
        reop.iter().sum::<u64>()
    );
    Ok(())
}

/// The published first-stage table given with `--restarts` (rows with 4..=10 discs).
fn read_restarts(path: &std::path::Path) -> Result<Vec<solvo_solve::count::published::Restart>, CliError> {
    use solvo_solve::count::published::read_published_table;
    let text = std::fs::read_to_string(path).map_err(context(format!("--restarts {}", path.display())))?;
    let mut rows = Vec::new();
    for d in 4..=10 {
        rows.extend(
            read_published_table(&text, d).map_err(|e| CliError(format!("--restarts {}: {e}", path.display())))?,
        );
    }
    if !rows.iter().any(|r| (r.board.player | r.board.opponent).count_ones() == 10) {
        return Err(CliError(format!("--restarts {}: no position with 10 discs", path.display())));
    }
    Ok(rows)
}

/// `--count --rules published --layers DIR`: the columns stage by stage on disk.
fn count_published_layers(
    common: &Common,
    min_empties: u32,
    restarts: Option<&std::path::Path>,
    which: Columns,
    dir: &std::path::Path,
    threads: usize,
    for_seconds: Option<u64>,
) -> Result<(), CliError> {
    use solvo_solve::count::published::PAPER_TABLE3;
    use solvo_solve::count::{count_published_on_disk, DiskRun};
    let max_discs = 35 - min_empties;
    let table = match restarts {
        Some(p) => read_restarts(p)?,
        None => Vec::new(),
    };
    static STOP: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);
    if let Some(secs) = for_seconds {
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(secs));
            STOP.store(true, Ordering::Relaxed);
        });
    }
    let stop = &STOP;
    for reopening in [false, true] {
        if !which.wants(reopening) {
            continue;
        }
        let what = if reopening { "reopening" } else { "plain" };
        let t = Instant::now();
        let last = std::sync::Mutex::new(Instant::now());
        let quiet = common.json;
        let progress = |stage: usize, done: usize, total: usize| {
            let mut l = last.lock().expect("progress clock");
            if !quiet && (done == total || l.elapsed() >= Duration::from_secs(30)) {
                *l = Instant::now();
                eprintln!("  {what}: stage {stage} program {done}/{total}, {:.0} s", t.elapsed().as_secs_f64());
            }
        };
        let snapshot = |program: &std::path::Path, s: solvo_solve::count::Snapshot| {
            if !quiet {
                eprintln!(
                    "  {what}: {} snapshot: {} answers, value table {} positions, {} positions visited, {:.0} s",
                    program.display(),
                    s.answers,
                    s.value_table,
                    s.visited,
                    t.elapsed().as_secs_f64()
                );
            }
        };
        let run = DiskRun { dir, threads: threads.max(1), memory_boards: 1 << 26, stop, snapshots: Some(&snapshot) };
        let r = count_published_on_disk(&run, reopening, max_discs, &table, &progress)
            .map_err(|e| CliError(format!("--layers {}: {e}", dir.display())))?;
        let paper =
            |d: u32| PAPER_TABLE3.get((d as usize).wrapping_sub(4)).map(|&(p, q)| if reopening { q } else { p });
        if common.json {
            let rows: Vec<_> = r
                .rows
                .iter()
                .map(|(c, complete)| {
                    json!({"discs": c.discs, "unique": c.unique, "paper": paper(c.discs),
                                           "complete": complete, "record_bytes": c.bytes})
                })
                .collect();
            let stages: Vec<_> =
                r.stages.iter().map(|s| json!({"done": s.done, "total": s.total, "seconds": s.seconds})).collect();
            out!(
                "{}",
                json!({"rules": "published", "column": what, "max_discs": max_discs, "rows": rows, "stages": stages})
            );
            continue;
        }
        out!(
            "{what}: stages {:?} (programs done/total, seconds)",
            r.stages.iter().map(|s| (s.done, s.total, s.seconds.round())).collect::<Vec<_>>()
        );
        out!("{:>5} {:>14} {:>14} {:>10} {:>14}", "discs", what, "paper", "", "record bytes");
        for (c, complete) in &r.rows {
            let mark = match (complete, paper(c.discs)) {
                (false, _) => "partial",
                (true, Some(p)) if p == c.unique => "equal",
                (true, Some(_)) => "different",
                _ => "",
            };
            let show = paper(c.discs).map_or("-".to_string(), |p| p.to_string());
            out!("{:>5} {:>14} {:>14} {:>10} {:>14}", c.discs, c.unique, show, mark, c.bytes);
        }
    }
    Ok(())
}

/// `--count --rules published`: both columns of the paper's Table 3 under the published
/// program's rules, beside the paper's numbers.
fn count_published_rules(
    size: BoardSize,
    common: Common,
    min_empties: u32,
    restarts: Option<&std::path::Path>,
    which: Columns,
) -> Result<(), CliError> {
    use solvo_solve::count::published::{count_published, PAPER_TABLE3};
    let max_discs = 35 - min_empties;
    let given = match restarts {
        None => None,
        Some(path) => Some(read_restarts(path)?),
    };
    let quiet = common.json;
    let mut columns = Vec::new();
    for reopening in [false, true] {
        if !which.wants(reopening) {
            columns.push(None);
            continue;
        }
        let t = Instant::now();
        let what = if reopening { "reopening" } else { "plain" };
        let mut last = Instant::now();
        let r = count_published(reopening, max_discs, given.as_deref().unwrap_or(&[]), &mut |stage, i, n| {
            if !quiet && (i == n || last.elapsed() >= Duration::from_secs(10)) {
                last = Instant::now();
                eprintln!("  {what}: stage {} program {i}/{n}, {:.0} s", stage + 1, t.elapsed().as_secs_f64());
            }
        });
        columns.push(Some((r, t.elapsed().as_secs_f64())));
    }
    let empty = (Default::default(), 0.0);
    let (plain, t_plain) = columns[0].as_ref().unwrap_or(&empty);
    let (reop, t_reop) = columns[1].as_ref().unwrap_or(&empty);
    let value = if columns[0].is_some() { plain.value } else { reop.value };
    if columns.iter().all(Option::is_some) && plain.value != reop.value {
        return Err(CliError(format!("internal error: plain value {} != reopening value {}", plain.value, reop.value)));
    }
    let has_plain = columns[0].is_some();
    let has_reop = columns[1].is_some();
    let cell = |c: &solvo_solve::count::published::PublishedCounts, on: bool, d: usize| {
        if on {
            c.counts.get(d).copied()
        } else {
            None
        }
    };
    let paper =
        |d: usize, reopening: bool| PAPER_TABLE3.get(d.wrapping_sub(4)).map(|&(p, r)| if reopening { r } else { p });
    if common.json {
        let rows: Vec<_> = (4..=max_discs as usize)
            .map(|d| {
                json!({"discs": d, "plain": cell(plain, has_plain, d), "paper_plain": paper(d, false),
                       "reopening": cell(reop, has_reop, d), "paper_reopening": paper(d, true)})
            })
            .collect();
        out!(
            "{}",
            json!({"rules": "published", "size": size.to_string(), "max_discs": max_discs, "value": value,
                   "rows": rows, "plain_seconds": has_plain.then_some(*t_plain),
                   "reopening_seconds": has_reop.then_some(*t_reop),
                   "plain_stage_programs": plain.contexts, "reopening_stage_programs": reop.contexts,
                   "restarts_from": restarts.map(|p| p.display().to_string())})
        );
        return Ok(());
    }
    out!(
        "{size}: value {value:+}; unique positions with at most {max_discs} discs under the published rules (stage programs: plain {:?}, reopening {:?}{})",
        plain.contexts,
        reop.contexts,
        if restarts.is_some() {
            "; reopening: rows 4-10 and the second stage's starts from --restarts"
        } else {
            ""
        }
    );
    out!("{:>5} {:>12} {:>12} {:>9}   {:>14} {:>14} {:>9}", "discs", "plain", "paper", "", "reopening", "paper", "");
    let show = |x: Option<u64>| x.map_or("-".to_string(), |x| x.to_string());
    let mark = |a: Option<u64>, b: Option<u64>| match (a, b) {
        (Some(a), Some(b)) if a == b => "equal",
        (Some(_), Some(_)) => "different",
        _ => "",
    };
    for d in 4..=max_discs as usize {
        let (p, r) = (cell(plain, has_plain, d), cell(reop, has_reop, d));
        let (pp, pr) = (paper(d, false), paper(d, true));
        out!(
            "{d:>5} {:>12} {:>12} {:>9}   {:>14} {:>14} {:>9}",
            show(p),
            show(pp),
            mark(p, pp),
            show(r),
            show(pr),
            mark(r, pr)
        );
    }
    out!(
        "total {:>12} {:>12} {:>9}   {:>14}   ({t_plain:.1} s / {t_reop:.1} s)",
        plain.counts.iter().sum::<u64>(),
        "",
        "",
        reop.counts.iter().sum::<u64>()
    );
    Ok(())
}

/// Seeds `oracle` with the values and designated moves of the exact records of the
/// store at `path` and the bounds (and proving moves) of its other records (the store
/// must exist and be of this board size and variant).
fn seed_oracle(oracle: &mut Oracle, path: &std::path::Path, size: BoardSize, variant: Variant) -> Result<(), CliError> {
    if !path.is_file() {
        return Err(CliError(format!("--store {}: no such store (with --count it is only read)", path.display())));
    }
    let store = Store::open_existing(path).map_err(|e| CliError(e.to_string()))?;
    if store.size() != size || store.variant() != variant {
        return Err(CliError(format!(
            "--store {}: a {} {:?} store, not {size} {variant:?}",
            path.display(),
            store.size(),
            store.variant()
        )));
    }
    oracle.seed_from(&store).map_err(|e| CliError(e.to_string()))
}
