//! The catalogue's other games (Domineering, Breakthrough, Knightthrough, Nogo,
//! Atarigo, Go) on the web board: `GET /api/small-games` lists them, `POST
//! /api/small-game` answers a position (the game, its size and options, the moves
//! played) with its board, every legal move's exact value and a best move, each solved
//! on demand by `solvo-search`'s exact solver within the server's time and node
//! budgets (a position too hard for them gets 422 saying so). Each answer holds one of
//! the server's search slots (503 when none is free).

use crate::error::ApiError;
use crate::search::SearchPool;
use serde::Deserialize;
use serde_json::{json, Value};
use solvo_core::{Game, Status};
use solvo_games::{dispatch_with, list, move_name, parse_size, play_text, GameOptions, GameVisitor};
use solvo_search::reopening::query::answer;
use solvo_search::reopening::{Oracle, SemiError, SolverOracle};
use solvo_search::Budget;
use std::fmt::Display;
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

/// Answers `req` (blocking: run it off the async workers) within `pool`'s budgets.
pub fn answer_position(pool: &SearchPool, req: &SmallGameRequest) -> Result<Value, ApiError> {
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
    let visit = Visit { moves: &req.moves, budget, name: spec.name, rows, cols };
    dispatch_with(spec.name, rows, cols, &options, visit).map_err(|e| ApiError::unprocessable(e.to_string()))?
}

struct Visit<'a> {
    moves: &'a str,
    budget: Budget,
    name: &'static str,
    rows: usize,
    cols: usize,
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
        let mut oracle = SolverOracle::new(TABLE_BITS, 1, self.budget);
        // One budget for the whole answer: each solve gets what the earlier ones left.
        let mut solve = |pos: &G| {
            let (_, used) = Oracle::<G>::work(&oracle);
            let nodes_left = self.budget.max_nodes.map(|n| n.saturating_sub(used));
            let time_left = self.budget.time_limit.map(|d| d.saturating_sub(t.elapsed()));
            if nodes_left == Some(0) || time_left == Some(Duration::ZERO) {
                return Err(too_hard());
            }
            oracle.set_budget(Budget { max_nodes: nodes_left, time_limit: time_left, ..self.budget });
            answer(None, &mut oracle as &mut dyn Oracle<G>, pos).map_err(|e| match e {
                SemiError::Budget => too_hard(),
                other => ApiError::internal(other.to_string()),
            })
        };
        let mut legal = Vec::new();
        if g.status() == Status::ToMove {
            g.generate_moves(&mut legal);
        }
        let mut moves = Vec::with_capacity(legal.len());
        // With moves to make, the position's value and a best move follow from its
        // children's; otherwise (a pass, the end) the position itself is answered.
        let (mut value, mut best) = (i32::MIN, None);
        for m in &legal {
            let v = -solve(&g.play(*m))?.value;
            if v > value {
                (value, best) = (v, Some(move_name::<G>(m)));
            }
            moves.push(json!({"name": move_name::<G>(m), "value": v}));
        }
        if legal.is_empty() {
            let here = solve(&g)?;
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
            "moves": moves,
            "ms": t.elapsed().as_millis() as u64,
        }))
    }
}
