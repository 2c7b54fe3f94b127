//! Reproducing what can be reproduced of the published 8x8 run on one machine: our own
//! task selection against the published one (overlap), the size of a task's G36
//! expansion (leaves at the leaf depth, measured to the depth a time budget allows and
//! extrapolated by the growth per two plies), the exact solver's cost per leaf at two
//! windows (measured at the empties within reach and extrapolated by the growth per
//! empty), and from those the projected cost of the full re-proof and its spread over
//! N workers. Every extrapolation is reported as such, next to what was measured.

use crate::published::PublishedTask;
use rayon::prelude::*;
use solvo_core::rng::Rng;
use solvo_othello::{Board, BoardSize, Position};
use solvo_othello_search::{SolveOptions, SolveResult, Window};
use solvo_pipeline::estimate::Estimator;
use solvo_pipeline::expand::{Expander, Expansion};
use solvo_pipeline::goal::Goal;
use solvo_pipeline::node::{node, normalized, solver_position, Node};
use solvo_pipeline::proof::Prover;
use solvo_pipeline::select::Selector;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Our selection (Algorithm 1 over our estimates) from a root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Selection {
    /// Positions at the task depth (the enumeration).
    pub positions: usize,
    /// The root value the tasks prove if every task meets its goal.
    pub hypothesis: i32,
    /// The tasks (canonical boards) and their goals, sorted.
    pub tasks: Vec<(Board, Goal)>,
    /// Milliseconds spent enumerating, estimating and selecting.
    pub millis: [u64; 3],
}

/// Enumerates the positions with `task_empties` empties below `root`, estimates each
/// with `estimator` and selects the tasks proving `hypothesis` (`None`: the predicted
/// value) with `frequency` breaking ties, as the pipeline's enumerate / estimate /
/// select stages do, in memory. An error when the root has no position to prove.
pub fn select_tasks(
    size: BoardSize,
    root: &Board,
    task_empties: u32,
    estimator: &Estimator,
    frequency: &HashMap<Board, u64>,
    hypothesis: Option<i32>,
) -> Result<Selection, String> {
    let t = Instant::now();
    let boards = solvo_pipeline::stages::enumerate_positions(size, root, task_empties);
    if boards.is_empty() {
        return Err("the root's game is over: nothing to select".into());
    }
    let enumerated = t.elapsed();
    let predictions: HashMap<Board, i32> = boards.par_iter().map(|b| (*b, estimator.estimate(b))).collect();
    let estimated = t.elapsed();
    let (v, tasks, missing) =
        Selector::new(size, task_empties, &predictions, frequency).select(&normalized(*root, size), hypothesis);
    if missing > 0 {
        return Err(format!("{missing} task-depth positions missing from the enumeration"));
    }
    let ms = |d: Duration| d.as_millis() as u64;
    Ok(Selection {
        positions: boards.len(),
        hypothesis: v,
        tasks,
        millis: [ms(enumerated), ms(estimated - enumerated), ms(t.elapsed() - estimated)],
    })
}

/// The goal a published task asks for, in the pipeline's terms.
pub fn published_goal(t: &PublishedTask) -> Goal {
    let c = t.claimed();
    Goal { lo: c.lower, hi: c.upper }
}

/// Our tasks against the published ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlap {
    /// Our tasks.
    pub ours: usize,
    /// Published tasks.
    pub theirs: usize,
    /// Positions in both.
    pub common: usize,
    /// Positions in both with the same goal.
    pub same_goal: usize,
}

/// How many of `published` tasks `ours` also chose (by canonical board), and with the
/// same goal.
pub fn overlap(ours: &[(Board, Goal)], published: &[PublishedTask]) -> Overlap {
    let ours_map: HashMap<Board, Goal> = ours.iter().map(|(b, g)| (b.canonical(), *g)).collect();
    let mut o = Overlap { ours: ours_map.len(), theirs: published.len(), common: 0, same_goal: 0 };
    for t in published {
        if let Some(g) = ours_map.get(&t.board.canonical()) {
            o.common += 1;
            o.same_goal += usize::from(*g == published_goal(t));
        }
    }
    o
}

/// `n` distinct indices below `len`, drawn with `seed` (all of them when `n >= len`),
/// in the order drawn: the same seed always gives the same sample.
pub fn sample_indices(len: usize, n: usize, seed: u64) -> Vec<usize> {
    let mut all: Vec<usize> = (0..len).collect();
    let mut rng = Rng::new(seed);
    let n = n.min(len);
    for i in 0..n {
        let j = i + rng.below(len - i);
        all.swap(i, j);
    }
    all.truncate(n);
    all
}

/// One G36 expansion of a task, cut at `leaf_empties`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ExpansionSize {
    /// Leaves were positions with this many empties.
    pub leaf_empties: u32,
    /// Leaves on the to-do list (0 when the goal is decided without any).
    pub leaves: usize,
    /// Positions the proof questions visited.
    pub prover_nodes: u64,
    /// Milliseconds.
    pub millis: u64,
}

/// A task's expansions at deeper and deeper cuts.
#[derive(Clone, Debug, PartialEq)]
pub struct TaskExpansion {
    /// Every cut measured, shallowest first.
    pub sizes: Vec<ExpansionSize>,
    /// The to-do list of the deepest cut measured.
    pub leaves: Vec<(Board, Goal)>,
    /// The leaves at the target cut: measured when reached, else the deepest count times
    /// the growth of its last two plies for each two plies left (`None` when no growth
    /// can be measured: fewer than two non-empty cuts).
    pub leaves_at_target: Option<f64>,
}

/// Expands `board` (a task at `task_empties` empties) for `goal` over no knowledge, as
/// the first round of the pipeline's `expand` stage does (G36-first, children ordered by
/// `estimator`), with leaves at `task_empties - 2`, `- 4`, ... down to `target_empties`,
/// stopping early when the next cut would likely end after `budget` (the growth so far
/// predicts it) or when a cut lists more than `max_leaves` leaves.
pub fn expand_progressively(
    board: &Board,
    goal: Goal,
    task_empties: u32,
    target_empties: u32,
    estimator: &Estimator,
    budget: Duration,
    max_leaves: usize,
) -> TaskExpansion {
    let start = Instant::now();
    let mut out = TaskExpansion { sizes: Vec::new(), leaves: Vec::new(), leaves_at_target: None };
    let mut cut = task_empties;
    while cut >= target_empties + 2 {
        cut -= 2;
        let t = Instant::now();
        let mut prover = Prover::new(BoardSize::Eight, cut, HashMap::new());
        let leaves = match Expander::new(&mut prover, estimator).expand(board, goal) {
            Expansion::Todo(list) => list,
            _ => Vec::new(),
        };
        let millis = t.elapsed().as_millis() as u64;
        out.sizes.push(ExpansionSize { leaf_empties: cut, leaves: leaves.len(), prover_nodes: prover.nodes, millis });
        out.leaves = leaves;
        let growth = growth_per_two_plies(&out.sizes);
        let next_ms = millis as f64 * growth.unwrap_or(10.0).max(1.0);
        let left = budget.saturating_sub(start.elapsed()).as_millis() as f64;
        if out.leaves.is_empty() || next_ms > left || out.leaves.len() > max_leaves {
            break;
        }
    }
    let last = out.sizes.last().copied();
    out.leaves_at_target = match (last, growth_per_two_plies(&out.sizes)) {
        (Some(l), _) if l.leaf_empties == target_empties => Some(l.leaves as f64),
        (Some(l), Some(g)) => Some(l.leaves as f64 * g.powf(f64::from(l.leaf_empties - target_empties) / 2.0)),
        _ => None,
    };
    out
}

/// The growth of the leaf count over the last two cuts measured (two plies apart), when
/// both are non-empty.
pub fn growth_per_two_plies(sizes: &[ExpansionSize]) -> Option<f64> {
    match sizes {
        [.., a, b] if a.leaves > 0 && b.leaves > 0 => Some(b.leaves as f64 / a.leaves as f64),
        _ => None,
    }
}

/// `b` played down to `empties` empties along the estimator's best move at each ply
/// (passes applied): a position of the same kind as `b` (a leaf of a proof tree), small
/// enough to solve. `None` when the game ends first.
pub fn descend(b: &Board, empties: u32, estimator: &Estimator) -> Option<Board> {
    let mut b = *b;
    loop {
        match node(&b, BoardSize::Eight) {
            Node::Over(_) => return None,
            Node::Pass(p) => b = p,
            Node::Moves(_) if b.empties(BoardSize::Eight) <= empties => return Some(b),
            Node::Moves(children) => {
                // The child worst for the opponent (first on ties).
                b = *children.iter().min_by_key(|c| estimator.estimate(c))?;
            }
        }
    }
}

/// Positions to solve for the cost per leaf: `per` leaves drawn from `leaves` with
/// `seed`, each played down to every number of empties in `empties` by [`descend`]
/// (the same leaves at every depth; a line whose game ends first is left out), grouped by
/// empties in the order given.
pub fn leaf_sample(leaves: &[Board], empties: &[u32], per: usize, seed: u64, estimator: &Estimator) -> Vec<Board> {
    let chosen = sample_indices(leaves.len(), per, seed);
    let mut out = Vec::new();
    for &e in empties {
        out.extend(chosen.iter().filter_map(|&i| descend(&leaves[i], e, estimator)));
    }
    out
}

/// Splits `leaves` by their estimate: those within `threshold` discs of 0 (the windows'
/// centre: the costly ones to solve) and the rest, each in the order given.
pub fn split_by_estimate(leaves: &[Board], estimator: &Estimator, threshold: i32) -> (Vec<Board>, Vec<Board>) {
    let near: Vec<bool> = leaves.par_iter().map(|b| estimator.estimate(b).abs() <= threshold).collect();
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for (leaf, n) in leaves.iter().zip(near) {
        if n {
            a.push(*leaf)
        } else {
            b.push(*leaf)
        }
    }
    (a, b)
}

/// The cost per leaf at `target` empties for `window`, from capped solves at fewer
/// empties.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CostFit {
    /// Mean nodes grow by this factor per empty (log-linear fit over the mean nodes at
    /// each number of empties measured; NaN when only the target was measured).
    pub growth_per_empty: f64,
    /// The mean nodes at the target: measured when solves at the target were made,
    /// else the fit's value there.
    pub nodes_at_target: f64,
    /// The target was measured, not extrapolated.
    pub measured: bool,
    /// Some solve the figure rests on was capped: it is a lower bound.
    pub lower_bound: bool,
    /// Numbers of empties the fit used.
    pub points: usize,
}

/// Fits the mean nodes of `costs` with `window` against their empties and extrapolates
/// to `target` (the mean, not the median: a total cost is leaves times the mean);
/// `None` with fewer than two numbers of empties and no measurement at the target.
pub fn fit_cost(costs: &[SolveCost], window: Window, target: u32) -> Option<CostFit> {
    let mut by: std::collections::BTreeMap<u32, Vec<&SolveCost>> = std::collections::BTreeMap::new();
    for c in costs.iter().filter(|c| c.window == window) {
        by.entry(c.empties).or_default().push(c);
    }
    let means: Vec<(f64, f64)> = by
        .iter()
        .map(|(&e, v)| (f64::from(e), summary(&v.iter().map(|c| c.nodes as f64).collect::<Vec<_>>()).mean))
        .collect();
    let lower_bound = by.values().flatten().any(|c| c.capped);
    let at_target = means.iter().find(|p| p.0 == f64::from(target)).map(|p| p.1);
    let fit = log_linear(&means, f64::from(target));
    let (growth, nodes, measured) = match (at_target, fit) {
        (Some(y), g) => (g.map_or(f64::NAN, |g| g.0), y, true),
        (None, Some((g, y))) => (g, y, false),
        (None, None) => return None,
    };
    Some(CostFit { growth_per_empty: growth, nodes_at_target: nodes, measured, lower_bound, points: means.len() })
}

/// What one capped exact solve cost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveCost {
    /// Empties of the position.
    pub empties: u32,
    /// The window solved.
    pub window: Window,
    /// Nodes of the exact search plus those ordering it (the ladder's climb).
    pub nodes: u64,
    /// Milliseconds, climb included.
    pub millis: u64,
    /// CPU milliseconds of this process over the solve (the node rate on a loaded
    /// machine: wall time counts the other jobs' share of the core).
    pub cpu_millis: u64,
    /// The cap stopped it: the cost is a lower bound.
    pub capped: bool,
    /// The bounds found.
    pub lower: i32,
    /// See `lower`.
    pub upper: i32,
}

/// Solves `board` (8x8, side to move = player) with `window` through `solver` (e.g. the
/// CLI's ladder and exact solver) with `options`, stopped through `options.stop` once
/// about `node_cap` search nodes or `time_cap` have been spent (a watchdog reading
/// `options.progress`, so that solvers skipping work under their own node or time
/// limits, like the ladder, still run as they do uncapped). The table is cleared first,
/// so every solve's cost is its own.
pub fn capped_solve(
    board: &Board,
    window: Window,
    options: &mut SolveOptions,
    node_cap: u64,
    time_cap: Duration,
    solver: &mut dyn FnMut(&Position, &SolveOptions) -> SolveResult,
) -> SolveCost {
    let pos = solver_position(board, BoardSize::Eight);
    options.window = window;
    options.tt.clear();
    options.stop.store(false, Ordering::SeqCst);
    options.progress.store(0, Ordering::SeqCst);
    let done = AtomicBool::new(false);
    let cpu = process_cpu_millis();
    let t = Instant::now();
    let r = std::thread::scope(|scope| {
        let (stop, progress, done) = (&options.stop, &options.progress, &done);
        scope.spawn(move || {
            while !done.load(Ordering::Relaxed) {
                if progress.load(Ordering::Relaxed) >= node_cap || t.elapsed() >= time_cap {
                    stop.store(true, Ordering::SeqCst);
                    return;
                }
                std::thread::sleep(Duration::from_millis(20));
            }
        });
        let r = solver(&pos, options);
        done.store(true, Ordering::Relaxed);
        r
    });
    let capped = r.stopped;
    options.stop.store(false, Ordering::SeqCst);
    SolveCost {
        empties: board.empties(BoardSize::Eight),
        window,
        nodes: r.nodes + r.ordering_nodes,
        millis: t.elapsed().as_millis() as u64,
        cpu_millis: process_cpu_millis().saturating_sub(cpu),
        capped,
        lower: r.lower,
        upper: r.upper,
    }
}

/// CPU time this process has used, milliseconds (0 if the clock cannot be read).
pub fn process_cpu_millis() -> u64 {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec for the duration of the call.
    if unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) } != 0 {
        return 0;
    }
    ts.tv_sec as u64 * 1000 + ts.tv_nsec as u64 / 1_000_000
}

/// Median and mean of a sample.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Values summarised.
    pub n: usize,
    /// The median (mean of the two middle values for an even count; 0 when empty).
    pub median: f64,
    /// The mean (0 when empty).
    pub mean: f64,
}

/// The median and mean of `values`.
pub fn summary(values: &[f64]) -> Summary {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    let median = match n {
        0 => 0.0,
        _ if n % 2 == 1 => v[n / 2],
        _ => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    };
    Summary { n, median, mean: if n == 0 { 0.0 } else { v.iter().sum::<f64>() / n as f64 } }
}

/// A log-linear fit `y = exp(a + b x)` by least squares on `ln y` over the points with
/// `y > 0`: `(exp(b), value at x)`; the growth per unit of x and the extrapolation.
/// `None` with fewer than two distinct x.
pub fn log_linear(points: &[(f64, f64)], at: f64) -> Option<(f64, f64)> {
    let p: Vec<(f64, f64)> = points.iter().filter(|(_, y)| *y > 0.0).map(|&(x, y)| (x, y.ln())).collect();
    let n = p.len() as f64;
    let mx = p.iter().map(|q| q.0).sum::<f64>() / n;
    let my = p.iter().map(|q| q.1).sum::<f64>() / n;
    let sxx: f64 = p.iter().map(|q| (q.0 - mx).powi(2)).sum();
    if p.len() < 2 || sxx <= 0.0 {
        return None;
    }
    let b = p.iter().map(|q| (q.0 - mx) * (q.1 - my)).sum::<f64>() / sxx;
    Some((b.exp(), (my + b * (at - mx)).exp()))
}

/// Seconds in a (Julian) year.
pub const YEAR_SECONDS: f64 = 365.25 * 86_400.0;

/// The published run's total solver nodes: 1,526,001,455,595,489,506 = 1.53e18, the
/// sum of Edax's node counts over its 36-empty solves (about 1.0e9 nodes per leaf).
pub const PUBLISHED_NODES: f64 = 1_526_001_455_595_489_506.0;

/// The published run's 36-empty leaves solved.
pub const PUBLISHED_LEAVES: f64 = 1_505_367_525.0;

/// The projected cost of a re-proof.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Projection {
    /// Leaves to solve.
    pub leaves: f64,
    /// Nodes per leaf.
    pub nodes_per_leaf: f64,
    /// `leaves * nodes_per_leaf`.
    pub nodes: f64,
    /// The solver's speed on one core, nodes per second.
    pub nodes_per_second: f64,
    /// `nodes / nodes_per_second`, in years of one core.
    pub core_years: f64,
}

/// The cost of solving `leaves` leaves of `nodes_per_leaf` nodes each at
/// `nodes_per_second` per core.
pub fn project(leaves: f64, nodes_per_leaf: f64, nodes_per_second: f64) -> Projection {
    let nodes = leaves * nodes_per_leaf;
    Projection { leaves, nodes_per_leaf, nodes, nodes_per_second, core_years: nodes / nodes_per_second / YEAR_SECONDS }
}

/// How a projected run spreads over a number of workers (one core each) on the queue.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spread {
    /// Workers.
    pub workers: u64,
    /// Wall days if the leaves keep every worker busy (`core_years / workers`), never
    /// below one leaf's solve time.
    pub wall_days: f64,
    /// Queue claims (= results) per second across all workers, with `batch` leaves per
    /// claimed job.
    pub claims_per_second: f64,
    /// Seconds one job holds its lease (`batch` leaves), the lease's scale.
    pub job_seconds: f64,
}

/// `p` over `workers` workers claiming jobs of `batch` leaves each.
pub fn spread(p: &Projection, workers: u64, batch: u64) -> Spread {
    let leaf_seconds = p.nodes_per_leaf / p.nodes_per_second;
    let job_seconds = leaf_seconds * batch.max(1) as f64;
    let wall = (p.core_years * YEAR_SECONDS / workers.max(1) as f64).max(leaf_seconds);
    Spread { workers, wall_days: wall / 86_400.0, claims_per_second: workers as f64 / job_seconds, job_seconds }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_are_distinct_deterministic_and_bounded() {
        let a = sample_indices(100, 10, 7);
        assert_eq!(a, sample_indices(100, 10, 7));
        assert_ne!(a, sample_indices(100, 10, 8));
        let mut s = a.clone();
        s.sort();
        s.dedup();
        assert_eq!(s.len(), 10);
        assert!(a.iter().all(|&i| i < 100));
        assert_eq!(sample_indices(3, 10, 1).len(), 3);
    }

    #[test]
    fn the_published_total_is_1_53e18_nodes_about_1e9_per_leaf() {
        assert_eq!(PUBLISHED_NODES, 1_526_001_455_595_489_506u64 as f64);
        assert!((PUBLISHED_NODES / 1.53e18 - 1.0).abs() < 0.003);
        let per_leaf = PUBLISHED_NODES / PUBLISHED_LEAVES;
        assert!((1.0e9..1.02e9).contains(&per_leaf), "{per_leaf}");
    }

    #[test]
    fn summaries_fits_and_projections() {
        let s = summary(&[4.0, 1.0, 3.0, 2.0]);
        assert_eq!((s.n, s.median, s.mean), (4, 2.5, 2.5));
        assert_eq!(summary(&[]).n, 0);
        // y = 2 * 3^x: growth 3, value at 5 = 486.
        let pts: Vec<(f64, f64)> = (0..4).map(|x| (x as f64, 2.0 * 3f64.powi(x))).collect();
        let (g, y) = log_linear(&pts, 5.0).unwrap();
        assert!((g - 3.0).abs() < 1e-9 && (y - 486.0).abs() < 1e-6);
        assert!(log_linear(&[(1.0, 5.0)], 3.0).is_none());
        let p = project(1e9, 1e12, 1e7);
        assert!((p.nodes - 1e21).abs() < 1e9);
        assert!((p.core_years - 1e14 / YEAR_SECONDS).abs() < 1e-3);
        let s = spread(&p, 100, 10);
        assert!((s.wall_days * 86_400.0 * 100.0 - p.core_years * YEAR_SECONDS).abs() < 1.0);
        assert!((s.job_seconds - 1e6).abs() < 1e-6 && (s.claims_per_second - 1e-4).abs() < 1e-12);
        // Never faster than one leaf.
        assert!((spread(&p, u64::MAX, 1).wall_days * 86_400.0 - 1e5).abs() < 1e-6);
        let sizes = [
            ExpansionSize { leaf_empties: 48, leaves: 10, prover_nodes: 0, millis: 0 },
            ExpansionSize { leaf_empties: 46, leaves: 40, prover_nodes: 0, millis: 0 },
        ];
        assert_eq!(growth_per_two_plies(&sizes), Some(4.0));
        assert_eq!(growth_per_two_plies(&sizes[..1]), None);
    }

    /// The 6th position of Edax's hard-25 set (25 empties, 8x8).
    fn hard25() -> Board {
        let line = "--X-O----XXXOO-OOOOOXXOO-OOXXXXO--OOXXOO--OOOXOO----OO-O----O--- O";
        solvo_othello::formats::obf::parse_obf_line(line, Some(BoardSize::Eight), solvo_othello::Variant::Normal)
            .unwrap()
            .position
            .board
    }

    /// A selection two plies deep overlaps itself written as a published list entirely;
    /// a task's expansion grows with the cut; a descent reaches the empties asked for;
    /// a capped solve is exact when the cap is not reached and flagged when it is.
    #[test]
    fn selection_overlap_expansion_and_capped_solves_on_a_small_case() {
        let root = hard25();
        let est = Estimator::new(BoardSize::Eight, 1);
        let none = HashMap::new();
        let sel = select_tasks(BoardSize::Eight, &root, 23, &est, &none, None).unwrap();
        assert!(sel.positions > 0 && !sel.tasks.is_empty());
        let listed: Vec<PublishedTask> = sel
            .tasks
            .iter()
            .map(|(b, g)| {
                let (alpha, beta, score) = match (g.lo, g.hi) {
                    // The published check rule: score <= alpha claims value <= alpha,
                    // score >= beta claims value >= beta.
                    (-64, hi) => (hi, 64, hi),
                    (lo, 64) => (-64, lo, lo),
                    (lo, _) => (lo - 1, lo + 1, lo),
                };
                PublishedTask { board: *b, count: 0, score, alpha, beta }
            })
            .collect();
        let o = overlap(&sel.tasks, &listed);
        assert_eq!((o.common, o.same_goal, o.ours, o.theirs), (listed.len(), listed.len(), listed.len(), listed.len()));
        assert_eq!(overlap(&sel.tasks, &listed[..1]).common, 1);
        let (board, goal) = sel.tasks[0];
        let x = expand_progressively(&board, goal, 23, 19, &est, Duration::from_secs(60), 1_000_000);
        assert_eq!(x.sizes.iter().map(|s| s.leaf_empties).collect::<Vec<_>>(), [21, 19]);
        assert!(x.sizes[0].leaves > 0 && x.sizes[1].leaves >= x.sizes[0].leaves);
        assert_eq!(x.leaves_at_target, Some(x.sizes[1].leaves as f64));
        assert!(x.leaves.iter().all(|(b, _)| b.empties(BoardSize::Eight) <= 19));
        let leaf = descend(&x.leaves[0].0, 14, &est).expect("the game goes on to 14 empties");
        assert!(leaf.empties(BoardSize::Eight) <= 14 && leaf.moves(BoardSize::Eight) != 0);
        let mut options = SolveOptions::new(8);
        let mut plain = |p: &Position, o: &SolveOptions| solvo_othello_search::solve(p, o);
        let w = Window { lo: -1, hi: 1 };
        let full = capped_solve(&leaf, w, &mut options, u64::MAX, Duration::from_secs(600), &mut plain);
        assert!(!full.capped && full.nodes > 0 && full.lower <= full.upper);
        assert!(full.cpu_millis <= full.millis + 1000, "one solving thread: CPU time within wall time");
        let exact = solvo_othello_search::solve(&solver_position(&leaf, BoardSize::Eight), &SolveOptions::new(8))
            .score()
            .unwrap();
        assert!(full.lower <= exact && exact <= full.upper);
        // A whole 23-empty solve stopped at once.
        let capped = capped_solve(&board, Window::FULL, &mut options, 1, Duration::ZERO, &mut plain);
        assert!(capped.capped);
        assert!(!options.stop.load(Ordering::SeqCst), "the stop request is cleared after the solve");
    }
}
