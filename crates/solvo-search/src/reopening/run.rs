//! The semi-strong walk ([`semi_strong`]): reopening alpha-beta from a root into a
//! [`SolutionStore`], resumable.
//!
//! Every P, A' and P' position gets an exact record (value, kinds, designated move);
//! every non-designated child of an A' node gets the bound its null-window test proved
//! (kind C, or A when a pass was folded in). Nothing is left to solve on demand: the
//! walk goes down to the ends of the games.
//!
//! Move ordering: at P and A' nodes the designated move comes first: a stored exact
//! record's move if there is one, else the oracle's best move (an exact solve, recorded
//! at once without kinds, so a restart need not solve again).
//!
//! Crash safety and resumption (as the Othello walk): records are produced in
//! post-order (a node after its whole subtree) and committed in order, in batches at
//! least every `commit_every`; so a record of kind K in the store implies that its
//! K-subtree is complete there. A rerun walks the tree again from the root and reuses
//! every exact record whose kinds may answer the search, so completed subtrees are
//! skipped and at most one batch of work is redone.

use super::keys::{lookup, record};
use super::{
    first_child_kind, kind, kind_after, may_reuse, moves_of, other_child_kind, play_folded, Next, Oracle, SemiError,
    SemiRecord, SolutionStore,
};
use solvo_core::Game;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Parameters of a walk.
#[derive(Clone, Debug)]
pub struct SemiConfig {
    /// Commit a batch at least this often.
    pub commit_every: Duration,
    /// Stop with [`SemiError::Stopped`] right after this many commits (tests simulate
    /// a kill with it).
    pub stop_after_commits: Option<u64>,
    /// Raise to stop at the next record (pending records are committed first).
    pub stop: Arc<AtomicBool>,
}

impl Default for SemiConfig {
    /// Commits every 3 s, no stop.
    fn default() -> Self {
        SemiConfig {
            commit_every: Duration::from_secs(3),
            stop_after_commits: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }
}

/// Counters of a walk (this process only).
#[derive(Clone, Debug, Default)]
pub struct SemiStats {
    /// Exact records of kinds P, A', P' written, per ply from the root.
    pub exact: Vec<u64>,
    /// Bound records (C/A) written, per ply from the root.
    pub bounds: Vec<u64>,
    /// Searches answered by a stored record.
    pub reused: u64,
    /// Nodes expanded here (P, A', P').
    pub expanded: u64,
    /// Oracle calls and nodes.
    pub solves: u64,
    /// Oracle nodes.
    pub solver_nodes: u64,
    /// Batches committed.
    pub commits: u64,
    /// Time since the walk started.
    pub elapsed: Duration,
}

/// The end of a walk.
#[derive(Clone, Debug)]
pub struct SemiOutcome<M> {
    /// The root's value for its side to move (after a forced pass at the root, the
    /// value for the side to move of the root still).
    pub value: i32,
    /// The root's designated move (`None` when the root must pass or is over).
    pub best_move: Option<M>,
    /// Counters.
    pub stats: SemiStats,
}

/// Runs (or resumes) the semi-strong solve of `root` into `store`; `progress` is called
/// after every commit.
pub fn semi_strong<G: Game>(
    root: &G,
    store: &mut dyn SolutionStore,
    oracle: &mut dyn Oracle<G>,
    config: &SemiConfig,
    progress: &mut dyn FnMut(&SemiStats),
) -> Result<SemiOutcome<G::Move>, SemiError> {
    let halt = AtomicBool::new(false);
    Walk::new(store, oracle, config, progress, Lane { index: 0, count: 1, halt: &halt }).root(root)
}

/// The walk of [`semi_strong`] on one thread per oracle ("lanes"), into one store.
///
/// Every lane walks the whole tree from the root with the same rules and the same
/// store (behind a lock), but takes the children of P and P' nodes (all searched
/// exactly) and the tests of A' nodes from another starting point: lane `l` of `n`
/// starts at the `l/n`-th of the non-designated moves and leaves the designated move
/// of a P or P' node for last. A lane entering a subtree another lane completed finds
/// its records and skips it; two lanes in one subtree split it again the same way.
/// The oracles should share their table (see [`super::SolverOracle::sibling`]).
///
/// Guarantees: the same as [`semi_strong`]'s. Every record is still put after every
/// record its subtree needs (by its own lane, or by another lane before it was read),
/// and a commit writes every record put so far, so a record of kind K in the store
/// still implies its complete K-subtree, whichever lane wrote it; a rerun (with any
/// number of lanes) resumes. Values and bounds are those of one lane; which of several
/// equal moves is designated depends on the solvers' tables only, as with one lane.
/// The walk ends when one lane completes the root (the others are stopped); an error
/// of one lane stops the others and is returned. With one oracle this is
/// [`semi_strong`].
pub fn semi_strong_lanes<G: Game>(
    root: &G,
    store: &mut (dyn SolutionStore + Send),
    oracles: &mut [&mut (dyn Oracle<G> + Send)],
    config: &SemiConfig,
    progress: &mut (dyn FnMut(&SemiStats) + Send),
) -> Result<SemiOutcome<G::Move>, SemiError> {
    let n = oracles.len();
    if n <= 1 {
        return match oracles.first_mut() {
            Some(o) => semi_strong(root, store, *o, config, progress),
            None => Err(SemiError::Internal("a walk needs at least one oracle".into())),
        };
    }
    let halt = AtomicBool::new(false);
    let shared = Mutex::new(store);
    let board = Mutex::new((progress, vec![SemiStats::default(); n]));
    let results: Vec<Result<SemiOutcome<G::Move>, SemiError>> = std::thread::scope(|scope| {
        let handles: Vec<_> = oracles
            .iter_mut()
            .enumerate()
            .map(|(lane, oracle)| {
                let (shared, board, halt) = (&shared, &board, &halt);
                scope.spawn(move || {
                    let mut store = Locked(shared);
                    let mut report = |s: &SemiStats| {
                        let mut b = board.lock().unwrap_or_else(|e| e.into_inner());
                        b.1[lane] = s.clone();
                        let sum = sum_stats(&b.1);
                        (b.0)(&sum);
                    };
                    let r =
                        Walk::new(&mut store, &mut **oracle, config, &mut report, Lane { index: lane, count: n, halt })
                            .root(root);
                    halt.store(true, Ordering::Relaxed);
                    r
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a walk lane panicked")).collect()
    });
    let mut stats: Vec<SemiStats> = Vec::with_capacity(n);
    let mut done = None;
    let mut error = None;
    for r in results {
        match r {
            Ok(out) => {
                stats.push(out.stats.clone());
                done.get_or_insert(out);
            }
            Err(SemiError::Stopped) => {}
            Err(e) => {
                error.get_or_insert(e);
            }
        }
    }
    for (lane, s) in board.into_inner().unwrap_or_else(|e| e.into_inner()).1.into_iter().enumerate() {
        if stats.len() <= lane {
            stats.push(s);
        }
    }
    if let Some(e) = error {
        return Err(e);
    }
    match done {
        Some(mut out) => {
            out.stats = sum_stats(&stats);
            out.stats.elapsed = stats.iter().map(|s| s.elapsed).max().unwrap_or_default();
            Ok(out)
        }
        None => Err(SemiError::Stopped),
    }
}

/// One store shared by the lanes: every call takes the lock.
struct Locked<'s, 'a>(&'s Mutex<&'a mut (dyn SolutionStore + Send)>);

impl SolutionStore for Locked<'_, '_> {
    fn get(&mut self, key: &[u8]) -> Result<Option<SemiRecord<u16>>, SemiError> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).get(key)
    }
    fn put(&mut self, key: &[u8], rec: SemiRecord<u16>) -> Result<(), SemiError> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).put(key, rec)
    }
    fn commit(&mut self) -> Result<(), SemiError> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).commit()
    }
}

/// The counters of several lanes added (elapsed: the longest).
fn sum_stats(lanes: &[SemiStats]) -> SemiStats {
    let mut t = SemiStats::default();
    for s in lanes {
        for (i, &x) in s.exact.iter().enumerate() {
            bump_by(&mut t.exact, i, x);
        }
        for (i, &x) in s.bounds.iter().enumerate() {
            bump_by(&mut t.bounds, i, x);
        }
        t.reused += s.reused;
        t.expanded += s.expanded;
        t.solves += s.solves;
        t.solver_nodes += s.solver_nodes;
        t.commits += s.commits;
        t.elapsed = t.elapsed.max(s.elapsed);
    }
    t
}

/// Which lane a walk is, of how many, and the flag raised when another lane ended
/// (then stop as on a stop request).
struct Lane<'a> {
    index: usize,
    count: usize,
    halt: &'a AtomicBool,
}

struct Walk<'a, G: Game> {
    store: &'a mut dyn SolutionStore,
    oracle: &'a mut dyn Oracle<G>,
    config: &'a SemiConfig,
    progress: &'a mut dyn FnMut(&SemiStats),
    lane: Lane<'a>,
    last_commit: Instant,
    start: Instant,
    stats: SemiStats,
}

fn bump_by(v: &mut Vec<u64>, i: usize, x: u64) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += x;
}

/// Where `m` stands in `moves`.
fn moves_index<M: PartialEq>(moves: &[M], m: M) -> usize {
    moves.iter().position(|x| *x == m).unwrap_or(usize::MAX)
}

fn bump(v: &mut Vec<u64>, i: usize) {
    bump_by(v, i, 1);
}

impl<'a, G: Game> Walk<'a, G> {
    fn new(
        store: &'a mut dyn SolutionStore,
        oracle: &'a mut dyn Oracle<G>,
        config: &'a SemiConfig,
        progress: &'a mut dyn FnMut(&SemiStats),
        lane: Lane<'a>,
    ) -> Self {
        let now = Instant::now();
        Walk { store, oracle, config, progress, lane, last_commit: now, start: now, stats: SemiStats::default() }
    }

    /// The walk from `root` to its end.
    fn root(mut self, root: &G) -> Result<SemiOutcome<G::Move>, SemiError> {
        let (value, best_move) = match super::fold_passes(root.clone())? {
            None => match root.status() {
                solvo_core::Status::Over(v) => (v, None),
                _ => return Err(SemiError::Internal("the root is over after a pass".into())),
            },
            Some((g, passed)) => {
                let v = self.exact(&g, kind::P, None, 0)?;
                let best = if passed { None } else { lookup(self.store, &g)?.and_then(|r| r.best) };
                (if passed { -v } else { v }, best)
            }
        };
        self.commit()?;
        self.stats.elapsed = self.start.elapsed();
        Ok(SemiOutcome { value, best_move, stats: self.stats })
    }

    /// The non-designated moves in this lane's order (see [`semi_strong_lanes`]).
    fn lane_order(&self, others: &mut [G::Move]) {
        let Lane { index, count, .. } = self.lane;
        if index > 0 && !others.is_empty() {
            others.rotate_left(index * others.len() / count);
        }
    }
    fn commit(&mut self) -> Result<(), SemiError> {
        self.store.commit()?;
        self.stats.commits += 1;
        self.last_commit = Instant::now();
        self.stats.elapsed = self.start.elapsed();
        (self.stats.solves, self.stats.solver_nodes) = self.oracle.work();
        (self.progress)(&self.stats);
        if self.config.stop_after_commits.is_some_and(|n| self.stats.commits >= n) {
            return Err(SemiError::Stopped);
        }
        Ok(())
    }

    /// Adds a record; commits when due (and stops after committing when asked to).
    fn record(&mut self, g: &G, rec: SemiRecord<G::Move>) -> Result<(), SemiError> {
        record(self.store, g, rec)?;
        let stop = self.config.stop.load(Ordering::Relaxed) || self.lane.halt.load(Ordering::Relaxed);
        if self.last_commit.elapsed() >= self.config.commit_every || stop {
            self.commit()?;
            if stop {
                return Err(SemiError::Stopped);
            }
        }
        Ok(())
    }

    /// Exact value of `g` (its side to move can move) searched as kind `k` (P, A' or
    /// P') at `ply` from the root; `hint` is its value when already known.
    fn exact(&mut self, g: &G, k: u8, hint: Option<i32>, ply: usize) -> Result<i32, SemiError> {
        let known = lookup(self.store, g)?;
        let known_exact = known.filter(|r| r.is_exact());
        if let Some(r) = known_exact {
            if may_reuse(r.kinds, k) {
                self.stats.reused += 1;
                return Ok(r.lower);
            }
        }
        self.stats.expanded += 1;
        let moves = moves_of(g);
        if moves.is_empty() {
            return Err(SemiError::Internal(format!("a position to move has no move (key {:016x})", g.hash_key())));
        }
        let mut proven = hint.or(known_exact.map(|r| r.lower));
        let first = match known_exact.and_then(|r| r.best) {
            Some(m) => m,
            None if k == kind::P_PRIME => self.oracle.p_prime_first(g).unwrap_or(moves[0]),
            None => {
                let (v, m) = self.oracle.exact(g)?;
                if let Some(p) = proven.filter(|&p| p != v) {
                    return Err(SemiError::Internal(format!("the solver gave {v}, known {p}")));
                }
                proven = Some(v);
                self.record(g, SemiRecord::exact(v, 0, Some(m)))?;
                m
            }
        };
        if !moves.contains(&first) {
            return Err(SemiError::Internal(format!("designated move {first:?} is not legal")));
        }
        let first_hint = if k == kind::P_PRIME { None } else { proven };
        let mut others: Vec<G::Move> = moves.iter().copied().filter(|&m| m != first).collect();
        self.lane_order(&mut others);
        let (mut best, mut best_move) = (i32::MIN, first);
        if k == kind::A_PRIME {
            best = self.child_exact(g, first, first_child_kind(k), first_hint, ply)?;
            for &m in &others {
                if !self.child_fails_high(g, m, best, ply)? {
                    continue;
                }
                let v = self.child_exact(g, m, kind::P_PRIME, None, ply)?;
                if v > best {
                    (best, best_move) = (v, m);
                }
            }
        } else {
            // Every child is searched exactly: lanes after the first take the
            // designated one last; the best is chosen in the moves' order whatever the
            // order searched (the first listed of equal values, the designated first).
            let mut values = Vec::with_capacity(moves.len());
            if self.lane.index == 0 {
                values.push((first, self.child_exact(g, first, first_child_kind(k), first_hint, ply)?));
            }
            for &m in &others {
                values.push((m, self.child_exact(g, m, other_child_kind(k), None, ply)?));
            }
            if self.lane.index > 0 {
                values.push((first, self.child_exact(g, first, first_child_kind(k), first_hint, ply)?));
            }
            values.sort_by_key(|&(m, _)| if m == first { 0 } else { 1 + moves_index(&moves, m) });
            for (m, v) in values {
                if v > best {
                    (best, best_move) = (v, m);
                }
            }
        }
        if let Some(e) = proven.filter(|&e| e != best) {
            return Err(SemiError::Internal(format!("searched as {}: value {best}, expected {e}", kind::names(k))));
        }
        bump(&mut self.stats.exact, ply);
        self.record(g, SemiRecord::exact(best, k, Some(best_move)))?;
        Ok(best)
    }

    /// Exact value, for the side to move in `g`, of playing `m`, the reached position
    /// searched as kind `ck` (a folded pass steps the kind).
    fn child_exact(&mut self, g: &G, m: G::Move, ck: u8, hint: Option<i32>, ply: usize) -> Result<i32, SemiError> {
        match play_folded(g, m)? {
            Next::End(v) => Ok(v),
            Next::Position { game, negate } => {
                let sign = if negate { -1 } else { 1 };
                let v = self.exact(&game, kind_after(ck, negate), hint.map(|h| sign * h), ply + 1)?;
                Ok(sign * v)
            }
        }
    }

    /// The null-window test of a non-first child of an A' node: is playing `m` better
    /// than `best` for the side to move in `g`? Stored bounds answer when they can;
    /// else the oracle does, and the bound it proves is recorded (kind C, or A after a
    /// folded pass).
    fn child_fails_high(&mut self, g: &G, m: G::Move, best: i32, ply: usize) -> Result<bool, SemiError> {
        if best >= g.max_value() {
            return Ok(false);
        }
        let (q, negate) = match play_folded(g, m)? {
            Next::End(v) => return Ok(v > best),
            Next::Position { game, negate } => (game, negate),
        };
        // Bounds of the move's value for g's mover, from q's (lo, hi).
        let mover = |lo: i32, hi: i32| if negate { (-hi, -lo) } else { (lo, hi) };
        if let Some(r) = lookup(self.store, &q)? {
            let (lo, hi) = mover(r.lower, r.upper);
            if lo > best {
                return Ok(true);
            }
            if hi <= best {
                self.stats.reused += 1;
                return Ok(false);
            }
        }
        // Is the move worth best + 1 or more? For q: value <= -best - 1, or >= best + 1.
        let (lo, hi, proving) = if negate { self.oracle.test(&q, -best)? } else { self.oracle.test(&q, best + 1)? };
        let qk = kind_after(kind::C, negate);
        bump(&mut self.stats.bounds, ply + 1);
        self.record(&q, SemiRecord { lower: lo, upper: hi, kinds: qk, best: proving })?;
        Ok(mover(lo, hi).0 > best)
    }
}
