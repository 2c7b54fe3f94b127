//! Semi-strong solving by reopening alpha-beta, into a [`Store`].
//!
//! From the start (a P node) every P, A' and P' position with more than `min_empties`
//! empties gets an exact record (value, kinds, designated best move); non-designated
//! children of A' nodes get the bound their null-window test proved (kind C, or A when
//! a pass was folded in). Positions with `min_empties` or fewer empties are solved by
//! the exact endgame solver when needed and never stored.
//!
//! Move ordering: at P and A' nodes the designated move comes first: a stored exact
//! record's move if there is one, else the best move of an exact endgame solve of the
//! node (oracle ordering, so no A' child fails high in practice and no P' subtree is
//! searched in vain; the null-window tests and re-searches still run as the algorithm
//! says). The oracle solves are narrow windows steered by what is known (see
//! [`crate::exact::exact_value_from`]): a P node's designated child has the parent's
//! value (one window at it gives the value and a best move), and a sibling's value is
//! guessed to be the best so far. Symmetric moves are solved once (`oracle`). One
//! endgame transposition table serves the whole run.
//!
//! Crash safety and resumption: records are produced in post-order (a node after its
//! whole subtree) and committed in batches, in order, every `commit_every`; so a record
//! of kind K in the store implies its K-subtree is complete in the store. A rerun walks
//! the tree again from the start and reuses every exact record whose kinds may answer
//! the search (P from P; A' from P or A'; P' from P or P'), so completed subtrees are
//! skipped and at most one batch of work is redone.

use crate::reopening::{first_child_kind, kind_after, may_reuse, other_child_kind, play, Next};
use crate::solve_knowledge::StoreKnowledge;
use crate::store::{from_canonical, kind, Record, Store, StoreError};
use solvo_othello::{Board, BoardSize, Color, Position, Square, Variant};
use solvo_othello_search::Knowledge;
use solvo_othello_search::{solve, SolveOptions, Window};
use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Parameters of a semi-strong run.
#[derive(Clone, Debug)]
pub struct SemiOptions {
    /// Positions with this many empties or fewer are not stored (solved on demand).
    pub min_empties: u32,
    /// Endgame solver threads.
    pub threads: usize,
    /// Endgame transposition table, MiB.
    pub hash_mb: usize,
    /// Commit a batch at least this often.
    pub commit_every: Duration,
    /// Stop with [`SemiError::Stopped`] right after this many commits (tests simulate
    /// a kill with it).
    pub stop_after_commits: Option<u64>,
    /// Raise to stop at the next record (pending records are committed first).
    pub stop: Arc<AtomicBool>,
    /// Endgame nodes so far, updated while solving (for progress displays).
    pub solver_nodes: Arc<AtomicU64>,
    /// Inside the endgame solves, bounds proven at positions above the threshold that
    /// cost at least this many nodes are written to the store as they are proven
    /// (records without kinds, see [`crate::solve_knowledge`]) and read back, so a run
    /// killed during a long solve resumes it where it was; 0: off.
    pub solve_bounds_min_nodes: u64,
    /// ... at positions with at least this many empties (and more than `min_empties`):
    /// the solver asks the store at every such node its table knows nothing of, so the
    /// floor keeps the asking rare (6x6: subtrees of 4 M nodes start near 22 empties).
    pub solve_bounds_min_empties: u32,
}

impl SemiOptions {
    /// Defaults: the given threshold, 1 thread, 256 MiB table, commits every 3 s.
    pub fn new(min_empties: u32) -> SemiOptions {
        SemiOptions {
            min_empties,
            threads: 1,
            hash_mb: 256,
            commit_every: Duration::from_secs(3),
            stop_after_commits: None,
            stop: Arc::new(AtomicBool::new(false)),
            solver_nodes: Arc::new(AtomicU64::new(0)),
            solve_bounds_min_nodes: 1 << 22,
            solve_bounds_min_empties: 20,
        }
    }
}

/// Counters of a run (this process only).
#[derive(Clone, Debug, Default)]
pub struct SemiStats {
    /// Exact records written for positions not stored exactly before, per disc count.
    pub new_exact: Vec<u64>,
    /// Bound records (C/A) written, per disc count.
    pub bounds: Vec<u64>,
    /// Searches answered by a stored record.
    pub reused: u64,
    /// Endgame solver calls.
    pub solves: u64,
    /// Endgame solver nodes.
    pub solver_nodes: u64,
    /// Nodes of the reopening tree expanded here (P, A', P' above the threshold).
    pub expanded: u64,
    /// Expanded nodes whose search finished in this run, per disc count and kind
    /// (index 0 = P, 1 = A', 2 = P').
    pub subtrees: Vec<[u64; 3]>,
    /// Wall time spent in those searches (each including its whole subtree), per disc
    /// count and kind as in `subtrees`, seconds: `subtree_secs[d][i] / subtrees[d][i]`
    /// is the mean cost of such a node, the figure projections of the whole run start
    /// from.
    pub subtree_secs: Vec<[f64; 3]>,
    /// The expanded nodes being searched, root first: where the depth-first walk is.
    pub path: Vec<PathStep>,
    /// Batches committed.
    pub commits: u64,
    /// Bounds proven inside endgame solves and written to the store.
    pub solve_bounds_written: u64,
    /// Look-ups inside endgame solves answered by such bounds (earlier runs' included).
    pub solve_bounds_used: u64,
    /// Time since the run started.
    pub elapsed: Duration,
}

/// One node on the walk's current path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathStep {
    /// Discs on the board.
    pub discs: u8,
    /// Kind the node is searched as (one flag: P, A' or P').
    pub kind: u8,
    /// Which of its moves is being searched (1 = the designated one).
    pub child: u8,
    /// Its legal moves.
    pub children: u8,
}

/// Index of an exact kind in [`SemiStats::subtrees`].
fn kind_index(k: u8) -> usize {
    match k {
        kind::P => 0,
        kind::A_PRIME => 1,
        _ => 2,
    }
}

/// The end of a run.
#[derive(Clone, Debug)]
pub struct SemiOutcome {
    /// Value of the start for the first player.
    pub value: i32,
    /// Designated best move at the start.
    pub best_move: Option<Square>,
    /// Counters.
    pub stats: SemiStats,
}

/// Why a run ended without a result.
#[derive(Debug)]
pub enum SemiError {
    /// The store failed.
    Store(StoreError),
    /// Stopped on request (stop flag or `stop_after_commits`); what was done is committed.
    Stopped,
    /// The store was made with other parameters.
    Parameters(String),
    /// Two exact computations disagreed (a bug somewhere; nothing inconsistent is written).
    Internal(String),
}

impl fmt::Display for SemiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SemiError::Store(e) => write!(f, "{e}"),
            SemiError::Stopped => f.write_str("stopped (committed work is kept; rerun to continue)"),
            SemiError::Parameters(m) => f.write_str(m),
            SemiError::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for SemiError {}

impl From<StoreError> for SemiError {
    fn from(e: StoreError) -> Self {
        SemiError::Store(e)
    }
}

/// The kinds whose records are exact parts of the semi-strong solution.
const EXACT_KINDS: u8 = kind::P | kind::A_PRIME | kind::P_PRIME;

/// Meta key holding the threshold a store was built with.
pub const META_MIN_EMPTIES: &str = "semistrong.min_empties";
/// Meta key holding the start's value once a run has completed.
pub const META_ROOT_VALUE: &str = "semistrong.root_value";

/// The threshold recorded in `store`, if a run has started on it.
pub fn stored_min_empties(store: &Store) -> Result<Option<u32>, StoreError> {
    Ok(store.get_meta(META_MIN_EMPTIES)?.and_then(|v| std::str::from_utf8(&v).ok()?.parse().ok()))
}

/// The default threshold of a semi-strong solve: positions with at most this many
/// empties are not stored (solved on demand): none on 4x4, 14 on 6x6 (what a solve
/// without a store answers in milliseconds).
pub fn default_min_empties(size: BoardSize) -> u32 {
    if size == BoardSize::Four {
        0
    } else {
        14
    }
}

/// The default store file of a size: `data/semistrong-6x6.redb`.
pub fn default_store_path(size: BoardSize) -> std::path::PathBuf {
    std::path::PathBuf::from(format!("data/semistrong-{0}x{0}.redb", size.side()))
}

/// The node kinds counted per layer by [`layer_counts`], in its column order.
pub const LAYER_KINDS: [u8; 5] = [kind::P, kind::A_PRIME, kind::P_PRIME, kind::C, kind::A];

/// Records per disc count (the index) and node kind ([`LAYER_KINDS`] order): a record
/// of several kinds counts once in each.
pub fn layer_counts(store: &Store) -> Result<Vec<[u64; 5]>, StoreError> {
    let mut layers = vec![[0u64; 5]; store.size().squares() as usize + 1];
    store.for_each(|b, r| {
        let l = &mut layers[(b.player | b.opponent).count_ones() as usize];
        for (i, k) in LAYER_KINDS.into_iter().enumerate() {
            if r.kinds & k != 0 {
                l[i] += 1;
            }
        }
        Ok(())
    })?;
    Ok(layers)
}

/// Runs (or resumes) the semi-strong solve of the store's board from the start.
/// `progress` is called after every commit. Refuses a store built with another
/// threshold (its records would be complete only down to that threshold).
pub fn semi_strong(
    store: &Store,
    opts: &SemiOptions,
    progress: &mut dyn FnMut(&SemiStats),
) -> Result<SemiOutcome, SemiError> {
    match stored_min_empties(store)? {
        Some(e) if e != opts.min_empties => {
            return Err(SemiError::Parameters(format!(
                "store {} was built with --min-empties {e}, not {}: use the same threshold or another store",
                store.path().display(),
                opts.min_empties
            )))
        }
        Some(_) => {}
        None => store.put_meta(META_MIN_EMPTIES, opts.min_empties.to_string().as_bytes())?,
    }
    let mut run = Run::new(store, opts, progress)?;
    let root = Board::start();
    let value = run.exact(root, kind::P, None, 0)?;
    run.commit()?;
    store.put_meta(META_ROOT_VALUE, value.to_string().as_bytes())?;
    let best_move = store.get(&root)?.and_then(|r| r.best_move);
    run.stats.elapsed = run.start.elapsed();
    Ok(SemiOutcome { value, best_move, stats: run.stats })
}

/// One run: the tree walk, the pending batch, the endgame solver.
pub(crate) struct Run<'a> {
    store: &'a Store,
    opts: &'a SemiOptions,
    size: BoardSize,
    variant: Variant,
    solver: SolveOptions,
    /// Records not committed yet, canonical board and orientation, in post-order.
    pending: Vec<(Board, Record)>,
    /// The same, merged per position, for lookups.
    pending_map: HashMap<Board, Record>,
    last_commit: Instant,
    start: Instant,
    stats: SemiStats,
    progress: &'a mut dyn FnMut(&SemiStats),
    /// The solver's proven bounds kept in the store, when on.
    knowledge: Option<Arc<StoreKnowledge>>,
}

impl<'a> Run<'a> {
    pub(crate) fn new(
        store: &'a Store,
        opts: &'a SemiOptions,
        progress: &'a mut dyn FnMut(&SemiStats),
    ) -> Result<Run<'a>, SemiError> {
        let mut solver = SolveOptions::try_new(opts.hash_mb).map_err(|e| SemiError::Parameters(e.to_string()))?;
        solver.threads = opts.threads.max(1);
        solver.progress = opts.solver_nodes.clone();
        let knowledge = (opts.solve_bounds_min_nodes > 0).then(|| {
            Arc::new(StoreKnowledge::new(
                store.share(),
                (opts.min_empties + 1).max(opts.solve_bounds_min_empties),
                opts.solve_bounds_min_nodes,
                opts.commit_every,
            ))
        });
        solver.knowledge = knowledge.clone().map(|k| k as Arc<dyn Knowledge>);
        let squares = store.size().squares() as usize + 1;
        Ok(Run {
            store,
            opts,
            size: store.size(),
            variant: store.variant(),
            solver,
            pending: Vec::new(),
            pending_map: HashMap::new(),
            last_commit: Instant::now(),
            start: Instant::now(),
            stats: SemiStats {
                new_exact: vec![0; squares],
                bounds: vec![0; squares],
                subtrees: vec![[0; 3]; squares],
                subtree_secs: vec![[0.0; 3]; squares],
                ..SemiStats::default()
            },
            progress,
            knowledge,
        })
    }

    fn position(&self, b: Board) -> Position {
        Position { board: b, side: Color::Black, size: self.size, variant: self.variant }
    }

    /// Exact value and a best move of `b` by narrow-window solves starting at `guess`
    /// (one solve when the guess is right).
    fn solve_exact(&mut self, b: Board, guess: i32) -> (i32, Option<Square>) {
        let pos = self.position(b);
        let (v, m, nodes) = crate::exact::exact_value_from(&pos, &mut self.solver, guess);
        self.stats.solves += 1;
        self.stats.solver_nodes += nodes;
        (v, m)
    }

    /// Endgame solve of `b` within `window` (inclusive values of interest).
    fn solve(&mut self, b: Board, window: Window) -> (i32, i32, Option<Square>) {
        self.solver.window = window;
        let r = solve(&self.position(b), &self.solver);
        self.stats.solves += 1;
        self.stats.solver_nodes += r.nodes;
        (r.lower, r.upper, r.best_move)
    }

    /// What is known of `b`: the store merged with the pending batch, in `b`'s orientation.
    fn lookup(&self, b: &Board) -> Result<Option<Record>, SemiError> {
        let (c, k) = b.canonical_with_symmetry();
        let stored = self.store.get(&c)?;
        let merged =
            match (stored, self.pending_map.get(&c)) {
                (s, None) => s,
                (None, Some(p)) => Some(*p),
                (Some(s), Some(p)) => Some(s.merged(p).ok_or_else(|| {
                    SemiError::Internal(format!("pending record {p} contradicts stored {s} for {c:?}"))
                })?),
            };
        Ok(merged.map(|r| from_canonical(r, k)))
    }

    /// Adds a record (in `b`'s orientation) to the batch; commits when due.
    fn record(&mut self, b: &Board, rec: Record, new_position: bool) -> Result<(), SemiError> {
        let (c, k) = b.canonical_with_symmetry();
        let rec = crate::store::to_canonical(rec, k);
        let merged = match self.pending_map.get(&c) {
            None => rec,
            Some(p) => p
                .merged(&rec)
                .ok_or_else(|| SemiError::Internal(format!("record {rec} contradicts pending {p} for {c:?}")))?,
        };
        self.pending_map.insert(c, merged);
        self.pending.push((c, rec));
        let discs = (b.player | b.opponent).count_ones() as usize;
        if rec.is_exact() {
            if new_position {
                self.stats.new_exact[discs] += 1;
            }
        } else {
            self.stats.bounds[discs] += 1;
        }
        if self.last_commit.elapsed() >= self.opts.commit_every || self.opts.stop.load(Ordering::Relaxed) {
            self.commit()?;
            if self.opts.stop.load(Ordering::Relaxed) {
                return Err(SemiError::Stopped);
            }
        }
        Ok(())
    }

    /// Writes the pending batch in one durable transaction.
    pub(crate) fn commit(&mut self) -> Result<(), SemiError> {
        if let Some(k) = &self.knowledge {
            k.flush();
            if let Some(e) = k.take_error() {
                return Err(e.into());
            }
            self.stats.solve_bounds_written = k.written();
            self.stats.solve_bounds_used = k.used();
        }
        if !self.pending.is_empty() {
            self.store.put_batch(&self.pending)?;
            self.pending.clear();
            self.pending_map.clear();
            self.stats.commits += 1;
        }
        self.last_commit = Instant::now();
        self.stats.elapsed = self.start.elapsed();
        (self.progress)(&self.stats);
        if self.opts.stop_after_commits.is_some_and(|n| self.stats.commits >= n) {
            return Err(SemiError::Stopped);
        }
        Ok(())
    }

    /// Exact value of `b` (its side to move can move) searched as kind `k` (P, A' or P').
    /// `hint` is the value when a caller already knows it (an oracle solve of the
    /// parent): positions at or below the threshold then need no solve, children at
    /// or below it are skipped once the known value is reached (none can exceed it),
    /// and the oracle solve is a single window at the value. `guess` is an estimate of
    /// the value (it only steers the cost of solves, never a result).
    pub(crate) fn exact(&mut self, b: Board, k: u8, hint: Option<i32>, guess: i32) -> Result<i32, SemiError> {
        let empties = b.empties(self.size);
        if empties <= self.opts.min_empties {
            if let Some(h) = hint {
                return Ok(h);
            }
            return Ok(self.solve_exact(b, guess).0);
        }
        let known = self.lookup(&b)?;
        let known_exact = known.filter(|r| r.is_exact());
        if let Some(r) = known_exact {
            if may_reuse(r.kinds, k) {
                self.stats.reused += 1;
                return Ok(r.lower as i32);
            }
        }
        self.stats.expanded += 1;
        let began = Instant::now();
        let moves = b.moves(self.size);
        let discs = (b.player | b.opponent).count_ones() as usize;
        self.stats.path.push(PathStep { discs: discs as u8, kind: k, child: 0, children: moves.count_ones() as u8 });
        let mut proven = hint.or(known_exact.map(|r| r.lower as i32));
        // The designated move first: the stored one, else the endgame solver's (whose
        // result is recorded at once, without kinds, so a restart need not solve again).
        let (first, first_is_best) = match known_exact.and_then(|r| r.best_move) {
            Some(m) => (m, true),
            None if k == kind::P_PRIME => (Square::iter(moves).next().expect("a position has a move"), false),
            None => {
                let (lo, m) = self.oracle(b, proven.unwrap_or(guess))?;
                let m = m.ok_or_else(|| SemiError::Internal(format!("the solver gave no best move for {b:?}")))?;
                if let Some(p) = proven.filter(|&p| p != lo) {
                    return Err(SemiError::Internal(format!("{b:?}: solver gave {lo}, known {p}")));
                }
                proven = Some(lo);
                self.record(&b, Record::exact(lo as i8, 0, Some(m)), false)?;
                (m, true)
            }
        };
        if moves & first.bit() == 0 {
            return Err(SemiError::Internal(format!("designated move {first} is illegal in {b:?}")));
        }
        let first_hint = if first_is_best { proven } else { None };
        let first_guess = proven.unwrap_or(guess);
        self.step_path();
        let mut best = self.child_exact(&b, first, first_child_kind(k), first_hint, first_guess)?;
        let mut best_move = first;
        for sq in Square::iter(moves & !first.bit()) {
            self.step_path();
            if proven == Some(best) && self.at_or_below_threshold(&b, sq) {
                continue; // cannot be better than the proven value, and is not stored
            }
            // Guesses: a sibling is at most as good as the best so far and often equal;
            // a fail-high is at least its proven bound.
            let v = if k == kind::A_PRIME {
                let Some(lower) = self.child_fails_high(&b, sq, best)? else {
                    continue;
                };
                self.child_exact(&b, sq, kind::P_PRIME, None, lower)?
            } else {
                self.child_exact(&b, sq, other_child_kind(k), None, best)?
            };
            if v > best {
                best = v;
                best_move = sq;
            }
        }
        if let Some(e) = proven.filter(|&e| e != best) {
            return Err(SemiError::Internal(format!("{b:?} searched as {k}: value {best}, expected {e}")));
        }
        let new_position = known_exact.is_none_or(|r| r.kinds & EXACT_KINDS == 0);
        self.stats.path.pop();
        self.stats.subtrees[discs][kind_index(k)] += 1;
        self.stats.subtree_secs[discs][kind_index(k)] += began.elapsed().as_secs_f64();
        self.record(&b, Record::exact(best as i8, k, Some(best_move)), new_position)?;
        Ok(best)
    }

    /// Moves the innermost node of the path on to its next child.
    fn step_path(&mut self) {
        if let Some(last) = self.stats.path.last_mut() {
            last.child += 1;
        }
    }

    /// True when playing `sq` in `b` ends the game or reaches a position that is not
    /// stored (at or below the threshold).
    fn at_or_below_threshold(&self, b: &Board, sq: Square) -> bool {
        match play(b, sq, self.size, self.variant) {
            Next::End(_) => true,
            Next::Position { board, .. } => board.empties(self.size) <= self.opts.min_empties,
        }
    }

    /// Exact value, for the side to move in `b`, of playing `sq` there, the reached
    /// position searched as kind `ck` (folded passes step the kind); `hint` is the value
    /// if already known, `guess` an estimate (both for the side to move in `b`).
    fn child_exact(&mut self, b: &Board, sq: Square, ck: u8, hint: Option<i32>, guess: i32) -> Result<i32, SemiError> {
        match play(b, sq, self.size, self.variant) {
            Next::End(v) => Ok(v),
            Next::Position { board, negate } => {
                let sign = if negate { -1 } else { 1 };
                let v = self.exact(board, kind_after(ck, negate), hint.map(|h| sign * h), sign * guess)?;
                Ok(sign * v)
            }
        }
    }

    /// The null-window test of a non-first child of an A' node: is playing `sq` better
    /// than `best` (for the side to move in `b`)? `Some(lower)` (a proven lower bound
    /// above `best`) when it is. Stored bounds answer it when they can (C and A
    /// searches may use any sound bound); else the endgame solver does, and the bound
    /// it proves is recorded (kind C, or A after a folded pass).
    fn child_fails_high(&mut self, b: &Board, sq: Square, best: i32) -> Result<Option<i32>, SemiError> {
        if best >= self.size.squares() as i32 {
            return Ok(None);
        }
        let (q, negate) = match play(b, sq, self.size, self.variant) {
            Next::End(v) => return Ok((v > best).then_some(v)),
            Next::Position { board, negate } => (board, negate),
        };
        // Bounds of the move's value for b's mover, from q's (lo, hi).
        let mover = |lo: i32, hi: i32| if negate { (-hi, -lo) } else { (lo, hi) };
        if let Some(r) = self.lookup(&q)? {
            let (lo, hi) = mover(r.lower as i32, r.upper as i32);
            if lo > best {
                return Ok(Some(lo));
            }
            if hi <= best {
                self.stats.reused += 1;
                return Ok(None);
            }
        }
        // Is the move's value >= best + 1? For q: value <= -best - 1 (negate) or >= best + 1.
        let edge = if negate { -best - 1 } else { best + 1 };
        let (lo, hi, m) = self.solve(q, Window { lo: edge, hi: edge });
        if q.empties(self.size) > self.opts.min_empties {
            let qk = kind_after(kind::C, negate);
            let best_move = if lo == hi { m } else { None };
            self.record(&q, Record { lower: lo as i8, upper: hi as i8, kinds: qk, best_move }, false)?;
        }
        let (lo, _) = mover(lo, hi);
        Ok((lo > best).then_some(lo))
    }
}

mod oracle;
#[cfg(test)]
mod tests;
