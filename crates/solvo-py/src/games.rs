//! The small games (`solvo.games`): a game of the catalogue (or Othello) as a state
//! object in the OpenSpiel manner, and the generic solvers. A game of any type is held
//! behind one object-safe trait ([`DynGame`]), written once for every `Game`; the rules
//! are `solvo-games`', the solvers `solvo-search`'s, the options and reports the
//! command line's (`solvo_shell::games`).

use crate::errors::{Failure, Fallible};
use crate::search;
use crate::watch::quietly;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use solvo_core::{Game, Status};
use solvo_games::{GameOptions, GameVisitor};
use solvo_othello::formats::board_string::diagram;
use solvo_othello::{BoardSize, Position, Variant};
use solvo_search::{Algorithm, SolverConfig, Verdict};
use solvo_shell::games::{report_of, verdict_text, AbArgs, GameReport, SolverArgs};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;

/// The stop flags of the generic solvers' budgets ([`solvo_search::Budget::stop`]): a
/// flag lives as long as the process, so a solve takes one from here and gives it
/// back; there are never more than the solves running at once.
struct StopFlags;

static FREE_FLAGS: Mutex<Vec<&'static AtomicBool>> = Mutex::new(Vec::new());

impl StopFlags {
    /// A lowered flag.
    fn take() -> &'static AtomicBool {
        let flag = FREE_FLAGS.lock().unwrap_or_else(|e| e.into_inner()).pop().unwrap_or_else(solvo_search::stop_flag);
        flag.store(false, Ordering::Relaxed);
        flag
    }

    /// Returns `flag` for reuse.
    fn give_back(flag: &'static AtomicBool) {
        FREE_FLAGS.lock().unwrap_or_else(|e| e.into_inner()).push(flag);
    }
}

/// OpenSpiel's player number of a finished game.
const TERMINAL_PLAYER: i32 = -4;

/// A position of some game, whatever its type.
trait DynGame: Send + Sync {
    /// The legal moves' names (as the command line prints them), in generation order.
    fn moves(&self) -> Vec<String>;
    /// Where the game stands.
    fn status(&self) -> Status;
    /// The position after the `i`-th legal move (`i < moves().len()`).
    fn play_index(&self, i: usize) -> Box<dyn DynGame>;
    /// The position after a forced pass.
    fn passed(&self) -> Option<Box<dyn DynGame>>;
    /// 0 when the first player is to move, else 1.
    fn player(&self) -> u8;
    /// The position for people.
    fn show(&self) -> String;
    /// A copy.
    fn boxed_clone(&self) -> Box<dyn DynGame>;
    /// Solved by `config`'s solver, as `solvo game solve` reports it.
    fn solve(&self, config: &SolverConfig, label: String) -> GameReport;
}

struct Held<G> {
    game: G,
    show: fn(&G) -> String,
}

impl<G: Game + 'static> DynGame for Held<G> {
    fn moves(&self) -> Vec<String> {
        self.legal().iter().map(|m| format!("{m:?}")).collect()
    }
    fn status(&self) -> Status {
        self.game.status()
    }
    fn play_index(&self, i: usize) -> Box<dyn DynGame> {
        Box::new(Held { game: self.game.play(self.legal()[i]), show: self.show })
    }
    fn passed(&self) -> Option<Box<dyn DynGame>> {
        Some(Box::new(Held { game: self.game.pass()?, show: self.show }))
    }
    fn player(&self) -> u8 {
        self.game.player_to_move()
    }
    fn show(&self) -> String {
        (self.show)(&self.game)
    }
    fn boxed_clone(&self) -> Box<dyn DynGame> {
        Box::new(Held { game: self.game.clone(), show: self.show })
    }
    fn solve(&self, config: &SolverConfig, label: String) -> GameReport {
        let r = search::solve_game(&self.game, config);
        report_of(&self.game, label, config, r)
    }
}

impl<G: Game> Held<G> {
    fn legal(&self) -> Vec<G::Move> {
        let mut moves = Vec::new();
        if self.game.status() == Status::ToMove {
            self.game.generate_moves(&mut moves);
        }
        moves
    }
}

struct Build;

impl GameVisitor for Build {
    type Output = Box<dyn DynGame>;
    fn visit<G: Game + std::fmt::Display + 'static>(self, game: G) -> Box<dyn DynGame> {
        Box::new(Held { game, show: |g: &G| g.to_string() })
    }
}

/// A game position in the OpenSpiel manner: `legal_actions()`, `apply_action(a)`,
/// `is_terminal()`, `returns()`, `clone()`, `str(state)`. Actions are the indices of
/// `legal_moves()` (a forced pass is the single action 0, named `"pass"`);
/// `apply_action` also takes a move's name.
#[pyclass(module = "solvo.games", name = "GameState")]
pub struct PyGameState {
    game: Box<dyn DynGame>,
    name: String,
    rows: usize,
    cols: usize,
    options: Vec<(String, String)>,
}

impl PyGameState {
    fn label(&self) -> String {
        format!("{} {}x{}", self.name, self.rows, self.cols)
    }

    fn names(&self) -> Vec<String> {
        match self.game.status() {
            Status::ToMove => self.game.moves(),
            Status::MustPass => vec!["pass".to_string()],
            Status::Over(_) => Vec::new(),
        }
    }

    fn action_index(&self, action: &Bound<'_, PyAny>) -> Fallible<usize> {
        let names = self.names();
        let index = match action.extract::<i64>() {
            Ok(i) => usize::try_from(i).ok().filter(|&i| i < names.len()),
            Err(_) => {
                let text: String = action.str().map(|s| s.to_string()).unwrap_or_default();
                names.iter().position(|n| n.eq_ignore_ascii_case(text.trim()))
            }
        };
        index.ok_or_else(|| {
            let legal = if names.is_empty() { "none, the game is over".to_string() } else { names.join(" ") };
            Failure::input(format!("action {action}: not legal here (legal: {legal})"))
        })
    }

    fn child(&self, i: usize) -> Box<dyn DynGame> {
        match self.game.status() {
            Status::MustPass => self.game.passed().expect("a forced pass"),
            _ => self.game.play_index(i),
        }
    }

    fn like(&self, game: Box<dyn DynGame>) -> PyGameState {
        PyGameState { game, name: self.name.clone(), rows: self.rows, cols: self.cols, options: self.options.clone() }
    }
}

#[pymethods]
impl PyGameState {
    /// The legal actions: indices into `legal_moves()` (empty when the game is over).
    fn legal_actions(&self) -> Vec<usize> {
        (0..self.names().len()).collect()
    }

    /// The legal moves' names (`["pass"]` for a forced pass).
    fn legal_moves(&self) -> Vec<String> {
        self.names()
    }

    /// The name of legal action `action`.
    fn action_to_string(&self, action: &Bound<'_, PyAny>) -> PyResult<String> {
        let i = self.action_index(action)?;
        Ok(self.names()[i].clone())
    }

    /// Plays `action` (an index of `legal_actions()`, or a move's name) in place.
    fn apply_action(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let i = self.action_index(action)?;
        self.game = self.child(i);
        Ok(())
    }

    /// The state after `action`, this one unchanged.
    fn child_state(&self, action: &Bound<'_, PyAny>) -> PyResult<PyGameState> {
        let i = self.action_index(action)?;
        Ok(self.like(self.child(i)))
    }

    /// True when the game is over.
    fn is_terminal(&self) -> bool {
        matches!(self.game.status(), Status::Over(_))
    }

    /// 0 or 1, the player to move (the first player is 0); -4 when the game is over.
    fn current_player(&self) -> i32 {
        if self.is_terminal() {
            TERMINAL_PLAYER
        } else {
            i32::from(self.game.player())
        }
    }

    /// The final values for players 0 and 1 (zero-sum), `[0, 0]` before the end.
    fn returns(&self) -> [f64; 2] {
        match self.game.status() {
            Status::Over(v) => {
                let v = f64::from(v);
                if self.game.player() == 0 {
                    [v, -v]
                } else {
                    [-v, v]
                }
            }
            _ => [0.0, 0.0],
        }
    }

    /// A copy.
    fn clone(&self) -> PyGameState {
        self.like(self.game.boxed_clone())
    }

    /// The game's name, as the catalogue writes it.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// (rows, columns).
    #[getter]
    fn shape(&self) -> (usize, usize) {
        (self.rows, self.cols)
    }

    fn __str__(&self) -> String {
        self.game.show()
    }

    fn __repr__(&self) -> String {
        format!("GameState({}, {} to move)\n{}", self.label(), self.current_player(), self.game.show())
    }
}

/// What a solver proved about a game position.
#[pyclass(module = "solvo.games", name = "GameSolution", frozen, get_all)]
#[derive(Clone, Debug)]
pub struct PyGameSolution {
    /// The exact value for the side to move (alpha-beta solvers), else `None`.
    pub value: Option<i32>,
    /// The verdict in the command line's words: `value 3`, `value >= 1`, `value < 1`,
    /// `unknown (budget exhausted)`.
    pub verdict: String,
    /// What it proves about the game, from the first player's side, as a code
    /// (`solvo game solve --json`'s `result`).
    pub result: &'static str,
    /// `"first"`, `"second"`, or `None` (a draw, or not proven).
    pub winner: Option<&'static str>,
    /// The best or winning move, when there is one.
    pub best_move: Option<String>,
    /// Positions searched.
    pub nodes: u64,
    /// Wall time in seconds.
    pub time: f64,
    /// Monte Carlo playouts of the ordering.
    pub playouts: u64,
    /// The algorithm.
    pub algo: &'static str,
}

#[pymethods]
impl PyGameSolution {
    fn __repr__(&self) -> String {
        format!(
            "GameSolution({}, best {}, {} nodes, {:.3} s)",
            self.verdict,
            self.best_move.as_deref().unwrap_or("-"),
            self.nodes,
            self.time
        )
    }
}

/// The names of the games (`othello` and the catalogue's).
#[pyfunction]
pub fn game_names() -> Vec<&'static str> {
    std::iter::once("othello").chain(solvo_games::list().iter().map(|s| s.name)).collect()
}

/// A game's description, default size and rule options (a dict).
#[pyfunction]
pub fn game_info<'py>(py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    if name.eq_ignore_ascii_case("othello") {
        d.set_item("name", "othello")?;
        d.set_item("description", "Othello on 4x4, 6x6 or 8x8 (solvo.Position for everything else)")?;
        d.set_item("default_size", (8, 8))?;
        d.set_item("options", "")?;
        return Ok(d);
    }
    let spec = solvo_games::find(name)
        .ok_or_else(|| Failure::input(format!("unknown game '{name}' (see solvo.games.names())")))?;
    d.set_item("name", spec.name)?;
    d.set_item("description", spec.description)?;
    d.set_item("default_size", (spec.default_rows, spec.default_cols))?;
    d.set_item("options", spec.options)?;
    Ok(d)
}

/// The starting state of game `name` on a board of `size` (`"5x5"`, `(rows, cols)`, or
/// the game's default) with rule `options` (`key=value` as `solvo game solve --option`).
#[pyfunction]
#[pyo3(signature = (name, size = None, options = Vec::new()))]
pub fn load_game(name: &str, size: Option<&Bound<'_, PyAny>>, options: Vec<(String, String)>) -> PyResult<PyGameState> {
    let board = match size {
        None => None,
        Some(s) => match s.extract::<(usize, usize)>() {
            Ok((r, c)) => Some(format!("{r}x{c}")),
            Err(_) => Some(s.str()?.to_string()),
        },
    };
    let (rows, cols) = solvo_shell::games::size_of(name, board.as_deref()).map_err(Failure::from)?;
    let mut opts = GameOptions::new();
    for (k, v) in &options {
        opts.push_pair(&format!("{k}={v}")).map_err(|e| Failure::input(e.to_string()))?;
    }
    let (game, name): (Box<dyn DynGame>, String) = if name.eq_ignore_ascii_case("othello") {
        let size = match (rows, cols) {
            (4, 4) => BoardSize::Four,
            (6, 6) => BoardSize::Six,
            (8, 8) => BoardSize::Eight,
            _ => {
                return Err(Failure::input(format!(
                    "othello: unsupported size {rows}x{cols} (expected 4x4, 6x6 or 8x8)"
                ))
                .into())
            }
        };
        let show: fn(&Position) -> String = diagram;
        (Box::new(Held { game: Position::start(size, Variant::Normal), show }), "othello".to_string())
    } else {
        let game =
            solvo_games::dispatch_with(name, rows, cols, &opts, Build).map_err(|e| Failure::input(e.to_string()))?;
        (game, solvo_games::find(name).map_or(name.to_string(), |s| s.name.to_string()))
    };
    Ok(PyGameState { game, name, rows, cols, options })
}

/// Solves `state` with the generic solver `algo` (ab-tt, id-ab-tt, ab-tt-mc,
/// id-ab-tt-mc, pn2, dfpn, dfpn-mc, mcts-solver, sb-mcts, pp), as `solvo game solve`
/// does with the same options.
#[pyfunction]
#[pyo3(signature = (state, algo = "ab-tt", playouts = 10_000, nodes = None, time_limit = None, tt_bits = 22, seed = 1, etc = false, threshold = 1, threads = 1))]
#[allow(clippy::too_many_arguments)]
pub fn solve_game(
    py: Python<'_>,
    state: &PyGameState,
    algo: &str,
    playouts: u32,
    nodes: Option<i64>,
    time_limit: Option<f64>,
    tt_bits: u32,
    seed: u64,
    etc: bool,
    threshold: i32,
    threads: i64,
) -> PyResult<PyGameSolution> {
    use crate::options::checked;
    use solvo_shell::option_ranges as ranges;
    let algo: Algorithm = algo.parse().map_err(|e: String| Failure::input(format!("algo={algo}: {e}")))?;
    let args = SolverArgs {
        algo,
        playouts: checked("playouts", playouts, ranges::playouts)?,
        nodes: crate::options::nodes("nodes", nodes)?,
        time_limit: crate::options::seconds("time_limit", time_limit)?.map(|d| d.as_secs_f64()),
        tt_bits: checked("tt_bits", tt_bits, ranges::table_bits)?,
        seed,
        etc,
        threshold,
        ab: AbArgs { threads: crate::options::threads(threads)?, ..AbArgs::default() },
    };
    let mut config = args.config().map_err(Failure::from)?;
    let (game, label) = (state.game.boxed_clone(), state.label());
    // Ctrl-C raises the budget's stop flag: the solver returns an unknown verdict
    // within milliseconds, then KeyboardInterrupt is raised.
    let flag = StopFlags::take();
    config.budget.stop = Some(flag);
    let report = quietly(py, &|| flag.store(true, Ordering::Relaxed), || game.solve(&config, label));
    StopFlags::give_back(flag);
    let report = report?;
    Ok(PyGameSolution {
        value: match report.verdict {
            Verdict::Exact(v) => Some(v),
            _ => None,
        },
        verdict: verdict_text(report.verdict),
        result: report.result.code(),
        winner: report.result.winner(),
        best_move: report.best_move.clone(),
        nodes: report.stats.nodes,
        time: report.stats.time.as_secs_f64(),
        playouts: report.stats.playouts,
        algo: report.algo.name(),
    })
}
