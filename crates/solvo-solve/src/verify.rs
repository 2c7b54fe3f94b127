//! Consistency check of a semi-strong store, layer by layer (disc count by disc count).
//!
//! For every record, with its children found through the store (positions with
//! `min_empties` or fewer empties are solved on demand where a check needs them):
//! - a P, A' or P' record is exact, its position has a legal move and more than
//!   `min_empties` empties, and its designated best move is legal;
//! - P: the designated child is a P record (or on-demand solve) of equal value; every
//!   other child is exact (A' or better) and not better;
//! - A': the designated child is a P' record of equal value; every other child's stored
//!   bound proves it is not better;
//! - P': every child is an exact A' (or P) record and the best of them equals the value;
//! - every record's bounds overlap the bounds its stored children imply.

use crate::reopening::{first_child_kind, kind_after, may_reuse, other_child_kind, play, Next};
use crate::store::{kind, Record, Store, StoreError};
use solvo_othello::{Board, Color, Position, Square};
use solvo_othello_search::{solve, SolveOptions, Window};

/// What [`verify_store`] found.
#[derive(Clone, Debug, Default)]
pub struct VerifyReport {
    /// Records per disc count.
    pub records: Vec<u64>,
    /// Records per disc count whose value is exact (lower = upper), whatever wrote them
    /// (semi-strong P, A', P' records, or strong-solve records).
    pub exact: Vec<u64>,
    /// Violations per disc count.
    pub violations: Vec<u64>,
    /// The first violations, described (at most `max_reported`).
    pub first: Vec<String>,
    /// Children solved on demand.
    pub solved: u64,
    /// Records checked so far (all layers).
    pub checked: u64,
}

impl VerifyReport {
    /// Total violations.
    pub fn total_violations(&self) -> u64 {
        self.violations.iter().sum()
    }
}

/// What is known about a move's value for the side that plays it.
#[derive(Clone, Copy, Debug)]
struct Child {
    lo: i32,
    hi: i32,
    /// The record of the reached position (None for a finished game, a position below
    /// the threshold, or a missing record).
    rec: Option<Record>,
    /// The kind the reached position has when the move's own kind is `k` (folded passes).
    negate: bool,
    below: bool,
    board: Option<Board>,
}

struct Checker<'a> {
    store: &'a Store,
    min_empties: u32,
    opts: SolveOptions,
    report: VerifyReport,
    max_reported: usize,
}

impl Checker<'_> {
    fn child(&self, b: &Board, sq: Square) -> Result<Child, StoreError> {
        let max = self.store.size().squares() as i32;
        match play(b, sq, self.store.size(), self.store.variant()) {
            Next::End(v) => Ok(Child { lo: v, hi: v, rec: None, negate: true, below: false, board: None }),
            Next::Position { board, negate } => {
                let below = board.empties(self.store.size()) <= self.min_empties;
                let rec = if below { None } else { self.store.get(&board)? };
                let (lo, hi) = rec.map_or((-max, max), |r| (r.lower as i32, r.upper as i32));
                let (lo, hi) = if negate { (-hi, -lo) } else { (lo, hi) };
                Ok(Child { lo, hi, rec, negate, below, board: Some(board) })
            }
        }
    }

    fn position(&self, c: &Child) -> Position {
        let b = c.board.expect("only positions are solved");
        Position { board: b, side: Color::Black, size: self.store.size(), variant: self.store.variant() }
    }

    /// Exact value of a child below the threshold, for the mover; `guess` (the value the
    /// check expects) only makes it cheaper when right.
    fn solve_child(&mut self, c: &Child, guess: i32) -> i32 {
        let pos = self.position(c);
        self.report.solved += 1;
        let sign = if c.negate { -1 } else { 1 };
        sign * crate::exact::exact_value_from(&pos, &mut self.opts, sign * guess).0
    }

    /// Whether a child below the threshold is worth at most `value` to the mover: one
    /// narrow solve around `value` (a bound is enough).
    fn child_at_most(&mut self, c: &Child, value: i32) -> bool {
        let pos = self.position(c);
        self.report.solved += 1;
        let t = if c.negate { -value } else { value };
        self.opts.window = Window { lo: t, hi: t };
        let r = solve(&pos, &self.opts);
        if c.negate {
            r.lower >= t
        } else {
            r.upper <= t
        }
    }

    fn violation(&mut self, discs: usize, msg: String) {
        self.report.violations[discs] += 1;
        if self.report.first.len() < self.max_reported {
            self.report.first.push(msg);
        }
    }

    /// Exact value of a child searched as `ck` (`guess`: the value expected), or a
    /// description of what is wrong.
    fn exact_child(&mut self, c: &Child, ck: u8, guess: i32) -> Result<i32, String> {
        if c.board.is_none() {
            return Ok(c.lo);
        }
        if c.below {
            return Ok(self.solve_child(c, guess));
        }
        let want = kind_after(ck, c.negate);
        match c.rec {
            None => Err(format!("child missing (should be {})", kind::names(want))),
            Some(r) if !r.is_exact() => Err(format!("child not exact ({r})")),
            Some(r) if !may_reuse(r.kinds, want) => Err(format!("child is {} not {}", r, kind::names(want))),
            Some(_) => Ok(c.lo),
        }
    }

    fn check(&mut self, b: Board, r: Record) -> Result<(), StoreError> {
        let size = self.store.size();
        let discs = (b.player | b.opponent).count_ones() as usize;
        let here = format!("{:016x}/{:016x} ({} discs, {r})", b.player, b.opponent, discs);
        let moves = b.moves(size);
        let exact_kinds = r.kinds & (kind::P | kind::A_PRIME | kind::P_PRIME);
        let children: Vec<(Square, Child)> =
            Square::iter(moves).map(|sq| Ok((sq, self.child(&b, sq)?))).collect::<Result<_, StoreError>>()?;
        // Bounds implied by stored children.
        if !children.is_empty() {
            let lo = children.iter().map(|(_, c)| c.lo).max().unwrap_or(0);
            let hi = children.iter().map(|(_, c)| c.hi).max().unwrap_or(0);
            if (r.lower as i32) > hi || (r.upper as i32) < lo {
                self.violation(discs, format!("{here}: bounds contradict children [{lo}, {hi}]"));
            }
        }
        if r.is_exact() {
            self.report.exact[discs] += 1;
        }
        if exact_kinds == 0 {
            return Ok(());
        }
        if moves == 0 || b.empties(size) <= self.min_empties {
            self.violation(discs, format!("{here}: not a stored position (no move, or too few empties)"));
            return Ok(());
        }
        let (value, designated) = match (r.value(), r.best_move) {
            (Some(v), Some(m)) if moves & m.bit() != 0 => (v as i32, m),
            _ => {
                self.violation(discs, format!("{here}: not exact or no legal designated move"));
                return Ok(());
            }
        };
        let first = children.iter().find(|(sq, _)| *sq == designated).map(|(_, c)| *c).expect("legal");
        for k in [kind::P, kind::A_PRIME, kind::P_PRIME] {
            if r.kinds & k == 0 {
                continue;
            }
            let name = kind::names(k);
            match self.exact_child(&first, first_child_kind(k), value) {
                Ok(v) if v == value => {}
                Ok(v) => self.violation(discs, format!("{here}: as {name}, designated move {designated} gives {v}")),
                Err(e) => self.violation(discs, format!("{here}: as {name}, designated move {designated}: {e}")),
            }
            for (sq, c) in children.iter().filter(|(sq, _)| *sq != designated) {
                if k == kind::A_PRIME {
                    if c.hi > value && !c.below {
                        self.violation(
                            discs,
                            format!("{here}: as A', move {sq} not proven worse (bound {}..{})", c.lo, c.hi),
                        );
                    }
                    continue;
                }
                if c.below {
                    if !self.child_at_most(c, value) {
                        self.violation(discs, format!("{here}: as {name}, move {sq} is better than the value"));
                    }
                    continue;
                }
                match self.exact_child(c, other_child_kind(k), value) {
                    Ok(v) if v <= value => {}
                    Ok(v) => self.violation(discs, format!("{here}: as {name}, move {sq} gives {v} > value")),
                    Err(e) => self.violation(discs, format!("{here}: as {name}, move {sq}: {e}")),
                }
            }
        }
        Ok(())
    }
}

/// Checks every record of `store` (built with threshold `min_empties`), layer by layer
/// from the fewest discs; reports counts and at most `max_reported` violations. Children
/// below the threshold are solved with one search thread.
pub fn verify_store(store: &Store, min_empties: u32, max_reported: usize) -> Result<VerifyReport, StoreError> {
    verify_store_with(store, min_empties, max_reported, SolveOptions::new(64), &mut |_, _, _| {})
}

/// [`verify_store`] solving the children below the threshold with `solver` (threads,
/// table size), calling `progress(discs, report so far, layer finished)` after each
/// disc count, and at least every second while a layer is being checked.
pub fn verify_store_with(
    store: &Store,
    min_empties: u32,
    max_reported: usize,
    solver: SolveOptions,
    progress: &mut dyn FnMut(usize, &VerifyReport, bool),
) -> Result<VerifyReport, StoreError> {
    let n = store.size().squares() as usize + 1;
    let mut layers: Vec<Vec<(Board, Record)>> = vec![Vec::new(); n];
    store.for_each(|b, r| {
        layers[(b.player | b.opponent).count_ones() as usize].push((b, r));
        Ok(())
    })?;
    let mut c = Checker {
        store,
        min_empties,
        opts: solver,
        report: VerifyReport { records: vec![0; n], exact: vec![0; n], violations: vec![0; n], ..Default::default() },
        max_reported,
    };
    for (discs, layer) in layers.into_iter().enumerate() {
        c.report.records[discs] = layer.len() as u64;
        let any = !layer.is_empty();
        let mut last = std::time::Instant::now();
        for (b, r) in layer {
            c.check(b, r)?;
            c.report.checked += 1;
            if last.elapsed() >= std::time::Duration::from_secs(1) {
                progress(discs, &c.report, false);
                last = std::time::Instant::now();
            }
        }
        if any {
            progress(discs, &c.report, true);
        }
    }
    Ok(c.report)
}
