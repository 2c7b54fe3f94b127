//! `solvo.Engine`: the playing engine the protocols use (levels, time controls, opening
//! book, solution stores), asked for a move, every move's value or a game's review;
//! and `solvo.EngineGame`, a game in progress against it (moves, passes, undo, the
//! engine's replies on its clock).

use crate::errors::{Failure, Fallible};
use crate::options;
use crate::position::{position_arg, square, PyPosition};
use crate::readers::PyGameRecord;
use crate::results::{PyAnalysis, PyMoveTable};
use crate::search;
use crate::watch::interruptible;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use solvo_engine::{Clock, Engine, Level, MoveTime, Session, StopHandle, TimeControl};
use solvo_othello::formats::ggf::{format_ggf, ggf_from_replay};
use solvo_othello::formats::transcript::{PassStyle, Ply};
use solvo_othello::Position;
use solvo_shell::shared::EngineArgs;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

/// The engine: `Engine(level=10)`, or on a clock `Engine(move_time=1.0)` /
/// `Engine(game_time=300, increment=2)`; `book=` an opening book file, `stores=` 6x6 or
/// 4x4 solution stores to play from; `variant=` the rules of the book and weights.
#[pyclass(module = "solvo", name = "Engine", frozen)]
pub struct PyEngine {
    engine: Mutex<Engine>,
    stop: StopHandle,
}

impl PyEngine {
    fn lock(&self) -> Fallible<std::sync::MutexGuard<'_, Engine>> {
        self.engine
            .lock()
            .map_err(|_| Failure::new(crate::errors::Kind::Engine, "the engine failed in an earlier question"))
    }

    /// Runs `question` on the engine without the GIL; Ctrl-C stops it through the
    /// engine's stop handle; `progress` sees each update `question` reports.
    fn ask<T: Send, U: Send + Clone + 'static>(
        &self,
        py: Python<'_>,
        progress: Option<&Bound<'_, PyAny>>,
        to_py: &dyn Fn(Python<'_>, U) -> PyResult<Py<PyAny>>,
        question: impl FnOnce(&mut Engine, &mut dyn FnMut(U)) -> Fallible<T> + Send,
    ) -> PyResult<T> {
        let latest: Mutex<Option<U>> = Mutex::new(None);
        let stop = self.stop.clone();
        let mut engine = self.lock()?;
        let engine = &mut *engine;
        let latest_ref = &latest;
        let r = interruptible(
            py,
            &|| stop.stop(),
            progress,
            &|| latest_ref.lock().ok().and_then(|mut l| l.take()),
            to_py,
            move || {
                question(engine, &mut |u| {
                    if let Ok(mut l) = latest_ref.lock() {
                        *l = Some(u);
                    }
                })
            },
        )?;
        Ok(r?)
    }
}

fn analysis_to_py(py: Python<'_>, a: PyAnalysis) -> PyResult<Py<PyAny>> {
    Ok(Py::new(py, a)?.into_any())
}

fn table_to_py(py: Python<'_>, t: PyMoveTable) -> PyResult<Py<PyAny>> {
    Ok(Py::new(py, t)?.into_any())
}

#[pymethods]
impl PyEngine {
    #[new]
    #[pyo3(signature = (level = 10, variant = "normal", threads = 1, hash_mb = 64, move_time = None, game_time = None, increment = None, book = None, stores = Vec::new(), eval_file = None))]
    #[allow(clippy::too_many_arguments)]
    fn py_new(
        level: u32,
        variant: &str,
        threads: i64,
        hash_mb: i64,
        move_time: Option<f64>,
        game_time: Option<f64>,
        increment: Option<f64>,
        book: Option<PathBuf>,
        stores: Vec<PathBuf>,
        eval_file: Option<PathBuf>,
    ) -> PyResult<PyEngine> {
        if move_time.is_some() && game_time.is_some() {
            return Err(Failure::input("move_time and game_time: give one time control, not both").into());
        }
        if increment.is_some() && game_time.is_none() {
            return Err(Failure::input("increment: only with game_time").into());
        }
        let args = EngineArgs {
            level: options::checked("level", level, solvo_shell::option_ranges::level)?,
            move_time: options::seconds("move_time", move_time)?.map(|d| d.as_secs_f64()),
            game_time: options::seconds("game_time", game_time)?.map(|d| d.as_secs_f64()),
            increment: options::seconds("increment", increment)?.map(|d| d.as_secs_f64()),
            threads: options::threads(threads)?,
            hash_mb: options::hash_mb("hash_mb", hash_mb)?,
            eval_file,
            book,
            store: stores,
        };
        let engine =
            args.engine(crate::position::common(None, crate::position::variant(variant)?)).map_err(Failure::from)?;
        let stop = engine.stop_handle();
        Ok(PyEngine { engine: Mutex::new(engine), stop })
    }

    /// The level (1-60): midgame depth; the outcome proven from min(2L, L + 8) empties, the
    /// exact score from a few fewer (L + 3 from level 8); every move's exact value from 2L
    /// empties.
    #[getter]
    fn level(&self) -> PyResult<u32> {
        Ok(self.lock()?.settings().level.number())
    }

    #[setter]
    fn set_level(&self, level: u32) -> PyResult<()> {
        let level = options::checked("level", level, solvo_shell::option_ranges::level)?;
        self.lock()?.set_level(Level::new(level).expect("a checked level"));
        Ok(())
    }

    /// Stops the running question from another thread (it returns soon, `stopped`).
    fn stop(&self) {
        self.stop.stop();
    }

    /// Forgets what the search tables learnt (a new opponent).
    fn clear(&self) -> PyResult<()> {
        self.lock()?.clear();
        Ok(())
    }

    /// The move to play in `pos`: thinking at most `time` seconds when given, else as
    /// the time control allots with `remaining` seconds on the clock (default: the
    /// whole game's time), else to the level. `progress` sees each iteration.
    #[pyo3(signature = (pos, time = None, remaining = None, progress = None))]
    fn best_move(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        time: Option<f64>,
        remaining: Option<f64>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyAnalysis> {
        let pos = position_arg(pos)?.pos;
        let time = options::seconds("time", time)?;
        let remaining = options::seconds("remaining", remaining)?;
        let r = self.ask(py, progress, &analysis_to_py, move |engine, report| {
            let time =
                time.map(MoveTime::fixed).or_else(|| engine.move_time(&pos, clock_with(engine, remaining).as_ref()));
            search::engine_move(engine, &pos, time, &mut |r| report(PyAnalysis::new(r)))
        })?;
        Ok(PyAnalysis::new(&r))
    }

    /// Every legal move's value (midgame values, then exact ones within the level's
    /// reach), within `time` seconds when given; `progress` sees each update.
    #[pyo3(signature = (pos, time = None, progress = None))]
    fn analyze(
        &self,
        py: Python<'_>,
        pos: &Bound<'_, PyAny>,
        time: Option<f64>,
        progress: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyMoveTable> {
        let pos = position_arg(pos)?.pos;
        let time = options::seconds("time", time)?;
        let t = self.ask(py, progress, &table_to_py, move |engine, report| {
            search::engine_analyze(engine, &pos, time, &mut |t| report(PyMoveTable::new(t)))
        })?;
        Ok(PyMoveTable::new(&t))
    }

    /// A game's review: for each ply, the best move, the played move's value and its
    /// loss in discs (a list of dicts), at most `time_per_position` seconds each.
    /// `game` is a `GameRecord` or a `Position` reached by moves.
    #[pyo3(signature = (game, time_per_position = None))]
    fn review<'py>(
        &self,
        py: Python<'py>,
        game: &Bound<'py, PyAny>,
        time_per_position: Option<f64>,
    ) -> PyResult<Vec<Bound<'py, PyDict>>> {
        let replay = match game.cast::<PyGameRecord>() {
            Ok(g) => g.get().replay().clone(),
            Err(_) => position_arg(game)?.replay.ok_or_else(|| {
                Failure::input("review: the position was not reached by moves (give a GameRecord or a transcript)")
            })?,
        };
        let time = options::seconds("time_per_position", time_per_position)?;
        let review = self.ask::<_, ()>(py, None, &|py, ()| Ok(py.None()), move |engine, _| {
            search::engine_review(engine, &replay, time, &mut |_| {})
        })?;
        review
            .plies
            .iter()
            .map(|p| {
                let d = PyDict::new(py);
                d.set_item("index", p.index)?;
                d.set_item("side", p.side.name())?;
                d.set_item("played", p.played.map(|m| m.to_string()))?;
                d.set_item("best", p.best.map(|m| m.to_string()))?;
                d.set_item("best_score", p.best_score)?;
                d.set_item("played_score", p.played_score)?;
                d.set_item("loss", p.loss)?;
                d.set_item("exact", p.exact)?;
                d.set_item("black_value", p.black_value)?;
                Ok(d)
            })
            .collect()
    }

    /// A game against the engine from `start` (default: the standard start).
    #[pyo3(signature = (start = None))]
    fn new_game(slf: &Bound<'_, Self>, start: Option<&Bound<'_, PyAny>>) -> PyResult<PyEngineGame> {
        let session = match start {
            Some(p) => {
                let p = position_arg(p)?;
                match p.replay {
                    Some(r) => {
                        let mut s = Session::from_position(r.start);
                        for &ply in &r.plies {
                            s.play_ply(ply).map_err(Failure::input)?;
                        }
                        s
                    }
                    None => Session::from_position(p.pos),
                }
            }
            None => {
                Session::from_position(Position::start(solvo_othello::BoardSize::Eight, solvo_othello::Variant::Normal))
            }
        };
        let clock = slf.get().lock()?.settings().time.new_clock();
        Ok(PyEngineGame { engine: slf.clone().unbind(), state: Mutex::new((session, clock)) })
    }

    fn __repr__(&self) -> PyResult<String> {
        let e = self.lock()?;
        let s = e.settings();
        Ok(format!(
            "Engine(level={}, threads={}, hash_mb={}, time={:?})",
            s.level.number(),
            s.threads,
            s.hash_mb,
            s.time
        ))
    }
}

/// The clock of a per-game time control with `remaining` seconds left (`None`: none).
fn clock_with(engine: &Engine, remaining: Option<Duration>) -> Option<Clock> {
    match (engine.settings().time, remaining) {
        (TimeControl::PerGame { increment, .. }, Some(r)) => Some(Clock::new(r, increment)),
        _ => None,
    }
}

/// A game in progress against an engine: `game = engine.new_game()`, `game.play("f5")`,
/// `game.engine_move()`, `game.undo()`.
#[pyclass(module = "solvo", name = "EngineGame", frozen)]
pub struct PyEngineGame {
    engine: Py<PyEngine>,
    /// The game, and the engine's clock under a per-game time control.
    state: Mutex<(Session, Option<Clock>)>,
}

impl PyEngineGame {
    fn with<T>(&self, f: impl FnOnce(&mut Session, &mut Option<Clock>) -> Fallible<T>) -> PyResult<T> {
        let mut st =
            self.state.lock().map_err(|_| Failure::new(crate::errors::Kind::Engine, "the game failed earlier"))?;
        let (session, clock) = &mut *st;
        Ok(f(session, clock)?)
    }
}

#[pymethods]
impl PyEngineGame {
    /// The current position (with the game as its history).
    #[getter]
    fn position(&self) -> PyResult<PyPosition> {
        self.with(|s, _| Ok(PyPosition::with_replay(s.replay().clone())))
    }

    /// Plays `move` (a square, or `"pass"`) for the side to move.
    #[pyo3(name = "play")]
    fn py_play(&self, r#move: &str) -> PyResult<()> {
        let pass = matches!(r#move.trim().to_ascii_lowercase().as_str(), "pass" | "pa" | "ps");
        let ply = if pass { Ply::Pass } else { Ply::Move(square(r#move)?) };
        self.with(|s, _| s.play_ply(ply).map_err(Failure::input))
    }

    /// Takes back the last ply; returns it (`None` at the start).
    fn undo(&self) -> PyResult<Option<String>> {
        self.with(|s, _| Ok(s.undo().map(|p| p.to_string())))
    }

    /// Replays the last ply undone; returns it (`None` when there is none).
    fn redo(&self) -> PyResult<Option<String>> {
        self.with(|s, _| Ok(s.redo().map(|p| p.to_string())))
    }

    /// The engine chooses a move for the side to move, on its clock, and plays it (a
    /// pass when it must); returns its analysis. `progress` sees each iteration.
    #[pyo3(signature = (progress = None))]
    fn engine_move(&self, py: Python<'_>, progress: Option<&Bound<'_, PyAny>>) -> PyResult<PyAnalysis> {
        let (pos, mut clock) = self.with(|s, c| Ok((s.position(), *c)))?;
        if pos.is_game_over() {
            return Err(Failure::input("the game is over").into());
        }
        let engine = self.engine.get();
        if let Some(c) = &mut clock {
            c.start();
        }
        let clock_now = clock;
        let r = engine.ask(py, progress, &analysis_to_py, move |engine, report| {
            let time = engine.move_time(&pos, clock_now.as_ref());
            search::engine_move(engine, &pos, time, &mut |r| report(PyAnalysis::new(r)))
        })?;
        if let Some(c) = &mut clock {
            c.stop();
        }
        self.with(|s, c| {
            *c = clock;
            match r.best_move {
                Some(sq) => s.play(sq),
                None => s.pass(),
            }
            .map_err(|e| Failure::new(crate::errors::Kind::Engine, e))
        })?;
        Ok(PyAnalysis::new(&r))
    }

    /// True when neither side can move.
    #[getter]
    fn is_over(&self) -> PyResult<bool> {
        self.with(|s, _| Ok(s.is_over()))
    }

    /// Black's final score once the game is over.
    #[getter]
    fn result(&self) -> PyResult<Option<i32>> {
        self.with(|s, _| Ok(s.result()))
    }

    /// Seconds left on the engine's clock (per-game time control), else `None`.
    #[getter]
    fn clock_remaining(&self) -> PyResult<Option<f64>> {
        self.with(|_, c| Ok(c.map(|c| c.remaining().as_secs_f64())))
    }

    /// The moves so far as a transcript.
    fn transcript(&self) -> PyResult<String> {
        self.with(|s, _| Ok(s.replay().transcript(PassStyle::Implicit)))
    }

    /// The game as a GGF record.
    #[pyo3(signature = (black = "black", white = "white"))]
    fn to_ggf(&self, black: &str, white: &str) -> PyResult<String> {
        self.with(|s, _| Ok(format_ggf(&ggf_from_replay(s.replay(), black, white))))
    }

    fn __repr__(&self) -> PyResult<String> {
        self.with(|s, _| {
            Ok(format!("EngineGame({} plies: {})", s.plies().len(), s.replay().transcript(PassStyle::Implicit)))
        })
    }
}
