//! The endgame solver's proven bounds kept in a solution store while it solves, so that
//! a long solve (the 6x6 semi-strong walk's first oracle solves take about a minute
//! each) killed at any moment resumes without proving again what it had finished.
//!
//! Guarantees:
//! - only bounds the solver proved are written, as records without node kinds (so
//!   nothing of the semi-strong solution's structure is claimed for them), merged with
//!   what the store holds like every record;
//! - only positions with at least `min_empties` empties whose proof cost at least
//!   `min_nodes` nodes are written: a handful per second of search;
//! - what was proven is durable within `flush_every` (and at every [`StoreKnowledge::flush`]);
//! - a store error never stops the solve nor is lost: the first one is kept and
//!   returned by [`StoreKnowledge::take_error`].

use crate::store::{Record, Store, StoreError};
use solvo_othello::{Board, Square};
use solvo_othello_search::Knowledge;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Bounds not written yet, and when the last batch was.
struct Pending {
    items: Vec<(Board, Record)>,
    /// The same, merged per canonical position, for look-ups before the flush.
    merged: HashMap<Board, Record>,
    last_flush: Instant,
    error: Option<StoreError>,
}

/// A [`Knowledge`] over a [`Store`] (see the module documentation).
pub struct StoreKnowledge {
    store: Store,
    min_empties: u32,
    min_nodes: u64,
    flush_every: Duration,
    max_score: i32,
    pending: Mutex<Pending>,
    written: AtomicU64,
    used: AtomicU64,
}

impl StoreKnowledge {
    /// Knowledge kept in `store` (a shared handle) for positions with at least
    /// `min_empties` empties whose proof cost at least `min_nodes` nodes, written at
    /// least every `flush_every`.
    pub fn new(store: Store, min_empties: u32, min_nodes: u64, flush_every: Duration) -> StoreKnowledge {
        let max_score = store.size().squares() as i32;
        StoreKnowledge {
            store,
            min_empties,
            min_nodes,
            flush_every,
            max_score,
            pending: Mutex::new(Pending {
                items: Vec::new(),
                merged: HashMap::new(),
                last_flush: Instant::now(),
                error: None,
            }),
            written: AtomicU64::new(0),
            used: AtomicU64::new(0),
        }
    }

    /// Writes the pending bounds in one durable transaction (a failure is kept for
    /// [`Self::take_error`]).
    pub fn flush(&self) {
        let mut pending = self.lock();
        self.flush_locked(&mut pending);
    }

    fn flush_locked(&self, pending: &mut Pending) {
        pending.last_flush = Instant::now();
        if pending.items.is_empty() || pending.error.is_some() {
            return;
        }
        match self.store.put_batch(&pending.items) {
            Ok(()) => {
                self.written.fetch_add(pending.items.len() as u64, Ordering::Relaxed);
                pending.items.clear();
                pending.merged.clear();
            }
            Err(e) => pending.error = Some(e),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Pending> {
        // A thread that panicked while holding the lock left the lists whole (every
        // change to them is a single push or clear): keep using them.
        self.pending.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The first store error met since the last call, if any.
    pub fn take_error(&self) -> Option<StoreError> {
        self.lock().error.take()
    }

    /// Bounds written to the store so far.
    pub fn written(&self) -> u64 {
        self.written.load(Ordering::Relaxed)
    }

    /// Look-ups answered with bounds (from the store or not yet written).
    pub fn used(&self) -> u64 {
        self.used.load(Ordering::Relaxed)
    }
}

impl Knowledge for StoreKnowledge {
    fn min_empties(&self) -> u32 {
        self.min_empties
    }

    fn bounds(&self, p: u64, o: u64) -> Option<(i32, i32)> {
        let board = Board { player: p, opponent: o };
        let pending = {
            let pending = self.lock();
            if pending.merged.is_empty() {
                None
            } else {
                pending.merged.get(&board.canonical()).copied()
            }
        };
        let stored = match self.store.get(&board) {
            Ok(r) => r,
            Err(e) => {
                self.lock().error.get_or_insert(e);
                None
            }
        };
        let known = match (stored, pending) {
            (Some(s), Some(q)) => s.merged(&q).or(Some(s)),
            (s, q) => s.or(q),
        }?;
        let (lower, upper) = (known.lower as i32, known.upper as i32);
        if lower <= -self.max_score && upper >= self.max_score {
            return None;
        }
        self.used.fetch_add(1, Ordering::Relaxed);
        Some((lower, upper))
    }

    fn proven(&self, p: u64, o: u64, lower: i32, upper: i32, best: Option<u8>, nodes: u64) {
        let (lower, upper) = (lower.max(-self.max_score), upper.min(self.max_score));
        if nodes < self.min_nodes || (lower == -self.max_score && upper == self.max_score) || lower > upper {
            return;
        }
        let board = Board { player: p, opponent: o };
        // The best move goes with a lower bound only (a move that reaches it).
        let best_move = best.filter(|_| lower > -self.max_score).and_then(Square::new);
        let rec = Record { lower: lower as i8, upper: upper as i8, kinds: 0, best_move };
        let mut pending = self.lock();
        let (canon, k) = board.canonical_with_symmetry();
        let canonical = crate::store::to_canonical(rec, k);
        let merged = match pending.merged.get(&canon) {
            Some(q) => q.merged(&canonical).unwrap_or(canonical),
            None => canonical,
        };
        pending.merged.insert(canon, merged);
        pending.items.push((canon, canonical));
        if pending.last_flush.elapsed() >= self.flush_every {
            self.flush_locked(&mut pending);
        }
    }
}
