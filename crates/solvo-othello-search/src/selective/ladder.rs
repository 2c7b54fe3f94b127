//! The selective ladder before an exact solve: a Multi-ProbCut search on the
//! evaluation (iterative deepening, aspiration) run almost to the end of the game on
//! the solve's own table ([`crate::table`]), where the exact pass then finds a first
//! move at every position the climb stored. The strongest engines climb selectivity levels inside the
//! endgame search itself; here the climb is the midgame search's own iterative
//! deepening at one chosen level, and only the moves cross over: the exact pass never
//! reads a selective bound, so its value cannot depend on the ladder (ordering only; a
//! test checks equal values with and without).

use super::driver::{SearchError, SearchLimits, SelectiveSearch};
use super::mpc::Selectivity;
use crate::exact::hints::MoveHints;
use crate::exact::search::ExactConfig;
use crate::exact::{solve, SolveOptions, SolveResult};
use solvo_eval::Weights;
use solvo_othello::{BoardSize, Position, Variant};
use std::sync::Arc;
use std::time::Duration;

/// Fewest empties at which [`LadderMode::Auto`] climbs. Measured on FFO #40-#44 (20-23
/// empties, 1 thread): 7.08 s without, 5.67 s with the 73% ladder.
pub const AUTO_MIN_EMPTIES: u32 = 18;

/// Narrowest window (`hi - lo`, discs) a solve must ask for before [`LadderMode::Auto`]
/// climbs: a null-window or win/draw/loss solve is cheap where a climb to the end is not.
/// The pipeline's choices (null windows at 20-24 empties, one climb each) took 323 s
/// on one 25-empty position of Edax's hard-25 set with climbs, 19.3 s without; FFO
/// #40-#49 asked `--window 0,1`, 7.6 s with, 5.2 s without (asked at their own values,
/// where the proof is hardest, 29.6 s with and 37.6 s without: the climb pays only when
/// the window holds the value).
pub const AUTO_MIN_WINDOW: i32 = 3;

/// Whether [`LadderMode::Auto`] climbs under `variant`: where it was measured to pay.
/// Normal rules: FFO #40-#54 1.6x faster. Reversed rules (the self-play weights with
/// their statistics): more work, not less (random-game positions, 1 thread: 20 of 20
/// empties 1.40 G search + 0.005 G ordering nodes without, 1.14 G + 0.063 G and 8% more
/// time with; 6 of 24 empties 13.18 G + 0.10 G without, 13.62 G + 0.18 G with).
pub fn pays_under(variant: Variant) -> bool {
    variant == Variant::Normal
}

/// Deepest climb. FFO #57 and #58 (30 empties, climbs to 28 plies) solve 1.6x and 2.1x
/// faster with the ladder; FFO #59 (34 empties, a wipe-out) spent longer in a climb
/// towards 32 plies than the whole solve takes without it (52 s).
pub const MAX_DEPTH: u32 = 28;

/// Half width (discs) of the first window around the ladder's estimate: FFO #45-#49,
/// 1 thread, 0.852 G search nodes with the full window, 0.835 G at 2, 0.845 G at 4.
pub const ASPIRATION: i32 = 2;

/// How to climb the ladder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LadderOptions {
    /// Selectivity of the search (e.g. 73%).
    pub selectivity: Selectivity,
    /// The search goes to `empties - depth_cut` plies (at least 1, at most
    /// [`MAX_DEPTH`], and no further once it finds a wipe-out): its leaves are the
    /// evaluation of nearly finished positions, never an exact solve.
    pub depth_cut: u32,
    /// Table size (MiB) of a standalone climb ([`climb`]); a solve's climb
    /// ([`Ladder::solve`]) searches on the solve's own table.
    pub hash_mb: usize,
    /// Search threads of the climb (split points, as every selective search's). With
    /// the earlier Lazy SMP threads (about twice the climb's nodes on 2 threads), FFO
    /// #40-#49 solved on 2 threads took 15.7-16.0 s in all with 2-thread climbs, 17.0-17.6
    /// s with 1-thread climbs; and FFO #59's exact pass after a 2-thread climb took
    /// 0.45 G nodes (8.8 s) against 770 after a 1-thread one.
    pub threads: usize,
    /// The climb's iterations start in aspiration windows around the last one's value
    /// ([`SearchLimits::aspiration`]); false: each searches the whole window, the
    /// published 8x8 solver's choice. A solve's climb ([`Ladder::solve`]) takes the
    /// solve's `ExactConfig::climb_aspiration` instead (`--tune climb_aspiration=0`).
    pub aspiration: bool,
}

impl Default for LadderOptions {
    /// 73% selectivity to 2 empties before the end, 256 MiB, 1 thread, aspiration windows.
    fn default() -> LadderOptions {
        LadderOptions {
            selectivity: Selectivity::from_percent(73).expect("73 is a level"),
            depth_cut: 2,
            hash_mb: 256,
            threads: 1,
            aspiration: true,
        }
    }
}

/// What the ladder found: the hints for the exact solve and its estimate.
pub struct LadderResult {
    /// The table's best moves, for `SolveOptions::hints`.
    pub hints: MoveHints,
    /// The selective search's value of the position, discs (an estimate only).
    pub estimate: f64,
    /// Depth searched.
    pub depth: u32,
    /// Nodes of the selective search.
    pub nodes: u64,
    /// Its wall time.
    pub time: Duration,
}

/// Runs the selective search of `pos` with `weights` (their Multi-ProbCut statistics
/// decide the cuts; without any the search is unselective). Errors as
/// [`SelectiveSearch::search`] (a board that is not 8x8, another variant, a table the
/// system refuses).
pub fn climb(weights: Arc<Weights>, pos: &Position, options: &LadderOptions) -> Result<LadderResult, SearchError> {
    climb_with(&mut SelectiveSearch::try_new(weights, options.hash_mb)?, pos, options)
}

/// `limits` as a climb searches: at the ladder's `selectivity`, every depth (two plies
/// at a time, FFO #40-#59 took 19.77 G + 3.34 G nodes instead of 16.33 G + 3.06 G;
/// #40-#49 alone 8% fewer), and without solving small positions on the way (a climb
/// orders an exact solve; its figures were measured so). The one place both climbs
/// (`climb_with` and the selective search's exact tail) take their limits from.
pub(crate) fn climbing(limits: SearchLimits, selectivity: Selectivity) -> SearchLimits {
    SearchLimits { selectivity, every_depth: true, solve_empties: 0, ..limits }
}

/// [`climb`] on an existing searcher (its weights; its table, whatever `options.hash_mb`
/// says), which is cleared first (a no-op on a searcher that has not searched yet): the
/// result is the same as a fresh searcher's, without allocating and faulting in a new
/// table. A fresh 256 MiB table per climb cost more
/// than the climb itself on the small FFO problems (FFO #45, 1 thread: 0.58 s with a
/// fresh table, 0.45 s with 32 MiB, same nodes; with 2 threads faulting pages of one
/// table at once, 1.24 s). The returned hints read `search`'s table.
pub fn climb_with(
    search: &mut SelectiveSearch,
    pos: &Position,
    options: &LadderOptions,
) -> Result<LadderResult, SearchError> {
    search.clear();
    let depth = pos.empties().saturating_sub(options.depth_cut).clamp(1, MAX_DEPTH);
    let limits = climbing(
        SearchLimits { depth, threads: options.threads, aspiration: options.aspiration, ..SearchLimits::default() },
        options.selectivity,
    );
    // A wipe-out score cannot get better: deeper iterations would only cost.
    let stop = search.stop_flag();
    let wipe_out = (pos.size.squares() as i32) * solvo_eval::SCALE;
    let r = search.search_with(pos, &limits, &mut |r| {
        if r.score_units.abs() >= wipe_out {
            stop.store(true, std::sync::atomic::Ordering::Relaxed);
        }
    })?;
    Ok(LadderResult { hints: search.move_hints(), estimate: r.score, depth: r.depth, nodes: r.nodes, time: r.time })
}

/// When a solve climbs the ladder.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LadderMode {
    /// Never.
    Off,
    /// At 73% from [`AUTO_MIN_EMPTIES`] empties, under the rules where it pays
    /// ([`pays_under`]), for windows of at least [`AUTO_MIN_WINDOW`], when the weights
    /// are for the position's board and variant and carry Multi-ProbCut statistics.
    Auto,
    /// At this selectivity whenever the weights fit the position (any empties).
    Level(Selectivity),
}

/// A ladder policy for a series of solves: mode, weights, search options, aspiration.
pub struct Ladder {
    /// When to climb.
    pub mode: LadderMode,
    /// The evaluation (and its Multi-ProbCut statistics) the climb searches with;
    /// `None`: the solve's own (`SolveOptions::eval`), else the embedded set for the
    /// position's variant.
    pub weights: Option<Arc<Weights>>,
    /// Depth cut and threads of the climb (its selectivity comes from `mode`; its
    /// table is the solve's).
    pub options: LadderOptions,
    /// Half width of the first window around the estimate (0: the whole window at once).
    pub aspiration: i32,
}

impl Ladder {
    /// A ladder climbing in `mode` with `weights` and `options`, the exact pass's first
    /// window `aspiration` discs either side of the estimate.
    pub fn new(mode: LadderMode, weights: Option<Arc<Weights>>, options: LadderOptions, aspiration: i32) -> Ladder {
        Ladder { mode, weights, options, aspiration }
    }

    /// The default ladder: [`LadderMode::Auto`], the solve's evaluation,
    /// [`ASPIRATION`].
    pub fn auto() -> Ladder {
        Ladder::new(LadderMode::Auto, None, LadderOptions::default(), ASPIRATION)
    }

    /// A ladder that never climbs: the plain exact search (for measurement).
    pub fn off() -> Ladder {
        Ladder::new(LadderMode::Off, None, LadderOptions::default(), ASPIRATION)
    }

    /// The weights a climb of `pos` under `options` searches with (see [`Ladder::weights`]).
    fn weights_for(&self, pos: &Position, options: &SolveOptions) -> Option<Arc<Weights>> {
        self.weights.clone().or_else(|| options.eval.clone()).or_else(|| solvo_eval::embedded_shared(pos.variant).ok())
    }

    /// The selectivity the ladder climbs at for `pos` with `weights`, or `None` when it
    /// does not (mode off, too few empties for `Auto`, weights of another board or
    /// variant, or weights without Multi-ProbCut statistics, whose unselective search to
    /// the end would cost more than the solve).
    pub fn selectivity_for(&self, pos: &Position, weights: &Weights) -> Option<Selectivity> {
        let fits = climbable(pos, weights, self.options.depth_cut);
        match self.mode {
            LadderMode::Off => None,
            _ if !fits => None,
            LadderMode::Auto => auto_pays(pos).then(|| Selectivity::from_percent(73).unwrap()),
            LadderMode::Level(s) => Some(s),
        }
    }

    /// Solves `pos` as the exact search does with `options` (same guarantees: the value
    /// never depends on the ladder), climbing first when [`Ladder::selectivity_for`]
    /// says so, the solve has no time or node limit (the climb has none of its own) and,
    /// in [`LadderMode::Auto`], its window is at least [`AUTO_MIN_WINDOW`] wide;
    /// then the climb's nodes are counted in the result's `ordering_nodes` and its time
    /// in `time`, and the exact pass starts with the aspiration window around the
    /// estimate ([`exact_after_climb`]).
    pub fn solve(&self, pos: &Position, options: &SolveOptions) -> SolveResult {
        let narrow = self.mode == LadderMode::Auto && options.window.hi - options.window.lo < AUTO_MIN_WINDOW;
        let limited = options.time_limit.is_some() || options.node_budget != u64::MAX;
        let weights = if narrow || limited { None } else { self.weights_for(pos, options) };
        let Some((selectivity, weights)) = weights.and_then(|w| Some((self.selectivity_for(pos, &w)?, w))) else {
            return solve(pos, options);
        };
        let climb_options = LadderOptions { selectivity, aspiration: options.config.climb_aspiration, ..self.options };
        // The climb searches on the solve's own table: the exact pass finds the climb's
        // moves there as its table moves.
        let mut searcher = SelectiveSearch::with_table(weights, options.tt.clone());
        let Ok(climbed) = climb_watching(&mut searcher, pos, &climb_options, &options.stop) else {
            return solve(pos, options);
        };
        let mut r = exact_after_climb(pos, options, Some(climbed.estimate), self.aspiration);
        r.ordering_nodes += climbed.nodes;
        r.time += climbed.time;
        r
    }
}

/// [`climb_with`], stopped as soon as `stop` (the solve's stop flag) is raised: the
/// climb's searcher has a flag of its own (raised by its wipe-out rule, cleared when it
/// starts), so a watcher raises it every few milliseconds while `stop` is up. The exact
/// pass after a stopped climb sees `stop` itself and returns at once.
fn climb_watching(
    searcher: &mut SelectiveSearch,
    pos: &Position,
    options: &LadderOptions,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<LadderResult, SearchError> {
    use std::sync::atomic::{AtomicBool, Ordering::Relaxed};
    let climb_stop = searcher.stop_flag();
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Relaxed) {
                if stop.load(Relaxed) {
                    climb_stop.store(true, Relaxed);
                }
                std::thread::sleep(Duration::from_millis(5));
            }
        });
        let r = climb_with(searcher, pos, options);
        done.store(true, Relaxed);
        r
    })
}

/// Whether a climb of `pos` with `weights` can run: an 8x8 position, weights for its
/// board and variant carrying Multi-ProbCut statistics, more than `depth_cut + 1` empties.
pub(crate) fn climbable(pos: &Position, weights: &Weights, depth_cut: u32) -> bool {
    pos.size == BoardSize::Eight
        && weights.size() == BoardSize::Eight
        && weights.variant == pos.variant
        && !weights.mpc.is_empty()
        && pos.empties() > depth_cut + 1
}

/// Whether [`LadderMode::Auto`] climbs for `pos`: from [`AUTO_MIN_EMPTIES`] empties,
/// under the rules where it pays ([`pays_under`]). The one rule of the crate's solve
/// and of the selective search's exact tail.
pub(crate) fn auto_pays(pos: &Position) -> bool {
    pos.empties() >= AUTO_MIN_EMPTIES && pays_under(pos.variant)
}

/// The exact pass after a climb, written once for the crate's solve and the selective
/// search's exact tail: on the table the climb searched on (`options.tt`), where it
/// finds the climb's moves as its table moves, and, given the climb's `estimate`, a
/// first window `aspiration` discs either side of it (the whole window when 0 or no
/// estimate). The table's generation is kept, so the exact pass does not evict the
/// climb's entries first (a new generation cost FFO #49 32% more nodes); after a
/// wipe-out estimate the pass ignores the climb's moves. The value is the exact
/// search's: the climb's moves and the first window only order it.
pub(crate) fn exact_after_climb(
    pos: &Position,
    options: &SolveOptions,
    estimate: Option<f64>,
    aspiration: i32,
) -> SolveResult {
    use crate::exact::solve::{estimate_in_generation, solve_in_generation};
    // A climb that ends on a wipe-out has reached the evaluation's clamp: its table
    // moves lead wherever some line scores the clamp, not where the proof is short.
    // Followed, they cost the exact pass 968 M nodes on a 34-empty wipe-out of
    // `wthor-34.obf` where the plain search takes 16 M; ignoring them, the pass takes
    // about 70 K, its first window at the wipe-out. The proven entries stay in use
    // (clearing the table instead cost the pipeline's next solves theirs).
    let wipe_out = estimate.is_some_and(|e| e.abs() >= f64::from(pos.size.squares()));
    let ignoring;
    let options = if wipe_out {
        ignoring = SolveOptions { config: ExactConfig { selective_moves: false, ..options.config }, ..options.clone() };
        &ignoring
    } else {
        options
    };
    match estimate {
        Some(e) if aspiration > 0 => estimate_in_generation(pos, options, e.round() as i32, aspiration, false),
        _ => solve_in_generation(pos, options, false),
    }
}
