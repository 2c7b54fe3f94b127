//! The public search: iterative deepening on one or more threads (the main thread's
//! null-window nodes split over helper threads, see `crate::parallel`), a time limit
//! and a stop flag, an exact solve by the exact search (`crate::exact`)
//! when the depth reaches the end of the game, and a report after each iteration.

use super::mpc::{MpcTable, Selectivity};
use super::root::RootMove;
use super::search::{Context, SelectiveSearcher, SelectiveShared, SPLIT_MIN_DEPTH};
use crate::exact::search::ExactShared;
use crate::exact::{SolveOptions, Window};
use crate::table::{SearchTable, NO_MOVE};
use solvo_core::hugemem::AllocError;
use solvo_eval::{Weights, SCALE};
use solvo_othello::moves::legal_moves;
use solvo_othello::rules::Rules;
use solvo_othello::{BoardSize, Position, Square};
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Fewest empties at which a PV-extension solve offers a node's children to the helper
/// threads (the exact solver's own default, 12, is for solves of 20 empties and more;
/// these have at most 20). `bench hard hard-25.obf --depth 14 --limit 40 --threads 2`:
/// 27.7 s at 12, 26.8 s at 8, 26.7 s at 6, 28.2 s at 10 (1 thread: 32.2 s).
pub const PV_SOLVE_SPLIT_MIN_EMPTIES: u32 = 8;

/// Largest thread count accepted.
pub const MAX_THREADS: usize = 64;

/// Tables of `hash_mb` MiB a [`SelectiveSearch`] holds: one, which its selective search
/// and its exact solves share.
pub const TABLES_PER_SEARCHER: usize = 1;

/// Deepest midgame iteration run before an exact solve (a quick fallback result and
/// a warm-up; the solver orders its own moves).
const EXACT_PRELUDE_DEPTH: u32 = 6;

/// Deepest midgame iteration run before a proof of the outcome ([`SearchLimits::wld_from`]),
/// without the PV extension: the proof chooses a won or drawn position's move, and a lost
/// position stays lost against an opponent that proves it too, so the midgame there only
/// warms the table for the proof. Level 12 against NTest at depth 12 (2,000 games each,
/// `docs/results/clock.md`): the full depth-12 search before the proof scored 49.8% and
/// took 62.7 ms a move at 20-21 empties, this prelude 50.1% and 55.7 ms (3.6 instead of
/// 10.0 ms at 18-19).
const WLD_PRELUDE_DEPTH: u32 = 8;

/// What to search.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchLimits {
    /// Target depth in plies (passes are free). At or beyond the number of empty
    /// squares the position is solved exactly.
    pub depth: u32,
    /// Multi-ProbCut selectivity ([`Selectivity::EXACT`]: none).
    pub selectivity: Selectivity,
    /// Wall-time limit: the result of the last completed iteration is returned.
    pub time: Option<Duration>,
    /// The time the search aims at, below `time` (a game clock's share of a move;
    /// `None`: `time`): no iteration starts that is expected to end past it (two plies
    /// deeper costs about one and a half times all the iterations before; one ply, half).
    pub aim: Option<Duration>,
    /// Search threads (1 to [`MAX_THREADS`]).
    pub threads: usize,
    /// Score every legal move exactly at each depth (slower), not only the best one.
    pub all_moves: bool,
    /// Solve exactly when the position has at most this many empty squares (0: only
    /// when `depth` reaches the end).
    pub exact_from: u32,
    /// Prove win, draw or loss when the position has at most this many empty squares
    /// and is not solved exactly (`exact_from` below it): after midgame iterations to at
    /// most 8 plies (`WLD_PRELUDE_DEPTH`, no PV extension), an exact solve with the
    /// window (-1, 1). A proven win or draw plays the solver's
    /// move; a proven loss keeps the midgame move (the evaluation's hardest task for the
    /// opponent). The reported score is the midgame one moved into the proven range (at
    /// least 1 for a win, 0 for a draw, at most -1 for a loss), the result still not
    /// `exact`. 0: never. Cheaper than the exact score by about 2.6x at 20 empties.
    pub wld_from: u32,
    /// Node limit (about: checked every few thousand nodes): like the time limit, the
    /// last completed iteration is returned once the search has visited this many.
    pub nodes: Option<u64>,
    /// Principal-variation nodes below the root with at most this many empty squares
    /// are solved exactly instead of searched to the depth (the "PV extension": the
    /// principal variation's score ends in an exact value; other nodes keep the
    /// depth-limited search). 0: never. See [`pv_extension_for`] for the measured
    /// choice by depth. Those solves obey the stop flag and the node limit but not the
    /// time limit, which is checked between them: keep it small (at most 20, a fraction
    /// of a second a solve).
    pub pv_extension: u32,
    /// Positions with at most this many empty squares, met anywhere below the root, are
    /// valued exactly (the endgame solver's shallow search, within the node's window)
    /// instead of searched on or evaluated: a depth that reaches them ends in exact
    /// values, so a deep search from 25-30 empties is a selective endgame search, as
    /// NTest's is (it solves from 8 empties). Under a time limit, a search whose
    /// deepest iteration reaches them at every leaf spends the time left on that depth
    /// at the next selectivity levels, up to 100% (the value is then exact). 0: never
    /// (the plain depth-limited value).
    /// See [`SOLVE_EMPTIES`] for the measured choice, which the engine's levels use.
    pub solve_empties: u32,
    /// Each iteration after the first starts in an aspiration window around the last
    /// one's value, widened until the value falls inside (true, the default); false:
    /// every iteration searches the whole window, as the published 8x8 solve's Edax
    /// did while iterating ("Othello is solved", section 3.1). The result is the same
    /// without selectivity; only the nodes change (with it, the cuts depend on the
    /// window).
    pub aspiration: bool,
    /// Iterate every depth from 2 (true), instead of two plies at a time (false, the
    /// default): depths of the target depth's parity only, as Edax iterates. The
    /// evaluation's value swings with the side to move by two to three discs between
    /// odd and even depths (the Multi-ProbCut means), so an iteration of the other
    /// parity orders the next one badly and centres its aspiration window off its
    /// value. Two at a time, hard-30 (`bench hard`, 1 thread) took 36.4 M nodes at
    /// 12@87 instead of 60.4 M (`docs/results/midgame.md`). True where every depth's
    /// value is wanted (the Multi-ProbCut statistics) and in the exact solver's
    /// selective ladder, whose climb to 2 plies before the end took more nodes two at
    /// a time on FFO #40-#59.
    pub every_depth: bool,
}

/// The empties from which the engine's searches value positions exactly wherever they
/// meet them ([`SearchLimits::solve_empties`]), as NTest does. Measured 2026-12-01 (1
/// thread, `docs/results/clock.md`): on Edax's hard-25 set a search reaching them
/// chooses the best move about 3 points more often than a deeper one without them in
/// the same time; on a clock of about 1 s a move level 10 scored 45.5% against NTest
/// over 200 games, 41.1% without. Searches that never reach 8 empties (the levels'
/// fixed depths stop above their proofs) are unchanged.
pub const SOLVE_EMPTIES: u32 = 8;

/// How many times a selectivity level's search is expected to cost the level below's,
/// at a depth whose leaves are all solved ([`SearchLimits::solve_empties`]): on Edax's
/// hard-25 set, depth 17 solving from 8 empties took 975.2 M nodes at 73% and
/// 3,615.8 M at 87% (3.7 times; 1 thread, `docs/results/clock.md`).
const CLIMB_GROWTH: f64 = 3.0;

/// The PV extension (see [`SearchLimits::pv_extension`]) chosen for a search of
/// `depth` plies.
pub fn pv_extension_for(depth: u32) -> u32 {
    match depth {
        0..=5 => 0,
        d => d.min(14),
    }
}

impl Default for SearchLimits {
    /// Depth 12, no selectivity, no time or node limit, 1 thread, best move only, exact
    /// only when the depth reaches the end (no position solved before), aspiration
    /// windows, two plies at a time.
    fn default() -> SearchLimits {
        SearchLimits {
            depth: 12,
            selectivity: Selectivity::EXACT,
            time: None,
            aim: None,
            threads: 1,
            all_moves: false,
            exact_from: 0,
            wld_from: 0,
            nodes: None,
            pv_extension: 0,
            solve_empties: 0,
            aspiration: true,
            every_depth: false,
        }
    }
}

/// The value of one legal move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MoveScore {
    /// The move.
    pub square: Square,
    /// Its value in discs for the side to move at the root.
    pub score: f64,
}

/// What a search found (after one iteration, or at the end).
#[derive(Clone, Debug, PartialEq)]
pub struct SearchResult {
    /// The move chosen (`None` when the side to move must pass or the game is over).
    pub best_move: Option<Square>,
    /// Value of the position in discs for the side to move (predicted final disc
    /// difference; exact when `exact`).
    pub score: f64,
    /// The same value in search units (`1 / SCALE` disc).
    pub score_units: i32,
    /// Depth of the iteration this result comes from (the number of empties when exact).
    pub depth: u32,
    /// Selectivity (percent) of that iteration (100 when exact).
    pub selectivity: u32,
    /// True when the value was proven by the exact solver (or the game is over).
    pub exact: bool,
    /// Principal variation from the position (`None` = pass).
    pub pv: Vec<Option<Square>>,
    /// Nodes visited so far, all threads (ordering and probe searches included).
    pub nodes: u64,
    /// Wall time so far.
    pub time: Duration,
    /// With `all_moves`: every legal move's value, best first (empty otherwise).
    pub move_scores: Vec<MoveScore>,
    /// True when a time limit or the stop flag ended the search before its target.
    pub stopped: bool,
}

/// A search that cannot start or go on.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SearchError {
    /// The position or the limits are not acceptable (the message says which).
    Invalid(String),
    /// A table of the search could not be allocated: the searcher is intact, and the same
    /// search may succeed once memory is free (or with smaller tables).
    OutOfMemory(AllocError),
}

impl fmt::Display for SearchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SearchError::Invalid(message) => f.write_str(message),
            SearchError::OutOfMemory(e) => e.fmt(f),
        }
    }
}

impl From<AllocError> for SearchError {
    fn from(e: AllocError) -> SearchError {
        SearchError::OutOfMemory(e)
    }
}

impl std::error::Error for SearchError {}

/// A midgame searcher: the weights, their Multi-ProbCut statistics, and the tables
/// kept between searches (so analysing successive positions of a game reuses them).
pub struct SelectiveSearch {
    weights: Arc<Weights>,
    mpc: MpcTable,
    tt: Arc<SearchTable>,
    /// True while nothing was searched since the table was made or cleared (it is
    /// empty, so clearing it again would only rewrite every slot).
    tt_empty: bool,
    /// False for a table shared with its owner ([`SelectiveSearch::with_table`]): never cleared here.
    owns_table: bool,
    endgame: Option<SolveOptions>,
    stop: Arc<AtomicBool>,
}

fn square(sq: u8) -> Option<Square> {
    (sq != NO_MOVE).then(|| Square::from_index(u32::from(sq)))
}

/// The time left before `deadline`: `None` when it has passed (nothing more may start),
/// `Some(None)` without a deadline.
fn time_left(deadline: Option<Instant>) -> Option<Option<Duration>> {
    match deadline {
        Some(d) => d.checked_duration_since(Instant::now()).filter(|t| !t.is_zero()).map(Some),
        None => Some(None),
    }
}

/// The nodes `limits` leave after `spent`: `None` when none are left, `Some(None)`
/// without a node limit.
fn nodes_left(limits: &SearchLimits, spent: u64) -> Option<Option<u64>> {
    match limits.nodes {
        Some(n) => n.checked_sub(spent).filter(|&n| n > 0).map(Some),
        None => Some(None),
    }
}

fn discs(units: i32) -> f64 {
    f64::from(units) / f64::from(SCALE)
}

impl SelectiveSearch {
    /// A searcher with these weights (their `mpc` statistics drive selective search;
    /// without any, every selectivity searches exactly) and a table of `hash_mb` MiB
    /// (at least one bucket), which its exact solves share ([`TABLES_PER_SEARCHER`]).
    /// Panics if the memory cannot be had (see [`Self::try_new`]).
    pub fn new(weights: Arc<Weights>, hash_mb: usize) -> SelectiveSearch {
        Self::try_new(weights, hash_mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// As [`Self::new`], or an error (never an abort) when the system refuses the
    /// table's memory.
    pub fn try_new(weights: Arc<Weights>, hash_mb: usize) -> Result<SelectiveSearch, AllocError> {
        let bytes = hash_mb.checked_mul(1 << 20).ok_or(AllocError { bytes: usize::MAX })?;
        let tt = Arc::new(SearchTable::try_with_replacement(bytes, Default::default())?);
        Ok(SelectiveSearch { owns_table: true, ..Self::with_table(weights, tt) })
    }

    /// A searcher with these weights on an existing `table`, shared with its owner (an
    /// exact solve, whose climb then fills it with the selective search's moves):
    /// allocates no table, and [`Self::clear`] leaves the table to its owner.
    pub fn with_table(weights: Arc<Weights>, table: Arc<SearchTable>) -> SelectiveSearch {
        let mpc = MpcTable::new(&weights);
        SelectiveSearch {
            weights,
            mpc,
            tt: table,
            tt_empty: true,
            owns_table: false,
            endgame: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The weights searched with.
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// True when the weights carry Multi-ProbCut statistics (selective search possible).
    pub fn has_mpc(&self) -> bool {
        !self.mpc.is_empty()
    }

    /// The flag that stops a running search from another thread (it returns the last
    /// completed iteration). Cleared at the start of every search.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.stop.clone()
    }

    /// The best moves this searcher's table holds, as hints for the exact solver
    /// (shares the table: hints see later searches too).
    pub fn move_hints(&self) -> crate::exact::hints::MoveHints {
        crate::exact::hints::MoveHints::from_table(self.tt.clone())
    }

    /// Uses `flag` as the stop flag (shared with other searchers a front end stops
    /// together); see [`SelectiveSearch::stop_flag`].
    pub fn set_stop_flag(&mut self, flag: Arc<AtomicBool>) {
        self.stop = flag;
    }

    /// Forgets everything the table learnt (a shared table, see [`Self::with_table`], is
    /// its owner's to clear).
    pub fn clear(&mut self) {
        if self.owns_table && !self.tt_empty {
            self.tt.clear();
            self.tt_empty = true;
        }
        self.endgame = None;
    }

    /// Searches `pos` within `limits`; see [`SelectiveSearch::search_with`].
    pub fn search(&mut self, pos: &Position, limits: &SearchLimits) -> Result<SearchResult, SearchError> {
        self.search_with(pos, limits, &mut |_| {})
    }

    /// Searches `pos` by iterative deepening up to `limits.depth`, calling
    /// `on_iteration` after each completed iteration (and after the exact solve), and
    /// returns the last completed one. Guarantees:
    /// - without selectivity, the score of a completed depth-`d` iteration is the
    ///   depth-`d` negamax value of the evaluation (passes free, finished games scored
    ///   exactly), whatever the number of threads;
    /// - when the depth reaches the number of empties (or `exact_from`), the score is
    ///   the exact final disc difference under perfect play (unless stopped first);
    /// - the best move is a legal move of `pos` (`None` only for a pass or a finished
    ///   game);
    /// - a time limit or the stop flag returns the last completed iteration (depth 1
    ///   always completes);
    /// - the selectivity reported is the one searched with: 100 when the weights carry
    ///   no Multi-ProbCut statistics, whatever was asked.
    ///
    /// Errors: a board that is not 8x8, weights of another board size or variant, depth 0,
    /// or a thread count outside `1..=MAX_THREADS` ([`SearchError::Invalid`]); the exact
    /// solver's table, needed by this search and not made yet, refused by the system
    /// ([`SearchError::OutOfMemory`], before anything is searched).
    pub fn search_with(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        on_iteration: &mut dyn FnMut(&SearchResult),
    ) -> Result<SearchResult, SearchError> {
        if pos.size != BoardSize::Eight {
            return Err(SearchError::Invalid(format!("the midgame search is for 8x8 boards, not {}", pos.size)));
        }
        // Weights of another board or variant would read the wrong features: refused,
        // whoever loaded them.
        self.weights.check_for(pos.size, pos.variant).map_err(|e| SearchError::Invalid(e.message))?;
        if limits.depth == 0 {
            return Err(SearchError::Invalid("the depth must be at least 1".into()));
        }
        if !(1..=MAX_THREADS).contains(&limits.threads) {
            return Err(SearchError::Invalid(format!("threads must be 1 to {MAX_THREADS}, not {}", limits.threads)));
        }
        self.stop.store(false, Ordering::Relaxed);
        let start = Instant::now();
        // Without statistics no cut is possible: the search is exact, and says so.
        let selectivity = if self.mpc.is_empty() { Selectivity::EXACT } else { limits.selectivity };
        let limits = SearchLimits { selectivity, ..*limits };
        self.search_position(pos, &limits, start, on_iteration)
    }

    fn search_position(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        start: Instant,
        on_iteration: &mut dyn FnMut(&SearchResult),
    ) -> Result<SearchResult, SearchError> {
        let (p, o) = (pos.board.player, pos.board.opponent);
        let rules = Rules::new(pos.size, pos.variant);
        if legal_moves(p, o, u64::MAX) == 0 {
            if legal_moves(o, p, u64::MAX) == 0 {
                let score = rules.final_score(p, o) * SCALE;
                let r = SearchResult {
                    best_move: None,
                    score: discs(score),
                    score_units: score,
                    depth: 0,
                    selectivity: 100,
                    exact: true,
                    pv: Vec::new(),
                    nodes: 1,
                    time: start.elapsed(),
                    move_scores: Vec::new(),
                    stopped: false,
                };
                on_iteration(&r);
                return Ok(r);
            }
            // A pass: the opponent's search, negated, behind a pass in the PV.
            let negate = |r: &SearchResult| {
                let mut r = r.clone();
                r.best_move = None;
                r.score = -r.score;
                r.score_units = -r.score_units;
                r.pv.insert(0, None);
                r.move_scores.clear();
                r
            };
            let r = self.search_position(&pos.passed(), limits, start, &mut |r| on_iteration(&negate(r)))?;
            return Ok(negate(&r));
        }
        let empties = pos.empties();
        let exact = limits.depth >= empties || empties <= limits.exact_from;
        // Before an exact solve: the selective ladder (see `super::ladder`) when the
        // weights carry statistics and the solve is big enough, else a short prelude.
        let depth_cut = super::ladder::LadderOptions::default().depth_cut;
        let ladder = exact && super::ladder::climbable(pos, &self.weights, depth_cut) && super::ladder::auto_pays(pos);
        let wld = !exact && empties <= limits.wld_from;
        let (mid_depth, mid_limits) = match (exact, ladder) {
            (false, _) if wld => (limits.depth.min(WLD_PRELUDE_DEPTH), SearchLimits { pv_extension: 0, ..*limits }),
            (false, _) => (limits.depth, *limits),
            // (An exact solve's prelude and climb solve no small positions on the way.)
            (true, false) => {
                (limits.depth.min(EXACT_PRELUDE_DEPTH).min(empties - 1), SearchLimits { solve_empties: 0, ..*limits })
            }
            (true, true) => (
                empties - depth_cut,
                super::ladder::climbing(*limits, super::ladder::LadderOptions::default().selectivity),
            ),
        };
        let deadline = limits.time.map(|t| start + t);
        // A proof of the outcome follows: under a time limit the midgame gets half.
        let mid_share = |t: Duration| if wld { t / 2 } else { t };
        // (An exact solve's prelude is part of the solve: only the limit ends it.)
        let aim = limits.aim.filter(|_| !exact);
        let mid_times = (limits.time.map(|t| start + mid_share(t)), aim.map(|t| start + mid_share(t)));
        let mut result = self.iterate(pos, &mid_limits, mid_depth, start, mid_times, on_iteration)?;
        // A timed search whose leaves all reached the solved positions, with time to
        // spare: the same depth again at the next selectivity levels.
        let reached_the_end = mid_limits.solve_empties > 0 && mid_depth + mid_limits.solve_empties >= empties;
        if !exact && !wld && reached_the_end && !result.stopped && limits.time.is_some() {
            result = self.climb_selectivity(pos, &mid_limits, mid_depth, start, mid_times, result, on_iteration)?;
        }
        // (The midgame stops at its share of the time: only the stop flag ends here.)
        if wld && !self.stop.load(Ordering::Relaxed) {
            if let Some(r) = self.prove_outcome(pos, limits, deadline, &result) {
                on_iteration(&r);
                result = r;
            }
        }
        if exact && !result.stopped {
            // After a climb, the exact pass starts around its value (as the crate's solve).
            let estimate = ladder.then_some(result.score);
            let spent = result.nodes;
            if let Some(r) = self.solve_exactly(pos, limits, (start, deadline), (spent, estimate), &result.move_scores)
            {
                on_iteration(&r);
                result = r;
            } else {
                result.stopped = true;
                result.time = start.elapsed();
            }
        }
        Ok(result)
    }

    /// After `result`, a completed search of `depth` plies at `limits.selectivity` whose
    /// leaves are all solved positions: the same depth searched again at each next
    /// selectivity level (as Edax's endgame climbs 73% to 100%), while the next level is
    /// expected to end before `aim` and `deadline` (a level costs about
    /// [`CLIMB_GROWTH`] times the one below) and the node limit is not spent. Returns
    /// the most exact level completed; one stopped part way is discarded (its nodes
    /// still counted).
    #[allow(clippy::too_many_arguments)]
    fn climb_selectivity(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        depth: u32,
        start: Instant,
        (deadline, aim): (Option<Instant>, Option<Instant>),
        mut result: SearchResult,
        on_iteration: &mut dyn FnMut(&SearchResult),
    ) -> Result<SearchResult, SearchError> {
        let mut level = limits.selectivity;
        let mut took = start.elapsed();
        let mut nodes = result.nodes;
        while let Some(next) = level.next() {
            let now = Instant::now();
            // The node limit holds for the whole search, climb included.
            let nodes_left = limits.nodes.map(|n| n.saturating_sub(nodes));
            if self.stop.load(Ordering::Relaxed)
                || nodes_left == Some(0)
                || [deadline, aim].into_iter().flatten().any(|d| now + took.mul_f64(CLIMB_GROWTH) >= d)
            {
                break;
            }
            level = next;
            let since_start = |r: &SearchResult| SearchResult { time: start.elapsed(), ..r.clone() };
            // Its own start: the iterations' time estimates count from the climb.
            let r = self.iterate(
                pos,
                &SearchLimits { selectivity: level, nodes: nodes_left, ..*limits },
                depth,
                now,
                (deadline, aim),
                &mut |r| {
                    if r.depth == depth {
                        on_iteration(&since_start(r));
                    }
                },
            )?;
            nodes += r.nodes;
            if r.stopped {
                break;
            }
            took = now.elapsed();
            result = since_start(&r);
        }
        result.nodes = nodes;
        result.time = start.elapsed();
        Ok(result)
    }

    /// Iterative deepening to `max_depth` (0: only the depth-1 fallback), two plies at a
    /// time unless `limits.every_depth`, stopped at `deadline`, starting no iteration
    /// expected to end past `deadline` or `aim`.
    fn iterate(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        max_depth: u32,
        start: Instant,
        (deadline, aim): (Option<Instant>, Option<Instant>),
        on_iteration: &mut dyn FnMut(&SearchResult),
    ) -> Result<SearchResult, SearchError> {
        let (p, o) = (pos.board.player, pos.board.opponent);
        self.tt.new_generation();
        self.tt_empty = false;
        // The PV extension's solves run on the same table.
        let exact_tt = (limits.pv_extension > 0).then(|| self.tt.clone());
        let quit = AtomicBool::new(false);
        let helper_nodes = AtomicU64::new(0);
        let shared = (limits.threads > 1).then(|| SelectiveShared::new(SPLIT_MIN_DEPTH));
        let exact_shared =
            (limits.threads > 1 && exact_tt.is_some()).then(|| ExactShared::new(PV_SOLVE_SPLIT_MIN_EMPTIES));
        let ctx = Context {
            weights: &self.weights,
            rules: Rules::new(pos.size, pos.variant),
            tt: &self.tt,
            mpc: &self.mpc,
            stop: &self.stop,
            quit: &quit,
            helper_nodes: &helper_nodes,
            exact_tt: exact_tt.as_deref(),
            pv_extension: limits.pv_extension,
            solve_empties: limits.solve_empties,
            shared: shared.as_ref(),
            exact_shared: exact_shared.as_ref(),
        };
        let mut main = SelectiveSearcher::new(&ctx);
        main.set_selectivity(limits.selectivity);
        // Depth 1 by hand (cannot be stopped): the fallback result.
        let mut moves: Vec<RootMove> = super::ordering::MoveList::new(p, o, legal_moves(p, o, u64::MAX))
            .as_slice()
            .iter()
            .map(|c| RootMove { sq: c.sq, p: c.p, o: c.o, score: -main.leaf_value(c.p, c.o) })
            .collect();
        moves.sort_by_key(|m| -m.score);
        main.nodes += 1 + moves.len() as u64;
        let selectivity = limits.selectivity.percent();
        let report = |moves: &[RootMove], depth: u32, pv: &[u8], nodes: u64, stopped: bool| SearchResult {
            best_move: square(moves[0].sq),
            score: discs(moves[0].score),
            score_units: moves[0].score,
            depth,
            selectivity: if depth <= 1 { 100 } else { selectivity },
            exact: false,
            pv: pv.iter().map(|&s| square(s)).collect(),
            nodes,
            time: start.elapsed(),
            move_scores: if limits.all_moves {
                moves
                    .iter()
                    .map(|m| MoveScore { square: Square::from_index(u32::from(m.sq)), score: discs(m.score) })
                    .collect()
            } else {
                Vec::new()
            },
            stopped,
        };
        let mut last = report(&moves, 1, &[moves[0].sq], main.nodes, false);
        on_iteration(&last);
        if max_depth <= 1 {
            return Ok(last);
        }
        main.deadline = deadline;
        main.node_limit = limits.nodes;
        let threads = limits.threads;
        std::thread::scope(|scope| {
            let ctx = &ctx;
            let helpers: Vec<_> = (1..threads)
                .map(|_| {
                    scope.spawn(move || {
                        let mut helper = SelectiveSearcher::new(ctx);
                        helper.helper = true;
                        helper.set_selectivity(limits.selectivity);
                        helper.serve();
                    })
                })
                .collect();
            let mut guess = Some(moves[0].score);
            let first = if limits.every_depth || max_depth.is_multiple_of(2) { 2 } else { 3 };
            let step = if limits.every_depth { 1 } else { 2 };
            // The durations of the last two completed iterations.
            let (mut before_last, mut last_took) = (Duration::ZERO, Duration::ZERO);
            for depth in (first..=max_depth).step_by(step) {
                if self.stop.load(Ordering::Relaxed) {
                    last.stopped = true;
                    break;
                }
                // Do not start an iteration expected to end past the aim or the
                // deadline: it costs the last one's time times the last growth, and at
                // least, two plies deeper, one and a half times all the ones before it
                // (hard-30 at 87%: depth 14 alone 55.4 M nodes after 36.4 M to depth
                // 12; without selectivity far more), one ply deeper half.
                let now = Instant::now();
                let elapsed = now - start;
                let floor = if limits.every_depth { elapsed / 2 } else { elapsed * 3 / 2 };
                let next = if before_last.is_zero() {
                    floor
                } else {
                    let growth = last_took.as_secs_f64() / before_last.as_secs_f64();
                    floor.max(last_took.mul_f64(growth.min(16.0)))
                };
                if depth > first && [deadline, aim].into_iter().flatten().any(|d| now + next >= d) {
                    last.stopped = true;
                    break;
                }
                let v = main.aspirated(&mut moves, depth, guess.filter(|_| limits.aspiration), limits.all_moves);
                (before_last, last_took) = (last_took, now.elapsed());
                if main.aborted {
                    last.stopped = true;
                    break;
                }
                guess = Some(v);
                let nodes = main.nodes + ctx.helper_nodes.load(Ordering::Relaxed);
                last = report(&moves, depth, main.root_pv(), nodes, false);
                on_iteration(&last);
            }
            quit.store(true, Ordering::Relaxed);
            for h in helpers {
                h.join().expect("search helper panicked");
            }
        });
        last.nodes = main.nodes + helper_nodes.load(Ordering::Relaxed);
        last.time = start.elapsed();
        Ok(last)
    }

    /// The exact solver's options as they are, on the searcher's table, made on first
    /// use and kept between solves.
    fn endgame(&mut self) -> &mut SolveOptions {
        let tt = self.tt.clone();
        self.endgame.get_or_insert_with(|| SolveOptions::with_table(tt))
    }

    /// The exact solver's options for a solve of this searcher: its table (where the
    /// selective search's moves order the exact one), `threads`, the evaluation
    /// ordering moves, the stop flag, the full window, no limit.
    fn endgame_options(&mut self, threads: usize) -> &mut SolveOptions {
        let (weights, stop) = (self.weights.clone(), self.stop.clone());
        let options = self.endgame();
        options.threads = threads;
        options.eval = Some(weights);
        options.stop = stop;
        options.window = Window::FULL;
        options.time_limit = None;
        options.node_budget = u64::MAX;
        options
    }

    /// Every legal move of `pos` solved exactly in one call over the searcher's table
    /// (see [`crate::exact::solve_every_move`]): best `guesses` first (discs, e.g.
    /// the values of a completed all-moves iteration), each within an aspiration window
    /// around its guess first, `threads` moves at a time, the selective search's moves
    /// in the table ordering them; `on_move` sees each move as it is settled. `time` and `nodes`
    /// bound the whole call; the stop flag ends it (it is not cleared here).
    ///
    /// Guarantees: the bounds of every move hold and meet (its exact value) unless the
    /// call was stopped; values never depend on the guesses, only the time does.
    pub fn solve_every_move(
        &mut self,
        pos: &Position,
        guesses: &[MoveScore],
        threads: usize,
        time: Option<Duration>,
        nodes: Option<u64>,
        on_move: &mut dyn FnMut(&crate::exact::MoveBounds),
    ) -> crate::exact::EveryMoveResult {
        let options = self.endgame_options(threads.clamp(1, MAX_THREADS));
        options.time_limit = time;
        options.node_budget = nodes.unwrap_or(u64::MAX);
        let guesses: Vec<(Square, i32)> = guesses.iter().map(|m| (m.square, m.score.round() as i32)).collect();
        crate::exact::solve_every_move(pos, options, &guesses, super::ladder::ASPIRATION, on_move)
    }

    /// The win/draw/loss proof of [`SearchLimits::wld_from`] after the midgame result
    /// `mid`: `None` when it was stopped (time, nodes or the stop flag) before proving
    /// anything, so `mid` stands.
    fn prove_outcome(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        deadline: Option<Instant>,
        mid: &SearchResult,
    ) -> Option<SearchResult> {
        let time_limit = time_left(deadline)?;
        let node_budget = nodes_left(limits, mid.nodes)?.unwrap_or(u64::MAX);
        let options = self.endgame_options(limits.threads);
        options.window = Window { lo: -1, hi: 1 };
        options.time_limit = time_limit;
        options.node_budget = node_budget;
        let r = crate::exact::solve::solve_in_generation(pos, options, false);
        if r.stopped {
            return None;
        }
        let mut out = mid.clone();
        // Won or drawn: the solver's move keeps the outcome; lost: the midgame's stands.
        if r.upper >= 0 {
            out.best_move = r.best_move.or(mid.best_move);
        }
        out.score_units = if r.lower >= 1 {
            mid.score_units.max(SCALE)
        } else if r.upper <= -1 {
            mid.score_units.min(-SCALE)
        } else {
            0
        };
        if out.best_move != mid.best_move {
            out.pv = vec![out.best_move];
        }
        out.score = discs(out.score_units);
        out.nodes = mid.nodes + r.nodes + r.ordering_nodes;
        out.time = mid.time + r.time;
        Some(out)
    }

    /// The exact solve (and, in all-moves mode, of every move); `None` if stopped.
    fn solve_exactly(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        (start, deadline): (Instant, Option<Instant>),
        (nodes_before, estimate): (u64, Option<f64>),
        guesses: &[MoveScore],
    ) -> Option<SearchResult> {
        let options = self.endgame_options(limits.threads);
        options.time_limit = time_left(deadline)?;
        options.node_budget = nodes_left(limits, nodes_before)?.unwrap_or(u64::MAX);
        let root = super::ladder::exact_after_climb(pos, options, estimate, super::ladder::ASPIRATION);
        let score = root.score().filter(|_| !root.stopped)?;
        let mut nodes = nodes_before + root.nodes + root.ordering_nodes;
        let mut move_scores = Vec::new();
        if limits.all_moves {
            let (time, budget) = (time_left(deadline)?, nodes_left(limits, nodes)?);
            let every = self.solve_every_move(pos, guesses, limits.threads, time, budget, &mut |_| {});
            if !every.all_exact() {
                return None;
            }
            nodes += every.nodes;
            move_scores =
                every.moves.iter().map(|m| MoveScore { square: m.square, score: f64::from(m.lower) }).collect();
        }
        Some(SearchResult {
            best_move: root.best_move,
            score: f64::from(score),
            score_units: score * SCALE,
            depth: pos.empties(),
            selectivity: 100,
            exact: true,
            pv: root.pv,
            nodes,
            time: start.elapsed(),
            move_scores,
            stopped: false,
        })
    }
}
