//! The JSON API: one handler per route, each a thin adapter that parses the request,
//! asks `solvo-engine` (through the search pool) or the formats of `solvo-othello`,
//! and answers JSON or server-sent events. Routes and bodies are listed in the README.

use crate::error::ApiError;
use crate::game::{game_json, kind_name, legal_square, parse_text, GameNames, RequestedGame};
use crate::search::{answer, level_of, stream, Emit};
use crate::wthor::WthorQuery;
use crate::AppState;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, PathRejection, QueryRejection};
use axum::extract::{Path, Query, State};
use axum::response::Response;
use axum::Json;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use solvo_engine::{GameReview, MoveTable, MoveValue, PlyReview};
use solvo_othello::formats::transcript::Replay;
use std::time::Duration;

/// Losses of at least this many discs are listed as mistakes.
const MISTAKE: f64 = 2.0;

/// A JSON body of type `T`: 400 naming the problem when it is not (413 past the size
/// limit).
fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes =
        bytes.map_err(|e| ApiError { status: e.status(), message: format!("request body: {}", e.body_text()) })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad_request(format!("request body: {e}")))
}

/// `GET /api/small-games`: the catalogue's other games (name, description, default
/// size, options).
pub async fn small_games() -> Json<Value> {
    Json(crate::small_games::catalogue())
}

/// `POST /api/small-game`: a position of one of the other games, its board and every
/// legal move's exact value (see [`crate::small_games`]).
pub async fn small_game(
    State(s): State<AppState>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req: crate::small_games::SmallGameRequest = body(bytes)?;
    let permit = s.pool.slot()?;
    let (pool, stores) = (s.pool.clone(), s.game_stores.clone());
    let answered = tokio::task::spawn_blocking(move || {
        let _slot = permit;
        crate::small_games::answer_position(&pool, &stores, &req)
    })
    .await
    .map_err(|e| ApiError::internal(format!("the solve failed: {e}")))??;
    Ok(Json(answered))
}

/// `POST /api/parse`: pasted text.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ParseRequest {
    text: String,
    size: Option<u32>,
    variant: Option<String>,
}

/// A request about a game, with search settings.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GameRequest {
    #[serde(default)]
    game: RequestedGame,
    #[serde(rename = "move")]
    mv: Option<String>,
    level: Option<u32>,
    time_ms: Option<u64>,
    nodes: Option<u64>,
}

/// `GET /api/info`: version, limits, stores and WTHOR files.
pub async fn info(State(state): State<AppState>) -> Json<Value> {
    let pool = &state.pool;
    Json(json!({
        "name": "solvo",
        "version": env!("CARGO_PKG_VERSION"),
        "level": pool.default_level().number(),
        "max_searches": pool.max(),
        "running_searches": pool.running(),
        "max_time_ms": pool.max_time().as_millis() as u64,
        "max_nodes": pool.max_nodes(),
        "body_limit": state.body_limit,
        "stores": state.store_names,
        "game_stores": state.game_stores.names(),
        "wthor_files": state.wthor.files(),
        "wthor_games": state.wthor.len(),
    }))
}

/// `POST /api/parse`: a board string, OBF line, transcript or GGF record as a game.
pub async fn parse(bytes: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let req: ParseRequest = body(bytes)?;
    let (replay, kind) = parse_text(&req.text, req.size, &req.variant)?;
    let mut g = game_json(&replay, &GameNames::default());
    g["kind"] = json!(kind_name(kind));
    Ok(Json(g))
}

/// `POST /api/game`: the game described (every position, transcript, GGF).
pub async fn game(bytes: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let req: GameRequest = body(bytes)?;
    Ok(Json(game_json(&req.game.replay()?, &req.game.names()?)))
}

/// `POST /api/move`: the game with `move` played (passing first when the side to move
/// must pass); 422 naming the legal moves when it is illegal.
pub async fn play(bytes: Result<Bytes, BytesRejection>) -> Result<Json<Value>, ApiError> {
    let req: GameRequest = body(bytes)?;
    let mut replay = req.game.replay()?;
    let name = req.mv.ok_or_else(|| ApiError::bad_request("request body: missing field `move`"))?;
    if name.trim().eq_ignore_ascii_case("pa") || name.trim().eq_ignore_ascii_case("pass") {
        replay.push_pass().map_err(|e| ApiError::unprocessable(format!("pass: {e}")))?;
    } else {
        let sq = legal_square(&replay.end(), &name)?;
        replay.push_move(sq).map_err(ApiError::unprocessable)?;
    }
    Ok(Json(game_json(&replay, &req.game.names()?)))
}

fn round(x: f64) -> f64 {
    (x * 100.0).round() / 100.0
}

fn move_value_json(t: &MoveTable, m: &MoveValue) -> Value {
    let mut v = json!({
        "move": m.square.to_string(),
        "score": round(m.score),
        "exact": m.exact,
        "depth": m.depth,
        "selectivity": m.selectivity,
        "best": t.tied_for_best(m),
        "pv": m.pv.iter().map(|p| p.map_or_else(|| "pa".to_string(), |s| s.to_string())).collect::<Vec<_>>(),
    });
    if let Some((lower, upper)) = m.bounds {
        v["lower"] = json!(lower);
        v["upper"] = json!(upper);
    }
    if let Some(error) = m.error {
        v["error"] = json!(round(error));
    }
    v
}

/// A move table as the API sends it: every move with its line (`pv`, passes as `pa`),
/// whether it is tied for best (`best`: exact and equal, or Monte Carlo estimates
/// within their error of the best) and a Monte Carlo estimate's standard error
/// (`error`); `best_moves` lists the moves tied for best.
pub fn table_json(t: &MoveTable) -> Value {
    json!({
        "moves": t.moves.iter().map(|m| move_value_json(t, m)).collect::<Vec<_>>(),
        "best": t.best().map(|m| m.square.to_string()),
        "best_moves": t.best_moves().iter().map(|m| m.square.to_string()).collect::<Vec<_>>(),
        "value": t.best().map(|m| round(m.score)),
        "legal": t.legal,
        "empties": t.empties,
        "exact_from": t.exact_from,
        "all_exact": t.all_exact(),
        "done": t.done,
        "stopped": t.stopped,
        "nodes": t.nodes,
        "time_ms": t.time.as_millis() as u64,
    })
}

fn ply_json(p: &PlyReview) -> Value {
    json!({
        "index": p.index,
        "side": p.side.name(),
        "played": p.played.map(|s| s.to_string()),
        "best": p.best.map(|s| s.to_string()),
        "best_score": round(p.best_score),
        "played_score": round(p.played_score),
        "loss": round(p.loss),
        "exact": p.exact,
        "black_value": round(p.black_value),
    })
}

fn review_json(r: &GameReview) -> Value {
    json!({
        "plies": r.plies.iter().map(ply_json).collect::<Vec<_>>(),
        "mistakes": r.mistakes(MISTAKE).into_iter().map(ply_json).collect::<Vec<_>>(),
        "mistake_threshold": MISTAKE,
        "final_black_score": r.final_black_score,
        "stopped": r.stopped,
    })
}

/// What a search request asks for: the game, level and budgets.
struct SearchRequest {
    replay: Replay,
    level: solvo_engine::Level,
    budget: Duration,
    nodes: Option<u64>,
}

impl SearchRequest {
    /// An engine for it (503 past the cap, or when its tables cannot be had), limited
    /// to `nodes` per question.
    fn lease(&self, state: &AppState, nodes: Option<u64>) -> Result<crate::search::Lease, ApiError> {
        state.pool.lease(self.level, nodes, &self.replay.end())
    }
}

/// The game, level and budgets of a search request (each checked: 400/422 naming the
/// problem).
fn search_request(state: &AppState, bytes: Result<Bytes, BytesRejection>) -> Result<SearchRequest, ApiError> {
    let req: GameRequest = body(bytes)?;
    let replay = req.game.replay()?;
    let budget = state.pool.budget(req.time_ms)?;
    let nodes = state.pool.node_budget(req.nodes)?;
    let level = level_of(&state.pool, req.level)?;
    Ok(SearchRequest { replay, level, budget, nodes })
}

/// `POST /api/analyze`: every legal move's value at the game's current position, as
/// server-sent events: `values` as the values refine, then `done` (or `error`).
pub async fn analyze(
    State(state): State<AppState>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req = search_request(&state, bytes)?;
    let lease = req.lease(&state, req.nodes)?;
    let (pos, budget) = (req.replay.end(), req.budget);
    Ok(stream(lease, budget, move |engine, emit: Emit| {
        let t = engine.analyze_moves(&pos, Some(budget), &mut |t| emit("values", table_json(t)))?;
        Ok(table_json(&t))
    }))
}

/// `POST /api/engine-move`: the engine's move at the game's current position (at the
/// request's level), as JSON `{move, score, exact, depth}` (`move` null for a pass).
pub async fn engine_move(
    State(state): State<AppState>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Json<Value>, ApiError> {
    let req = search_request(&state, bytes)?;
    let (pos, budget) = (req.replay.end(), req.budget);
    if pos.is_game_over() {
        return Err(ApiError::unprocessable("the game is over: no move to choose"));
    }
    let lease = req.lease(&state, req.nodes)?;
    // The level sets the depth (a time given to the engine would be a time control
    // instead); the budget stops a search that takes longer.
    let v = answer(lease, budget, move |engine| {
        let r = engine.best_move(&pos, None, &mut |_| {})?;
        Ok(json!({
            "move": r.best_move.map(|s| s.to_string()),
            "score": round(r.score),
            "exact": r.exact,
            "depth": r.depth,
            "stopped": r.stopped,
        }))
    })
    .await?;
    Ok(Json(v))
}

/// `POST /api/analyze-game`: each move's loss against the best, as server-sent events
/// (`ply` per reviewed ply, then `done` with the plies and the mistakes). `time_ms` and
/// `nodes` are the whole review's budgets, shared out over the moves.
pub async fn analyze_game(
    State(state): State<AppState>,
    bytes: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let req = search_request(&state, bytes)?;
    if req.replay.plies.is_empty() {
        return Err(ApiError::unprocessable("the game has no moves to analyse"));
    }
    let plies = req.replay.plies.len();
    let lease = req.lease(&state, req.nodes.map(|n| (n / plies as u64).max(1)))?;
    let (replay, budget) = (req.replay, req.budget);
    let per_position = budget / plies as u32;
    Ok(stream(lease, budget, move |engine, emit: Emit| {
        let total = replay.plies.len();
        let r = engine.analyze_game(&replay, Some(per_position.max(Duration::from_millis(20))), &mut |p| {
            let mut v = ply_json(p);
            v["of"] = json!(total);
            emit("ply", v)
        })?;
        Ok(review_json(&r))
    }))
}

/// `GET /api/wthor?player=&tournament=&year=&offset=&limit=`: matching games.
pub async fn wthor_search(
    State(state): State<AppState>,
    query: Result<Query<WthorQuery>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let Query(q) = query.map_err(|e| ApiError::bad_request(format!("query: {}", e.body_text())))?;
    Ok(Json(state.wthor.search(&q)))
}

/// `GET /api/wthor/{id}`: one game (its description and the game, as `/api/game`).
/// An id that is not text (percent-escapes of bytes that are not UTF-8) is a 400 JSON
/// error like any other bad id.
pub async fn wthor_game(
    State(state): State<AppState>,
    path: Result<Path<String>, PathRejection>,
) -> Result<Json<Value>, ApiError> {
    let Path(id) = path.map_err(|e| ApiError::bad_request(format!("game id: {}", e.body_text())))?;
    let n: usize = id.parse().map_err(|_| ApiError::bad_request(format!("game id {id:?}: expected a number")))?;
    let (info, replay) = state
        .wthor
        .game(n)
        .ok_or_else(|| ApiError::not_found(format!("no WTHOR game {n}: the library holds {}", state.wthor.len())))?;
    let names = GameNames {
        black: info["black"].as_str().map(str::to_string),
        white: info["white"].as_str().map(str::to_string),
        place: info["tournament"].as_str().map(str::to_string),
        date: info["year"].as_u64().map(|y| y.to_string()),
    };
    Ok(Json(json!({ "info": info, "game": game_json(&replay, &names) })))
}

/// Any other path under `/api`: 404 naming it.
pub async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::not_found(format!("no such resource: {}", uri.path()))
}

/// A route asked with the wrong method.
pub async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError {
        status: axum::http::StatusCode::METHOD_NOT_ALLOWED,
        message: format!("{method} is not allowed on {} (see the README for the API)", uri.path()),
    }
}
