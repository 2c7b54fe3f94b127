//! The public API: solve a position exactly, or within a window, on one or more
//! threads, with an optional node/time budget, returning bounds when stopped early.

use super::hints::MoveHints;
use super::knowledge::Knowledge;
use super::mc_hints::McHints;
use super::search::{Child, ExactConfig, ExactSearcher, ExactShared};
use crate::parallel::Splitting;
use crate::selective::ladder::Ladder;
use crate::table::{SearchTable, TtCounts, TtStats};
use serde::Serialize;
use solvo_core::hugemem::AllocError;
use solvo_eval::Weights;
use solvo_othello::rules::{Rules, SCORE_INF};
use solvo_othello::{Position, Square};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The range of values the caller cares about, inclusive: `lo <= value <= hi`. A value
/// outside is reported as a bound (`value < lo` as an upper bound `<= lo - 1`...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Window {
    /// Smallest value of interest.
    pub lo: i32,
    /// Largest value of interest.
    pub hi: i32,
}

impl Window {
    /// Every value: the result is exact.
    pub const FULL: Window = Window { lo: -64, hi: 64 };
}

/// How to solve.
#[derive(Clone)]
pub struct SolveOptions {
    /// Values of interest.
    pub window: Window,
    /// Search threads (1 or more).
    pub threads: usize,
    /// The transposition table to use (shared across solves if the caller keeps it).
    pub tt: Arc<SearchTable>,
    /// Stop after about this many nodes (returns bounds).
    pub node_budget: u64,
    /// Stop after this time (returns bounds).
    pub time_limit: Option<Duration>,
    /// Another way to stop: set it from any thread.
    pub stop: Arc<AtomicBool>,
    /// Search switches.
    pub config: ExactConfig,
    /// Nodes searched so far by all threads, updated every few thousand nodes (for
    /// progress displays).
    pub progress: Arc<AtomicU64>,
    /// Monte Carlo move ordering: GRAVE + PPAF playouts run before the solve (0: off).
    pub mc_playouts: u32,
    /// Seed of the Monte Carlo playouts.
    pub mc_seed: u64,
    /// The trained evaluation that orders moves high in the tree; `None`: the weights
    /// embedded for the position's board size and variant, if the build has them. Used only when its
    /// board size and variant are the position's and `config.eval_order` allows it; it
    /// never changes a value, only the order of the search.
    pub eval: Option<Arc<Weights>>,
    /// Best-move hints (see [`super::hints`]), e.g. from a selective search run before;
    /// `None`: none. Ordering only: values never depend on them.
    pub hints: Option<MoveHints>,
    /// Proven bounds kept outside the solve (see [`super::knowledge`]): read and written
    /// at nodes with many empties, so that a killed solve resumes; `None`: none.
    pub knowledge: Option<Arc<dyn Knowledge>>,
    /// The selective ladder [`crate::solve`] climbs before the exact pass when it pays
    /// (see [`Ladder`]): by default `LadderMode::Auto` with the solve's evaluation
    /// (`eval`, else the embedded one), climbing on the solve's own table. Clones of
    /// the options share it. Ordering only: values never depend on it. [`Ladder::off`]
    /// keeps the plain exact search.
    pub ladder: Arc<Ladder>,
}

impl SolveOptions {
    /// Full window, 1 thread, a table of `hash_mb` MiB, no budget. Panics if the table
    /// cannot be allocated (see [`Self::try_new`]).
    pub fn new(hash_mb: usize) -> SolveOptions {
        Self::try_new(hash_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Full window, 1 thread, a table of `hash_mb` MiB, no budget; an error (never an
    /// abort) when the system refuses the table's memory.
    pub fn try_new(hash_mb: usize) -> Result<SolveOptions, AllocError> {
        let bytes = hash_mb.checked_mul(1 << 20).ok_or(AllocError { bytes: usize::MAX })?;
        let tt = SearchTable::try_with_replacement(bytes, Default::default())?;
        Ok(Self::with_table(Arc::new(tt)))
    }

    /// Full window, 1 thread, the given table, no budget.
    pub fn with_table(tt: Arc<SearchTable>) -> SolveOptions {
        SolveOptions {
            window: Window::FULL,
            threads: 1,
            node_budget: u64::MAX,
            time_limit: None,
            stop: Arc::new(AtomicBool::new(false)),
            config: ExactConfig::default(),
            progress: Arc::new(AtomicU64::new(0)),
            mc_playouts: 0,
            mc_seed: 1,
            eval: None,
            hints: None,
            knowledge: None,
            ladder: Arc::new(Ladder::auto()),
            tt,
        }
    }
}

/// What a solve found.
#[derive(Clone, Debug)]
pub struct SolveResult {
    /// Proven lower bound of the value (side to move's final disc difference).
    pub lower: i32,
    /// Proven upper bound. `lower == upper` means the value is exact.
    pub upper: i32,
    /// A best move (`None` for a pass or a finished game, or when unknown).
    pub best_move: Option<Square>,
    /// The principal variation from the position (moves; passes as `None`), when exact.
    pub pv: Vec<Option<Square>>,
    /// Positions visited by the search, all threads.
    pub nodes: u64,
    /// Positions visited by the shallow searches that order moves high in the tree, all
    /// threads (not included in `nodes`; engines such as Edax count both together).
    pub ordering_nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// Transposition-table statistics after the solve.
    pub tt: TtStats,
    /// True when a budget or the stop flag ended the solve early.
    pub stopped: bool,
    /// Monte Carlo playouts run before the search (0 when off) and their time (part of
    /// `time`).
    pub mc_playouts: u64,
    /// Time of the Monte Carlo learning.
    pub mc_time: Duration,
}

impl SolveResult {
    /// The exact value, if proven.
    pub fn score(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// Solves `pos` (its size and variant) within `options.window`. The result's bounds
/// always hold; inside the window they meet (exact value) unless the solve was stopped.
pub fn solve(pos: &Position, options: &SolveOptions) -> SolveResult {
    solve_in_generation(pos, options, true)
}

/// [`solve`], starting a new table generation first only when `new_generation` (solves
/// that belong together, the children of one root, keep one generation so that none
/// of them makes the others' entries the first to be replaced).
pub(crate) fn solve_in_generation(pos: &Position, options: &SolveOptions, new_generation: bool) -> SolveResult {
    let start = Instant::now();
    let rules = Rules::new(pos.size, pos.variant);
    let (p, o) = (pos.board.player, pos.board.opponent);
    let empties = pos.empties();
    let max = rules.max_score();
    let alpha = (options.window.lo - 1).clamp(-max - 1, max);
    let beta = (options.window.hi + 1).clamp(-max, max + 1);
    if new_generation {
        options.tt.new_generation();
    }
    // With a time limit, the search obeys an internal flag that a watcher raises at the
    // deadline or when the caller's flag is raised, so the caller's flag is never set by
    // us (the same options can be reused for the next position).
    let timed_out = AtomicBool::new(options.stop.load(Ordering::Relaxed));
    let stop = if options.time_limit.is_some() { &timed_out } else { &*options.stop };
    let timer_done = AtomicBool::new(false);
    let shared = ExactShared::new(options.config.split_min_empties);
    let hints = (options.mc_playouts > 0).then(|| McHints::learn(pos, options.mc_playouts, options.mc_seed));
    let hints = hints.as_ref();
    let use_eval = options.config.eval_order != 0;
    let embedded = if use_eval && options.eval.is_none() {
        solvo_eval::embedded_shared_for(pos.size, pos.variant).ok()
    } else {
        None
    };
    let eval = options
        .eval
        .as_deref()
        .or(embedded.as_deref())
        .filter(|w| use_eval && w.check_for(pos.size, pos.variant).is_ok());

    let outcome = std::thread::scope(|scope| {
        let watcher = options.time_limit.map(|limit| {
            let (timer_done, timed_out, user_stop) = (&timer_done, &timed_out, &options.stop);
            scope.spawn(move || {
                let until = Instant::now() + limit;
                while !timer_done.load(Ordering::Relaxed) {
                    let now = Instant::now();
                    if now >= until || user_stop.load(Ordering::Relaxed) {
                        timed_out.store(true, Ordering::Relaxed);
                        break;
                    }
                    std::thread::park_timeout((until - now).min(Duration::from_millis(5)));
                }
            })
        });
        let shared = &shared;
        let helpers: Vec<_> = (1..options.threads.max(1))
            .map(|_| {
                scope.spawn(move || {
                    let mut s = ExactSearcher::new(rules, &options.tt, options.config, &shared.quit, u64::MAX);
                    s.progress = Some(&options.progress);
                    s.shared = Some(shared);
                    s.mc = hints;
                    s.eval = eval;
                    s.hints = options.hints.as_ref();
                    s.set_knowledge(options.knowledge.as_deref());
                    s.helper_loop();
                    (s.nodes, s.ordering_nodes, s.tt_cutoffs, s.tt_counts)
                })
            })
            .collect();
        let mut main = ExactSearcher::new(rules, &options.tt, options.config, stop, options.node_budget);
        main.progress = Some(&options.progress);
        main.mc = hints;
        main.eval = eval;
        main.hints = options.hints.as_ref();
        main.set_knowledge(options.knowledge.as_deref());
        if options.threads > 1 {
            main.shared = Some(shared);
        }
        let limited = options.time_limit.is_some() || options.node_budget != u64::MAX;
        let root = if limited {
            probing_root_search(&mut main, p, o, alpha, beta, empties)
        } else {
            root_search(&mut main, p, o, alpha, beta, empties)
        };
        shared.quit.store(true, Ordering::Relaxed);
        timer_done.store(true, Ordering::Relaxed);
        if let Some(w) = &watcher {
            w.thread().unpark();
        }
        let pv = if root.lower == root.upper && !main.aborted {
            principal_variation(&mut main, p, o, root.lower, empties, root.best_move)
        } else {
            Vec::new()
        };
        let mut totals = (main.nodes, main.ordering_nodes, main.tt_cutoffs, main.tt_counts);
        for h in helpers {
            let (n, ordering, c, counts) = h.join().expect("search helper panicked");
            totals.0 += n;
            totals.1 += ordering;
            totals.2 += c;
            totals.3 += counts;
        }
        (root, pv, totals, main.aborted)
    });
    let (root, pv, (nodes, ordering_nodes, cutoffs, counts), aborted) = outcome;
    let mut tt = options.tt.stats(counts);
    tt.cutoffs = cutoffs;
    SolveResult {
        lower: root.lower,
        upper: root.upper,
        best_move: root.best_move,
        pv,
        nodes,
        ordering_nodes,
        time: start.elapsed(),
        tt,
        stopped: aborted,
        mc_playouts: hints.map_or(0, |h| h.summary().0),
        mc_time: hints.map_or(Duration::ZERO, |h| h.summary().2),
    }
}

/// [`solve`] with an aspiration window: first only the values within `half_width` of
/// `guess` (an estimate, e.g. a selective search's), then, if the value lies outside,
/// the side it lies on, searched again over the same table. The result is the same as
/// [`solve`]'s with `options.window` (exact inside it); only the cost depends on the
/// guess. Nodes, ordering nodes and time are the sums of the searches.
pub fn solve_from_estimate(pos: &Position, options: &SolveOptions, guess: i32, half_width: i32) -> SolveResult {
    estimate_in_generation(pos, options, guess, half_width, true)
}

/// [`solve_from_estimate`], the table generation kept when not `new_generation` (see
/// [`solve_in_generation`]).
pub(crate) fn estimate_in_generation(
    pos: &Position,
    options: &SolveOptions,
    guess: i32,
    half_width: i32,
    new_generation: bool,
) -> SolveResult {
    let solve = |pos: &Position, options: &SolveOptions| solve_in_generation(pos, options, new_generation);
    let want = options.window;
    let lo = (guess - half_width).max(want.lo);
    let hi = (guess + half_width).min(want.hi);
    if lo > hi || (lo == want.lo && hi == want.hi) {
        return solve(pos, options);
    }
    let mut narrow = options.clone();
    narrow.window = Window { lo, hi };
    let mut r = solve(pos, &narrow);
    // Done when exact, stopped, or already outside the window asked for (a bound is
    // all `solve` would report there too).
    let settled = r.lower == r.upper || r.stopped || r.lower > want.hi || r.upper < want.lo;
    let next = if settled {
        None
    } else if r.lower > hi {
        Some(Window { lo: r.lower.min(want.hi), hi: want.hi })
    } else if r.upper < lo {
        Some(Window { lo: want.lo, hi: r.upper.max(want.lo) })
    } else {
        None
    };
    if let Some(window) = next {
        narrow.window = window;
        let again = solve(pos, &narrow);
        let (nodes, ordering, time, mc) = (r.nodes, r.ordering_nodes, r.time, r.mc_time);
        r = SolveResult {
            nodes: nodes + again.nodes,
            ordering_nodes: ordering + again.ordering_nodes,
            time: time + again.time,
            mc_time: mc + again.mc_time,
            lower: again.lower.max(r.lower),
            upper: again.upper.min(r.upper),
            ..again
        };
    }
    r
}

/// The root search of a solve under a time or node limit: a sequence of null-window
/// probes ("value >= t?", bisecting the interval still open), so that a search stopped
/// by its limit still reports the bounds (and the best move of the last probe that
/// proved a lower bound) of every probe it finished, instead of nothing when the first
/// move's full-window search did not end. Unlimited solves use [`root_search`] directly
/// (the probes cost more nodes in all).
fn probing_root_search(s: &mut ExactSearcher, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> Root {
    let max = s.rules.max_score();
    let (mut lower, mut upper, mut best_move) = (-max, max, None);
    while lower < upper && lower < beta && upper > alpha {
        // Probe "value >= t" with t in (lower, upper], a quarter of the way up the open
        // interval: probes that succeed are the cheap ones (one good move proves them),
        // so a stopped search has a lower bound and a move early.
        let t = lower + (upper - lower + 3) / 4;
        let r = root_search(s, p, o, t - 1, t, empties);
        if r.lower > lower {
            lower = r.lower;
            best_move = r.best_move.or(best_move);
        }
        if s.aborted {
            break;
        }
        upper = upper.min(r.upper);
        if r.best_move.is_none() && r.lower == r.upper {
            // No move at the root (a finished game, or a pass): the value is exact.
            return r;
        }
    }
    if best_move.is_none() && lower == -max && upper == -max {
        // Every probe failed low: the value is the lowest there is, which every move
        // keeps (no probe proved one, as none succeeded).
        best_move = Square::iter(solvo_othello::moves::legal_moves(p, o, s.rules.mask)).next();
    }
    Root { lower, upper, best_move }
}

/// Root result: bounds and best move.
struct Root {
    lower: i32,
    upper: i32,
    best_move: Option<Square>,
}

/// The root of the search: like [`ExactSearcher::search`] but keeps the best move and, when
/// stopped, the bounds proven so far. Other threads join through split points below.
fn root_search(s: &mut ExactSearcher, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> Root {
    let mask = s.rules.mask;
    let max = s.rules.max_score();
    let moves = solvo_othello::moves::legal_moves(p, o, mask);
    if moves == 0 {
        if solvo_othello::moves::legal_moves(o, p, mask) == 0 {
            let v = s.rules.final_score(p, o);
            return Root { lower: v, upper: v, best_move: None };
        }
        let child = root_search(s, o, p, -beta, -alpha, empties);
        return Root { lower: -child.upper, upper: -child.lower, best_move: None };
    }
    let odd = super::shallow::odd_quadrants(!(p | o) & mask);
    let mc_node = s.mc.and_then(|h| h.node(solvo_othello::hash::hash_board(p, o)));
    let hinted = s.hints.and_then(|h| h.best_move(p, o));
    let mut order: Vec<Child> = Square::iter(moves)
        .map(|sq| {
            let x = sq.index();
            let f = solvo_othello::flips::flips(x, p, o);
            let (cp, co) = (o ^ f, p ^ f ^ sq.bit());
            let key = if hinted == Some(x as u8) {
                i32::MAX
            } else {
                s.order_key(cp, co, x, empties, odd, mc_node, -SCORE_INF)
            };
            Child { p: cp, o: co, x: x as u8, key }
        })
        .collect();
    order.sort_by_key(|c| std::cmp::Reverse(c.key));
    let (alpha0, beta0) = (alpha, beta);
    let mut alpha = alpha;
    let mut best = -SCORE_INF;
    let mut best_move = None;
    let stopped = |s: &ExactSearcher, best: i32, best_move| {
        // Children finished before the stop proved `best` as a lower bound only if one
        // of them rose above the window's alpha: a value at or below it is only an
        // upper bound of that child (fail-soft null-window search).
        let (lower, best_move) = if best > alpha0 { (best.min(max), best_move) } else { (-max, None) };
        debug_assert!(s.aborted);
        Root { lower, upper: max, best_move }
    };
    for (i, c) in order.iter().enumerate() {
        if s.config.may_split_at(i) && s.should_split(empties, order.len() - i) {
            let first = best_move.map_or(c.x, |m: Square| m.index() as u8);
            let (b, m) = s.split(&order[i..], empties, alpha, beta, (best, first));
            if s.aborted {
                return stopped(s, best, best_move);
            }
            best = b;
            best_move = Square::new(m);
            break;
        }
        let v = if i == 0 {
            -s.search(c.p, c.o, -beta, -alpha, empties - 1)
        } else {
            let mut v = -s.search(c.p, c.o, -alpha - 1, -alpha, empties - 1);
            if v > alpha && v < beta && !s.aborted {
                v = -s.search(c.p, c.o, -beta, -v, empties - 1);
            }
            v
        };
        if s.aborted {
            return stopped(s, best, best_move);
        }
        if v > best {
            best = v;
            best_move = Square::new(c.x);
            if v > alpha {
                alpha = v;
                if alpha >= beta {
                    break;
                }
            }
        }
    }
    let lower = if best > alpha0 { best } else { -max };
    let upper = if best < beta0 { best } else { max };
    let (lower, upper) = if best > alpha0 && best < beta0 { (best, best) } else { (lower, upper) };
    Root { lower, upper, best_move }
}

/// A line of best play from a position of exact value `value` (moves, passes as None).
fn principal_variation(
    s: &mut ExactSearcher,
    p: u64,
    o: u64,
    value: i32,
    empties: u32,
    first: Option<Square>,
) -> Vec<Option<Square>> {
    let mask = s.rules.mask;
    let (mut p, mut o, mut v, mut e) = (p, o, value, empties);
    let mut pv = Vec::new();
    while e > 0 {
        let moves = solvo_othello::moves::legal_moves(p, o, mask);
        if moves == 0 {
            if solvo_othello::moves::legal_moves(o, p, mask) == 0 {
                break;
            }
            pv.push(None);
            std::mem::swap(&mut p, &mut o);
            v = -v;
            continue;
        }
        // Try the root's best move (first ply) or the table's best move first.
        let preferred = if pv.is_empty() {
            first.map(|sq| sq.bit())
        } else {
            s.tt.probe(crate::table::table_hash(p, o), p, o, &mut TtCounts::default())
                .and_then(|h| h.best)
                .map(|x| 1u64 << x)
        }
        .unwrap_or(0)
            & moves;
        let next = Square::iter(preferred).chain(Square::iter(moves & !preferred)).find_map(|sq| {
            let f = solvo_othello::flips::flips(sq.index(), p, o);
            let (cp, co) = (o ^ f, p ^ f ^ sq.bit());
            let cv = -s.search(cp, co, -v - 1, -v + 1, e - 1);
            (cv == v).then_some((sq, cp, co))
        });
        let Some((sq, cp, co)) = next else { break };
        pv.push(Some(sq));
        p = cp;
        o = co;
        v = -v;
        e -= 1;
    }
    pv
}
