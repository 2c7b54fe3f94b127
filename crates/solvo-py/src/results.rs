//! The result objects: plain, immutable values read from the searches' results, with
//! a short `repr` in the command line's words.

use crate::position::{move_name, pv_names};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use solvo_othello::formats::board_string::format_position;
use solvo_othello::Position;
use solvo_othello_search::{MoveBounds, SolveResult};

/// An exact solve: the score for the side to move (final disc difference, empties to
/// the winner) when proven, else proven bounds (`lower <= value <= upper`).
#[pyclass(module = "solvo", name = "SolveResult", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PySolveResult {
    /// The exact value, or `None` when only bounds are proven (a window, or a stop).
    pub score: Option<i32>,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// The move the result vouches for (as `solvo solve` prints it): the best move when
    /// exact, the move that reached the window after a fail high, none after a fail low.
    pub best_move: Option<String>,
    /// The principal variation (passes as `"pass"`), when exact.
    pub pv: Vec<String>,
    /// Positions searched.
    pub nodes: u64,
    /// Positions searched by the move-ordering searches (the ladder's included).
    pub ordering_nodes: u64,
    /// Wall time in seconds.
    pub time: f64,
    /// True when a limit or a stop ended the solve early.
    pub stopped: bool,
    /// Empty squares of the position solved.
    pub empties: u32,
    /// The board string of the position solved.
    pub board: String,
    /// The value in the command line's words: `+18`, `>= 4`, `in [-6, 10]`.
    pub text: String,
}

impl PySolveResult {
    /// The result of solving `pos`.
    pub fn new(pos: &Position, r: &SolveResult) -> PySolveResult {
        let max = pos.size.squares() as i32;
        PySolveResult {
            score: r.score(),
            lower: r.lower,
            upper: r.upper,
            best_move: solvo_shell::shared::result_move(r, max).1.map(|m| m.to_string()),
            pv: pv_names(&r.pv),
            nodes: r.nodes,
            ordering_nodes: r.ordering_nodes,
            time: r.time.as_secs_f64(),
            stopped: r.stopped,
            empties: pos.empties(),
            board: format_position(pos),
            text: solvo_shell::shared::describe(r, max),
        }
    }
}

#[pymethods]
impl PySolveResult {
    /// True when the value is proven exactly.
    #[getter]
    fn exact(&self) -> bool {
        self.score.is_some()
    }

    /// The result as a dict with the keys of `solvo solve --json` (`score`, or `lower`
    /// and `upper`; `best_move`, `pv`, `nodes`, `time_ms`, `stopped`, ...).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("board", &self.board)?;
        d.set_item("empties", self.empties)?;
        match self.score {
            Some(s) => d.set_item("score", s)?,
            None => {
                d.set_item("lower", self.lower)?;
                d.set_item("upper", self.upper)?;
            }
        }
        d.set_item("best_move", &self.best_move)?;
        d.set_item("pv", &self.pv)?;
        d.set_item("nodes", self.nodes)?;
        d.set_item("ordering_nodes", self.ordering_nodes)?;
        d.set_item("time_ms", self.time * 1e3)?;
        d.set_item("stopped", self.stopped)?;
        Ok(d)
    }

    fn __repr__(&self) -> String {
        format!(
            "SolveResult(score {}, best {}, {} nodes, {:.3} s{})",
            self.text,
            self.best_move.as_deref().unwrap_or("--"),
            self.nodes,
            self.time,
            if self.stopped { ", stopped" } else { "" }
        )
    }
}

/// One legal move's exact value (or bounds, when stopped) for the side to move.
#[pyclass(module = "solvo", name = "MoveValue", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyMoveValue {
    /// The move.
    pub r#move: String,
    /// The exact value after it, from the mover's side, or `None` when only bounds are known.
    pub score: Option<i32>,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// The principal variation from the move on.
    pub pv: Vec<String>,
    /// Positions searched for this move.
    pub nodes: u64,
}

impl PyMoveValue {
    /// The value of one move of an every-move solve.
    pub fn new(m: &MoveBounds) -> PyMoveValue {
        PyMoveValue {
            r#move: m.square.to_string(),
            score: m.score(),
            lower: m.lower,
            upper: m.upper,
            pv: pv_names(&m.pv),
            nodes: m.nodes,
        }
    }
}

#[pymethods]
impl PyMoveValue {
    fn __repr__(&self) -> String {
        match self.score {
            Some(s) => format!("MoveValue({} {s:+})", self.r#move),
            None => format!("MoveValue({} in [{:+}, {:+}])", self.r#move, self.lower, self.upper),
        }
    }
}

/// A midgame search (or the engine's answer): the best move, its score in discs, the
/// depth and selectivity reached, the principal variation, every move's score when
/// asked for.
#[pyclass(module = "solvo", name = "Analysis", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyAnalysis {
    /// The best move found (`None`: a pass, or the game is over).
    pub best_move: Option<String>,
    /// Its score in discs for the side to move.
    pub score: f64,
    /// Depth reached (0: a book move, or the game is over).
    pub depth: u32,
    /// Selectivity of the last iteration, in percent (100: no cuts).
    pub selectivity: u32,
    /// True when the score is exact.
    pub exact: bool,
    /// The principal variation.
    pub pv: Vec<String>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time in seconds.
    pub time: f64,
    /// True when a time limit or a stop ended the search.
    pub stopped: bool,
    /// Every move's score, best first, as (move, discs), when every move was scored.
    pub moves: Vec<(String, f64)>,
    /// True when the game was over (the score is the final one).
    pub game_over: bool,
}

impl PyAnalysis {
    /// The result of a midgame search.
    pub fn new(r: &solvo_othello_search::SearchResult) -> PyAnalysis {
        PyAnalysis {
            best_move: r.best_move.map(|m| m.to_string()),
            score: r.score,
            depth: r.depth,
            selectivity: r.selectivity,
            exact: r.exact,
            pv: pv_names(&r.pv),
            nodes: r.nodes,
            time: r.time.as_secs_f64(),
            stopped: r.stopped,
            moves: r.move_scores.iter().map(|m| (m.square.to_string(), m.score)).collect(),
            game_over: false,
        }
    }

    /// A finished game: nothing to search, the score is the disc count.
    pub fn game_over(pos: &Position) -> PyAnalysis {
        PyAnalysis {
            best_move: None,
            score: f64::from(pos.final_score()),
            depth: 0,
            selectivity: 100,
            exact: true,
            pv: Vec::new(),
            nodes: 0,
            time: 0.0,
            stopped: false,
            moves: Vec::new(),
            game_over: true,
        }
    }
}

#[pymethods]
impl PyAnalysis {
    fn __repr__(&self) -> String {
        format!(
            "Analysis(best {}, score {:+.2}{}, depth {}@{}%, {} nodes, {:.3} s{})",
            move_name(self.best_move.as_deref().and_then(solvo_othello::Square::parse)),
            self.score,
            if self.exact { " exact" } else { "" },
            self.depth,
            self.selectivity,
            self.nodes,
            self.time,
            if self.stopped { ", stopped" } else { "" }
        )
    }
}

/// One move's value in the engine's analysis: a search score (`exact` false, with the
/// depth and selectivity) or an exact value, or proven bounds.
#[pyclass(module = "solvo", name = "MoveEval", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyMoveEval {
    /// The move.
    pub r#move: String,
    /// Its value in discs for the side to move.
    pub score: f64,
    /// True when the value is exact.
    pub exact: bool,
    /// Depth of the search that gave it (0: an estimate from random games).
    pub depth: u32,
    /// Its selectivity in percent.
    pub selectivity: u32,
    /// Proven bounds (lower, upper) of an unfinished exact solve.
    pub bounds: Option<(i32, i32)>,
    /// The principal variation from the move on.
    pub pv: Vec<String>,
    /// The standard error of an estimate from random games.
    pub error: Option<f64>,
}

#[pymethods]
impl PyMoveEval {
    fn __repr__(&self) -> String {
        format!("MoveEval({} {:+.2}{})", self.r#move, self.score, if self.exact { " exact" } else { "" })
    }
}

/// Every legal move's value by the engine, best first.
#[pyclass(module = "solvo", name = "MoveTable", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyMoveTable {
    /// The moves' values, best first.
    pub moves: Vec<PyMoveEval>,
    /// Legal moves of the position.
    pub legal: u32,
    /// Empties of the position.
    pub empties: u32,
    /// True when every value is settled as far as the analysis goes.
    pub done: bool,
    /// True when a limit or a stop ended the analysis.
    pub stopped: bool,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time in seconds.
    pub time: f64,
}

impl PyMoveTable {
    /// The table of an analysis.
    pub fn new(t: &solvo_engine::MoveTable) -> PyMoveTable {
        PyMoveTable {
            moves: t
                .moves
                .iter()
                .map(|m| PyMoveEval {
                    r#move: m.square.to_string(),
                    score: m.score,
                    exact: m.exact,
                    depth: m.depth,
                    selectivity: m.selectivity,
                    bounds: m.bounds,
                    pv: pv_names(&m.pv),
                    error: m.error,
                })
                .collect(),
            legal: t.legal,
            empties: t.empties,
            done: t.done,
            stopped: t.stopped,
            nodes: t.nodes,
            time: t.time.as_secs_f64(),
        }
    }
}

#[pymethods]
impl PyMoveTable {
    fn __repr__(&self) -> String {
        let moves: Vec<String> = self
            .moves
            .iter()
            .map(|m| format!("{}:{:+.2}{}", m.r#move, m.score, if m.exact { "" } else { "~" }))
            .collect();
        format!("MoveTable({})", moves.join(" "))
    }
}
