//! The module's functions on one position: `solve`, `solve_moves`, `analyze`,
//! `evaluate`, and the whole-board `weak_solve`. Each reads its arguments with the
//! command line's checks, runs the search (`search.rs`) on a worker thread without the
//! GIL (`watch.rs`: Ctrl-C stops it through its stop flag) and returns a result object.

use crate::errors::Failure;
use crate::options;
use crate::position::{board_size, position_arg, variant, PyPosition};
use crate::results::{PyAnalysis, PyMoveValue, PySolveResult};
use crate::search;
use crate::watch::{interruptible, quietly};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use solvo_othello::BoardSize;
use solvo_othello_search::Window;
use solvo_shell::shared::SearchArgs;
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often a progress callback is called at most.
const PROGRESS_EVERY: Duration = Duration::from_millis(500);

/// A progress report of nodes counted in `progress` since `start`, every
/// [`PROGRESS_EVERY`]: a dict `{"nodes": n, "seconds": t}`.
fn node_progress(progress: Arc<AtomicU64>) -> impl Fn() -> Option<(u64, f64)> {
    let (start, last) = (Instant::now(), Cell::new(Instant::now()));
    move || {
        (last.get().elapsed() >= PROGRESS_EVERY).then(|| {
            last.set(Instant::now());
            (progress.load(Ordering::Relaxed), start.elapsed().as_secs_f64())
        })
    }
}

fn node_dict(py: Python<'_>, (nodes, seconds): (u64, f64)) -> PyResult<Py<PyAny>> {
    let d = PyDict::new(py);
    d.set_item("nodes", nodes)?;
    d.set_item("seconds", seconds)?;
    Ok(d.into_any().unbind())
}

/// Reads `window=(lo, hi)` with the command line's check.
fn window(w: Option<(i32, i32)>) -> Result<Option<Window>, Failure> {
    w.map(|(lo, hi)| {
        solvo_shell::shared::parse_window(&format!("{lo},{hi}")).map_err(|e| Failure::input(format!("window: {e}")))
    })
    .transpose()
}

/// Reads `ladder="auto" | "off" | 73 | ...`.
fn ladder(mode: &Bound<'_, PyAny>) -> Result<solvo_othello_search::LadderMode, Failure> {
    let text = mode.str().map(|s| s.to_string()).unwrap_or_default();
    solvo_shell::option_ranges::ladder_mode(&text).map_err(|e| Failure::input(format!("ladder={text}: {e}")))
}

/// Solves `pos` exactly: the final disc difference for the side to move under perfect
/// play, a best move and the principal variation.
#[pyfunction]
#[pyo3(signature = (pos, window = None, threads = 1, hash_mb = None, time_limit = None, node_limit = None, ladder = None, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn solve(
    py: Python<'_>,
    pos: &Bound<'_, PyAny>,
    window: Option<(i32, i32)>,
    threads: i64,
    hash_mb: Option<i64>,
    time_limit: Option<f64>,
    node_limit: Option<i64>,
    ladder: Option<&Bound<'_, PyAny>>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<PySolveResult> {
    let pos = position_arg(pos)?.pos;
    let limits = search::SolveLimits {
        window: self::window(window)?,
        threads: options::threads(threads)?,
        hash_mb: hash_mb.map(|m| options::hash_mb("hash_mb", m)).transpose()?,
        time_limit: options::seconds("time_limit", time_limit)?,
        node_limit: options::nodes("node_limit", node_limit)?,
        ladder: ladder.map(self::ladder).transpose()?.unwrap_or(solvo_othello_search::LadderMode::Auto),
    };
    let setup = search::solve_setup(&pos, &limits)?;
    let stop = setup.stop_flag();
    let poll = node_progress(setup.progress());
    let r = interruptible(py, &|| stop.store(true, Ordering::Relaxed), progress, &poll, &node_dict, || {
        search::solve(&pos, &setup)
    })?;
    Ok(PySolveResult::new(&pos, &r))
}

/// Every legal move's exact value (from the mover's side), best first, in one call
/// over one table; a position without a legal move gives an empty list.
#[pyfunction]
#[pyo3(signature = (pos, threads = 1, hash_mb = None, time_limit = None, progress = None))]
pub fn solve_moves(
    py: Python<'_>,
    pos: &Bound<'_, PyAny>,
    threads: i64,
    hash_mb: Option<i64>,
    time_limit: Option<f64>,
    progress: Option<&Bound<'_, PyAny>>,
) -> PyResult<Vec<PyMoveValue>> {
    let pos = position_arg(pos)?.pos;
    let limits = search::SolveLimits {
        window: None,
        threads: options::threads(threads)?,
        hash_mb: hash_mb.map(|m| options::hash_mb("hash_mb", m)).transpose()?,
        time_limit: options::seconds("time_limit", time_limit)?,
        node_limit: None,
        ladder: solvo_othello_search::LadderMode::Off,
    };
    let setup = search::solve_setup(&pos, &limits)?;
    let stop = setup.stop_flag();
    let poll = node_progress(setup.progress());
    let every = interruptible(py, &|| stop.store(true, Ordering::Relaxed), progress, &poll, &node_dict, || {
        search::solve_moves(&pos, &setup.options, &mut |_| {})
    })?;
    let mut moves: Vec<PyMoveValue> = every.moves.iter().map(PyMoveValue::new).collect();
    moves.sort_by_key(|m| (std::cmp::Reverse(m.lower), std::cmp::Reverse(m.upper)));
    Ok(moves)
}

/// The midgame search of an 8x8 position (as `solvo analyze`): the evaluation searched
/// `depth` plies at `selectivity` percent (73, 87, 95, 98, 99 or 100), within `time`
/// seconds when given; every move's score with `all_moves=True`.
#[pyfunction]
#[pyo3(signature = (pos, depth = 12, selectivity = 100, time = None, all_moves = false, threads = 1, hash_mb = 64, exact_from = 0))]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    pos: &Bound<'_, PyAny>,
    depth: u32,
    selectivity: u32,
    time: Option<f64>,
    all_moves: bool,
    threads: i64,
    hash_mb: i64,
    exact_from: u32,
) -> PyResult<PyAnalysis> {
    let pos = position_arg(pos)?.pos;
    if !(1..=60).contains(&depth) {
        return Err(Failure::input(format!("depth={depth}: expected 1 to 60")).into());
    }
    if exact_from > 60 {
        return Err(Failure::input(format!("exact_from={exact_from}: expected 0 to 60")).into());
    }
    let args = SearchArgs {
        depth,
        selectivity: options::checked("selectivity", selectivity, solvo_shell::option_ranges::selectivity)?,
        time: options::seconds("time", time)?.map(|t| t.as_secs_f64()),
        nodes: None,
        threads: options::threads(threads)? as u64,
        hash_mb: options::hash_mb("hash_mb", hash_mb)?,
        exact_from,
        wld_from: 0,
        pv_extension: None,
        solve_empties: 0,
        every_depth: false,
        eval_file: None,
    };
    let (mut searcher, limits) = search::analyze_setup(&pos, &args, all_moves)?;
    if pos.is_game_over() {
        return Ok(PyAnalysis::game_over(&pos));
    }
    let stop = searcher.stop_flag();
    let r = quietly(py, &|| stop.store(true, Ordering::Relaxed), || search::analyze(&mut searcher, &pos, &limits))??;
    Ok(PyAnalysis::new(&r))
}

/// The static evaluation of `pos` in discs for the side to move (the embedded weights
/// of its size and variant); a finished game's final score.
#[pyfunction]
pub fn evaluate(pos: &Bound<'_, PyAny>) -> PyResult<f64> {
    let pos = position_arg(pos)?.pos;
    if pos.is_game_over() {
        return Ok(f64::from(pos.final_score()));
    }
    let weights = crate::features::weights_for(pos.size, pos.variant)?;
    Ok(weights.evaluate_discs(&pos.board))
}

/// The weak solution of a 6x6 or 4x4 board's start: its value for black, a proven
/// principal variation and the final discs (6x6: about half a minute on one core).
#[pyfunction]
#[pyo3(signature = (size, variant = "normal", threads = 1, hash_mb = 1024, guess = None))]
pub fn weak_solve(
    py: Python<'_>,
    size: &Bound<'_, PyAny>,
    variant: &str,
    threads: i64,
    hash_mb: i64,
    guess: Option<i32>,
) -> PyResult<crate::store::PyWeakSolution> {
    let size = board_size(Some(size))?.unwrap_or(BoardSize::Eight);
    if size == BoardSize::Eight {
        return Err(Failure::input("weak-solve: 8x8 is out of reach here; use size=4 or size=6").into());
    }
    let variant = self::variant(variant)?;
    let guess = guess.map(|g| options::checked("guess", g, solvo_shell::option_ranges::score)).transpose()?;
    let mut opts =
        solvo_othello_search::SolveOptions::try_new(options::hash_mb("hash_mb", hash_mb)?).map_err(Failure::from)?;
    opts.threads = options::threads(threads)?;
    let stop = opts.stop.clone();
    let w = quietly(py, &|| stop.store(true, Ordering::Relaxed), || search::weak_solve(size, variant, &opts, guess))??;
    Ok(crate::store::PyWeakSolution::new(&w))
}

/// A position read from text (as `Position(text)`), for functions that take either.
#[pyfunction]
#[pyo3(signature = (text, size = None, variant = "normal"))]
pub fn position(text: &str, size: Option<&Bound<'_, PyAny>>, variant: &str) -> PyResult<PyPosition> {
    Ok(PyPosition::parse(text, board_size(size)?, self::variant(variant)?)?)
}
