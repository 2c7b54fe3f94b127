//! The stages over a store: enumerate the task-depth positions (and queue their
//! estimates), select the tasks (G50), advance the rounds, and run one claimed job
//! (estimate E, expand G36-first, solve Q). Workers call [`run_job`] and, when nothing
//! is claimable, [`advance`] under the coordinator lock; both are idempotent, so a worker
//! killed anywhere leaves nothing half done that a rerun would not finish.

use crate::config::Config;
use crate::estimate::Estimator;
use crate::expand::{ChoiceOracle, Expander, Expansion};
use crate::goal::{Bounds, Goal};
use crate::knowledge::PipelineKnowledge;
use crate::node::{node, normalized, solver_position, Node};
use crate::proof::Prover;
use crate::select::Selector;
use crate::store::*;
use rayon::prelude::*;
use solvo_othello::{Board, BoardSize, Square};
use solvo_othello_search::{solve, SolveOptions, SolveResult, Window};
use std::collections::HashMap;
use std::sync::atomic::Ordering;

/// Job priorities: estimates first, then expansions (they feed the solves), then solves.
pub const PRIORITY_ESTIMATE: i32 = 20;
/// See [`PRIORITY_ESTIMATE`].
pub const PRIORITY_EXPAND: i32 = 10;
/// See [`PRIORITY_ESTIMATE`].
pub const PRIORITY_SOLVE: i32 = 0;

/// The pipeline's phase, stored as meta `phase`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Settings stored, nothing enumerated.
    Init,
    /// Positions enumerated, estimates queued.
    Estimating,
    /// Tasks selected; rounds of expansion and solving.
    Proving,
    /// Every selected task is proven.
    Done,
}

impl Phase {
    fn name(self) -> &'static str {
        match self {
            Phase::Init => "init",
            Phase::Estimating => "estimating",
            Phase::Proving => "proving",
            Phase::Done => "done",
        }
    }

    /// The stored phase.
    pub fn load(store: &dyn PipelineStore) -> PipelineStoreResult<Phase> {
        match store.meta("phase")?.as_deref() {
            None | Some("init") => Ok(Phase::Init),
            Some("estimating") => Ok(Phase::Estimating),
            Some("proving") => Ok(Phase::Proving),
            Some("done") => Ok(Phase::Done),
            Some(other) => Err(PipelineStoreError::Corrupt(format!("meta phase = {other:?}"))),
        }
    }

    fn save(self, store: &dyn PipelineStore) -> PipelineStoreResult<()> {
        store.set_meta("phase", self.name())
    }
}

/// Every position with `task_empties` empties reachable from `root` (forced passes
/// applied, finished games left out), canonical and sorted; the root itself when it has
/// no more empties than that.
pub fn enumerate_positions(size: BoardSize, root: &Board, task_empties: u32) -> Vec<Board> {
    let root = normalized(*root, size);
    if root.is_game_over(size) {
        return Vec::new();
    }
    let mut level = vec![root.canonical()];
    while level.first().is_some_and(|b| b.empties(size) > task_empties) {
        let mut next: Vec<Board> = level
            .par_iter()
            .flat_map_iter(|b| {
                let mut kids = Vec::new();
                solvo_solve::children::for_each_child(b, size, |c| kids.push(c.canonical()));
                kids
            })
            .collect();
        next.par_sort_unstable();
        next.dedup();
        level = next;
    }
    level
}

/// Stage `enumerate`: stores the task-depth positions and queues their estimates.
/// Returns how many positions there are.
pub fn enumerate(store: &dyn PipelineStore, cfg: &Config) -> PipelineStoreResult<usize> {
    let boards = enumerate_positions(cfg.size, &cfg.root, cfg.task_empties);
    for chunk in boards.chunks(10_000) {
        store.add_positions(chunk)?;
    }
    let ids: Vec<i64> = store.positions()?.iter().map(|p| p.0).collect();
    let jobs: Vec<NewJob> = ids
        .chunks(cfg.estimate_chunk as usize)
        .map(|c| NewJob {
            kind: JobKind::Estimate,
            a: c[0],
            b: c[c.len() - 1],
            lo: 0,
            hi: 0,
            round: 0,
            priority: PRIORITY_ESTIMATE,
        })
        .collect();
    store.add_jobs(&jobs)?;
    if Phase::load(store)? == Phase::Init {
        Phase::Estimating.save(store)?;
    }
    Ok(boards.len())
}

/// Stage `select`: the tasks proving the root's predicted value (G50) over the estimates,
/// corrected by every task's proven bounds; the hypothesis goes to meta `hypothesis`.
/// Returns (hypothesis, number of tasks). See [`select_and_queue`] for the whole stage.
pub fn select(
    store: &dyn PipelineStore,
    cfg: &Config,
    frequency: &HashMap<Board, u64>,
) -> PipelineStoreResult<(i32, usize)> {
    let known: HashMap<Board, Bounds> = store.tasks()?.into_iter().map(|t| (t.board, t.bounds)).collect();
    let mut predictions = HashMap::new();
    for (id, b, e) in store.positions()? {
        let e =
            e.ok_or_else(|| PipelineStoreError::Schema(format!("position {id} has no estimate yet (run estimate)")))?;
        let p = known.get(&b).map_or(e, |k| k.clamp_estimate(e));
        predictions.insert(b, p);
    }
    // The configured hypothesis starts the first selection. With batched expansions a
    // re-selection keeps the current one unless the tasks' proven bounds refute it at the
    // root (then the predictions, corrected by those bounds, choose), and avoids refuted
    // children. One job per leaf (the published way) follows the corrected predictions:
    // there each replaced task costs whole rounds, so trying the hypothesis' alternatives
    // one by one is slower than moving to the predicted value.
    let previous = store.meta("hypothesis")?;
    let mut selector = Selector::new(cfg.size, cfg.task_empties, &predictions, frequency);
    // Exact choices, when configured: a solver of their own (the coordinator's).
    let mut solve_options = None;
    if cfg.select_choice_empties > 0 {
        let options = SolveOptions::try_new(cfg.hash_mb).map_err(|e| {
            PipelineStoreError::Schema(format!("the selection's exact choices (select_choice_empties): {e}"))
        })?;
        solve_options = Some(options);
    }
    let (mut cache, mut reaching) = (HashMap::new(), HashMap::new());
    let mut oracle = solve_options.as_mut().map(|options| SolverOracle {
        options,
        cache: &mut cache,
        reaching: &mut reaching,
        size: cfg.size,
        max_empties: cfg.select_choice_empties,
        nodes: 0,
    });
    if let Some(o) = oracle.as_mut() {
        selector = selector.with_oracle(o);
    }
    let (v, tasks, missing) = match previous {
        None => selector.select(&normalized(cfg.root, cfg.size), cfg.hypothesis),
        Some(_) if cfg.batch_leaves == 0 => selector.select(&normalized(cfg.root, cfg.size), None),
        Some(h) => {
            let h = h.parse::<i32>().map_err(|_| PipelineStoreError::Corrupt(format!("meta hypothesis = {h:?}")))?;
            selector.with_known(known).select(&normalized(cfg.root, cfg.size), Some(h))
        }
    };
    if missing > 0 {
        return Err(PipelineStoreError::Schema(format!(
            "{missing} task-depth positions were not enumerated (run enumerate)"
        )));
    }
    if let Some(o) = oracle {
        let before = selection_choice_nodes(store)?;
        store.set_meta(SELECTION_NODES, &(before + o.nodes).to_string())?;
    }
    store.set_tasks(&tasks)?;
    store.set_meta("hypothesis", &v.to_string())?;
    Ok((v, tasks.len()))
}

/// Meta key: solver nodes the selections' exact choices took, summed over selections.
pub const SELECTION_NODES: &str = "selection_choice_nodes";

/// The solver nodes the selections' exact choices took so far (meta [`SELECTION_NODES`];
/// 0 when absent or unreadable: a count for reports, never a proof).
pub fn selection_choice_nodes(store: &dyn PipelineStore) -> PipelineStoreResult<u64> {
    Ok(store.meta(SELECTION_NODES)?.and_then(|n| n.parse().ok()).unwrap_or(0))
}

/// The selection's tie-break stored by `pipeline select --wthor DIR` (meta `wthor_dir`):
/// how often each position between the task depth and the root occurs in the WTHOR
/// games of that directory; empty when none was given. Re-selections read it again.
pub fn stored_frequency(store: &dyn PipelineStore, cfg: &Config) -> PipelineStoreResult<HashMap<Board, u64>> {
    match store.meta("wthor_dir")? {
        None => Ok(HashMap::new()),
        Some(dir) => wthor_frequency_for(cfg, std::path::Path::new(&dir)).map_err(PipelineStoreError::Schema),
    }
}

/// How often each position between `cfg`'s task depth and root occurs in the WTHOR games
/// of `dir` (8x8 only: WTHOR holds 8x8 games); an error naming the problem otherwise.
pub fn wthor_frequency_for(cfg: &Config, dir: &std::path::Path) -> Result<HashMap<Board, u64>, String> {
    if cfg.size != BoardSize::Eight {
        return Err(format!("WTHOR games are 8x8; this pipeline is {0}x{0}", cfg.size.side()));
    }
    let f = crate::select::wthor_frequency_between(dir, cfg.task_empties, cfg.root.empties(cfg.size))
        .map_err(|e| format!("WTHOR directory {e}"))?;
    for problem in &f.problems {
        eprintln!("warning: {problem}");
    }
    if f.games == 0 {
        return Err(format!("WTHOR directory {}: no readable .wtb game file", dir.display()));
    }
    Ok(f.counts)
}

/// What [`advance`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Advance {
    /// Jobs are still open: nothing to do yet.
    Busy,
    /// Some jobs are parked (failed too often): a person must look (`status`).
    Stalled(i64),
    /// A new round (or the first) was queued.
    Queued {
        /// The round number.
        round: i32,
        /// Expansion jobs queued.
        jobs: usize,
    },
    /// Every selected task is proven.
    Done,
}

/// The whole `select` stage: [`select`], then the proving phase begins and its first
/// jobs are queued ([`advance`]). Returns (hypothesis, number of tasks, what was queued).
pub fn select_and_queue(
    store: &dyn PipelineStore,
    cfg: &Config,
    frequency: &HashMap<Board, u64>,
) -> PipelineStoreResult<(i32, usize, Advance)> {
    let (v, n) = select(store, cfg, frequency)?;
    store.set_meta("phase", "proving")?;
    Ok((v, n, advance(store, cfg)?))
}

/// The coordinator's step, run when no job is open: from estimates to the first
/// selection, from one round to the next, re-selection after refuted tasks, and the end.
pub fn advance(store: &dyn PipelineStore, cfg: &Config) -> PipelineStoreResult<Advance> {
    let counts = store.job_counts()?;
    if counts.ready + counts.leased + counts.expired > 0 {
        return Ok(reselect_early(store, cfg)?.unwrap_or(Advance::Busy));
    }
    if counts.parked > 0 {
        return Ok(Advance::Stalled(counts.parked));
    }
    if std::env::var_os("SOLVO_PIPELINE_TRACE").is_some() {
        let tasks = store.tasks()?;
        eprintln!(
            "advance: phase {:?} round {:?} hypothesis {:?} jobs {counts:?} tasks {} pending {} proven {} refuted {}",
            Phase::load(store)?,
            store.meta("round")?,
            store.meta("hypothesis")?,
            tasks.iter().filter(|t| t.selected).count(),
            tasks.iter().filter(|t| t.selected && t.status == TaskStatus::Pending).count(),
            tasks.iter().filter(|t| t.selected && t.status == TaskStatus::Proven).count(),
            tasks.iter().filter(|t| t.selected && t.status == TaskStatus::Refuted).count(),
        );
    }
    match Phase::load(store)? {
        Phase::Init => {
            enumerate(store, cfg)?;
            Ok(Advance::Queued { round: 0, jobs: 0 })
        }
        Phase::Estimating => {
            select(store, cfg, &stored_frequency(store, cfg)?)?;
            Phase::Proving.save(store)?;
            queue_round(store)
        }
        Phase::Proving => {
            let tasks = store.tasks()?;
            let selected: Vec<_> = tasks.iter().filter(|t| t.selected).collect();
            if selected.iter().any(|t| t.status == TaskStatus::Pending) {
                return queue_round(store);
            }
            if selected.iter().any(|t| t.status == TaskStatus::Refuted) {
                select(store, cfg, &stored_frequency(store, cfg)?)?;
                return queue_round(store);
            }
            Phase::Done.save(store)?;
            Ok(Advance::Done)
        }
        Phase::Done => Ok(Advance::Done),
    }
}

/// With batched expansions (each task's expansions chain without a round barrier), a
/// refuted selected task is replaced at once rather than after every pending task: the
/// selection is made again over what is proven now and only the tasks it newly needs are
/// queued; tasks it no longer needs stay pending, unselected, and their queued
/// expansions end without work ([`JobRunner::run`]). `None` when there is nothing to do
/// (no batching, not proving, or no selected task refuted). Run under the coordinator
/// lock, like [`advance`].
pub fn reselect_early(store: &dyn PipelineStore, cfg: &Config) -> PipelineStoreResult<Option<Advance>> {
    if cfg.batch_leaves == 0 || Phase::load(store)? != Phase::Proving {
        return Ok(None);
    }
    let before = store.tasks()?;
    if !before.iter().any(|t| t.selected && t.status == TaskStatus::Refuted) {
        return Ok(None);
    }
    let running: std::collections::HashSet<i64> =
        before.iter().filter(|t| t.selected && t.status == TaskStatus::Pending).map(|t| t.id).collect();
    select(store, cfg, &stored_frequency(store, cfg)?)?;
    let round = store.meta("round")?.and_then(|r| r.parse::<i32>().ok()).unwrap_or(0) + 1;
    let jobs: Vec<NewJob> = store
        .tasks()?
        .iter()
        .filter(|t| t.selected && t.status == TaskStatus::Pending && !running.contains(&t.id))
        .map(|t| NewJob { kind: JobKind::Expand, a: t.id, b: 0, lo: 0, hi: 0, round, priority: PRIORITY_EXPAND })
        .collect();
    store.add_jobs(&jobs)?;
    store.set_meta("round", &round.to_string())?;
    Ok(Some(Advance::Queued { round, jobs: jobs.len() }))
}

fn queue_round(store: &dyn PipelineStore) -> PipelineStoreResult<Advance> {
    let round = store.meta("round")?.and_then(|r| r.parse::<i32>().ok()).unwrap_or(0) + 1;
    let jobs: Vec<NewJob> = store
        .tasks()?
        .iter()
        .filter(|t| t.selected && t.status == TaskStatus::Pending)
        .map(|t| NewJob { kind: JobKind::Expand, a: t.id, b: 0, lo: 0, hi: 0, round, priority: PRIORITY_EXPAND })
        .collect();
    store.add_jobs(&jobs)?;
    store.set_meta("round", &round.to_string())?;
    Ok(Advance::Queued { round, jobs: jobs.len() })
}

/// The solve window of a leaf goal: the goal's finite edges widened by `margin`.
pub fn leaf_window(goal: Goal, squares: i32, margin: i32) -> Window {
    let lo_edge = if goal.lo > -squares { goal.lo } else { goal.hi };
    let hi_edge = if goal.hi < squares { goal.hi } else { goal.lo };
    Window { lo: (lo_edge - margin).max(-squares), hi: (hi_edge + margin).min(squares) }
}

/// Choice answers a worker keeps before it starts over (about 100 MB).
const CHOICE_CACHE_LIMIT: usize = 2_000_000;

/// Exact choice answers from the worker's leaf solver (a null-window solve at the goal's
/// edge, sharing the solver's table with the leaf solves that follow), cached: they are
/// facts and never change.
struct SolverOracle<'r> {
    options: &'r mut SolveOptions,
    cache: &'r mut HashMap<(Board, i32), bool>,
    /// Moves proven to reach a goal (`None`: the goal is false), by board and goal.
    reaching: &'r mut HashMap<(Board, i32), Option<Square>>,
    size: BoardSize,
    max_empties: u32,
    nodes: u64,
}

impl SolverOracle<'_> {
    /// Whether `b` is near enough the end for the oracle to answer.
    fn answers(&self, b: &Board) -> bool {
        b.empties(self.size) <= self.max_empties
    }

    /// The solve of `b` with the null window at `edge` (its nodes counted); `None` when
    /// stopped.
    fn solve_at(&mut self, b: &Board, edge: i32) -> Option<SolveResult> {
        self.options.window = Window { lo: edge, hi: edge };
        let r = solve(&solver_position(b, self.size), self.options);
        self.nodes += r.nodes;
        (!r.stopped).then_some(r)
    }
}

impl ChoiceOracle for SolverOracle<'_> {
    fn at_most(&mut self, b: &Board, bound: i32) -> Option<bool> {
        if !self.answers(b) {
            return None;
        }
        let key = (b.canonical(), bound);
        if let Some(&v) = self.cache.get(&key) {
            return Some(v);
        }
        // Values are even: the window {bound + 1} splits them into <= bound and >= bound + 2.
        let v = self.solve_at(b, bound + 1)?.upper <= bound;
        self.cache.insert(key, v);
        Some(v)
    }

    fn move_reaching(&mut self, b: &Board, lo: i32) -> Option<Square> {
        if !self.answers(b) {
            return None;
        }
        // Not canonical: the move is in `b`'s own orientation.
        if let Some(&m) = self.reaching.get(&(*b, lo)) {
            return m;
        }
        let r = self.solve_at(b, lo)?;
        let m = if r.lower >= lo { r.best_move } else { None };
        self.reaching.insert((*b, lo), m);
        m
    }
}

/// A worker's per-thread state for running jobs: the leaf solver's options (its table is
/// reused across jobs), the knowledge cache and the exact choice answers.
pub struct JobRunner {
    /// The settings.
    pub cfg: Config,
    /// The leaf solver's options (its stop flag stops a solve).
    pub solve_options: SolveOptions,
    knowledge: HashMap<Board, Bounds>,
    choices: HashMap<(Board, i32), bool>,
    reaching: HashMap<(Board, i32), Option<Square>>,
}

impl JobRunner {
    /// A runner for `cfg`; an error when the solver's table cannot be allocated.
    pub fn new(cfg: Config) -> Result<JobRunner, String> {
        let solve_options = SolveOptions::try_new(cfg.hash_mb).map_err(|e| e.to_string())?;
        Ok(JobRunner {
            cfg,
            solve_options,
            knowledge: HashMap::new(),
            choices: HashMap::new(),
            reaching: HashMap::new(),
        })
    }

    /// Runs `job`: the outcome to complete it with, `Ok(None)` when stopped (give the
    /// lease back), or the error to record.
    pub fn run(&mut self, store: &dyn PipelineStore, job: &Job) -> Result<Option<Outcome>, String> {
        let cfg = &self.cfg.clone();
        let squares = cfg.size.squares() as i32;
        let j = job.job;
        match j.kind {
            JobKind::Estimate => {
                let est = Estimator::new(cfg.size, cfg.estimate_depth);
                let rows = store.position_range(j.a, j.b).map_err(|e| e.to_string())?;
                if rows.is_empty() {
                    return Err(format!("estimate job {}: no positions {}..={}", job.id, j.a, j.b));
                }
                let out = rows.par_iter().map(|(id, b)| (*id, est.estimate(b))).collect();
                Ok(Some(Outcome::Estimates(out)))
            }
            JobKind::Expand => {
                let task = store
                    .tasks()
                    .map_err(|e| e.to_string())?
                    .into_iter()
                    .find(|t| t.id == j.a)
                    .ok_or_else(|| format!("expand job {}: no task {}", job.id, j.a))?;
                if !task.selected {
                    // A re-selection dropped the task: its expansion ends here, without
                    // work (a later selection that needs it again queues it again).
                    let none = Bounds::unknown(squares);
                    let (status, todo, solved) = (task.status, vec![], vec![]);
                    let goal = task.goal;
                    return Ok(Some(Outcome::Expanded { goal, status, bounds: none, todo, solved, choice_nodes: 0 }));
                }
                let est = Estimator::new(cfg.size, cfg.expand_depth);
                let mut source = PipelineKnowledge::new(store, cfg, std::mem::take(&mut self.knowledge));
                // Batch: solve the to-do list here and expand again, while the budget lasts.
                let mut solved: Vec<(Board, Bounds, u64)> = Vec::new();
                let mut choice_nodes = 0u64;
                if self.choices.len() + self.reaching.len() > CHOICE_CACHE_LIMIT {
                    self.choices.clear();
                    self.reaching.clear();
                }
                let (expansion, bounds) = loop {
                    let mut prover = Prover::new(cfg.size, cfg.leaf_empties, source);
                    let mut oracle = SolverOracle {
                        options: &mut self.solve_options,
                        cache: &mut self.choices,
                        reaching: &mut self.reaching,
                        size: cfg.size,
                        max_empties: cfg.choice_empties,
                        nodes: 0,
                    };
                    let expander = Expander::new(&mut prover, &est);
                    let expander = if cfg.choice_empties > 0 { expander.with_oracle(&mut oracle) } else { expander };
                    let expansion = expander.expand(&task.board, task.goal);
                    choice_nodes += oracle.nodes;
                    let bounds = prover.bounds_for(&task.board, task.goal);
                    source = prover.knowledge;
                    let list = match &expansion {
                        Expansion::Todo(list) if (solved.len() + list.len()) as u64 <= cfg.batch_leaves => list,
                        _ => break (expansion, bounds),
                    };
                    for (b, g) in list {
                        let Some((k, nodes)) = self.solve_leaf(b, leaf_window(*g, squares, cfg.margin)) else {
                            return Ok(None);
                        };
                        source.learn(b, k);
                        solved.push((*b, k, nodes));
                    }
                };
                let (cache, errors, failures) = source.finish();
                self.knowledge = cache;
                if let Some(f) = failures.first() {
                    return Err(format!("expand job {}: knowledge unreadable: {f}", job.id));
                }
                if let Some(e) = errors.first() {
                    eprintln!("warning: {} damaged knowledge row(s) ignored, first: {e}", errors.len());
                }
                let (status, todo, bounds) = match expansion {
                    Expansion::Proven => (TaskStatus::Proven, vec![], bounds),
                    Expansion::Refuted => (TaskStatus::Refuted, vec![], bounds),
                    // Found by an exact solve of the task, not proven: the task's bounds
                    // only steer the selection (verify reads knowledge rows alone).
                    Expansion::Disproved(found) => {
                        let merged = bounds.merged(found).ok_or_else(|| {
                            format!(
                                "expand job {}: the knowledge proves {}..{} but an exact solve of the task finds {}..{}",
                                job.id, bounds.lower, bounds.upper, found.lower, found.upper
                            )
                        })?;
                        (TaskStatus::Refuted, vec![], merged)
                    }
                    // The budget ran out after a batch: the task's next expansion, at once
                    // (unique by this job's id, so a rerun queues it once).
                    Expansion::Todo(_) if !solved.is_empty() => {
                        (TaskStatus::Pending, vec![NewJob { b: job.id, ..j }], bounds)
                    }
                    Expansion::Todo(list) => (
                        TaskStatus::Pending,
                        list.iter()
                            .map(|(b, g)| {
                                let w = leaf_window(*g, squares, cfg.margin);
                                NewJob {
                                    kind: JobKind::Solve,
                                    a: b.player as i64,
                                    b: b.opponent as i64,
                                    lo: w.lo,
                                    hi: w.hi,
                                    round: 0,
                                    priority: PRIORITY_SOLVE,
                                }
                            })
                            .collect(),
                        bounds,
                    ),
                };
                Ok(Some(Outcome::Expanded { goal: task.goal, status, bounds, todo, solved, choice_nodes }))
            }
            JobKind::Solve => {
                let b = Board { player: j.a as u64, opponent: j.b as u64 };
                let mask = cfg.size.mask();
                if b.player & b.opponent != 0
                    || (b.player | b.opponent) & !mask != 0
                    || b.empties(cfg.size) != cfg.leaf_empties
                    || b.canonical() != b
                {
                    return Err(format!(
                        "solve job {}: board {:016x}/{:016x} is not a canonical leaf",
                        job.id, b.player, b.opponent
                    ));
                }
                if j.lo > j.hi || j.lo < -squares || j.hi > squares {
                    return Err(format!("solve job {}: window {}..{} is impossible", job.id, j.lo, j.hi));
                }
                let Some((bounds, nodes)) = self.solve_leaf(&b, Window { lo: j.lo, hi: j.hi }) else {
                    return Ok(None);
                };
                Ok(Some(Outcome::Solved { board: b, bounds, nodes }))
            }
        }
    }

    /// Solves leaf `b` with `window`: its proven bounds and the solver's nodes, `None`
    /// when stopped.
    fn solve_leaf(&mut self, b: &Board, window: Window) -> Option<(Bounds, u64)> {
        let squares = self.cfg.size.squares() as i32;
        self.solve_options.window = window;
        let r = solve(&solver_position(b, self.cfg.size), &self.solve_options);
        if r.stopped {
            return None;
        }
        Some((Bounds { lower: r.lower.max(-squares), upper: r.upper.min(squares) }, r.nodes))
    }

    /// Asks a running solve to stop (from another thread through the shared flag).
    pub fn stop_flag(&self) -> std::sync::Arc<std::sync::atomic::AtomicBool> {
        self.solve_options.stop.clone()
    }

    /// Clears a stop request before the next job.
    pub fn reset_stop(&self) {
        self.solve_options.stop.store(false, Ordering::SeqCst);
    }
}

/// True when the game from `b` is over (no position to prove).
pub fn is_over(b: &Board, size: BoardSize) -> bool {
    matches!(node(b, size), Node::Over(_))
}
