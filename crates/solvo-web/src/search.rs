//! Searches on behalf of clients: a pool of engines behind a cap (a client past it
//! gets 503 at once), a time budget per request, and a stop when the client goes away
//! (its stream or its connection is dropped: the engine's stop handle is called).
//!
//! Every search runs on a blocking thread with an engine of its own, leased from the
//! pool and given back afterwards (its tables kept: the next analysis of the same
//! game is cheaper).

use crate::error::ApiError;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use serde_json::{json, Value};
use solvo_engine::{Engine, EngineError, EngineSettings, Level, StopHandle};
use solvo_othello::Position;
use solvo_solve::store::Store;
use std::convert::Infallible;
use std::panic::AssertUnwindSafe;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::{mpsc, oneshot, OwnedSemaphorePermit, Semaphore};
use tokio_stream::wrappers::ReceiverStream;

/// How often a stop is repeated until the search ends.
const RESTOP: Duration = Duration::from_millis(50);

/// How long past its budget a search may take to notice the stop.
const GRACE: Duration = Duration::from_millis(500);

/// The engines and the cap on concurrent searches.
pub struct SearchPool {
    slots: Arc<Semaphore>,
    max: usize,
    idle: Mutex<Vec<Engine>>,
    settings: EngineSettings,
    stores: Vec<Store>,
    limits: Limits,
}

/// The most one request may ask for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The longest budget (also the default).
    pub max_time: Duration,
    /// The most nodes (also the default; `None`: no node limit).
    pub max_nodes: Option<u64>,
}

/// An engine leased for one request, with its search slot; both go back on drop.
pub struct Lease {
    pool: Arc<SearchPool>,
    engine: Option<Engine>,
    _permit: OwnedSemaphorePermit,
}

impl Lease {
    /// The engine.
    pub fn engine(&mut self) -> &mut Engine {
        self.engine.as_mut().expect("a lease holds its engine until dropped")
    }

    /// Its stop handle.
    pub fn stop_handle(&mut self) -> StopHandle {
        self.engine().stop_handle()
    }

    /// Drops the engine instead of giving it back (after a panic inside it).
    fn discard(&mut self) {
        self.engine = None;
    }
}

impl Drop for Lease {
    fn drop(&mut self) {
        if let Some(e) = self.engine.take() {
            if let Ok(mut idle) = self.pool.idle.lock() {
                idle.push(e);
            }
        }
    }
}

impl SearchPool {
    /// A pool of at most `max` concurrent searches (at least 1), each engine made with
    /// `settings` and a shared handle on each store; `limits` cap every request's
    /// budgets.
    pub fn new(max: usize, settings: EngineSettings, stores: Vec<Store>, limits: Limits) -> SearchPool {
        let max = max.max(1);
        SearchPool { slots: Arc::new(Semaphore::new(max)), max, idle: Mutex::new(Vec::new()), settings, stores, limits }
    }

    /// The cap on concurrent searches.
    pub fn max(&self) -> usize {
        self.max
    }

    /// The longest budget a request may have.
    pub fn max_time(&self) -> Duration {
        self.limits.max_time
    }

    /// The most nodes a request may search (`None`: no node limit).
    pub fn max_nodes(&self) -> Option<u64> {
        self.limits.max_nodes
    }

    /// The default level.
    pub fn default_level(&self) -> Level {
        self.settings.level
    }

    /// Searches running now.
    pub fn running(&self) -> usize {
        self.max - self.slots.available_permits()
    }

    /// A slot and an engine at `level` limited to `nodes` per question (see
    /// [`SearchPool::node_budget`]) holding every table a question about `pos` needs
    /// ([`Engine::prepare`]), or 503 when every slot is taken or the system refuses the
    /// tables' memory (the idle engines' tables are released and the tables asked for
    /// once more first).
    pub fn lease(self: &Arc<Self>, level: Level, nodes: Option<u64>, pos: &Position) -> Result<Lease, ApiError> {
        let permit = self.slot()?;
        let reused = self.idle.lock().ok().and_then(|mut idle| idle.pop());
        let made = match reused {
            Some(e) => Ok(e),
            None => self.new_engine(),
        };
        let ready = made.and_then(|mut engine| engine.prepare(pos).map(|()| engine));
        let mut engine = match ready {
            Ok(engine) => engine,
            Err(e) if e.is_out_of_memory() => {
                // Idle engines hold tables no search uses: free them, then once more.
                if let Ok(mut idle) = self.idle.lock() {
                    idle.clear();
                }
                self.new_engine().and_then(|mut engine| engine.prepare(pos).map(|()| engine)).map_err(search_error)?
            }
            Err(e) => return Err(search_error(e)),
        };
        engine.set_level(level);
        engine.set_node_limit(nodes);
        Ok(Lease { pool: self.clone(), engine: Some(engine), _permit: permit })
    }

    fn new_engine(&self) -> Result<Engine, EngineError> {
        let mut engine = Engine::new(self.settings.clone())?;
        for store in &self.stores {
            engine.set_store(store.share())?;
        }
        Ok(engine)
    }

    /// One of the search slots, for a search that needs no engine (the other games'
    /// solves), or 503 when every slot is taken.
    pub fn slot(&self) -> Result<OwnedSemaphorePermit, ApiError> {
        self.slots.clone().try_acquire_owned().map_err(|_| {
            ApiError::busy(format!(
                "busy: {} searches are running, the most this server allows; try again soon",
                self.max
            ))
        })
    }

    /// The budget of a request asking for `time_ms` (default and cap: the pool's
    /// `max_time`). Errors (422) for 0.
    pub fn budget(&self, time_ms: Option<u64>) -> Result<Duration, ApiError> {
        match time_ms {
            None => Ok(self.limits.max_time),
            Some(0) => Err(ApiError::unprocessable("time_ms 0: expected at least 1 millisecond")),
            Some(ms) => Ok(Duration::from_millis(ms).min(self.limits.max_time)),
        }
    }

    /// The node budget of a request asking for `nodes` (default and cap: the pool's
    /// `max_nodes`; `None`: no node limit). Errors (422) for 0.
    pub fn node_budget(&self, nodes: Option<u64>) -> Result<Option<u64>, ApiError> {
        match (nodes, self.limits.max_nodes) {
            (Some(0), _) => Err(ApiError::unprocessable("nodes 0: expected at least 1 node")),
            (Some(n), Some(max)) => Ok(Some(n.min(max))),
            (n, max) => Ok(n.or(max)),
        }
    }
}

/// The answer to a question the engine could not answer: 503 when the memory of its
/// tables was refused (the request may succeed later), else 422.
fn search_error(e: EngineError) -> ApiError {
    if e.is_out_of_memory() {
        // The engine's message suggests a smaller table: the server's operator sets it,
        // not the client, who may only try again.
        let what = e.0.split(" (").next().unwrap_or(&e.0);
        ApiError::busy(format!("out of memory: {what} for this search now; try again when fewer searches run"))
    } else {
        ApiError::unprocessable(e.0)
    }
}

/// Parses a request's level (default: the pool's).
pub fn level_of(pool: &SearchPool, level: Option<u32>) -> Result<Level, ApiError> {
    match level {
        None => Ok(pool.default_level()),
        Some(n) => Level::new(n)
            .ok_or_else(|| ApiError::unprocessable(format!("level {n}: expected 1 to {}", solvo_engine::MAX_LEVEL))),
    }
}

/// What a streamed search sends: named events with JSON data.
pub type Emit<'a> = &'a mut dyn FnMut(&str, Value);

/// Runs `work` with the leased engine on a blocking thread and streams what it emits
/// as server-sent events; its result is the last event, `done` (or `error` with
/// `{"error": ...}`). The search is stopped when the client goes away or `budget`
/// (plus a grace) has passed.
pub fn stream<F>(mut lease: Lease, budget: Duration, work: F) -> Response
where
    F: FnOnce(&mut Engine, Emit) -> Result<Value, EngineError> + Send + 'static,
{
    let (tx, rx) = mpsc::channel::<Result<Event, Infallible>>(64);
    let (done_tx, done_rx) = oneshot::channel::<()>();
    let stop = lease.stop_handle();
    let watch = tx.clone();
    tokio::spawn(async move {
        let mut done_rx = done_rx;
        tokio::select! {
            _ = watch.closed() => {}
            _ = tokio::time::sleep(budget + GRACE) => {}
            _ = &mut done_rx => return,
        }
        // Asked again and again until the work ends: a question that starts (and
        // clears the engine's stop flag) just after a stop must not miss it.
        loop {
            stop.stop();
            tokio::select! {
                _ = tokio::time::sleep(RESTOP) => {}
                _ = &mut done_rx => return,
            }
        }
    });
    tokio::task::spawn_blocking(move || {
        let mut emit = |name: &str, data: Value| {
            // Intermediate events are dropped when the client lags: later ones
            // supersede them.
            let _ = tx.try_send(Ok(event(name, &data)));
        };
        let outcome = std::panic::catch_unwind(AssertUnwindSafe(|| work(lease.engine(), &mut emit)));
        let last = match outcome {
            Ok(Ok(v)) => event("done", &v),
            Ok(Err(e)) => event("error", &json!({ "error": e.0 })),
            Err(_) => {
                lease.discard();
                event("error", &json!({ "error": "internal error: the search failed (a bug)" }))
            }
        };
        let _ = tx.blocking_send(Ok(last));
        let _ = done_tx.send(());
        drop(lease);
    });
    Sse::new(ReceiverStream::new(rx)).keep_alive(KeepAlive::new().interval(Duration::from_millis(500))).into_response()
}

/// Runs `work` with the leased engine on a blocking thread and answers its result as
/// JSON; the search is stopped when `budget` has passed, or if the client goes away
/// first (the request is dropped).
pub async fn answer<F>(mut lease: Lease, budget: Duration, work: F) -> Result<Value, ApiError>
where
    F: FnOnce(&mut Engine) -> Result<Value, EngineError> + Send + 'static,
{
    /// Stops the search, repeatedly until it has ended, when the request is dropped
    /// before the answer (the client went away).
    struct StopOnDrop(Option<(StopHandle, Arc<std::sync::atomic::AtomicBool>)>);
    impl Drop for StopOnDrop {
        fn drop(&mut self) {
            if let Some((stop, ended)) = self.0.take() {
                std::thread::spawn(move || {
                    while !ended.load(std::sync::atomic::Ordering::Relaxed) {
                        stop.stop();
                        std::thread::sleep(RESTOP);
                    }
                });
            }
        }
    }
    let ended = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let stop = lease.stop_handle();
    let mut guard = StopOnDrop(Some((stop.clone(), ended.clone())));
    let timer_ended = ended.clone();
    tokio::spawn(async move {
        tokio::time::sleep(budget).await;
        while !timer_ended.load(std::sync::atomic::Ordering::Relaxed) {
            stop.stop();
            tokio::time::sleep(RESTOP).await;
        }
    });
    let task = tokio::task::spawn_blocking(move || {
        let r = std::panic::catch_unwind(AssertUnwindSafe(|| work(lease.engine())));
        if r.is_err() {
            lease.discard();
        }
        ended.store(true, std::sync::atomic::Ordering::Relaxed);
        r
    });
    let outcome = task.await;
    guard.0 = None;
    match outcome {
        Ok(Ok(Ok(v))) => Ok(v),
        Ok(Ok(Err(e))) => Err(search_error(e)),
        _ => Err(ApiError::internal("internal error: the search failed (a bug)")),
    }
}

fn event(name: &str, data: &Value) -> Event {
    Event::default().event(name).data(data.to_string())
}
