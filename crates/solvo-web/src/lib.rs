//! solvo-web: `solvo serve`, the web front end. An HTTP server (axum on tokio) that
//! serves a single-page app embedded in the binary (`assets/`: plain HTML, CSS and
//! JavaScript, no build step, nothing fetched from the network) and a JSON API with
//! server-sent events over `solvo-engine`: every move's value refined live, the
//! engine's move, a game's review, position parsing and export, a WTHOR browser.
//!
//! One file per concept:
//! - [`api`]: the routes' handlers (thin: parse, ask the engine or the formats, answer);
//! - [`game`]: games in requests and answers (start, moves, every position, exports);
//! - [`search`]: the engine pool, the cap on concurrent searches, budgets, stop on
//!   disconnect;
//! - [`wthor`]: the WTHOR game library;
//! - `small_games`: the catalogue's other games (Domineering, Nogo, Go...), every move's
//!   exact value from a semi-strong store or solved on demand, for the page `/games`;
//! - [`error`]: the JSON error answer.
//!
//! Safety guarantees: the server reads no file (stores and WTHOR files are opened by
//! the caller and handed over); request bodies are limited in size; at most
//! `max_searches` searches run at once (503 past it); a search whose tables the system
//! refuses gets 503 (the server goes on); every search has a time budget
//! (and a node budget when the server has one) and is stopped when its client goes away; bad input gets a 4xx JSON error naming
//! the problem.

#![warn(missing_docs)]

mod api;
mod error;
mod game;
mod search;
mod small_games;
pub mod wthor;

pub use small_games::GameStores;

use axum::extract::DefaultBodyLimit;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::{get, post};
use axum::Router;
use search::SearchPool;
use solvo_engine::EngineSettings;
use solvo_solve::game_store::GameStore;
use solvo_solve::store::Store;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use wthor::WthorLibrary;

/// What the server is given: engine settings, stores, games, limits.
pub struct ServerConfig {
    /// Engine settings of every search (level: the default level of requests).
    pub engine: EngineSettings,
    /// 6x6 / 4x4 solution stores to answer from (each engine shares them).
    pub stores: Vec<Store>,
    /// Semi-strong stores of the other games (`solvo game semi-strong build`) to
    /// answer `/games` from; only read.
    pub game_stores: Vec<GameStore>,
    /// The WTHOR games to browse.
    pub wthor: WthorLibrary,
    /// The most searches running at once.
    pub max_searches: usize,
    /// The longest budget of one request.
    pub max_time: Duration,
    /// The most nodes one request may search (`None`: no node limit, the time alone).
    pub max_nodes: Option<u64>,
    /// The largest request body accepted, in bytes.
    pub body_limit: usize,
}

impl ServerConfig {
    /// The most table memory, in MiB, the server ever holds: every search running at
    /// once, each engine with every table it can hold
    /// ([`EngineSettings::most_table_mib`]). A front end checks it against the machine
    /// before serving.
    pub fn most_table_mib(&self) -> u128 {
        self.max_searches.max(1) as u128 * self.engine.most_table_mib(self.stores.len())
    }
}

/// The state every handler sees.
#[derive(Clone)]
pub struct AppState {
    /// The engines and the cap.
    pub pool: Arc<SearchPool>,
    /// The WTHOR games.
    pub wthor: Arc<WthorLibrary>,
    /// The stores' file names, for `/api/info`.
    pub store_names: Vec<String>,
    /// The other games' stores.
    pub game_stores: Arc<GameStores>,
    /// The body size limit, for `/api/info`.
    pub body_limit: usize,
}

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const STYLE_CSS: &str = include_str!("../assets/style.css");
const GAMES_HTML: &str = include_str!("../assets/games.html");
const GAMES_JS: &str = include_str!("../assets/games.js");

/// The page, its script and its style, from the binary.
async fn index() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], INDEX_HTML)
}

async fn app_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], APP_JS)
}

async fn games_page() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], GAMES_HTML)
}

async fn games_js() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/javascript; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], GAMES_JS)
}

async fn style_css() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "text/css; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")], STYLE_CSS)
}

/// The application: the page and the API over `config`.
pub fn router(config: ServerConfig) -> Router {
    let store_names = config.stores.iter().map(|s| s.path().display().to_string()).collect();
    let limits = search::Limits { max_time: config.max_time, max_nodes: config.max_nodes };
    let pool = SearchPool::new(config.max_searches, config.engine, config.stores, limits);
    let state = AppState {
        pool: Arc::new(pool),
        wthor: Arc::new(config.wthor),
        store_names,
        game_stores: Arc::new(GameStores::new(config.game_stores)),
        body_limit: config.body_limit,
    };
    let api = Router::new()
        .route("/info", get(api::info))
        .route("/parse", post(api::parse))
        .route("/game", post(api::game))
        .route("/move", post(api::play))
        .route("/analyze", post(api::analyze))
        .route("/engine-move", post(api::engine_move))
        .route("/analyze-game", post(api::analyze_game))
        .route("/wthor", get(api::wthor_search))
        .route("/wthor/{id}", get(api::wthor_game))
        .route("/small-games", get(api::small_games))
        .route("/small-game", post(api::small_game))
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::wrong_method);
    Router::new()
        .route("/", get(index))
        .route("/app.js", get(app_js))
        .route("/style.css", get(style_css))
        .route("/games", get(games_page))
        .route("/games.js", get(games_js))
        .nest("/api", api)
        .fallback(api::not_found)
        .method_not_allowed_fallback(api::wrong_method)
        .layer(DefaultBodyLimit::max(config.body_limit))
        .with_state(state)
}

/// Serves `config` on `listener` until the process ends.
pub async fn serve(listener: tokio::net::TcpListener, config: ServerConfig) -> std::io::Result<()> {
    axum::serve(listener, router(config)).await
}

/// Binds `addr` (port 0: any free port) on a new runtime, calls `on_bound` with the
/// address bound, then serves until the process ends, or returns right after
/// `on_bound` when `check_only` (the configuration checked, nothing served). Errors
/// name the address that could not be bound.
pub fn run(
    addr: SocketAddr,
    config: ServerConfig,
    check_only: bool,
    on_bound: impl FnOnce(SocketAddr),
) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(async move {
        let listener =
            tokio::net::TcpListener::bind(addr).await.map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        let bound = listener.local_addr().map_err(|e| format!("cannot listen on {addr}: {e}"))?;
        on_bound(bound);
        if check_only {
            return Ok(());
        }
        serve(listener, config).await.map_err(|e| format!("server on {bound}: {e}"))
    })
}
