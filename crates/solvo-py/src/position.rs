//! `solvo.Position`: a board, the side to move, the board size and the rules, with the
//! moves that led to it when it was reached by moves (a transcript, a GGF record, or
//! `play` from such a position). Every rule comes from `solvo-othello`.

use crate::errors::{Failure, Fallible};
use pyo3::prelude::*;
use pyo3::types::PyType;
use solvo_othello::formats::board_string::{board_chars_64, diagram, format_position};
use solvo_othello::formats::ggf::{format_ggf, ggf_from_replay};
use solvo_othello::formats::obf::{format_obf, ObfProblem};
use solvo_othello::formats::transcript::{illegal_move_message, PassStyle, Ply, Replay};
use solvo_othello::{BoardSize, Color, Position, Square, Variant};
use solvo_shell::Common;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

/// Reads a board size given as 4, 6 or 8 (or "6x6"), with the command line's message.
pub fn board_size(size: Option<&Bound<'_, PyAny>>) -> Fallible<Option<BoardSize>> {
    let Some(size) = size.filter(|s| !s.is_none()) else { return Ok(None) };
    let text = size.str().map_err(|_| Failure::input("size: expected 4, 6 or 8"))?.to_string();
    text.parse::<BoardSize>().map(Some).map_err(|e| Failure::input(format!("size: {e}")))
}

/// Reads a variant name (`normal` or `reversed`), with the command line's message.
pub fn variant(name: &str) -> Fallible<Variant> {
    name.parse::<Variant>().map_err(|e| Failure::input(format!("variant: {e}")))
}

/// The options every reading of a position takes, as the command line's.
pub fn common(size: Option<BoardSize>, variant: Variant) -> Common {
    Common { json: false, size, variant }
}

/// A move's name: the square, or `pass`.
pub fn move_name(m: Option<Square>) -> String {
    m.map_or_else(|| "pass".to_string(), |s| s.to_string())
}

/// A principal variation as move names, passes as `pass`.
pub fn pv_names(pv: &[Option<Square>]) -> Vec<String> {
    pv.iter().map(|&m| move_name(m)).collect()
}

/// Reads a square name such as `d3` (case-insensitive); the error names the text.
pub fn square(name: &str) -> Fallible<Square> {
    Square::parse(name.trim())
        .ok_or_else(|| Failure::input(format!("move {name:?}: not a square name (a1 to h8) or `pass`")))
}

fn is_pass(name: &str) -> bool {
    matches!(name.trim().to_ascii_lowercase().as_str(), "pass" | "pa" | "ps" | "--")
}

/// A position of Othello: `Position("f5d6c3")`, `Position("<board string> X")`,
/// `Position("<OBF line>")`, `Position("(;GM[Othello]...;)")`, `Position()` for the start;
/// `size=4|6|8` (transcripts' board; checked against a board string's) and
/// `variant="normal"|"reversed"`. Immutable: `play` returns a new position.
#[pyclass(module = "solvo", name = "Position", frozen)]
#[derive(Clone, Debug)]
pub struct PyPosition {
    /// The position.
    pub pos: Position,
    /// The game from its start to this position, when it was reached by moves.
    pub replay: Option<Replay>,
}

impl PyPosition {
    /// A position without a known history.
    pub fn bare(pos: Position) -> PyPosition {
        PyPosition { pos, replay: None }
    }

    /// A position reached by the game of `replay`.
    pub fn with_replay(replay: Replay) -> PyPosition {
        PyPosition { pos: replay.end(), replay: Some(replay) }
    }

    /// Reads any text solvo reads as a position, as the command line does.
    pub fn parse(text: &str, size: Option<BoardSize>, variant: Variant) -> Fallible<PyPosition> {
        let parsed = solvo_shell::input::parse_input(text, common(size, variant))?;
        Ok(PyPosition { pos: parsed.position, replay: parsed.replay })
    }

    fn next(&self, ply: Ply) -> Fallible<PyPosition> {
        let pos = &self.pos;
        let mut replay = self.replay.clone();
        let next = match ply {
            Ply::Pass => {
                if pos.moves() != 0 || pos.is_game_over() {
                    let mut probe = Replay::new(*pos);
                    return Err(Failure::input(probe.push_pass().expect_err("a pass that is not allowed")));
                }
                pos.passed()
            }
            Ply::Move(sq) => pos.play(sq).ok_or_else(|| Failure::input(illegal_move_message(pos, sq)))?,
        };
        if let Some(r) = &mut replay {
            r.plies.push(ply);
            r.positions.push(next);
        }
        Ok(PyPosition { pos: next, replay })
    }

    fn key(&self) -> (u64, u64, u8, u8, u8) {
        let p = &self.pos;
        (p.black(), p.white(), p.side as u8, p.size.side(), p.variant as u8)
    }
}

/// Reads a position argument: a `Position`, or any text `Position(...)` reads.
pub fn position_arg(obj: &Bound<'_, PyAny>) -> PyResult<PyPosition> {
    if let Ok(p) = obj.cast::<PyPosition>() {
        return Ok(p.get().clone());
    }
    match obj.extract::<String>() {
        Ok(text) => Ok(PyPosition::parse(&text, None, Variant::Normal)?),
        Err(_) => Err(Failure::input(format!(
            "expected a solvo.Position or a position's text, not {}",
            obj.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        ))
        .into()),
    }
}

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (text = "start", size = None, variant = "normal"))]
    fn py_new(text: &str, size: Option<&Bound<'_, PyAny>>, variant: &str) -> PyResult<PyPosition> {
        Ok(PyPosition::parse(text, board_size(size)?, self::variant(variant)?)?)
    }

    /// The starting position of a board of `size` (4, 6 or 8) under `variant`.
    #[staticmethod]
    #[pyo3(signature = (size = None, variant = "normal"))]
    fn start(size: Option<&Bound<'_, PyAny>>, variant: &str) -> PyResult<PyPosition> {
        let size = board_size(size)?.unwrap_or(BoardSize::Eight);
        Ok(PyPosition::with_replay(Replay::new(Position::start(size, self::variant(variant)?))))
    }

    /// A position from black's and white's discs as 64-bit masks (bit 8*row+col, a1 = 0).
    #[staticmethod]
    #[pyo3(signature = (black, white, side = "black", size = None, variant = "normal"))]
    fn from_bitboards(
        black: u64,
        white: u64,
        side: &str,
        size: Option<&Bound<'_, PyAny>>,
        variant: &str,
    ) -> PyResult<PyPosition> {
        let size = board_size(size)?.unwrap_or(BoardSize::Eight);
        let side = match side.to_ascii_lowercase().as_str() {
            "black" | "x" | "b" => Color::Black,
            "white" | "o" | "w" => Color::White,
            other => return Err(Failure::input(format!("side {other:?}: expected `black` or `white`")).into()),
        };
        let pos = Position::from_colors(black, white, side, size, self::variant(variant)?).ok_or_else(|| {
            Failure::input(format!(
                "black and white overlap or lie off the {size} board (bitboards {black:#x}, {white:#x})"
            ))
        })?;
        Ok(PyPosition::bare(pos))
    }

    /// `"black"` or `"white"`: the side to move.
    #[getter]
    fn side(&self) -> &'static str {
        self.pos.side.name()
    }

    /// The board's side: 4, 6 or 8.
    #[getter]
    fn size(&self) -> u8 {
        self.pos.size.side()
    }

    /// `"normal"` or `"reversed"` (misère: fewer discs wins).
    #[getter]
    fn variant(&self) -> &'static str {
        self.pos.variant.name()
    }

    /// Empty playable squares.
    #[getter]
    fn empties(&self) -> u32 {
        self.pos.empties()
    }

    /// Black's discs as a 64-bit mask (bit 8*row+col, a1 = 0, h8 = 63).
    #[getter]
    fn black(&self) -> u64 {
        self.pos.black()
    }

    /// White's discs as a 64-bit mask.
    #[getter]
    fn white(&self) -> u64 {
        self.pos.white()
    }

    /// The discs of the side to move (the mask the solvers and `features` read).
    #[getter]
    fn player(&self) -> u64 {
        self.pos.board.player
    }

    /// The discs of the other side.
    #[getter]
    fn opponent(&self) -> u64 {
        self.pos.board.opponent
    }

    /// The legal moves of the side to move, as square names (empty when it must pass or
    /// the game is over).
    fn legal_moves(&self) -> Vec<String> {
        Square::iter(self.pos.moves()).map(|s| s.to_string()).collect()
    }

    /// True when the side to move has no legal move but the other side has one.
    #[getter]
    fn must_pass(&self) -> bool {
        self.pos.moves() == 0 && !self.pos.is_game_over()
    }

    /// True when neither side can move.
    #[getter]
    fn is_game_over(&self) -> bool {
        self.pos.is_game_over()
    }

    /// The final score for the side to move: disc difference, empties to the winner,
    /// negated under reversed rules (meaningful when the game is over).
    #[getter]
    fn score(&self) -> i32 {
        self.pos.final_score()
    }

    /// The same score from black's side.
    #[getter]
    fn black_score(&self) -> i32 {
        self.pos.black_score()
    }

    /// The position after `move` (a square name such as `"d3"`, or `"pass"`); a
    /// transcript's implicit pass is not made here: pass first. Raises
    /// `solvo.InputError` for an illegal move, naming the legal ones.
    #[pyo3(name = "play")]
    fn py_play(&self, r#move: &str) -> PyResult<PyPosition> {
        let ply = if is_pass(r#move) { Ply::Pass } else { Ply::Move(square(r#move)?) };
        Ok(self.next(ply)?)
    }

    /// The position after a pass; raises `solvo.InputError` when the side to move has a
    /// move or the game is over.
    fn pass_(&self) -> PyResult<PyPosition> {
        Ok(self.next(Ply::Pass)?)
    }

    /// The moves from the start to here (passes as `"pass"`), or `None` when the
    /// position was not reached by moves.
    #[getter]
    fn history(&self) -> Option<Vec<String>> {
        let r = self.replay.as_ref()?;
        Some(r.plies.iter().map(|p| if let Ply::Move(s) = p { s.to_string() } else { "pass".to_string() }).collect())
    }

    /// The 8 symmetric images (index k of `transform`): the same value, the same
    /// evaluation. Their history is not kept.
    fn symmetries(&self) -> Vec<PyPosition> {
        (0..8).map(|k| self.transform_by(k)).collect()
    }

    /// The image under symmetry `k` (0 identity, 0..8: rotations and reflections).
    fn transform(&self, k: u8) -> PyResult<PyPosition> {
        if k >= 8 {
            return Err(Failure::input(format!("symmetry {k}: expected 0 to 7")).into());
        }
        Ok(self.transform_by(k))
    }

    /// The canonical image (the least of the 8, as solution stores key positions).
    fn canonical(&self) -> PyPosition {
        PyPosition::bare(Position { board: self.pos.board.canonical(), ..self.pos })
    }

    /// The board string: one character per playable square (`X` black, `O` white, `-`
    /// empty), a space, the side to move. `Position(s)` reads it back.
    fn to_board_string(&self) -> String {
        format_position(&self.pos)
    }

    /// An OBF line (the 64 characters of the 8x8 grid, a small board in its centre).
    fn to_obf(&self) -> String {
        format_obf(&ObfProblem { position: self.pos, move_scores: Vec::new(), position_score: None })
    }

    /// The 64 characters of the whole 8x8 grid, no side.
    fn to_board64(&self) -> String {
        board_chars_64(&self.pos)
    }

    /// The transcript of the moves from the start (`"f5d6c3"`, passes left out, or
    /// written `pa` with `passes=True`); raises `solvo.InputError` when the position was
    /// not reached by moves.
    #[pyo3(signature = (passes = false))]
    fn to_transcript(&self, passes: bool) -> PyResult<String> {
        let r = self.replay.as_ref().ok_or_else(|| {
            Failure::input("no transcript: the position was not reached by moves (read a transcript or GGF, or play from Position.start())")
        })?;
        let style = if passes { PassStyle::Explicit } else { PassStyle::Implicit };
        Ok(r.transcript(style))
    }

    /// A GGF record: the game from its start when known, else this position as the
    /// record's `BO` with no moves.
    #[pyo3(signature = (black = "black", white = "white"))]
    fn to_ggf(&self, black: &str, white: &str) -> String {
        let replay = self.replay.clone().unwrap_or_else(|| Replay::new(self.pos));
        format_ggf(&ggf_from_replay(&replay, black, white))
    }

    /// The board for people: coordinates, `*` black, `O` white, `.` legal moves.
    fn diagram(&self) -> String {
        diagram(&self.pos)
    }

    /// Leaves of the game tree `depth` plies down (passes count as plies, a finished
    /// game is one leaf), on `threads` threads.
    #[pyo3(signature = (depth, threads = 1))]
    fn perft(&self, py: Python<'_>, depth: u32, threads: i64) -> PyResult<u64> {
        let threads = crate::options::threads(threads)?;
        let depth = crate::options::checked("depth", depth, solvo_shell::option_ranges::perft_depth)?;
        let (board, size) = (self.pos.board, self.pos.size);
        let mode = solvo_othello::perft::PerftMode::default();
        Ok(py.detach(|| solvo_othello::perft::perft_parallel(board, size, depth, mode, threads)))
    }

    fn __repr__(&self) -> String {
        format!(
            "Position({:?}{}{})\n{}",
            format_position(&self.pos),
            self.size_arg(),
            self.variant_arg(),
            diagram(&self.pos)
        )
    }

    fn __str__(&self) -> String {
        diagram(&self.pos)
    }

    /// The board drawn as SVG (Jupyter shows it).
    fn _repr_svg_(&self) -> String {
        crate::svg::board(&self.pos)
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyPosition>().is_ok_and(|o| o.get().key() == self.key())
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        self.key().hash(&mut h);
        h.finish()
    }

    /// Pickles as the board string, size and variant (the history is not kept).
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> (Bound<'py, PyType>, (String, u8, &'static str)) {
        let me = slf.get();
        (slf.get_type(), (format_position(&me.pos), me.pos.size.side(), me.pos.variant.name()))
    }
}

impl PyPosition {
    fn transform_by(&self, k: u8) -> PyPosition {
        PyPosition::bare(Position { board: self.pos.board.transformed(k), ..self.pos })
    }

    fn size_arg(&self) -> String {
        if self.pos.size == BoardSize::Eight {
            String::new()
        } else {
            format!(", size={}", self.pos.size.side())
        }
    }

    fn variant_arg(&self) -> String {
        if self.pos.variant == Variant::Normal {
            String::new()
        } else {
            format!(", variant={:?}", self.pos.variant.name())
        }
    }
}
