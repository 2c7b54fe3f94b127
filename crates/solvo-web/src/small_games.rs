//! The catalogue's other games (Domineering, Breakthrough, Knightthrough, Nogo,
//! Atarigo, Go) on the web board: `GET /api/small-games` lists them, `POST
//! /api/small-game` answers a position (the game, its size and options, the moves
//! played) with its board, every legal move's exact value and a best move. A position
//! a semi-strong store of that game holds (the server's [`GameStores`], opened
//! read-only by the caller) is answered from it; the rest is solved on demand by
//! `solvo-search`'s exact solver within the server's time and node budgets. A position
//! too hard for them gets 422 saying so, unless its own value came from a store: then
//! the moves the budgets could not settle have no value. Each answer holds one of the
//! server's search slots (503 when none is free).

use crate::error::ApiError;
use crate::search::SearchPool;
use serde::Deserialize;
use serde_json::{json, Value};
use solvo_core::{Game, Status};
use solvo_games::{
    dispatch_with, list, move_name, parse_semi_strong_identity, parse_size, play_text, semi_strong_identity,
    GameOptions, GameVisitor,
};
use solvo_search::reopening::query::{answer, answer_from_store, Answer};
use solvo_search::reopening::{Oracle, SemiError, SolverOracle};
use solvo_search::Budget;
use solvo_solve::game_store::GameStore;
use std::collections::HashMap;
use std::fmt::Display;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// The solver's table: 2^18 buckets (a few MiB), enough for the boards a browser
/// player solves on demand.
const TABLE_BITS: u32 = 18;

/// The node budget of one answer when the server sets none.
const DEFAULT_NODES: u64 = 200_000_000;

/// `POST /api/small-game`'s body.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SmallGameRequest {
    /// A catalogue name (`domineering`, `nogo`, ...).
    game: String,
    /// `ROWSxCOLS` (default: the game's own).
    size: Option<String>,
    /// `key=value` options separated by commas.
    #[serde(default)]
    options: String,
    /// The moves played from the start, as the game names them.
    #[serde(default)]
    moves: String,
}

/// The semi-strong stores the server answers from, by the game each belongs to. The
/// server only reads them.
pub struct GameStores {
    by_game: HashMap<String, Mutex<GameStore>>,
    /// (file, game) of each, for `/api/info`.
    names: Vec<(String, String)>,
}

/// A store's identity as the request for its game makes it: the catalogue's own name
/// for the game (a store built under another spelling of it still answers).
fn canonical(identity: &str) -> String {
    match parse_semi_strong_identity(identity) {
        Some((spec, rows, cols, options)) => semi_strong_identity(spec.name, rows, cols, &options),
        None => identity.to_string(),
    }
}

impl GameStores {
    /// Takes `stores` over (a second store of the same game replaces the first).
    pub fn new(stores: Vec<GameStore>) -> GameStores {
        let names = stores.iter().map(|s| (s.path().display().to_string(), s.identity().to_string())).collect();
        let by_game = stores.into_iter().map(|s| (canonical(s.identity()), Mutex::new(s))).collect();
        GameStores { by_game, names }
    }

    /// Each store's file and game, in the order given.
    pub fn names(&self) -> Value {
        let list: Vec<Value> = self.names.iter().map(|(file, game)| json!({"file": file, "game": game})).collect();
        Value::Array(list)
    }
}

/// The catalogue: every game's name, description, default size and options.
pub fn catalogue() -> Value {
    let games: Vec<Value> = list()
        .iter()
        .map(|s| {
            json!({"name": s.name, "description": s.description,
                   "size": format!("{}x{}", s.default_rows, s.default_cols), "options": s.options})
        })
        .collect();
    json!({ "games": games })
}

/// Answers `req` (blocking: run it off the async workers) from `stores` and within
/// `pool`'s budgets.
pub fn answer_position(pool: &SearchPool, stores: &GameStores, req: &SmallGameRequest) -> Result<Value, ApiError> {
    let spec = solvo_games::find(&req.game).ok_or_else(|| {
        let known: Vec<&str> = list().iter().map(|s| s.name).collect();
        ApiError::unprocessable(format!("unknown game '{}' (known: {})", req.game, known.join(", ")))
    })?;
    let (rows, cols) = match &req.size {
        Some(t) => parse_size(t).map_err(|e| ApiError::unprocessable(e.to_string()))?,
        None => (spec.default_rows, spec.default_cols),
    };
    let options = GameOptions::parse(&req.options).map_err(|e| ApiError::unprocessable(e.to_string()))?;
    let budget = Budget {
        max_nodes: Some(pool.max_nodes().unwrap_or(DEFAULT_NODES)),
        time_limit: Some(pool.max_time()),
        stop: None,
    };
    let store = stores.by_game.get(&semi_strong_identity(spec.name, rows, cols, &options));
    let visit = Visit { moves: &req.moves, budget, name: spec.name, rows, cols, store };
    dispatch_with(spec.name, rows, cols, &options, visit).map_err(|e| ApiError::unprocessable(e.to_string()))?
}

struct Visit<'a> {
    moves: &'a str,
    budget: Budget,
    name: &'static str,
    rows: usize,
    cols: usize,
    store: Option<&'a Mutex<GameStore>>,
}

impl GameVisitor for Visit<'_> {
    type Output = Result<Value, ApiError>;

    fn visit<G: Game + Display + 'static>(self, root: G) -> Result<Value, ApiError> {
        let t = Instant::now();
        let g = play_text(&root, self.moves).map_err(|e| ApiError::unprocessable(e.to_string()))?;
        let too_hard = || {
            ApiError::unprocessable(format!(
                "{} {}x{}: this position is too hard to solve within the server's budget ({} nodes, {} ms)",
                self.name,
                self.rows,
                self.cols,
                self.budget.max_nodes.unwrap_or(0),
                self.budget.time_limit.map_or(0, |d| d.as_millis())
            ))
        };
        // The store's answer for a position, if it has one (held only while reading).
        let from_store = |pos: &G| -> Result<Option<Answer<G::Move>>, ApiError> {
            let Some(store) = self.store else { return Ok(None) };
            let mut store = store.lock().unwrap_or_else(|e| e.into_inner());
            let a = answer_from_store(&mut *store, pos).map_err(|e| ApiError::internal(e.to_string()))?;
            // A finished game is no answer of the store's (the solver sees it at once).
            Ok(a.filter(|a| a.best_move.is_some()))
        };
        let mut oracle = SolverOracle::new(TABLE_BITS, 1, self.budget);
        // One budget for the whole answer: each solve gets what the earlier ones left;
        // `None` once it is spent.
        let mut solve = |pos: &G| -> Result<Option<Answer<G::Move>>, ApiError> {
            let (_, used) = Oracle::<G>::work(&oracle);
            let nodes_left = self.budget.max_nodes.map(|n| n.saturating_sub(used));
            let time_left = self.budget.time_limit.map(|d| d.saturating_sub(t.elapsed()));
            if nodes_left == Some(0) || time_left == Some(Duration::ZERO) {
                return Ok(None);
            }
            oracle.set_budget(Budget { max_nodes: nodes_left, time_limit: time_left, ..self.budget });
            match answer(None, &mut oracle as &mut dyn Oracle<G>, pos) {
                Ok(a) => Ok(Some(a)),
                Err(SemiError::Budget) => Ok(None),
                Err(other) => Err(ApiError::internal(other.to_string())),
            }
        };
        let mut legal = Vec::new();
        if g.status() == Status::ToMove {
            g.generate_moves(&mut legal);
        }
        // The position's own value and best move: the store's, else (below) from its
        // children's values, or solved when it has no move to make (a pass, the end).
        let stored = from_store(&g)?;
        let mut moves = Vec::with_capacity(legal.len());
        let (mut value, mut best) = match &stored {
            Some(a) => (a.value, a.best_move.as_ref().map(move_name::<G>)),
            None => (i32::MIN, None),
        };
        for m in &legal {
            let child = g.play(*m);
            let (v, child_stored) = match from_store(&child)? {
                Some(a) => (Some(-a.value), true),
                None => match solve(&child)? {
                    Some(a) => (Some(-a.value), false),
                    // With the position's value from the store, a move the budgets
                    // cannot settle is left without one.
                    None if stored.is_some() => (None, false),
                    None => return Err(too_hard()),
                },
            };
            if let (None, Some(v)) = (&stored, v) {
                if v > value {
                    (value, best) = (v, Some(move_name::<G>(m)));
                }
            }
            moves.push(json!({"name": move_name::<G>(m), "value": v, "from_store": child_stored}));
        }
        if legal.is_empty() && stored.is_none() {
            let here = solve(&g)?.ok_or_else(too_hard)?;
            (value, best) = (here.value, here.best_move.as_ref().map(move_name::<G>));
        }
        Ok(json!({
            "game": self.name,
            "size": format!("{}x{}", self.rows, self.cols),
            "board": g.to_string(),
            "to_move": g.player_to_move(),
            "over": best.is_none(),
            "must_pass": g.status() == Status::MustPass,
            "value": value,
            "best": best,
            "from_store": stored.is_some(),
            "moves": moves,
            "ms": t.elapsed().as_millis() as u64,
        }))
    }
}
