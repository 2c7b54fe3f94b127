//! Game and problem files: `read_wthor` (WTHOR `.wtb` files, with the player and
//! tournament names of the `.JOU` / `.TRN` files beside them), `read_ggf` (GGF game
//! records) and `read_obf` (OBF problem lines with their scores). Files are read and
//! parsed as the command line reads them, with its messages.

use crate::errors::{Failure, Fallible};
use crate::position::{board_size, variant, PyPosition};
use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use solvo_othello::formats::ggf::parse_ggf;
use solvo_othello::formats::obf::parse_obf;
use solvo_othello::formats::transcript::{Ply, Replay};
use solvo_shell::error::context;
use std::path::{Path, PathBuf};

/// A game from a file: its start, its moves and what the file says about it.
#[pyclass(module = "solvo", name = "GameRecord", frozen)]
#[derive(Clone, Debug)]
pub struct PyGameRecord {
    replay: Replay,
    /// Black's name, when the file gives it.
    #[pyo3(get)]
    black: Option<String>,
    /// White's name, when the file gives it.
    #[pyo3(get)]
    white: Option<String>,
    /// The recorded result: GGF's `RE` text, or WTHOR's black discs as a number.
    #[pyo3(get)]
    result: Option<String>,
    /// WTHOR: the year of the games; GGF: `None`.
    #[pyo3(get)]
    year: Option<u16>,
    /// WTHOR: the tournament's name (or number when the names file is missing).
    #[pyo3(get)]
    tournament: Option<String>,
    /// WTHOR: black's discs at the end as recorded.
    #[pyo3(get)]
    black_discs: Option<u8>,
    /// WTHOR: black's discs with perfect play from the file's depth on.
    #[pyo3(get)]
    theoretical_black_discs: Option<u8>,
    /// Every tag of a GGF record, in order (WTHOR: none).
    tags: Vec<(String, String)>,
    /// 1-based number of the game in its file.
    #[pyo3(get)]
    number: usize,
}

impl PyGameRecord {
    /// The game.
    pub fn replay(&self) -> &Replay {
        &self.replay
    }
}

fn prefix(replay: &Replay, plies: usize) -> Replay {
    Replay { start: replay.start, plies: replay.plies[..plies].to_vec(), positions: replay.positions[..plies].to_vec() }
}

#[pymethods]
impl PyGameRecord {
    /// The position the game starts from.
    #[getter]
    fn start(&self) -> PyPosition {
        PyPosition::with_replay(Replay::new(self.replay.start))
    }

    /// The position at the end of the record (with the game as its history).
    #[getter]
    fn end(&self) -> PyPosition {
        PyPosition::with_replay(self.replay.clone())
    }

    /// The moves in order, passes as `"pass"`.
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.replay
            .plies
            .iter()
            .map(|p| if let Ply::Move(s) = p { s.to_string() } else { "pass".to_string() })
            .collect()
    }

    /// The GGF tags as a dict (the first value of a repeated tag).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        for (k, v) in self.tags.iter().rev() {
            d.set_item(k, v)?;
        }
        Ok(d)
    }

    /// Every position of the game: the start, then the position after each ply, each
    /// with its history.
    fn positions(&self) -> Vec<PyPosition> {
        (0..=self.replay.plies.len()).map(|n| PyPosition::with_replay(prefix(&self.replay, n))).collect()
    }

    /// The (player, opponent) bitboards of every position of `positions()` (side to move
    /// first): a `uint64` array of shape (plies + 1, 2), the input `features` reads.
    fn boards<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<u64>> {
        let all = std::iter::once(&self.replay.start).chain(&self.replay.positions);
        let flat: Vec<u64> = all.flat_map(|p| [p.board.player, p.board.opponent]).collect();
        Array2::from_shape_vec((flat.len() / 2, 2), flat).expect("pairs").into_pyarray(py)
    }

    /// The moves as a transcript (`"f5d6c3..."`, passes left out).
    fn transcript(&self) -> String {
        self.replay.transcript(solvo_othello::formats::transcript::PassStyle::Implicit)
    }

    fn __len__(&self) -> usize {
        self.replay.plies.len()
    }

    fn __repr__(&self) -> String {
        format!(
            "GameRecord(#{} {} vs {}, {} plies{})",
            self.number,
            self.black.as_deref().unwrap_or("?"),
            self.white.as_deref().unwrap_or("?"),
            self.replay.plies.len(),
            self.result.as_deref().map(|r| format!(", result {r}")).unwrap_or_default()
        )
    }
}

/// A problem of an OBF file: a position and the scores the file gives.
#[pyclass(module = "solvo", name = "Problem", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyProblem {
    /// The position to solve.
    pub position: PyPosition,
    /// The line of the file (1-based).
    pub line: usize,
    /// The value the line gives (its best move score, else its position score).
    pub score: Option<i32>,
    /// The scored moves as (move, score), in the order listed (passes as `"pass"`).
    pub move_scores: Vec<(String, i32)>,
    /// The listed moves that reach the best score.
    pub best_moves: Vec<String>,
}

#[pymethods]
impl PyProblem {
    fn __repr__(&self) -> String {
        format!(
            "Problem(line {}, {} empties, score {})",
            self.line,
            self.position.pos.empties(),
            self.score.map_or("none".to_string(), |s| format!("{s:+}"))
        )
    }
}

fn ply_name(p: Ply) -> String {
    match p {
        Ply::Move(s) => s.to_string(),
        Ply::Pass => "pass".to_string(),
    }
}

/// The problems of an OBF file (one per line; comments `%` / `#`), as `solvo solve` reads
/// it; `size` is needed only for small boards written in the 8x8 grid.
#[pyfunction]
#[pyo3(signature = (path, size = None, variant = "normal"))]
pub fn read_obf(path: PathBuf, size: Option<&Bound<'_, PyAny>>, variant: &str) -> PyResult<Vec<PyProblem>> {
    let text = solvo_shell::input_file::read_text(&path).map_err(Failure::from)?;
    let problems = parse_obf(&text, board_size(size)?, self::variant(variant)?)
        .map_err(context(path.display()))
        .map_err(Failure::from)?;
    Ok(problems
        .into_iter()
        .map(|(line, p)| PyProblem {
            position: PyPosition::bare(p.position),
            line,
            score: p.best_score(),
            move_scores: p.move_scores.iter().map(|&(m, s)| (ply_name(m), s)).collect(),
            best_moves: p.best_moves().into_iter().map(ply_name).collect(),
        })
        .collect())
}

/// The games of a GGF file (every record, checked move by move).
#[pyfunction]
#[pyo3(signature = (path, variant = "normal"))]
pub fn read_ggf(path: PathBuf, variant: &str) -> PyResult<Vec<PyGameRecord>> {
    let text = solvo_shell::input_file::read_text(&path).map_err(Failure::from)?;
    let games = parse_ggf(&text, self::variant(variant)?).map_err(context(path.display())).map_err(Failure::from)?;
    Ok(games
        .into_iter()
        .enumerate()
        .map(|(i, g)| PyGameRecord {
            black: g.black.clone(),
            white: g.white.clone(),
            result: g.result.clone(),
            year: None,
            tournament: None,
            black_discs: None,
            theoretical_black_discs: None,
            tags: g.tags.clone(),
            number: i + 1,
            replay: g.replay,
        })
        .collect())
}

fn name_of(names: &[String], id: u16) -> String {
    names.get(usize::from(id)).cloned().unwrap_or_else(|| id.to_string())
}

/// The whole games of a WTHOR file (a damaged record, or one whose moves do not
/// replay, is skipped with a warning on stderr naming it), with the player and
/// tournament names of the `WTH.JOU` / `WTH.TRN` files beside it when present.
#[pyfunction]
pub fn read_wthor(py: Python<'_>, path: PathBuf) -> PyResult<Vec<PyGameRecord>> {
    Ok(py.detach(|| wthor_games(&path))?)
}

fn wthor_games(path: &Path) -> Fallible<Vec<PyGameRecord>> {
    let file = solvo_shell::shared::read_wthor(path)?;
    let players = solvo_shell::shared::wthor_names::player_names(None, path)?;
    let tournaments = solvo_shell::shared::wthor_names::tournament_names(None, path)?;
    let mut out = Vec::with_capacity(file.games.len());
    for (i, g) in file.whole_games() {
        let replay = match g.replay() {
            Ok(r) => r,
            Err(e) => {
                eprintln!("warning: {}: game {} skipped: {e}", path.display(), i + 1);
                continue;
            }
        };
        out.push(PyGameRecord {
            black: Some(name_of(&players, g.black_player)),
            white: Some(name_of(&players, g.white_player)),
            result: Some(g.black_discs.to_string()),
            year: Some(file.header.year),
            tournament: Some(name_of(&tournaments, g.tournament)),
            black_discs: Some(g.black_discs),
            theoretical_black_discs: Some(g.theoretical_black_discs),
            tags: Vec::new(),
            number: i + 1,
            replay,
        });
    }
    Ok(out)
}
