//! `solvo-lab pipeline published`: what can be reproduced of the published 8x8 run on this
//! machine. Thin: every figure is a library call
//! (`solvo_lab::published`, `solvo_lab::reproduce`); this file parses options,
//! sequences the sections and prints.

use crate::error::CliError;
use crate::shared::{options, table_mib_for, LadderArgs};
use crate::Common;
use serde_json::{json, Value};
use solvo_lab::published::{compare_estimates, invariant_holds, parse_task_list};
use solvo_lab::reproduce::{self, SolveCost, PUBLISHED_LEAVES, PUBLISHED_NODES};
use solvo_othello::{Board, BoardSize};
use solvo_othello_search::Window;
use solvo_pipeline::estimate::Estimator;
use solvo_pipeline::select::wthor_frequency_in_years;
use std::collections::HashMap;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The two kinds of leaves solved: estimated near the windows' centre, and the rest.
const STRATA: [&str; 2] = ["near", "far"];

/// Options of `solvo pipeline published`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The published task list (`obf,count,score,alpha,beta`), e.g.
    /// ../shared/data/takizawa/empty50_tasklist_edax_knowledge.csv.
    #[arg(long)]
    pub tasks: PathBuf,
    /// WTHOR game files (`.wtb`) for the selection's tie-break.
    #[arg(long)]
    pub wthor: Option<PathBuf>,
    /// WTHOR years counted, `FIRST-LAST` (the published run: 2001-2020) or `all`.
    #[arg(long, default_value = "2001-2020", value_parser = parse_years)]
    pub wthor_years: Years,
    /// Estimate depths compared with the published Edax scores (comma-separated; empty:
    /// none).
    #[arg(long, value_delimiter = ',', default_value = "0,2", value_parser = crate::option_ranges::estimate_depth, allow_negative_numbers = true)]
    pub compare_depths: Vec<u32>,
    /// Run our selection from the start over every 50-empty position estimated at this
    /// depth, and count the published tasks it also chooses (omitted: skipped).
    #[arg(long, value_parser = crate::option_ranges::estimate_depth, allow_negative_numbers = true)]
    pub select_depth: Option<u32>,
    /// Published tasks expanded (a deterministic sample drawn with --seed; 0: none).
    #[arg(long, default_value_t = 0, value_parser = crate::option_ranges::task_sample, allow_negative_numbers = true)]
    pub sample: usize,
    /// Seed of the task and leaf samples.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    pub seed: u64,
    /// The expansion's leaf depth (published: 36).
    #[arg(long, default_value_t = 36, value_parser = crate::option_ranges::empties, allow_negative_numbers = true)]
    pub leaf_empties: u32,
    /// Search depth of the estimates ordering the expansion (the pipeline's default 2).
    #[arg(long, default_value_t = 2, value_parser = crate::option_ranges::estimate_depth, allow_negative_numbers = true)]
    pub expand_depth: u32,
    /// Seconds each task's expansions may take: cuts 2 plies apart go deeper while the
    /// growth so far says the next one fits; the rest is extrapolated.
    #[arg(long, default_value_t = 60.0, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true)]
    pub expand_seconds: f64,
    /// Stop deepening a task's expansion once a cut lists more leaves than this.
    #[arg(long, default_value_t = 3_000_000, value_parser = crate::option_ranges::at_least_one, allow_negative_numbers = true)]
    pub max_leaves: usize,
    /// Empties at which sampled leaves are solved (each leaf of the deepest cut played down
    /// along the evaluation's best moves; comma-separated; empty: no solves).
    #[arg(long, value_delimiter = ',', value_parser = crate::option_ranges::empties, allow_negative_numbers = true)]
    pub solve_empties: Vec<u32>,
    /// Leaves estimated within this many discs of 0 are solved apart from the others (the
    /// costly kind); the projection weighs each kind's mean cost by its share of the leaves.
    #[arg(long, default_value_t = 10, value_parser = crate::option_ranges::score, allow_negative_numbers = true)]
    pub near: i32,
    /// Leaves solved per number of empties and kind (each at both windows).
    #[arg(long, default_value_t = 5, value_parser = crate::option_ranges::at_least_one)]
    pub per_empties: usize,
    /// Cap of each solve, nodes (a capped solve's cost is a lower bound).
    #[arg(long, value_parser = crate::option_ranges::nodes, allow_negative_numbers = true)]
    pub node_limit: Option<u64>,
    /// Cap of each solve, seconds.
    #[arg(long, default_value_t = 600.0, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true)]
    pub time_limit: f64,
    /// Solver table, MiB (default: sized by the empties, as `solvo solve` does).
    #[arg(long, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: Option<usize>,
    /// Worker counts the projection spreads over.
    #[arg(long, value_delimiter = ',', default_value = "1,100,10000", value_parser = crate::option_ranges::workers, allow_negative_numbers = true)]
    pub workers: Vec<u64>,
    /// Leaves per claimed job in the spread (the queue's --batch-leaves; 1: a job per leaf).
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::batch_leaves, allow_negative_numbers = true)]
    pub batch: u64,
    /// Threads for the estimates (the solves use 1).
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// The selective ladder of the solves, as `solvo solve` uses it.
    #[command(flatten)]
    pub ladder: LadderArgs,
}

/// WTHOR years: `None` = every file.
#[derive(Clone, Copy, Debug)]
pub struct Years(pub Option<(u32, u32)>);

impl std::fmt::Display for Years {
    /// `2001-2020`, or `all years`, as the option is written.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.0 {
            Some((a, b)) => write!(f, "{a}-{b}"),
            None => f.write_str("all years"),
        }
    }
}

fn parse_years(s: &str) -> Result<Years, String> {
    if s.eq_ignore_ascii_case("all") {
        return Ok(Years(None));
    }
    let (a, b) = s.split_once('-').ok_or_else(|| format!("years {s:?}: expected FIRST-LAST or all"))?;
    let year = |t: &str| t.trim().parse::<u32>().map_err(|_| format!("years {s:?}: {t:?} is not a year"));
    let (a, b) = (year(a)?, year(b)?);
    if a > b {
        return Err(format!("years {s:?}: the first year is after the last"));
    }
    Ok(Years(Some((a, b))))
}

/// Prints a text line, or collects the JSON fields when `--json`.
struct Report {
    json: bool,
    fields: serde_json::Map<String, Value>,
}

impl Report {
    fn line(&self, text: String) {
        if !self.json {
            out!("{text}");
        }
    }

    fn set(&mut self, key: &str, v: Value) {
        self.fields.insert(key.into(), v);
    }
}

fn secs(ms: u64) -> f64 {
    ms as f64 / 1000.0
}

/// Runs `solvo pipeline published`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads)
        .build()
        .map_err(|e| CliError(format!("pipeline published: threads: {e}")))?;
    pool.install(|| report(&args, common))
}

fn report(args: &Args, common: Common) -> Result<(), CliError> {
    let named = |e: &dyn std::fmt::Display| CliError(format!("{}: {e}", args.tasks.display()));
    let text = std::fs::read_to_string(&args.tasks).map_err(|e| named(&e))?;
    let tasks = parse_task_list(&text).map_err(|e| named(&e))?;
    if tasks.is_empty() {
        return Err(named(&"no task in the list"));
    }
    let mut r = Report { json: common.json, fields: serde_json::Map::new() };

    // 1. Algorithm 1's invariant.
    let t = Instant::now();
    let (ge, le, nodes) = invariant_holds(&tasks);
    r.line(format!(
        "invariant: the {} hypotheses, if proven, prove start >= 0: {ge}, <= 0: {le} => draw: {} ({nodes} proof positions, {:.1} s)",
        tasks.len(),
        ge && le,
        t.elapsed().as_secs_f64()
    ));
    r.set("invariant", json!({"tasks": tasks.len(), "ge0": ge, "le0": le, "proof_positions": nodes}));

    // 2. Our estimates against the published Edax scores.
    let mut compared = Vec::new();
    for &depth in &args.compare_depths {
        let t = Instant::now();
        let c = compare_estimates(&tasks, &Estimator::new(BoardSize::Eight, depth));
        let s = t.elapsed().as_secs_f64();
        r.line(format!(
            "E depth {depth} vs published Edax scores: {} positions, mean |diff| {:.2} discs, correlation {:.3}, same side of the window {} ({:.1}%), {:.1} s ({:.2} ms/position)",
            c.positions,
            c.mean_abs_diff,
            c.correlation,
            c.same_side,
            100.0 * c.same_side as f64 / c.positions as f64,
            s,
            1e3 * s / c.positions as f64
        ));
        compared.push(json!({"depth": depth, "positions": c.positions, "mean_abs_diff": c.mean_abs_diff,
                             "correlation": c.correlation, "same_side": c.same_side, "seconds": s}));
    }
    r.set("estimates", json!(compared));

    // 3. Our selection against theirs.
    if let Some(depth) = args.select_depth {
        let frequency = match &args.wthor {
            Some(dir) => {
                let f = wthor_frequency_in_years(dir, 50, 60, args.wthor_years.0)
                    .map_err(|e| CliError(format!("--wthor {e}")))?;
                for problem in &f.problems {
                    eprintln!("warning: {problem}");
                }
                r.line(format!(
                    "WTHOR tie-break: {} games ({}), {} positions with 50-60 empties",
                    f.games,
                    args.wthor_years,
                    f.counts.len()
                ));
                f.counts
            }
            None => HashMap::new(),
        };
        let est = Estimator::new(BoardSize::Eight, depth);
        let sel = reproduce::select_tasks(BoardSize::Eight, &Board::start(), 50, &est, &frequency, Some(0))
            .map_err(|e| CliError(format!("pipeline published: selection: {e}")))?;
        let o = reproduce::overlap(&sel.tasks, &tasks);
        let kinds = |lo: i32, hi: i32| sel.tasks.iter().filter(|(_, g)| g.lo == lo && g.hi == hi).count();
        r.line(format!(
            "our selection (E depth {depth}, hypothesis {}): {} positions at 50 empties (enumerated {:.1} s, estimated {:.1} s, selected {:.1} s); {} tasks ({} >= 0, {} <= 0, {} exact); published {}: {} in both ({:.1}% of theirs), {} with the same goal",
            sel.hypothesis,
            sel.positions,
            secs(sel.millis[0]),
            secs(sel.millis[1]),
            secs(sel.millis[2]),
            o.ours,
            kinds(0, 64),
            kinds(-64, 0),
            kinds(0, 0),
            o.theirs,
            o.common,
            100.0 * o.common as f64 / o.theirs as f64,
            o.same_goal
        ));
        r.set(
            "selection",
            json!({"estimate_depth": depth, "positions": sel.positions, "hypothesis": sel.hypothesis,
                   "ours": o.ours, "theirs": o.theirs, "common": o.common, "same_goal": o.same_goal,
                   "millis": sel.millis, "wthor_games_counted": args.wthor.is_some()}),
        );
    }

    // 4. Expansion sample.
    let mut leaves_per_task = None;
    let mut leaf_pool: Vec<Board> = Vec::new();
    if args.sample > 0 {
        let est = Estimator::new(BoardSize::Eight, args.expand_depth);
        let mut per_task = Vec::new();
        let mut rows = Vec::new();
        for i in reproduce::sample_indices(tasks.len(), args.sample, args.seed) {
            let task = &tasks[i];
            let goal = reproduce::published_goal(task);
            let x = reproduce::expand_progressively(
                &task.board,
                goal,
                50,
                args.leaf_empties,
                &est,
                Duration::from_secs_f64(args.expand_seconds),
                args.max_leaves,
            );
            let cuts: Vec<String> = x
                .sizes
                .iter()
                .map(|s| format!("{}e: {} leaves ({:.1} s)", s.leaf_empties, s.leaves, secs(s.millis)))
                .collect();
            let growth = reproduce::growth_per_two_plies(&x.sizes);
            r.line(format!(
                "task {} (row {}, goal {}..{}, Edax {}): {}; growth per 2 plies {}; at {} empties: {}",
                i,
                i + 2,
                goal.lo,
                goal.hi,
                task.score,
                cuts.join(", "),
                growth.map_or("-".into(), |g| format!("{g:.2}")),
                args.leaf_empties,
                match (x.leaves_at_target, x.sizes.last()) {
                    (Some(n), Some(l)) if l.leaf_empties == args.leaf_empties => format!("{n:.0} (measured)"),
                    (Some(n), _) => format!("{n:.3e} (extrapolated)"),
                    (None, _) => "-".into(),
                }
            ));
            rows.push(json!({"row": i + 2, "cuts": x.sizes.iter().map(|s| json!({"leaf_empties": s.leaf_empties,
                "leaves": s.leaves, "seconds": secs(s.millis)})).collect::<Vec<_>>(), "growth": growth,
                "leaves_at_target": x.leaves_at_target}));
            if let Some(n) = x.leaves_at_target {
                per_task.push(n);
            }
            leaf_pool.extend(x.leaves.iter().map(|(b, _)| *b));
        }
        let s = reproduce::summary(&per_task);
        r.line(format!(
            "leaves per task at {} empties: median {:.3e}, mean {:.3e} over {} tasks; x {} tasks = {:.3e} (first round, no knowledge; published, all rounds: {:.3e})",
            args.leaf_empties,
            s.median,
            s.mean,
            s.n,
            tasks.len(),
            s.mean * tasks.len() as f64,
            PUBLISHED_LEAVES
        ));
        r.set("expansion", json!({"tasks": rows, "median": s.median, "mean": s.mean}));
        if s.n > 0 {
            leaves_per_task = Some(s.mean);
        }
    }

    // 5. Cost per leaf at the two windows, the leaves split by their estimate.
    let windows = [Window { lo: -1, hi: 1 }, Window { lo: -3, hi: 3 }];
    let mut costs: [Vec<SolveCost>; 2] = [Vec::new(), Vec::new()];
    let mut near_share = 0.0;
    if !args.solve_empties.is_empty() {
        if leaf_pool.is_empty() {
            return Err(CliError("pipeline published: --solve-empties needs leaves: give --sample N".into()));
        }
        let est = Estimator::new(BoardSize::Eight, args.expand_depth);
        let (near, far) = reproduce::split_by_estimate(&leaf_pool, &est, args.near);
        near_share = near.len() as f64 / leaf_pool.len() as f64;
        r.line(format!(
            "leaves of the deepest cuts: {}, of which {} ({:.1}%) estimated within {} discs of 0 (\"near\"), {} further (\"far\"); {} of each solved per number of empties, played down along the evaluation's best moves",
            leaf_pool.len(),
            near.len(),
            100.0 * near_share,
            args.near,
            far.len(),
            args.per_empties
        ));
        let positions = [
            reproduce::leaf_sample(&near, &args.solve_empties, args.per_empties, args.seed, &est),
            reproduce::leaf_sample(&far, &args.solve_empties, args.per_empties, args.seed, &est),
        ];
        let most = positions.iter().flatten().map(|b| b.empties(BoardSize::Eight)).max().unwrap_or(0);
        let hash_mb = args.hash_mb.unwrap_or_else(|| table_mib_for(most));
        let mut opts = options(1, hash_mb, None)?;
        opts.ladder = std::sync::Arc::new(args.ladder.ladder(1, None, common)?);
        let mut solver = solvo_othello_search::solve;
        let cap = Duration::from_secs_f64(args.time_limit);
        for (k, stratum) in positions.iter().enumerate() {
            for b in stratum {
                for w in windows {
                    let nodes = args.node_limit.unwrap_or(u64::MAX);
                    let c = reproduce::capped_solve(b, w, &mut opts, nodes, cap, &mut solver);
                    r.line(format!(
                        "  {} {:016x}/{:016x} {} empties window [{},{}]: {} nodes, {:.2} s ({:.2} s CPU), bounds {}..{}{}",
                        STRATA[k],
                        b.player,
                        b.opponent,
                        c.empties,
                        w.lo,
                        w.hi,
                        c.nodes,
                        secs(c.millis),
                        secs(c.cpu_millis),
                        c.lower,
                        c.upper,
                        if c.capped { " (CAPPED: a lower bound)" } else { "" }
                    ));
                    costs[k].push(c);
                }
            }
        }
        let mut groups = Vec::new();
        for (k, of_stratum) in costs.iter().enumerate() {
            for &e in &args.solve_empties {
                for w in windows {
                    let of: Vec<&SolveCost> = of_stratum.iter().filter(|c| c.empties == e && c.window == w).collect();
                    let nodes = reproduce::summary(&of.iter().map(|c| c.nodes as f64).collect::<Vec<_>>());
                    let time = reproduce::summary(&of.iter().map(|c| secs(c.cpu_millis)).collect::<Vec<_>>());
                    let capped = of.iter().filter(|c| c.capped).count();
                    r.line(format!(
                        "{} {e} empties, window [{},{}]: {} leaves, nodes median {:.3e} mean {:.3e}, CPU seconds median {:.2} mean {:.2}{}",
                        STRATA[k],
                        w.lo,
                        w.hi,
                        nodes.n,
                        nodes.median,
                        nodes.mean,
                        time.median,
                        time.mean,
                        if capped > 0 { format!(" ({capped} capped: lower bounds)") } else { String::new() }
                    ));
                    groups.push(json!({"stratum": STRATA[k], "empties": e, "window": [w.lo, w.hi], "n": nodes.n,
                        "nodes_median": nodes.median, "nodes_mean": nodes.mean, "cpu_seconds_median": time.median,
                        "cpu_seconds_mean": time.mean, "capped": capped}));
                }
            }
        }
        r.set("solves", json!({"near_share": near_share, "near_discs": args.near, "groups": groups}));
    }

    // 6. Projection.
    let all: Vec<&SolveCost> = costs.iter().flatten().collect();
    let total_nodes: u64 = all.iter().map(|c| c.nodes).sum();
    let total_ms: u64 = all.iter().map(|c| c.millis).sum();
    let total_cpu_ms: u64 = all.iter().map(|c| c.cpu_millis).sum();
    if !all.is_empty() {
        // Per CPU second when the clock works (other jobs on the machine take wall time); solves
        // too short for the millisecond clock (tiny inputs) count as one millisecond.
        let total_ms = total_ms.max(1);
        let rate = total_nodes as f64 / secs(if total_cpu_ms > 0 { total_cpu_ms } else { total_ms });
        r.line(format!(
            "node rate: {:.2} M nodes per CPU second on 1 core ({} solves, {:.3e} nodes, {:.1} s CPU, {:.1} s wall: {:.2} M nodes/s); published solver: ~1.2e7 nodes/s per GHz per core",
            rate / 1e6,
            all.len(),
            total_nodes as f64,
            secs(total_cpu_ms),
            secs(total_ms),
            total_nodes as f64 / secs(total_ms.max(1)) / 1e6
        ));
        let mut projections = Vec::new();
        for w in windows {
            let fits = [0, 1].map(|k| reproduce::fit_cost(&costs[k], w, args.leaf_empties));
            let shares = [near_share, 1.0 - near_share];
            let mut per_leaf = 0.0;
            let mut complete = true;
            for k in 0..2 {
                match fits[k] {
                    Some(f) => {
                        r.line(format!(
                            "window [{},{}] {}: mean nodes per leaf at {} empties {:.3e} ({}{}; growth {:.2}x per empty over {} depths)",
                            w.lo,
                            w.hi,
                            STRATA[k],
                            args.leaf_empties,
                            f.nodes_at_target,
                            if f.measured { "measured" } else { "extrapolated" },
                            if f.lower_bound { ", a lower bound: capped solves" } else { "" },
                            f.growth_per_empty,
                            f.points
                        ));
                        per_leaf += shares[k] * f.nodes_at_target;
                    }
                    None if shares[k] == 0.0 => {}
                    None => complete = false,
                }
            }
            if !complete {
                r.line(format!(
                    "window [{},{}]: no projection (a stratum has fewer than two depths measured)",
                    w.lo, w.hi
                ));
                continue;
            }
            let lower = fits.iter().flatten().any(|f| f.lower_bound);
            let mut leaf_counts = vec![("published leaves", PUBLISHED_LEAVES)];
            if let Some(n) = leaves_per_task {
                leaf_counts.push(("our first-round leaves", n * tasks.len() as f64));
            }
            for (what, leaves) in leaf_counts {
                let p = reproduce::project(leaves, per_leaf, rate);
                r.line(format!(
                    "  projection [{},{}] ({what} {:.3e} x {:.3e} nodes per leaf{}): {:.3e} nodes ({:.2e}x the published {:.3e}), {:.3e} core-years at {:.2} M nodes/s",
                    w.lo,
                    w.hi,
                    p.leaves,
                    p.nodes_per_leaf,
                    if lower { ", a lower bound" } else { "" },
                    p.nodes,
                    p.nodes / PUBLISHED_NODES,
                    PUBLISHED_NODES,
                    p.core_years,
                    rate / 1e6
                ));
                let spreads: Vec<_> = args.workers.iter().map(|&n| reproduce::spread(&p, n, args.batch)).collect();
                for s in &spreads {
                    r.line(format!(
                        "    {} workers: {:.3e} days wall; {:.3e} claims/s on the queue (jobs of {} leaves, {:.1} s each)",
                        s.workers, s.wall_days, s.claims_per_second, args.batch, s.job_seconds
                    ));
                }
                projections.push(json!({"window": [w.lo, w.hi], "basis": what, "leaves": p.leaves,
                    "nodes_per_leaf": p.nodes_per_leaf, "lower_bound": lower, "nodes": p.nodes, "core_years": p.core_years,
                    "nodes_per_second": rate, "fits": fits.iter().map(|f| f.map(|f| json!({"nodes": f.nodes_at_target,
                        "measured": f.measured, "growth_per_empty": f.growth_per_empty, "lower_bound": f.lower_bound})))
                        .collect::<Vec<_>>(),
                    "spread": spreads.iter().map(|s| json!({"workers": s.workers, "wall_days": s.wall_days,
                        "claims_per_second": s.claims_per_second, "job_seconds": s.job_seconds})).collect::<Vec<_>>()}));
            }
        }
        r.set("projection", json!(projections));
    }
    if common.json {
        out!("{}", Value::Object(r.fields));
    }
    Ok(())
}
