//! The one module of the package that calls the searches: the exact solver (through
//! the selective ladder, as `solvo solve` does), every move's exact value, the midgame
//! search (as `solvo analyze`), the engine's questions, the weak solve, store lookups and
//! the generic game solvers. Every other module prepares arguments and presents results;
//! a change of the search crate's face is an edit here.

use crate::errors::{Failure, Fallible};
use solvo_engine::{Engine, GameReview, MoveTable, MoveTime, PlyReview, SearchResult};
use solvo_othello::formats::transcript::Replay;
use solvo_othello::{BoardSize, Position, Variant};
use solvo_othello_search::{EveryMoveResult, MoveBounds, SolveOptions, SolveResult, Window};
use solvo_othello_search::{LadderMode, ASPIRATION};
use solvo_othello_search::{SearchLimits, SelectiveSearch};
use solvo_shell::shared::{table_mib_for, LadderArgs, SearchArgs};
use solvo_shell::Common;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::Arc;
use std::time::Duration;

/// What an exact solve needs, made before it runs: its options (table, threads,
/// window, limits, stop flag, progress counter, the selective ladder).
pub struct SolveSetup {
    /// The exact solver's options.
    pub options: SolveOptions,
}

impl SolveSetup {
    /// The stop flag of the solve.
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        self.options.stop.clone()
    }

    /// Nodes searched so far (updated every few thousand nodes).
    pub fn progress(&self) -> Arc<AtomicU64> {
        self.options.progress.clone()
    }
}

/// Requested limits of an exact solve.
pub struct SolveLimits {
    /// Values of interest (`None`: every value).
    pub window: Option<Window>,
    /// Search threads.
    pub threads: usize,
    /// Table size in MiB (`None`: the command line's default for the empties).
    pub hash_mb: Option<usize>,
    /// Time limit (bounds only when reached).
    pub time_limit: Option<Duration>,
    /// Node limit (bounds only when reached).
    pub node_limit: Option<u64>,
    /// The selective ladder (the command line's `--ladder`).
    pub ladder: LadderMode,
}

/// The solve of `pos` under `limits`, as `solvo solve` makes it: table sized by the
/// empties unless given (the ladder climbs on that table).
pub fn solve_setup(pos: &Position, limits: &SolveLimits) -> Fallible<SolveSetup> {
    let hash_mb = limits.hash_mb.unwrap_or_else(|| table_mib_for(pos.empties()));
    let args = LadderArgs { ladder: limits.ladder, ladder_depth_cut: 2, aspiration: ASPIRATION as u32 };
    let ladder = args.ladder(limits.threads, None, common_of(pos))?;
    let mut options = SolveOptions::try_new(hash_mb)?;
    options.threads = limits.threads;
    options.window = limits.window.unwrap_or(Window::FULL);
    options.time_limit = limits.time_limit;
    options.node_budget = limits.node_limit.unwrap_or(u64::MAX);
    options.ladder = Arc::new(ladder);
    Ok(SolveSetup { options })
}

/// Solves `pos` exactly (within the window), climbing the ladder first when it applies.
pub fn solve(pos: &Position, setup: &SolveSetup) -> SolveResult {
    solvo_othello_search::solve(pos, &setup.options)
}

/// Every legal move's exact value in one call over one table (`on_move` sees each as
/// it settles); the window of `options` is not used.
pub fn solve_moves(pos: &Position, options: &SolveOptions, on_move: &mut dyn FnMut(&MoveBounds)) -> EveryMoveResult {
    solvo_othello_search::solve_every_move(pos, options, &[], 0, on_move)
}

/// The midgame searcher and limits `solvo analyze` makes from its options.
pub fn analyze_setup(pos: &Position, args: &SearchArgs, all_moves: bool) -> Fallible<(SelectiveSearch, SearchLimits)> {
    if pos.size != BoardSize::Eight {
        return Err(Failure::input(format!("the midgame search is for 8x8 boards, not {}", pos.size)));
    }
    Ok(args.searcher(common_of(pos), all_moves)?)
}

/// The midgame search of `pos` (its stop flag is `search.stop_flag()`).
pub fn analyze(search: &mut SelectiveSearch, pos: &Position, limits: &SearchLimits) -> Fallible<SearchResult> {
    Ok(search.search(pos, limits)?)
}

/// The engine's move in `pos` within `time` (else to its level).
pub fn engine_move(
    engine: &mut Engine,
    pos: &Position,
    time: Option<MoveTime>,
    on_iteration: &mut dyn FnMut(&SearchResult),
) -> Fallible<SearchResult> {
    Ok(engine.best_move(pos, time, on_iteration)?)
}

/// Every legal move's value by the engine (midgame values, then exact ones within
/// its level's reach).
pub fn engine_analyze(
    engine: &mut Engine,
    pos: &Position,
    time: Option<Duration>,
    on_update: &mut dyn FnMut(&MoveTable),
) -> Fallible<MoveTable> {
    Ok(engine.analyze_moves(pos, time, on_update)?)
}

/// A game's review by the engine: every move's loss against the best.
pub fn engine_review(
    engine: &mut Engine,
    replay: &Replay,
    time_per_position: Option<Duration>,
    on_ply: &mut dyn FnMut(&PlyReview),
) -> Fallible<GameReview> {
    Ok(engine.analyze_game(replay, time_per_position, on_ply)?)
}

/// The weak solution of a small board's start: its value and a proven line.
pub fn weak_solve(
    size: BoardSize,
    variant: Variant,
    options: &SolveOptions,
    guess: Option<i32>,
) -> Fallible<solvo_solve::weak::WeakSolution> {
    solvo_solve::weak::weak_solve(size, variant, options, guess)
        .map_err(|e| Failure::new(crate::errors::Kind::Search, format!("weak-solve {size}: {e}")))
}

/// A position's exact value from a store, or solved when the store cannot answer.
pub fn lookup(
    store: &solvo_solve::Store,
    pos: &Position,
    options: &mut SolveOptions,
) -> Fallible<solvo_solve::lookup::Lookup> {
    Ok(solvo_solve::lookup::lookup(store, pos, options)?)
}

/// A small game (or Othello) solved by the generic solver of `config`.
pub fn solve_game<G: solvo_core::Game>(
    game: &G,
    config: &solvo_search::SolverConfig,
) -> solvo_search::SolverAnswer<G::Move> {
    solvo_search::solve(game, config)
}

/// The options a position's reading and weights go by: its size and variant.
fn common_of(pos: &Position) -> Common {
    Common { json: false, size: Some(pos.size), variant: pos.variant }
}
