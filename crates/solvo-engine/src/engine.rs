//! The engine: the questions a front end asks about a position (best move under the
//! settings, a score for every legal move streamed as the search deepens, an exact
//! solve with progress), and a stop handle.
//!
//! 8x8 positions are searched by `solvo-othello-search`'s selective search with the trained evaluation (exact
//! near the end); 6x6 and 4x4 positions are played perfectly by `solvo-solve`'s
//! [`Player`], from a solution store when it holds the position, else solved on
//! demand when the solve is within the question's reach (the level's exact-solve
//! threshold, at least [`SMALL_EXACT_FLOOR`] empties, or what the time allows). Beyond
//! that reach, or when a timed solve runs out of time, a small board gets an estimate:
//! iterative deepening on its evaluation to the level's depth or until the time is up.

use crate::book::Book;
use crate::clock::{Clock, MoveTime, TimeControl};
use crate::level::Level;
use crate::small::{estimate, Estimate, EstimateLimits};
use solvo_core::hugemem::AllocError;
use solvo_eval::Weights;
use solvo_othello::formats::transcript::Replay;
use solvo_othello::{BoardSize, Position, Square, Variant};
use solvo_othello_search::MoveHints;
use solvo_othello_search::{EveryMoveResult, MoveBounds, SolveOptions};
use solvo_othello_search::{
    MoveScore, SearchError, SearchLimits, SearchResult, SelectiveSearch, Selectivity, MAX_THREADS, SOLVE_EMPTIES,
};
use solvo_solve::player::{Player, Source};
use solvo_solve::store::Store;
use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the engine is asked to do, and with what.
#[derive(Clone)]
pub struct EngineSettings {
    /// Strength without a time control (depth, exact solve, selectivity), and the
    /// selectivity under one.
    pub level: Level,
    /// Time per move or per game ([`TimeControl::None`]: the level alone).
    pub time: TimeControl,
    /// Search threads (1 to [`MAX_THREADS`]).
    pub threads: usize,
    /// Transposition table size in MiB (each searcher; at least 1).
    pub hash_mb: usize,
    /// 8x8 evaluation weights to use instead of the embedded set of their variant.
    pub eval: Option<Arc<Weights>>,
}

impl Default for EngineSettings {
    /// Level 10, no time control, 1 thread, 64 MiB, the embedded weights.
    fn default() -> EngineSettings {
        EngineSettings { level: Level::default(), time: TimeControl::None, threads: 1, hash_mb: 64, eval: None }
    }
}

impl fmt::Debug for EngineSettings {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineSettings")
            .field("level", &self.level)
            .field("time", &self.time)
            .field("threads", &self.threads)
            .field("hash_mb", &self.hash_mb)
            .field("eval", &self.eval.as_ref().map(|w| w.variant))
            .finish()
    }
}

/// A question the engine cannot answer: bad settings, missing weights, a solver
/// error, a table the system refuses. The message (`.0`) says what is wrong; the kind
/// (`.1`) tells a front end whether the question was at fault or the machine's memory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineError(pub String, pub ErrorKind);

/// What kind of failure an [`EngineError`] is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorKind {
    /// The question or the settings cannot be used as they are.
    Invalid,
    /// The memory of a search table was refused: the engine stays usable (it may have
    /// released the tables of other kinds of questions) and the same question may
    /// succeed once memory is free.
    OutOfMemory,
}

impl EngineError {
    /// An error of kind [`ErrorKind::Invalid`] with this message.
    pub fn new(message: impl Into<String>) -> EngineError {
        EngineError(message.into(), ErrorKind::Invalid)
    }

    /// True when a table's memory was refused ([`ErrorKind::OutOfMemory`]).
    pub fn is_out_of_memory(&self) -> bool {
        self.1 == ErrorKind::OutOfMemory
    }
}

impl From<AllocError> for EngineError {
    fn from(e: AllocError) -> EngineError {
        EngineError(e.to_string(), ErrorKind::OutOfMemory)
    }
}

impl From<SearchError> for EngineError {
    fn from(e: SearchError) -> EngineError {
        match e {
            SearchError::OutOfMemory(e) => e.into(),
            SearchError::Invalid(message) => EngineError::new(message),
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for EngineError {}

/// Tables of [`EngineSettings::hash_mb`] MiB an engine holds at most, besides one per
/// solution store: on small boards the analysis solver's and one perfect player's (the
/// 8x8 searcher holds [`solvo_othello_search::TABLES_PER_SEARCHER`], one, which its
/// selective and exact searches share). Making the tables of another kind of question
/// releases those of the others (see [`Engine::prepare`]).
pub const TABLES_PER_ENGINE: usize = 2;

impl EngineSettings {
    /// The most table memory, in MiB, an engine with these settings and `stores`
    /// solution stores ever holds at once ([`TABLES_PER_ENGINE`] tables plus one per
    /// store, each of `hash_mb` MiB): what a front end checks against the machine.
    pub fn most_table_mib(&self, stores: usize) -> u128 {
        self.hash_mb.max(1) as u128 * (TABLES_PER_ENGINE + stores) as u128
    }
}

/// Stops the engine's running search from another thread (a protocol's reader
/// thread). Cloneable and cheap.
#[derive(Clone, Debug)]
pub struct StopHandle(Arc<AtomicBool>);

impl StopHandle {
    /// Asks the running search to stop: it returns soon with the best answer it has
    /// (marked `stopped`). A question asked after this runs normally (each question
    /// clears the flag when it starts).
    pub fn stop(&self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Least empties solved exactly under a time control.
const MIN_TIMED_EXACT: u32 = 10;
/// Empties a 6x6 or 4x4 position is solved exactly from at every level without a time
/// control: a solve of milliseconds (4x4 is always played perfectly).
pub const SMALL_EXACT_FLOOR: u32 = 16;
/// Share of a small board's time given to an exact solve that might not finish; the
/// rest is left to the estimate that replaces it.
const SMALL_SOLVE_SHARE: (u32, u32) = (3, 4);
/// Most empties solved exactly under a time control.
const MAX_TIMED_EXACT: u32 = 30;

/// Growth of a solve's time per empty square: 8x8 positions of matches against NTest
/// solved for win/draw/loss on one core of the project's machine took a median of 26 ms
/// at 20 empties and 620 ms at 24 (`docs/results/clock.md`), 2.2 times per empty.
const SOLVE_GROWTH: f64 = 2.2;

/// Empties from which `time` suffices for nine solves in ten, when nine in ten of
/// them take at most `at_20` at 20 empties.
fn reach(time: Duration, at_20: f64) -> u32 {
    let empties = 20.0 + (time.as_secs_f64() / at_20).max(1e-9).ln() / SOLVE_GROWTH.ln();
    empties.clamp(MIN_TIMED_EXACT as f64, MAX_TIMED_EXACT as f64) as u32
}

/// Empties an exact solve is expected to finish within `time` on a small machine (one
/// core of 2.45 GHz): 20 at a quarter second (nine solves in ten took at most 260 ms
/// there), one more per 2.2 times the time.
pub fn exact_reach(time: Duration) -> u32 {
    reach(time, 0.26)
}

/// Empties a proof of win, draw or loss is expected to finish within `time`: 20 at a
/// tenth of a second, one more per 2.2 times the time; always more than
/// [`exact_reach`].
pub fn wld_reach(time: Duration) -> u32 {
    reach(time, 0.1).max(exact_reach(time) + 1)
}

/// The engine. One per front end (or per player in a match); it keeps its tables
/// between questions, so asking about successive positions of a game is cheaper.
pub struct Engine {
    settings: EngineSettings,
    stop: Arc<AtomicBool>,
    midgame: Vec<SelectiveSearch>,
    perfect: Vec<Player>,
    book: Option<Book>,
    node_limit: Option<u64>,
    /// The analysis solver of small boards and the size and variant its table holds
    /// values of (a table's entries are keyed by the discs alone, which another size or
    /// variant shares with different values).
    small_solver: Option<(BoardSize, Variant, SolveOptions)>,
    /// Under a time control, search no deeper than the level (see
    /// [`Engine::set_level_within_time`]).
    level_within_time: bool,
}

impl Engine {
    /// An engine with `settings`. Errors: a thread count outside `1..=MAX_THREADS`.
    pub fn new(settings: EngineSettings) -> Result<Engine, EngineError> {
        check_threads(settings.threads)?;
        Ok(Engine {
            settings,
            stop: Arc::new(AtomicBool::new(false)),
            midgame: Vec::new(),
            perfect: Vec::new(),
            book: None,
            node_limit: None,
            small_solver: None,
            level_within_time: false,
        })
    }

    /// The settings.
    pub fn settings(&self) -> &EngineSettings {
        &self.settings
    }

    /// Changes the level (the tables are kept).
    pub fn set_level(&mut self, level: Level) {
        self.settings.level = level;
    }

    /// Limits every later question to about `nodes` nodes (`None`: no limit), as a
    /// time limit does: an 8x8 search returns its last completed iteration, an analysis
    /// the values found so far (marked `stopped`), a small-board solve stops (its
    /// answer is then not exact).
    pub fn set_node_limit(&mut self, nodes: Option<u64>) {
        self.node_limit = nodes;
        for p in &mut self.perfect {
            p.set_node_budget(nodes.unwrap_or(u64::MAX));
        }
    }

    /// The node limit of every question (see [`Engine::set_node_limit`]).
    pub fn node_limit(&self) -> Option<u64> {
        self.node_limit
    }

    /// Changes the time control.
    pub fn set_time_control(&mut self, time: TimeControl) {
        self.settings.time = time;
    }

    /// With `true`, a question under a time limit searches as the level says (its
    /// depth, its exact-solve threshold) and no further, stopping earlier when the time
    /// is up: NBoard's `go`, limited by both the depth the GUI set and the clock. With
    /// `false` (the default) the time alone decides how deep to search.
    pub fn set_level_within_time(&mut self, on: bool) {
        self.level_within_time = on;
    }

    /// A handle that stops the running search from another thread.
    pub fn stop_handle(&self) -> StopHandle {
        StopHandle(self.stop.clone())
    }

    /// Plays 6x6 or 4x4 positions of the store's size and variant from `store`
    /// (positions it lacks are solved). Replaces an earlier store of that kind.
    pub fn set_store(&mut self, store: Store) -> Result<(), EngineError> {
        let (size, variant) = (store.size(), store.variant());
        if size == BoardSize::Eight {
            return Err(EngineError::new("an 8x8 store cannot be used: 8x8 is played by search"));
        }
        self.perfect.retain(|p| (p.size(), p.variant()) != (size, variant));
        let options = self.solve_options()?;
        self.perfect.push(Player::new(size, variant, Some(store), options));
        Ok(())
    }

    /// Plays from `book` when a legal move leads into it (8x8, the book's variant):
    /// [`Engine::best_move`] then answers at once with the book move, depth 0.
    pub fn set_book(&mut self, book: Book) {
        self.book = Some(book);
    }

    /// The opening book played from, if any (with the games learnt).
    pub fn book(&self) -> Option<&Book> {
        self.book.as_ref()
    }

    /// Adds `game` to the opening book (NBoard's `learn`; a book of the game's variant
    /// is started when there is none): its positions the level does not solve exactly
    /// (more than [`Level::exact_from`] empties), valued by this engine's search at its
    /// level when new, then negamaxed along the game ([`Book::learn`]). Returns the
    /// number of positions added. Errors: a game on another board than 8x8, a book of
    /// another variant, a search that fails.
    pub fn learn(&mut self, game: &Replay) -> Result<usize, EngineError> {
        let start = game.start;
        if start.size != BoardSize::Eight {
            return Err(EngineError::new(format!("opening books are for 8x8, not {}", start.size)));
        }
        let mut book = self.book.take().unwrap_or_else(|| Book::new(start.variant));
        if book.variant() != start.variant {
            let e = format!("the book is for {} rules, the game for {}", book.variant(), start.variant);
            self.book = Some(book);
            return Err(EngineError::new(e));
        }
        let exact_from = self.settings.level.exact_from();
        let positions: Vec<Position> =
            std::iter::once(start).chain(game.positions.iter().copied()).filter(|p| p.empties() > exact_from).collect();
        let mut failure = None;
        let before = book.clone();
        self.clear_stop();
        // The book is out of the engine while it learns: the search values positions
        // itself, not from the book.
        let added =
            book.learn(&positions, &mut |pos| match self.ask_keeping_stop(pos, None, false, false, &mut |_| {}) {
                Ok(r) => r.score,
                Err(e) => {
                    failure.get_or_insert(e);
                    0.0
                }
            });
        match failure {
            Some(e) => {
                // A failed search leaves the book as it was.
                self.book = Some(before);
                Err(e)
            }
            None => {
                self.book = Some(book);
                Ok(added)
            }
        }
    }

    /// Forgets what the search tables learnt (a new game against another opponent).
    pub fn clear(&mut self) {
        for m in &mut self.midgame {
            m.clear();
        }
    }

    /// The time the next move may take under the time control: the per-move time, or
    /// the clock's allotment ([`Clock::allot`]; without a clock, as if the whole game's
    /// time were left). `None` without a time control.
    pub fn move_time(&self, pos: &Position, clock: Option<&Clock>) -> Option<MoveTime> {
        match self.settings.time {
            TimeControl::None => None,
            TimeControl::PerMove(t) => Some(MoveTime::fixed(t)),
            TimeControl::PerGame { total, increment } => {
                let c = clock.copied().unwrap_or_else(|| Clock::new(total, increment));
                Some(c.allot(pos.empties()))
            }
        }
    }

    /// The move to play in `pos` (`best_move: None` for a pass or a finished game),
    /// thinking about `time.target` and at most `time.limit` when given (see
    /// [`Engine::move_time`]; a small board aims at the target only), else to the
    /// level. `on_iteration` sees each completed iteration.
    ///
    /// Guarantees: the move is legal in `pos`; on 6x6 and 4x4 it keeps the exact value
    /// (perfect play) when the position is in the store or within the exact reach (see
    /// the module's documentation) and the solve was neither stopped nor out of time;
    /// the score is exact when `exact` is set. Under a time the answer comes within
    /// its limit on every size (a small board's estimate checks the clock every few
    /// thousand nodes).
    /// A stop (or the time) returns the last completed iteration, marked `stopped`.
    /// With a book ([`Engine::set_book`]), a position with a book move gets it at once
    /// (depth 0, its book value as the score).
    pub fn best_move(
        &mut self,
        pos: &Position,
        time: Option<MoveTime>,
        on_iteration: &mut dyn FnMut(&SearchResult),
    ) -> Result<SearchResult, EngineError> {
        if let Some((sq, value)) = self.book.as_ref().and_then(|b| b.choose(pos)) {
            let r = SearchResult {
                best_move: Some(sq),
                score: value,
                score_units: (value * f64::from(solvo_eval::SCALE)) as i32,
                depth: 0,
                selectivity: 100,
                exact: false,
                pv: vec![Some(sq)],
                nodes: 0,
                time: Duration::ZERO,
                move_scores: Vec::new(),
                stopped: false,
            };
            on_iteration(&r);
            return Ok(r);
        }
        self.clear_stop();
        self.ask_keeping_stop(pos, time, false, false, on_iteration)
    }

    /// A score for every legal move of `pos` (in `move_scores`, best first), streamed
    /// to `on_update` after each iteration on 8x8 (after each move solved on small
    /// boards). Same limits and guarantees as [`Engine::best_move`]; the scores of a
    /// completed iteration are the search values of the moves at its depth.
    pub fn score_moves(
        &mut self,
        pos: &Position,
        time: Option<Duration>,
        on_update: &mut dyn FnMut(&SearchResult),
    ) -> Result<SearchResult, EngineError> {
        self.clear_stop();
        self.ask_keeping_stop(pos, time.map(MoveTime::fixed), true, false, on_update)
    }

    /// The exact value of `pos` (final disc difference for the side to move under
    /// perfect play) and a best move, reporting progress (the midgame iterations before
    /// the solve, on 8x8). Without a time limit it runs to the end unless stopped;
    /// a stopped solve returns its last estimate with `exact` false.
    pub fn solve(
        &mut self,
        pos: &Position,
        time: Option<Duration>,
        on_progress: &mut dyn FnMut(&SearchResult),
    ) -> Result<SearchResult, EngineError> {
        self.clear_stop();
        self.ask_keeping_stop(pos, time.map(MoveTime::fixed), false, true, on_progress)
    }

    /// One question about `pos`, the stop flag not cleared first (each public question
    /// clears it once, so that a question made of several, an analysis, does not
    /// forget a stop asked for between them).
    pub(crate) fn ask_keeping_stop(
        &mut self,
        pos: &Position,
        time: Option<MoveTime>,
        all_moves: bool,
        exact: bool,
        on_update: &mut dyn FnMut(&SearchResult),
    ) -> Result<SearchResult, EngineError> {
        if pos.size != BoardSize::Eight {
            return self.small_answer(pos, time.map(|t| t.target), all_moves, exact, on_update);
        }
        let limits = self.limits(pos, time, all_moves, exact);
        self.search_keeping_stop(pos, &limits, on_update)
    }

    /// The 8x8 midgame search of `pos` under `limits`, the stop flag kept as it is.
    pub(crate) fn search_keeping_stop(
        &mut self,
        pos: &Position,
        limits: &SearchLimits,
        on_update: &mut dyn FnMut(&SearchResult),
    ) -> Result<SearchResult, EngineError> {
        let search = self.midgame_for(pos.variant)?;
        Ok(search.search_with(pos, limits, on_update)?)
    }

    /// Clears the stop flag (the start of a question).
    pub(crate) fn clear_stop(&self) {
        self.stop.store(false, Ordering::Relaxed);
    }

    /// True once a stop was asked for since the question started.
    pub(crate) fn stop_requested(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The search limits for a question about `pos`.
    fn limits(&self, pos: &Position, time: Option<MoveTime>, all_moves: bool, exact: bool) -> SearchLimits {
        let level = self.settings.level;
        let empties = pos.empties();
        // Solves are planned to finish near the target.
        let (depth, exact_from, wld_from) = match (exact, time.map(|t| t.target)) {
            (true, _) => (empties.max(1), empties, empties),
            (false, None) => (level.depth(), level.exact_from(), level.wld_from()),
            // Under a time control: deepen until the time is up, and prove or solve
            // only what should finish in it.
            (false, Some(t)) if self.level_within_time => {
                (level.depth(), level.exact_from().min(exact_reach(t)), level.wld_from().min(wld_reach(t)))
            }
            (false, Some(t)) => {
                let reach = exact_reach(t);
                (if empties > reach { empties - 1 } else { empties.max(1) }, reach, wld_reach(t))
            }
        };
        let selectivity = if exact { Selectivity::EXACT } else { level.selectivity() };
        SearchLimits {
            depth,
            selectivity,
            time: time.map(|t| t.limit),
            aim: time.map(|t| t.target),
            threads: self.settings.threads,
            all_moves,
            exact_from,
            wld_from,
            nodes: self.node_limit,
            pv_extension: if exact { 0 } else { level.pv_extension() },
            solve_empties: if exact { 0 } else { SOLVE_EMPTIES },
            aspiration: true,
            every_depth: false,
        }
    }

    fn midgame_for(&mut self, variant: Variant) -> Result<&mut SelectiveSearch, EngineError> {
        if let Some(i) = self.midgame.iter().position(|m| m.weights().variant == variant) {
            return Ok(&mut self.midgame[i]);
        }
        let weights = match &self.settings.eval {
            Some(w) if w.variant == variant => w.clone(),
            Some(w) => {
                return Err(EngineError::new(format!(
                    "the evaluation weights are for the {} variant, the game is {}",
                    w.variant.name(),
                    variant.name()
                )))
            }
            None => solvo_eval::embedded_shared(variant).map_err(|e| EngineError::new(e.to_string()))?,
        };
        // One kind of question's tables at a time (see `TABLES_PER_ENGINE`).
        self.midgame.clear();
        self.small_solver = None;
        self.perfect.retain(Player::has_store);
        let mut search = SelectiveSearch::try_new(weights, self.settings.hash_mb.max(1))?;
        search.set_stop_flag(self.stop.clone());
        self.midgame.push(search);
        Ok(self.midgame.last_mut().expect("just pushed"))
    }

    /// Makes now every table a question about `pos` needs that the engine does not hold
    /// yet (8x8: the searcher of the variant and its table; 6x6 and 4x4: the
    /// perfect player of the size and variant and, without a store, the analysis
    /// solver), so that a front end learns before it answers whether their memory can
    /// be had. Releases the tables of other kinds of questions first: an engine holds at
    /// most [`TABLES_PER_ENGINE`] tables plus one per store. Errors: as the questions
    /// (a table the system refuses is [`ErrorKind::OutOfMemory`]; the engine stays
    /// usable).
    pub fn prepare(&mut self, pos: &Position) -> Result<(), EngineError> {
        if pos.size == BoardSize::Eight {
            // The searcher's one table serves its exact solves too.
            return self.midgame_for(pos.variant).map(|_| ());
        }
        self.player_for(pos.size, pos.variant)?;
        if !self.has_store(pos.size, pos.variant) {
            self.small_solver(pos.size, pos.variant)?;
        }
        Ok(())
    }

    fn solve_options(&self) -> Result<SolveOptions, EngineError> {
        let mut options = SolveOptions::try_new(self.settings.hash_mb.max(1))?;
        options.threads = self.settings.threads;
        options.stop = self.stop.clone();
        options.node_budget = self.node_limit.unwrap_or(u64::MAX);
        Ok(options)
    }

    /// The exact solver of small-board analyses of `size` and `variant` (its table kept
    /// between questions about that size and variant, a new one for another; threads
    /// and stop flag the engine's).
    pub(crate) fn small_solver(&mut self, size: BoardSize, variant: Variant) -> Result<SolveOptions, EngineError> {
        let mut options = match self.small_solver.take() {
            Some((s, v, options)) if (s, v) == (size, variant) => options,
            _ => {
                self.midgame.clear();
                self.solve_options()?
            }
        };
        self.small_solver = Some((size, variant, options.clone()));
        options.node_budget = u64::MAX;
        options.time_limit = None;
        Ok(options)
    }

    /// True when 6x6 / 4x4 positions of `size` and `variant` are answered from a store.
    pub(crate) fn has_store(&self, size: BoardSize, variant: Variant) -> bool {
        self.perfect.iter().any(|p| (p.size(), p.variant()) == (size, variant) && p.has_store())
    }

    /// Every legal move of the 8x8 position `pos` solved exactly over the midgame
    /// searcher's table (see [`SelectiveSearch::solve_every_move`]), the stop flag
    /// kept as it is.
    pub(crate) fn solve_every_move_keeping_stop(
        &mut self,
        pos: &Position,
        guesses: &[MoveScore],
        time: Option<Duration>,
        nodes: Option<u64>,
        on_move: &mut dyn FnMut(&MoveBounds),
    ) -> Result<EveryMoveResult, EngineError> {
        let threads = self.settings.threads;
        let search = self.midgame_for(pos.variant)?;
        Ok(search.solve_every_move(pos, guesses, threads, time, nodes, on_move))
    }

    /// The best moves the 8x8 searcher of `variant` holds in its table (shared with it:
    /// later searches show through), for lines of play.
    pub(crate) fn table_hints(&mut self, variant: Variant) -> Result<MoveHints, EngineError> {
        Ok(self.midgame_for(variant)?.move_hints())
    }

    fn player_for(&mut self, size: BoardSize, variant: Variant) -> Result<&mut Player, EngineError> {
        if let Some(i) = self.perfect.iter().position(|p| (p.size(), p.variant()) == (size, variant)) {
            return Ok(&mut self.perfect[i]);
        }
        self.midgame.clear();
        self.perfect.retain(Player::has_store);
        let options = self.solve_options()?;
        self.perfect.push(Player::new(size, variant, None, options));
        Ok(self.perfect.last_mut().expect("just pushed"))
    }

    /// A 6x6 or 4x4 question: perfect play when the store holds the position or the
    /// solve is within reach (an `exact` question always tries), else, or when a timed
    /// solve runs out of time, the estimate (see the module's documentation).
    fn small_answer(
        &mut self,
        pos: &Position,
        time: Option<Duration>,
        all_moves: bool,
        exact: bool,
        on_update: &mut dyn FnMut(&SearchResult),
    ) -> Result<SearchResult, EngineError> {
        let start = Instant::now();
        let level = self.settings.level;
        let level_reach = level.exact_values_from().max(SMALL_EXACT_FLOOR);
        let reach = match time {
            Some(t) if self.level_within_time => exact_reach(t).min(level_reach),
            Some(t) => exact_reach(t),
            None => level_reach,
        };
        let knows = self.player_for(pos.size, pos.variant)?.knows(&pos.board);
        if exact || knows || pos.empties() <= reach || pos.is_game_over() {
            // A solve that may not finish leaves time for the estimate that replaces it.
            let share = |t: Duration| if exact || knows { t } else { t * SMALL_SOLVE_SHARE.0 / SMALL_SOLVE_SHARE.1 };
            let solve_deadline = time.map(|t| start + share(t));
            if let Some(r) = self.perfect_answer(pos, solve_deadline, all_moves, on_update)? {
                return Ok(r);
            }
        }
        let limits = EstimateLimits {
            max_depth: if exact || (time.is_some() && !self.level_within_time) { u32::MAX } else { level.depth() },
            deadline: time.map(|t| start + t),
            stop: &self.stop,
            nodes: self.node_limit,
            all_moves,
        };
        let answer = |e: &Estimate| SearchResult {
            best_move: e.best_move,
            score: e.score,
            score_units: (e.score * f64::from(solvo_eval::SCALE)).round() as i32,
            depth: e.depth,
            selectivity: 100,
            exact: e.exact,
            pv: vec![e.best_move],
            nodes: e.nodes.max(1),
            time: start.elapsed(),
            move_scores: e.move_scores.iter().map(|&(square, score)| MoveScore { square, score }).collect(),
            stopped: e.stopped || (exact && !e.exact),
        };
        let found = estimate(pos, &limits, &mut |e| on_update(&answer(e)));
        Ok(answer(&found))
    }

    /// Perfect play on 6x6 and 4x4, every solve ending by `deadline` when given;
    /// `None` when the deadline passed before the answer was complete.
    fn perfect_answer(
        &mut self,
        pos: &Position,
        deadline: Option<Instant>,
        all_moves: bool,
        on_update: &mut dyn FnMut(&SearchResult),
    ) -> Result<Option<SearchResult>, EngineError> {
        let start = Instant::now();
        let stop = self.stop.clone();
        let player = self.player_for(pos.size, pos.variant)?;
        // Each solve gets the time left (at least a millisecond: a store hit needs none).
        let time_left = || deadline.map(|d| d.saturating_duration_since(Instant::now()).max(Duration::from_millis(1)));
        let out_of_time = || deadline.is_some_and(|d| Instant::now() >= d);
        let mut nodes = 0u64;
        let solver_nodes = |s: &Source| match s {
            Source::Solver { nodes, .. } => *nodes,
            _ => 0,
        };
        let mut result = SearchResult {
            best_move: None,
            score: 0.0,
            score_units: 0,
            depth: pos.empties(),
            selectivity: 100,
            exact: true,
            pv: Vec::new(),
            nodes: 0,
            time: Duration::ZERO,
            move_scores: Vec::new(),
            stopped: false,
        };
        let stopped = |mut r: SearchResult, nodes: u64| {
            r.exact = false;
            r.stopped = true;
            r.best_move = r.best_move.or_else(|| Square::iter(pos.moves()).next());
            r.nodes = nodes;
            r.time = start.elapsed();
            r
        };
        // A solve that failed: stopped (the answer so far), out of time (`Ok(None)`: the
        // estimate answers), or an error.
        let failed = |e: String, r: &SearchResult, nodes: u64| {
            if stop.load(Ordering::Relaxed) {
                Ok(Some(stopped(r.clone(), nodes)))
            } else if out_of_time() {
                Ok(None)
            } else {
                Err(EngineError::new(e))
            }
        };
        if pos.is_game_over() {
            result.score = f64::from(pos.final_score());
            result.score_units = pos.final_score() * solvo_eval::SCALE;
            result.nodes = 1;
            on_update(&result);
            return Ok(Some(result));
        }
        player.set_time_limit(time_left());
        let choice = match player.choose(&pos.board) {
            Ok(c) => c,
            Err(e) => return failed(e, &result, nodes),
        };
        nodes += solver_nodes(&choice.source);
        result.best_move = choice.mv;
        result.score = f64::from(choice.value);
        result.score_units = choice.value * solvo_eval::SCALE;
        result.pv = vec![choice.mv];
        if all_moves {
            for sq in Square::iter(pos.moves()) {
                let child = pos.board.play(sq, pos.size).expect("a legal move");
                player.set_time_limit(time_left());
                match player.value(&child) {
                    Ok((v, s)) => {
                        nodes += solver_nodes(&s);
                        result.move_scores.push(MoveScore { square: sq, score: f64::from(-v) });
                        result.move_scores.sort_by(|a, b| b.score.total_cmp(&a.score));
                    }
                    Err(e) => return failed(e, &result, nodes),
                }
                result.nodes = nodes;
                result.time = start.elapsed();
                on_update(&result);
            }
        }
        result.nodes = nodes.max(1);
        result.time = start.elapsed();
        on_update(&result);
        Ok(Some(result))
    }
}

fn check_threads(threads: usize) -> Result<(), EngineError> {
    if (1..=MAX_THREADS).contains(&threads) {
        Ok(())
    } else {
        Err(EngineError::new(format!("threads must be 1 to {MAX_THREADS}, not {threads}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::formats::transcript::parse_transcript;

    fn engine(level: u32) -> Engine {
        let settings = EngineSettings { level: Level::new(level).unwrap(), hash_mb: 8, ..EngineSettings::default() };
        Engine::new(settings).unwrap()
    }

    fn after(transcript: &str) -> Position {
        parse_transcript(transcript, &Position::start(BoardSize::Eight, Variant::Normal)).unwrap().end()
    }

    /// Tables no system can give (2^60 bytes each): every question on every board
    /// answers with an out-of-memory error instead of a panic, and a question about
    /// another kind of position after one still gets its own error.
    #[test]
    fn a_table_the_system_refuses_is_an_error_of_the_question() {
        let settings = EngineSettings { hash_mb: 1 << 40, ..EngineSettings::default() };
        let mut e = Engine::new(settings).unwrap();
        for pos in [
            after("f5d6"),
            Position::start(BoardSize::Six, Variant::Normal),
            Position::start(BoardSize::Four, Variant::Reversed),
        ] {
            let errors = [
                e.prepare(&pos).unwrap_err(),
                e.best_move(&pos, None, &mut |_| {}).unwrap_err(),
                e.score_moves(&pos, None, &mut |_| {}).unwrap_err(),
                e.solve(&pos, None, &mut |_| {}).unwrap_err(),
                e.analyze_moves(&pos, None, &mut |_| {}).unwrap_err(),
            ];
            for err in errors {
                assert!(err.is_out_of_memory() && err.0.contains("cannot allocate"), "{}: {err:?}", pos.size);
            }
        }
        let one = EngineSettings { hash_mb: 1, ..EngineSettings::default() };
        assert_eq!(one.most_table_mib(2), TABLES_PER_ENGINE as u128 + 2);
    }

    #[test]
    fn best_moves_are_legal_on_every_size_and_variant() {
        let mut e = engine(4);
        for size in [BoardSize::Four, BoardSize::Six, BoardSize::Eight] {
            for variant in [Variant::Normal, Variant::Reversed] {
                let pos = Position::start(size, variant);
                let r = e.best_move(&pos, None, &mut |_| {}).unwrap();
                let m = r.best_move.expect("the start has moves");
                assert!(pos.moves() & m.bit() != 0, "{size} {variant:?}");
            }
        }
        assert!(Engine::new(EngineSettings { threads: 0, ..EngineSettings::default() }).is_err());
    }

    #[test]
    fn scores_every_move_and_streams_iterations() {
        let mut e = engine(6);
        let pos = after("f5d6c3d3c4");
        let mut updates = 0;
        let r = e.score_moves(&pos, None, &mut |r| {
            updates += 1;
            assert_eq!(r.move_scores.len(), pos.moves().count_ones() as usize);
        });
        let r = r.unwrap();
        assert!(updates >= 2, "one update per iteration");
        assert_eq!(r.depth, 6);
        assert_eq!(r.move_scores[0].score, r.score);
        // 4x4: every move's exact value; the best equals the position's value.
        let small = Position::start(BoardSize::Four, Variant::Normal);
        let r = e.score_moves(&small, None, &mut |_| {}).unwrap();
        assert_eq!(r.move_scores.len(), 4);
        assert!(r.exact && r.move_scores[0].score == r.score);
    }

    #[test]
    fn solves_exactly_and_stops() {
        let mut e = engine(2);
        // 23 empties, then 9 plies more: 14 empties, solved in a blink.
        let mut pos = after("f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8");
        while pos.empties() > 14 {
            pos = match Square::iter(pos.moves()).next() {
                Some(m) => pos.play(m).unwrap(),
                None => pos.passed(),
            };
        }
        let r = e.solve(&pos, None, &mut |_| {}).unwrap();
        assert!(r.exact && !r.stopped);
        // A stop before a long search: the search clears the flag, so it completes;
        // a time limit ends it with the last iteration.
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let t = Instant::now();
        let r = e.solve(&start, Some(Duration::from_millis(200)), &mut |_| {}).unwrap();
        assert!(r.stopped && !r.exact && t.elapsed() < Duration::from_secs(5));
        assert!(start.moves() & r.best_move.unwrap().bit() != 0);
    }

    #[test]
    fn a_stop_handle_ends_a_search_from_another_thread() {
        let mut e = engine(30);
        let handle = e.stop_handle();
        let pos = after("f5d6c3d3c4");
        let stopper = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            handle.stop();
        });
        let t = Instant::now();
        let r = e.best_move(&pos, None, &mut |_| {}).unwrap();
        stopper.join().unwrap();
        assert!(r.stopped && t.elapsed() < Duration::from_secs(10));
    }

    #[test]
    fn time_controls_pick_move_times_and_exact_reach() {
        let mut e = engine(10);
        let pos = Position::start(BoardSize::Eight, Variant::Normal);
        assert_eq!(e.move_time(&pos, None), None);
        e.set_time_control(TimeControl::PerMove(Duration::from_millis(100)));
        assert_eq!(e.move_time(&pos, None), Some(MoveTime::fixed(Duration::from_millis(100))));
        e.set_time_control(TimeControl::PerGame { total: Duration::from_secs(60), increment: Duration::ZERO });
        let t = e.move_time(&pos, None).unwrap().target;
        assert!(t > Duration::from_secs(1) && t < Duration::from_secs(10));
        assert_eq!(exact_reach(Duration::from_millis(250)), 19);
        assert_eq!(exact_reach(Duration::from_secs(1)), 21);
        assert_eq!(wld_reach(Duration::from_secs(1)), 22);
        assert_eq!((exact_reach(Duration::from_millis(1)), wld_reach(Duration::from_millis(1))), (12, 14));
        assert_eq!(wld_reach(Duration::from_micros(1)), MIN_TIMED_EXACT + 1);
        assert_eq!(exact_reach(Duration::from_secs(100_000)), MAX_TIMED_EXACT);
        let t = Instant::now();
        let r = e.best_move(&pos, Some(Duration::from_millis(150).into()), &mut |_| {}).unwrap();
        assert!(t.elapsed() < Duration::from_millis(1500), "{:?}", t.elapsed());
        assert!(r.best_move.is_some());
    }

    #[test]
    fn small_boards_without_a_store_answer_at_the_level_and_within_the_time() {
        let mut e = engine(1);
        let six = Position::start(BoardSize::Six, Variant::Normal);
        let legal = |r: &SearchResult| six.moves() & r.best_move.expect("a move").bit() != 0;
        // Level 1 without a time: the start (32 empties) is beyond the exact reach, so
        // the estimate answers at depth 1 (an exact solve takes minutes).
        let r = e.best_move(&six, None, &mut |_| {}).unwrap();
        assert!(r.depth == 1 && !r.exact && !r.stopped && legal(&r), "{r:?}");
        // Under a time: an answer by then (a generous bound; not a timing test).
        for ms in [20, 300] {
            let t = Instant::now();
            let r = e.best_move(&six, Some(Duration::from_millis(ms).into()), &mut |_| {}).unwrap();
            assert!(t.elapsed() < Duration::from_secs(30) && legal(&r), "{ms} ms: {r:?} in {:?}", t.elapsed());
        }
        let r = e.score_moves(&six, Some(Duration::from_millis(200)), &mut |_| {}).unwrap();
        assert_eq!(r.move_scores.len(), 4);
        // An exact question under too short a time: stopped, not exact, a legal move.
        let r = e.solve(&six, Some(Duration::from_millis(100)), &mut |_| {}).unwrap();
        assert!(r.stopped && !r.exact && legal(&r), "{r:?}");
        // Within the reach every level plays perfectly: 4x4 from its start, 6x6 near
        // the end (the exact value, kept by the move).
        let four = Position::start(BoardSize::Four, Variant::Normal);
        assert!(e.best_move(&four, None, &mut |_| {}).unwrap().exact);
        let mut near_end = six;
        while near_end.empties() > SMALL_EXACT_FLOOR {
            near_end = match Square::iter(near_end.moves()).next() {
                Some(m) => near_end.play(m).unwrap(),
                None => near_end.passed(),
            };
        }
        let r = e.best_move(&near_end, None, &mut |_| {}).unwrap();
        assert!(r.exact || near_end.is_game_over(), "{r:?}");
    }

    #[test]
    fn the_level_within_a_time_searches_no_deeper_than_the_level() {
        let mut e = engine(3);
        e.set_level_within_time(true);
        for size in [BoardSize::Eight, BoardSize::Six] {
            let pos = Position::start(size, Variant::Normal);
            let r = e.best_move(&pos, Some(Duration::from_secs(20).into()), &mut |_| {}).unwrap();
            assert!(r.depth <= 3 && !r.stopped, "{size}: {r:?}");
        }
        // Level 40 within 100 ms: the time stops it.
        e.set_level(Level::new(40).unwrap());
        let r = e.best_move(&after("f5d6c3"), Some(Duration::from_millis(100).into()), &mut |_| {}).unwrap();
        assert!(r.stopped, "{r:?}");
    }

    #[test]
    fn learning_a_game_fills_the_book_and_the_engine_plays_from_it() {
        let mut e = engine(2);
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let game = parse_transcript("f5d6c3d3c4f4f6f3e6e7", &start).unwrap();
        // Level 2 solves from 4 empties: every position of this opening is learnt.
        assert_eq!(e.learn(&game).unwrap(), 11);
        assert_eq!(e.book().unwrap().len(), 11);
        assert_eq!(e.learn(&game).unwrap(), 0);
        // The start has a book move now: answered at once, depth 0.
        let r = e.best_move(&start, None, &mut |_| {}).unwrap();
        assert_eq!(r.depth, 0);
        // A game of the other variant or another size is refused, the book kept.
        let rev = parse_transcript("f5", &Position::start(BoardSize::Eight, Variant::Reversed)).unwrap();
        assert!(e.learn(&rev).is_err());
        let small = Replay::new(Position::start(BoardSize::Six, Variant::Normal));
        assert!(e.learn(&small).is_err());
        assert_eq!(e.book().unwrap().len(), 11);
    }
}
