//! Counting the unique positions plain alpha-beta and reopening alpha-beta visit, per
//! disc count, in memory (no store), for the comparison table of the semi-strong
//! report.
//!
//! Both searches are written here with their own recursion down to the threshold, so
//! C and A nodes are counted like the others: positions with more than `min_empties`
//! empties are counted when a search enters them (each canonical position once);
//! positions at or below the threshold are answered by the exact endgame solver and
//! not counted. Plain alpha-beta is principal variation search: P -> first child P,
//! others C with a null window, re-searched as P when they fail high; C -> A; A -> C.
//!
//! Oracle ordering, as in the published experiment: a P or A' node searches a best
//! move first (an exact solve, or the designated move of a solved store); a C node
//! searches first a move that fails high on its null window (a null-window solve,
//! much cheaper than an exact one; the best move when it is known anyway); A and P'
//! nodes search every child with the same window, so their order cannot change which
//! positions are visited and they take the moves as they come. Both searches use a
//! transposition table obeying the kind rules of [`crate::reopening::may_reuse`].

use crate::reopening::{first_child_kind, kind_after, may_reuse, other_child_kind, play, Next};
use crate::store::kind;
use solvo_othello::{Board, BoardSize, Color, Position, Square, Variant};
use solvo_othello_search::{solve, SolveOptions, Window};
use std::collections::{HashMap, HashSet};

mod checkpoint;
mod journal;
mod program;
pub mod published;
mod stages;
pub use journal::{Fact, Journal};
pub use program::Snapshot;
pub use stages::{
    count_layers, count_published_on_disk, run_stage, DiskCounts, DiskRun, LayerCount, SnapshotReport, StageProgress,
};

/// An I/O error as a message naming the file or directory `what` (the stage runs' and
/// checkpoints' errors).
fn io_err(what: &std::path::Path) -> impl Fn(std::io::Error) -> String + '_ {
    move |e| format!("{}: {e}", what.display())
}

/// Larger than any score of any board.
const SCORE_MAX: i32 = 64;

/// Visited unique positions per disc count (index = discs).
pub type Counts = Vec<u64>;

/// What the counting runs know about positions (all keyed by canonical board, moves in
/// canonical orientation), shared between runs so that plain and reopening alpha-beta
/// ask the exact solver once per question; it may be seeded from a semi-strong store.
#[derive(Default)]
pub struct Oracle {
    /// Exact value and a best move.
    exact: HashMap<Board, (i32, Square)>,
    /// Moves with the proven lower bound each gives the position, in the order learned
    /// (the first one good enough is used, so reruns choose as the first run did).
    cuts: HashMap<Board, Vec<(Square, i32)>>,
    /// Proven (lower, upper) bounds of positions at the threshold.
    bounds: HashMap<Board, (i32, i32)>,
    /// Exact solves made to find best moves (P and A' nodes not known beforehand).
    pub solves: u64,
    /// Null-window solves made to find a cutting move of a C node.
    pub cut_solves: u64,
    /// Endgame solves of positions at the threshold (not counted positions).
    pub leaf_solves: u64,
    /// Where learned facts are appended (see [`Oracle::attach_journal`]).
    journal: Option<Journal>,
    /// The first error writing the journal (the journal is then dropped; the counts
    /// stay right, only the saving stops).
    pub journal_error: Option<String>,
}

impl Oracle {
    /// Adds every record of `store` (of the oracle's size and variant): exact records
    /// with a best move as known values, the others as bounds.
    pub fn seed_from(&mut self, store: &crate::store::Store) -> Result<(), crate::store::StoreError> {
        store.for_each(|board, r| {
            match (r.is_exact(), r.best_move) {
                (true, Some(m)) => self.insert(board, i32::from(r.lower), m),
                _ => self.insert_bounds(board, i32::from(r.lower), i32::from(r.upper), r.best_move),
            }
            Ok(())
        })
    }

    /// Records that the canonical board `canonical` has the exact `value` and that
    /// `best` (canonical orientation) is a best move. The caller guarantees both (e.g.
    /// an exact store record with its designated move).
    pub fn insert(&mut self, canonical: Board, value: i32, best: Square) {
        self.exact.insert(canonical, (value, best));
    }

    /// Records proven bounds of the canonical board (e.g. a C or A store record) and,
    /// when given, a move proving the lower bound.
    pub fn insert_bounds(&mut self, canonical: Board, lower: i32, upper: i32, proving: Option<Square>) {
        let e = self.bounds.entry(canonical).or_insert((lower, upper));
        *e = (e.0.max(lower), e.1.min(upper));
        if let Some(m) = proving {
            self.cuts.entry(canonical).or_default().push((m, lower));
        }
    }

    /// Loads the journal at `path` (created if missing) and appends every fact learned
    /// from now on to it. Returns the number of facts loaded. Errors name the file.
    pub fn attach_journal(&mut self, path: &std::path::Path, size: BoardSize, variant: Variant) -> Result<u64, String> {
        let (j, n) = Journal::open(path, size, variant, self)?;
        self.journal = Some(j);
        Ok(n)
    }

    /// Takes in a fact (without journaling it).
    fn learn(&mut self, fact: Fact) {
        match fact {
            Fact::Exact(b, v, m) => self.insert(b, v, m),
            Fact::Cut(b, m, lo) => self.cuts.entry(b).or_default().push((m, lo)),
            Fact::Bounds(b, lo, hi) => self.insert_bounds(b, lo, hi, None),
        }
    }

    /// Takes in a fact learned by a solve and appends it to the journal.
    fn record(&mut self, fact: Fact) {
        self.learn(fact);
        if let Some(j) = &mut self.journal {
            if let Err(e) = j.append(fact) {
                self.journal_error = Some(e.to_string());
                self.journal = None;
            }
        }
    }

    /// Number of positions whose exact value and best move are known.
    pub fn len(&self) -> usize {
        self.exact.len()
    }

    /// True when no exact value is known yet.
    pub fn is_empty(&self) -> bool {
        self.exact.is_empty()
    }
}

/// Counts the positions plain alpha-beta (`reopening == false`) or reopening alpha-beta
/// visits from the start of `size`, above `min_empties`. Returns the counts and the
/// start's value.
pub fn count_visited(size: BoardSize, variant: Variant, min_empties: u32, reopening: bool) -> (Counts, i32) {
    count_visited_with(size, variant, min_empties, reopening, &mut Oracle::default(), &mut |_, _| {})
}

/// [`count_visited`] with a shared `oracle` and a `progress` callback, called every few
/// seconds with (positions visited so far, oracle solves so far).
pub fn count_visited_with(
    size: BoardSize,
    variant: Variant,
    min_empties: u32,
    reopening: bool,
    oracle: &mut Oracle,
    progress: &mut dyn FnMut(u64, u64),
) -> (Counts, i32) {
    let mut s = Counter {
        size,
        variant,
        min_empties,
        reopening,
        tt: HashMap::new(),
        visited: HashSet::new(),
        oracle,
        solver: SolveOptions::new(if size == BoardSize::Four { 16 } else { 512 }),
        progress,
        last_report: std::time::Instant::now(),
    };
    let max = size.squares() as i32;
    let v = s.search(Board::start(), -max - 1, max + 1, kind::P);
    let mut counts = vec![0; size.squares() as usize + 1];
    for b in &s.visited {
        counts[(b.player | b.opponent).count_ones() as usize] += 1;
    }
    (counts, v)
}

struct Counter<'a> {
    size: BoardSize,
    variant: Variant,
    min_empties: u32,
    reopening: bool,
    /// Canonical board -> (lower, upper, kinds searched as).
    tt: HashMap<Board, (i32, i32, u8)>,
    visited: HashSet<Board>,
    oracle: &'a mut Oracle,
    solver: SolveOptions,
    progress: &'a mut dyn FnMut(u64, u64),
    last_report: std::time::Instant,
}

impl Counter<'_> {
    fn endgame(&mut self, b: Board, alpha: i32, beta: i32) -> (i32, i32, Option<Square>) {
        self.solver.window = Window { lo: alpha + 1, hi: beta - 1 };
        let pos = Position { board: b, side: Color::Black, size: self.size, variant: self.variant };
        let r = solve(&pos, &self.solver);
        (r.lower, r.upper, r.best_move)
    }

    /// Value of `b`, a position at the threshold, clamped to `[alpha, beta]` (fail-hard:
    /// the answer depends only on the value and the window, not on what happens to be
    /// known, so a rerun with a fuller journal visits the same positions); from what is
    /// known, else by the endgame solver (and remembered).
    fn leaf(&mut self, b: Board, alpha: i32, beta: i32) -> i32 {
        let c = b.canonical();
        let (mut lo, mut hi) = match (self.oracle.exact.get(&c), self.oracle.bounds.get(&c)) {
            (Some(&(v, _)), _) => (v, v),
            (None, Some(&bounds)) => bounds,
            (None, None) => (-SCORE_MAX, SCORE_MAX),
        };
        if lo < beta && hi > alpha && lo != hi {
            let (l, h, m) = self.endgame(c, alpha, beta);
            self.oracle.leaf_solves += 1;
            self.tick();
            self.learned(c, l, h, m, beta);
            (lo, hi) = (l, h);
        }
        if lo >= beta {
            beta
        } else if hi <= alpha {
            alpha
        } else {
            lo
        }
    }

    /// Calls the progress callback when a few seconds have passed since the last call.
    fn tick(&mut self) {
        if self.last_report.elapsed().as_secs() >= 5 {
            self.last_report = std::time::Instant::now();
            (self.progress)(self.visited.len() as u64, self.oracle.solves + self.oracle.cut_solves);
        }
    }

    /// Maps a move of the canonical orientation back to `b`'s orientation `k`.
    fn uncanonical(m: Square, k: u8) -> Square {
        let bit = solvo_othello::symmetry::inverse_transform(m.bit(), k);
        Square::from_index(bit.trailing_zeros())
    }

    /// A best move of `b` (known, or by an exact solve, remembered).
    fn best_move(&mut self, b: Board) -> Square {
        let (c, k) = b.canonical_with_symmetry();
        let m = match self.oracle.exact.get(&c) {
            Some(&(_, m)) => m,
            None => {
                let pos = Position { board: c, side: Color::Black, size: self.size, variant: self.variant };
                // One full-window solve: no guess of the value is at hand here, and a
                // wrong guess costs narrow re-searches.
                self.solver.window = Window::FULL;
                let r = solve(&pos, &self.solver);
                let m = r.best_move.expect("a position has a move");
                self.oracle.record(Fact::Exact(c, r.lower, m));
                self.oracle.solves += 1;
                self.tick();
                m
            }
        };
        Self::uncanonical(m, k)
    }

    /// A move of `b` whose value is at least `beta` (the best move when known, else
    /// a remembered cutting move, else by a null-window solve), or `None` when `b`'s
    /// value is below `beta` (then no move cuts and every one gets searched).
    fn cut_move(&mut self, b: Board, beta: i32) -> Option<Square> {
        let (c, k) = b.canonical_with_symmetry();
        // The first cutting move learned comes first, so that a rerun with a fuller
        // journal makes the same choices as the run that learned it.
        if let Some(&(m, _)) = self.oracle.cuts.get(&c).and_then(|l| l.iter().find(|&&(_, lo)| lo >= beta)) {
            return Some(Self::uncanonical(m, k));
        }
        if let Some(&(v, m)) = self.oracle.exact.get(&c) {
            return (v >= beta).then(|| Self::uncanonical(m, k));
        }
        if let Some(&(_, hi)) = self.oracle.bounds.get(&c) {
            if hi < beta {
                return None;
            }
        }
        let (lo, hi, m) = self.endgame(c, beta - 1, beta);
        self.oracle.cut_solves += 1;
        self.tick();
        self.learned(c, lo, hi, m, beta);
        match m {
            Some(m) if lo >= beta => Some(Self::uncanonical(m, k)),
            _ => None,
        }
    }

    /// Records what a solve of the canonical `c` with upper window edge `beta` proved:
    /// with the move it names, an exact value, or when it failed high a cutting move;
    /// else bounds.
    fn learned(&mut self, c: Board, lo: i32, hi: i32, m: Option<Square>, beta: i32) {
        match m {
            Some(m) if lo == hi => self.oracle.record(Fact::Exact(c, lo, m)),
            Some(m) if lo >= beta => {
                self.oracle.record(Fact::Cut(c, m, lo));
                self.oracle.record(Fact::Bounds(c, lo, hi));
            }
            _ => self.oracle.record(Fact::Bounds(c, lo, hi)),
        }
    }

    /// Fail-soft value of `b` in `(alpha, beta)` searched as kind `k`.
    fn search(&mut self, b: Board, alpha: i32, beta: i32, k: u8) -> i32 {
        let max = self.size.squares() as i32;
        if b.empties(self.size) <= self.min_empties {
            return self.leaf(b, alpha, beta);
        }
        let c = b.canonical();
        self.visited.insert(c);
        let exact_kind = k & (kind::P | kind::A_PRIME | kind::P_PRIME) != 0;
        if let Some(&(lo, hi, kinds)) = self.tt.get(&c) {
            if lo == hi && may_reuse(kinds, k) {
                return lo;
            }
            if !exact_kind {
                if lo >= beta {
                    return lo;
                }
                if hi <= alpha {
                    return hi;
                }
            }
        }
        let (alpha, beta) =
            if exact_kind && (self.reopening || k == kind::P) { (-max - 1, max + 1) } else { (alpha, beta) };
        let first = match k {
            kind::P | kind::A_PRIME => Some(self.best_move(b)),
            kind::C => self.cut_move(b, beta),
            _ => None,
        };
        let moves = b.moves(self.size);
        let first_bit = first.map_or(0, |m| m.bit());
        let mut best = -max - 1;
        let mut a = alpha;
        for (i, sq) in first.into_iter().chain(Square::iter(moves & !first_bit)).enumerate() {
            let ck = if i == 0 { first_child_kind(k) } else { other_child_kind(k) };
            let ck = if !self.reopening && k == kind::P && i > 0 { kind::C } else { ck };
            let v = match ck {
                kind::C | kind::A if exact_kind => {
                    // Null-window test around the best so far; re-search when it fails high.
                    let v = self.child(&b, sq, a, a + 1, ck);
                    if v > a && v < beta {
                        let again = if self.reopening { kind::P_PRIME } else { kind::P };
                        self.child(&b, sq, -max - 1, max + 1, again)
                    } else {
                        v
                    }
                }
                _ => self.child(&b, sq, a, beta, ck),
            };
            if v > best {
                best = v;
            }
            if best > a {
                a = best;
            }
            if a >= beta {
                break;
            }
        }
        let (lo, hi) = if best <= alpha {
            (-max, best)
        } else if best >= beta {
            (best, max)
        } else {
            (best, best)
        };
        let e = self.tt.entry(c).or_insert((-max, max, 0));
        *e = (e.0.max(lo), e.1.min(hi), e.2 | if lo == hi { k } else { 0 });
        best
    }

    /// Value of playing `sq` in `b`, for the mover, in `(alpha, beta)`, the reached
    /// position searched as `ck`.
    fn child(&mut self, b: &Board, sq: Square, alpha: i32, beta: i32, ck: u8) -> i32 {
        match play(b, sq, self.size, self.variant) {
            Next::End(v) => v,
            Next::Position { board, negate: true } => -self.search(board, -beta, -alpha, ck),
            Next::Position { board, negate: false } => self.search(board, alpha, beta, kind_after(ck, false)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_by_four_counts() {
        let (plain, v) = count_visited(BoardSize::Four, Variant::Normal, 0, false);
        assert_eq!(v, -10);
        let (reop, v2) = count_visited(BoardSize::Four, Variant::Normal, 0, true);
        assert_eq!(v2, -10);
        let (p, r): (u64, u64) = (plain.iter().sum(), reop.iter().sum());
        assert!(p < r, "plain {p} reopening {r}");
        assert_eq!(plain[4], 1);
        assert_eq!(reop[5], 1);
    }
}
