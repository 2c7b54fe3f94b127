//! One stage program of the published 6x6 experiment (github
//! eukaryo/reopening-alphabeta-experiment, `reversi6x6-reopening-ab.cpp`), re-implemented
//! from its description so that the positions it visits are the published program's,
//! one for one. Written anew in solvo's terms; the rules are those of [`super`]'s text,
//! and these are the parts a count depends on:
//!
//! - **Two searches, two tables.** The *outer* search (plain or reopening alpha-beta
//!   with node kinds) visits the counted positions: those with fewer discs than
//!   [`Limits::outer_below`]; its table keeps per canonical position the intersection
//!   of its bounds and the kinds searched. Below that the *inner* search (a fail-soft
//!   principal variation search with its own table, entries for positions with fewer
//!   discs than [`Limits::inner_below`], bounds intersected on every store) gives the
//!   values. The inner search also chooses the designated move of the outer A' and C
//!   nodes: a search of the node itself (full window, or the null window at `beta`)
//!   that first tries a wipe-out, then a child whose stored upper bound already proves
//!   the cut (first in square order), then its children in the key order; the move it
//!   returns is the one that cut, or the first best one.
//! - **The inner search** probes its table (an exact entry, or one deciding the window,
//!   answers) and a stability bound (`36 - 2 * opponent's stable discs`, tried when
//!   `beta` reaches `empties - 1` on a null window, `empties - 5` otherwise, never with
//!   3 or fewer empties), except at a line or choosing node; a node with a wipe-out
//!   returns 36; the first child gets the window, the others a null window and a
//!   re-search when they land inside it. At [`Limits::endgame_empties`] empties or fewer
//!   it hands over to a small solver over the empty squares in square order (squares
//!   with no opponent neighbour skipped, the stability bound, no table; its
//!   "first child" is the first empty square, legal or not).
//! - **Every node works on its canonical board** and values are fail-soft: a value
//!   outside the window is the bound the search happened to prove, and what is stored
//!   depends on everything searched before in the same program. Hence a count is only
//!   reproduced by running a program whole, in the same order, from the same start.

use super::checkpoint::Checkpoint;
use super::published::Restart;
use crate::store::kind;
use solvo_othello::symmetry::transform;
use solvo_othello::{Board, BoardSize, Position, Square, Variant};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};

/// The 8x8 squares around the 6x6 board.
pub(crate) const RING: u64 = 0xFF81_8181_8181_81FF;
/// The 6x6 squares.
const INNER: u64 = !RING;
/// The 6x6 corners (b2, g2, b7, g7), counted twice by the order's weighted counts.
const CORNERS6: u64 = (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54);

/// Square values of the published move order (8x8 grid, 6x6 in the centre).
#[rustfmt::skip]
const SQUARE_VALUE: [i64; 64] = [
    0,  0,  0,  0,  0,  0,  0, 0,
    0, 18,  4, 12, 12,  4, 18, 0,
    0,  4,  2,  8,  8,  2,  4, 0,
    0, 12,  8,  0,  0,  8, 12, 0,
    0, 12,  8,  0,  0,  8, 12, 0,
    0,  4,  2,  8,  8,  2,  4, 0,
    0, 18,  4, 12, 12,  4, 18, 0,
    0,  0,  0,  0,  0,  0,  0, 0,
];

/// The published P line (a perfect game of 6x6; a pass falls before `g3`).
pub const PUBLISHED_LINE: &str = "f5d6c5f4d3e3g4g5g6c4b4d2e6f6e2f2f3b6d7b5b7f7c6c7b3c3e7g7c2b2g3g2";

/// A multiply-shift hasher for boards (the tables hold millions of them).
#[derive(Default)]
pub(crate) struct BoardHasher(u64);

impl Hasher for BoardHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }
    fn write_u64(&mut self, x: u64) {
        let h = (self.0 ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = h ^ (h >> 29);
    }
}

/// A map keyed by boards with [`BoardHasher`].
pub(crate) type BoardMap<V> = HashMap<Board, V, BuildHasherDefault<BoardHasher>>;

fn weighted(v: u64) -> i64 {
    i64::from(v.count_ones() + (v & CORNERS6).count_ones())
}

/// The squares of `filled` (ring included) whose line along `shift` is filled from
/// ring to ring.
fn full_along(filled: u64, shift: u32) -> u64 {
    let (mut up, mut down) = (RING, RING);
    for _ in 0..6 {
        up = RING | (filled & (up >> shift));
        down = RING | (filled & (down << shift));
    }
    INNER & up & down
}

/// Stable discs of `p` (opponent `o`) as the published order and cut count them: the
/// off-board ring is stable; a disc is stable when in each of the four directions its
/// line is full or a neighbour on it is stable.
pub fn stable_count(p: u64, o: u64) -> i64 {
    let filled = p | o | RING;
    let shifts = [1u32, 8, 7, 9];
    let full = shifts.map(|s| full_along(filled, s));
    let mut stable = RING | (p & full[0] & full[1] & full[2] & full[3]);
    loop {
        let mut ok = p;
        for (i, &s) in shifts.iter().enumerate() {
            ok &= (stable >> s) | (stable << s) | full[i];
        }
        let next = stable | ok;
        if next == stable {
            break;
        }
        stable = next;
    }
    i64::from((stable & INNER).count_ones())
}

/// Empty 6x6 squares next to a disc of `x` (a 6x6 disc set).
fn potential(x: u64, empty: u64) -> u64 {
    ((x << 1) | (x >> 1) | (x << 8) | (x >> 8) | (x << 7) | (x >> 7) | (x << 9) | (x >> 9)) & empty
}

/// The published order key of the legal move `sq` of `b`: `2^30` for a wipe-out, else
/// `square value + 32 (36 - w(potential mobility)) + 2048 stable + 32768 (36 - w(mobility))`
/// of the position after the move (the opponent's mobility counted on the whole 8x8
/// grid, `w` counting the 6x6 corners twice).
pub fn order_key(b: &Board, sq: Square) -> i64 {
    let f = b.flips(sq);
    if f == b.opponent {
        return 1 << 30;
    }
    let next = b.play_with_flips(sq, f);
    let empty = !(next.player | next.opponent | RING);
    let pot = potential(next.opponent, empty);
    let mob = next.moves_masked(!0);
    SQUARE_VALUE[sq.index()]
        + (36 - weighted(pot)) * 32
        + stable_count(next.opponent, next.player) * 2048
        + (36 - weighted(mob)) * 32768
}

/// The published selection over a node's moves: each step takes the first move with
/// the largest key, moves the last move into its slot and leaves the key in place.
pub(crate) struct Order {
    moves: [u8; 36],
    keys: [i64; 36],
    n: usize,
}

impl Order {
    fn new() -> Order {
        Order { moves: [0; 36], keys: [0; 36], n: 0 }
    }

    fn push(&mut self, sq: u8, key: i64) {
        self.moves[self.n] = sq;
        self.keys[self.n] = key;
        self.n += 1;
    }
}

impl Iterator for Order {
    type Item = Square;

    fn next(&mut self) -> Option<Square> {
        if self.n == 0 {
            return None;
        }
        let mut best = 0;
        for i in 1..self.n {
            if self.keys[i] > self.keys[best] {
                best = i;
            }
        }
        let m = self.moves[best];
        self.n -= 1;
        self.moves[best] = self.moves[self.n];
        Some(Square::from_index(u32::from(m)))
    }
}

/// The order the published selection takes `moves` with `keys` ([`Order`]).
pub fn published_order(moves: &[Square], keys: &[i64]) -> Vec<Square> {
    let mut o = Order::new();
    for (m, &k) in moves.iter().zip(keys) {
        o.push(m.index() as u8, k);
    }
    o.collect()
}

/// The moves of canonical `b` in the published order, `first` (if any) first.
pub(crate) fn ordered_moves(b: &Board, first: Option<u8>) -> Order {
    let mut o = Order::new();
    for m in Square::iter(b.moves(BoardSize::Six)) {
        let sq = m.index() as u8;
        o.push(sq, if Some(sq) == first { 1 << 50 } else { order_key(b, m) });
    }
    o
}

fn discs(b: &Board) -> u32 {
    (b.player | b.opponent).count_ones()
}

/// The published program's symmetry number of `b` (bit 0 mirrors the files, bit 1 the
/// ranks, bit 2 then transposes; the first of the smallest images), as solvo's
/// [`transform`] number.
fn line_symmetry(b: &Board) -> u8 {
    let to_solvo = |k: u8| ((k & 1) << 1) | ((k & 2) >> 1) | (k & 4);
    let mut best = (*b, 0u8);
    for k in 1..8u8 {
        let s = to_solvo(k);
        let img = Board { player: transform(b.player, s), opponent: transform(b.opponent, s) };
        if img < best.0 {
            best = (img, s);
        }
    }
    best.1
}

/// The published line's move per disc count (index = discs), in the canonical
/// orientation of the line's position (the published program's symmetry choice).
pub fn line_moves() -> [u8; 37] {
    let mut out = [0xFF; 37];
    let mut pos = Position::start(BoardSize::Six, Variant::Normal);
    for i in 0..PUBLISHED_LINE.len() / 2 {
        let sq = Square::parse(&PUBLISHED_LINE[2 * i..2 * i + 2]).expect("the line's moves are squares");
        if pos.moves() == 0 {
            pos = pos.passed();
        }
        let s = line_symmetry(&pos.board);
        out[discs(&pos.board) as usize] = transform(sq.bit(), s).trailing_zeros() as u8;
        pos = pos.play_with_implicit_pass(sq).expect("the published line is legal");
    }
    out
}

/// The canonical positions of the published P line, per disc count.
pub fn line_positions() -> HashMap<u32, Board> {
    let mut pos = Position::start(BoardSize::Six, Variant::Normal);
    let mut out = HashMap::new();
    out.insert(4, pos.board.canonical());
    for i in 0..PUBLISHED_LINE.len() / 2 {
        let sq = Square::parse(&PUBLISHED_LINE[2 * i..2 * i + 2]).expect("the line's moves are squares");
        pos = pos.play_with_implicit_pass(sq).expect("the published line is legal");
        if pos.moves() == 0 && !pos.is_game_over() {
            pos = pos.passed();
        }
        out.insert(discs(&pos.board), pos.board.canonical());
    }
    out
}

/// Where a stage program changes search (the published program's thresholds).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Positions with fewer discs are outer-search nodes (visited, stored, counted).
    pub outer_below: u32,
    /// Positions with fewer discs are stored in the inner search's table.
    pub inner_below: u32,
    /// At this many empties or fewer the inner search hands over to its endgame solver
    /// (negative: never).
    pub endgame_empties: i32,
}

impl Limits {
    /// The published limits of a program starting at `start_discs` (4, 10 or 18):
    /// the reopening first stage stores to 10 discs, plain's to 18, the programs
    /// from 10 discs to 18, those from 18 discs everything to the end (no endgame solver).
    pub fn published(reopening: bool, start_discs: u32) -> Option<Limits> {
        match start_discs {
            4 => Some(Limits { outer_below: if reopening { 11 } else { 19 }, inner_below: 24, endgame_empties: 6 }),
            10 => Some(Limits { outer_below: 19, inner_below: 24, endgame_empties: 6 }),
            18 => Some(Limits { outer_below: 100, inner_below: 200, endgame_empties: -1 }),
            _ => None,
        }
    }
}

/// How an inner search node was entered.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// On the published line: its move first, no table probe, no stability bound.
    Line,
    /// The root of a choice (A' or C node): no table probe, no stability bound.
    Choose,
    /// Anywhere else.
    Other,
}

/// One outer-table entry: bounds and the kinds searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Lower bound.
    pub lower: i8,
    /// Upper bound.
    pub upper: i8,
    /// Kind flags ([`crate::store::kind`]).
    pub kinds: u8,
}

/// One stage program: the published search from one start with fresh tables.
pub struct Program<'s> {
    reopening: bool,
    limits: Limits,
    line: [u8; 37],
    outer: BoardMap<Entry>,
    inner: BoardMap<(i8, i8)>,
    /// Where the program keeps its checkpoint, when it runs with one.
    checkpoint: Option<Checkpoint>,
    /// Set by anyone to halt the program at its next answer (after a snapshot).
    stop: Option<&'s AtomicBool>,
    /// Halt after this many more new answers (tests of the resumption).
    halt_after: u64,
    /// The program stopped before its end (its results are partial).
    halted: bool,
    /// The first error writing the checkpoint (the program then halts).
    error: Option<String>,
    /// The start a resumable program was opened with (see [`Program::resume`]).
    start: Option<Restart>,
    /// Told of every snapshot of the checkpoint.
    on_snapshot: Option<&'s (dyn Fn(Snapshot) + Sync)>,
}

/// What a running program had when it snapshotted its checkpoint (a long program's
/// progress: it runs for hours without finishing anything else).
#[derive(Clone, Copy, Debug)]
pub struct Snapshot {
    /// Answers the value search has given the counted search so far.
    pub answers: u64,
    /// Positions in the value search's table (the snapshot's size).
    pub value_table: usize,
    /// Positions the counted search has visited so far.
    pub visited: usize,
}

fn stability_threshold(empties: i32, null_window: bool) -> i32 {
    if empties <= 3 {
        99
    } else {
        empties + if null_window { -1 } else { -5 }
    }
}

/// The 6x6 neighbours of each square.
fn around(sq: u32) -> u64 {
    let x = 1u64 << sq;
    potential(x, INNER)
}

/// Plain alpha-beta's child kinds: P -> (P, C), A -> C, C -> A.
fn plain_child_kind(k: u8, first: bool) -> u8 {
    match k {
        kind::P if first => kind::P,
        kind::P => kind::C,
        kind::A => kind::C,
        _ => kind::A,
    }
}

/// Reopening alpha-beta's child kinds: P -> (P, A'), A' -> (P', C), P' -> A', A -> C,
/// C -> A.
fn reopening_child_kind(k: u8, first: bool) -> u8 {
    match k {
        kind::P if first => kind::P,
        kind::P => kind::A_PRIME,
        kind::A_PRIME if first => kind::P_PRIME,
        kind::A_PRIME => kind::C,
        kind::P_PRIME => kind::A_PRIME,
        kind::A => kind::C,
        _ => kind::A,
    }
}

impl<'s> Program<'s> {
    /// A fresh program (empty tables).
    pub fn new(reopening: bool, limits: Limits) -> Program<'s> {
        Program {
            reopening,
            limits,
            line: line_moves(),
            outer: BoardMap::default(),
            inner: BoardMap::default(),
            checkpoint: None,
            stop: None,
            halt_after: u64::MAX,
            halted: false,
            error: None,
            start: None,
            on_snapshot: None,
        }
    }

    /// A program that keeps a checkpoint in `dir` (see [`super::checkpoint`]), resuming
    /// from the one there if any, snapshotting every `every` and halting, after a
    /// snapshot, once `stop` is set. Its [`Program::resume`] runs `start` (its board,
    /// kinds and window, as [`Program::run`] takes them) and visits exactly what an
    /// uninterrupted program visits; a checkpoint of another program is an error.
    pub fn resumable(
        reopening: bool,
        limits: Limits,
        start: Restart,
        dir: &std::path::Path,
        every: std::time::Duration,
        stop: &'s AtomicBool,
    ) -> Result<Program<'s>, String> {
        let Restart { board: b, kinds, lower, upper } = start;
        let identity = format!(
            "{} {:016x} {:016x} kinds {kinds} window {lower} {upper} {limits:?}",
            if reopening { "reopening" } else { "plain" },
            b.player,
            b.opponent
        );
        let (cp, inner) = Checkpoint::open(dir, every, &identity)?;
        Ok(Program {
            inner,
            checkpoint: Some(cp),
            stop: Some(stop),
            start: Some(start),
            ..Program::new(reopening, limits)
        })
    }

    /// Calls `report` after every snapshot of the checkpoint.
    pub fn on_snapshot(mut self, report: &'s (dyn Fn(Snapshot) + Sync)) -> Program<'s> {
        self.on_snapshot = Some(report);
        self
    }

    /// Runs a [`Program::resumable`] program from its start (from its checkpoint's
    /// snapshot, when it has one); a program made by [`Program::new`] has no start and
    /// does nothing.
    pub fn resume(&mut self) {
        if let Some(Restart { board, kinds, lower, upper }) = self.start {
            self.run(board, kinds, lower, upper);
        }
    }

    /// Whether the program stopped before its end (halted by its stop flag, or by an
    /// error writing its checkpoint: [`Program::finish`] returns it).
    pub fn halted(&self) -> bool {
        self.halted
    }

    /// Ends a resumable program: the checkpoint error that halted it, or, when it ran to
    /// its end, its checkpoint removed. Call once the program's records are kept.
    pub fn finish(&mut self) -> Result<(), String> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        match self.checkpoint.take() {
            Some(cp) if !self.halted => cp.remove(),
            _ => Ok(()),
        }
    }

    #[cfg(test)]
    fn halt_after(&mut self, answers: u64) {
        self.halt_after = answers;
    }

    /// An inner search the outer search asks for: replayed from the checkpoint while it
    /// has answers, else searched (and recorded, with a snapshot of the inner table when
    /// one is due or the program must halt).
    fn ask_inner(&mut self, c: Board, alpha: i32, beta: i32, mode: Mode) -> (i32, u8) {
        if self.halted {
            return (0, 0xFF);
        }
        let Some(cp) = self.checkpoint.as_mut() else { return self.inner_search(c, alpha, beta, mode) };
        if let Some(a) = cp.next_replayed() {
            return a;
        }
        let halt = self.halt_after == 0 || self.stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if halt || cp.due() {
            match cp.snapshot(&self.inner) {
                Ok(answers) => {
                    if let Some(report) = self.on_snapshot {
                        report(Snapshot { answers, value_table: self.inner.len(), visited: self.outer.len() });
                    }
                }
                Err(e) => {
                    self.error = Some(e);
                    self.halted = true;
                }
            }
            if halt {
                self.halted = true;
            }
            if self.halted {
                return (0, 0xFF);
            }
        }
        let a = self.inner_search(c, alpha, beta, mode);
        self.halt_after = self.halt_after.saturating_sub(1);
        if let Err(e) = self.checkpoint.as_mut().map_or(Ok(()), |cp| cp.record(a.0, a.1)) {
            self.error = Some(e);
            self.halted = true;
        }
        a
    }

    /// The outer table: every position the program visited, with bounds and kinds.
    pub fn visited(&self) -> &BoardMap<Entry> {
        &self.outer
    }

    /// Searches `start` once per kind in `kinds`, in the published order (P, A', P', A,
    /// C): P, A' and P' with the full window, A with the zero-width window at
    /// `upper + 1`, C at `lower - 1`, as the published stage programs did.
    pub fn run(&mut self, start: Board, kinds: u8, lower: i32, upper: i32) {
        for k in [kind::P, kind::A_PRIME, kind::P_PRIME, kind::A, kind::C] {
            if kinds & k == 0 || self.halted {
                continue;
            }
            match k {
                kind::A => {
                    let x = (upper + 1).min(36);
                    self.outer_search(start, x, x, k);
                }
                kind::C => {
                    let x = (lower - 1).max(-36);
                    self.outer_search(start, x, x, k);
                }
                _ => {
                    self.outer_search(start, -36, 36, k);
                }
            }
        }
    }

    fn child_kind(&self, k: u8, first: bool) -> u8 {
        if self.reopening {
            reopening_child_kind(k, first)
        } else {
            plain_child_kind(k, first)
        }
    }

    /// The outer search of `b` as kind `k` in `(alpha, beta)`: its fail-soft value.
    pub fn outer_search(&mut self, b: Board, alpha: i32, beta: i32, k: u8) -> i32 {
        let c = b.canonical();
        let n = discs(&c);
        if n == 36 {
            return c.final_score(BoardSize::Six);
        }
        if n >= self.limits.outer_below {
            let mode = if k == kind::P { Mode::Line } else { Mode::Other };
            return self.ask_inner(c, alpha, beta, mode).0;
        }
        let mut known = Entry { lower: -36, upper: 36, kinds: 0 };
        if let Some(&e) = self.outer.get(&c) {
            let (lo, hi) = (i32::from(e.lower), i32::from(e.upper));
            match k {
                kind::P_PRIME if e.kinds & (kind::P | kind::P_PRIME) != 0 => return hi,
                kind::A_PRIME if e.kinds & (kind::P | kind::A_PRIME) != 0 => return hi,
                kind::A | kind::C => {
                    if lo == hi || hi <= alpha {
                        return hi;
                    }
                    if beta <= lo {
                        return lo;
                    }
                }
                _ => {}
            }
            known = e;
        }
        let moves = c.moves(BoardSize::Six);
        if moves == 0 {
            let passed = c.pass();
            if passed.moves(BoardSize::Six) != 0 {
                return -self.outer_search(passed, -beta, -alpha, self.child_kind(k, true));
            }
            return c.final_score(BoardSize::Six);
        }
        let first = match k {
            kind::P => Some(self.line[n as usize]),
            kind::A_PRIME if self.reopening => Some(self.ask_inner(c, -36, 36, Mode::Choose).1),
            kind::C => Some(self.ask_inner(c, beta - 1, beta, Mode::Choose).1),
            _ => None,
        };
        if self.halted {
            return 0;
        }
        let order = ordered_moves(&c, first);
        let reopening = self.reopening;
        let full = |ck: u8| reopening && (ck == kind::P || ck == kind::A_PRIME);
        let mut best = -36;
        let mut a = alpha;
        let mut cut = false;
        for (i, m) in order.enumerate() {
            let ck = self.child_kind(k, i == 0);
            let next = c.play_with_flips(m, c.flips(m));
            let (ca, cb) = if full(ck) {
                (-36, 36)
            } else if i == 0 {
                (a, beta)
            } else {
                (a, a + 1)
            };
            let v = -self.outer_search(next, -cb, -ca, ck);
            if self.halted {
                return 0;
            }
            if v >= beta {
                best = v;
                cut = true;
                break;
            }
            if i == 0 {
                best = v;
                a = a.max(v);
            } else {
                if self.reopening && ck == kind::A_PRIME {
                    a = a.max(v);
                }
                best = best.max(v);
            }
        }
        let (lo, hi) = if cut {
            (best, 36)
        } else if alpha < best {
            (best, best)
        } else {
            (-36, best)
        };
        let e = Entry { lower: known.lower.max(lo as i8), upper: known.upper.min(hi as i8), kinds: known.kinds | k };
        self.outer.insert(c, e);
        best
    }

    fn store(&mut self, c: Board, lo: i32, hi: i32) {
        let e = self.inner.entry(c).or_insert((-36, 36));
        e.0 = e.0.max(lo as i8);
        e.1 = e.1.min(hi as i8);
    }

    /// The inner search of `b` in `(alpha, beta)`: its fail-soft value and the move it
    /// chose (255 when none; only a choosing root's move is used).
    fn inner_search(&mut self, b: Board, alpha: i32, beta: i32, mode: Mode) -> (i32, u8) {
        let c = b.canonical();
        let n = discs(&c) as i32;
        if n == 36 {
            return (c.final_score(BoardSize::Six), 0xFF);
        }
        let empties = 36 - n;
        if empties <= self.limits.endgame_empties {
            let mut squares = [-1i8; 6];
            for (i, sq) in Square::iter(INNER & !(c.player | c.opponent)).enumerate() {
                squares[i] = sq.index() as i8;
            }
            return (endgame(c.player, c.opponent, alpha, beta, &mut squares), 0xFF);
        }
        let stores = (n as u32) < self.limits.inner_below;
        let mut known = (-36, 36);
        if mode == Mode::Other {
            if stores {
                if let Some(&(lo, hi)) = self.inner.get(&c) {
                    let (lo, hi) = (i32::from(lo), i32::from(hi));
                    if lo == hi || hi <= alpha {
                        return (hi, 0xFF);
                    }
                    if beta <= lo {
                        return (lo, 0xFF);
                    }
                    known = (lo, hi);
                }
            }
            if beta >= stability_threshold(empties, alpha + 1 == beta) {
                let ub = 36 - 2 * stable_count(c.opponent, c.player) as i32;
                if ub <= alpha {
                    return (ub, 0xFF);
                }
            }
        }
        let moves = c.moves(BoardSize::Six);
        if moves == 0 {
            let passed = c.pass();
            let theirs = passed.moves(BoardSize::Six);
            if theirs == 0 {
                let v = c.final_score(BoardSize::Six);
                if stores {
                    self.store(c, v, v);
                }
                return (v, 0xFF);
            }
            if let Some(w) = Square::iter(theirs).find(|&m| passed.flips(m) == passed.opponent) {
                if stores {
                    self.store(c, -36, -36);
                    self.store(passed.canonical(), 36, 36);
                }
                return (-36, w.index() as u8);
            }
            let (v, m) = self.inner_search(passed, -beta, -alpha, mode);
            let v = -v;
            if stores {
                let (lo, hi) = if alpha < v && v < beta {
                    (v, v)
                } else if v <= alpha {
                    (-36, v)
                } else {
                    (v, 36)
                };
                self.store(c, known.0.max(lo), known.1.min(hi));
            }
            return (v, m);
        }
        if let Some(w) = Square::iter(moves).find(|&m| c.flips(m) == c.opponent) {
            if stores {
                self.store(c, 36, 36);
            }
            return (36, w.index() as u8);
        }
        if mode != Mode::Line && n + 1 < self.limits.inner_below as i32 {
            // A child whose stored upper bound already proves the cut (first in square order).
            for m in Square::iter(moves) {
                let next = c.play_with_flips(m, c.flips(m)).canonical();
                if let Some(&(_, hi)) = self.inner.get(&next) {
                    if beta <= -i32::from(hi) {
                        return (-i32::from(hi), m.index() as u8);
                    }
                }
            }
        }
        let first = (mode == Mode::Line).then(|| self.line[n as usize]);
        let order = ordered_moves(&c, first);
        let mut best = -36;
        let mut a = alpha;
        let mut chosen = 0xFF;
        for (i, m) in order.enumerate() {
            let next = c.play_with_flips(m, c.flips(m));
            let v = if i == 0 {
                let child_mode = if mode == Mode::Line { Mode::Line } else { Mode::Other };
                -self.inner_search(next, -beta, -a, child_mode).0
            } else {
                let mut v = -self.inner_search(next, -a - 1, -a, Mode::Other).0;
                if v < beta && a < v {
                    a = v;
                    v = -self.inner_search(next, -beta, -a, Mode::Other).0;
                }
                v
            };
            if beta <= v {
                if stores {
                    self.store(c, known.0.max(v), known.1);
                }
                return (v, m.index() as u8);
            }
            // The first child sets the best even at -36; later ones must beat it.
            if i == 0 || best < v {
                best = v;
                chosen = m.index() as u8;
            }
            a = a.max(v);
        }
        if stores {
            let (lo, hi) = if alpha < best { (best, best) } else { (-36, best) };
            self.store(c, known.0.max(lo), known.1.min(hi));
        }
        (best, chosen)
    }
}

/// The inner search's endgame solver: `squares` are the empty squares in square order
/// (-1 for none or taken).
fn endgame(p: u64, o: u64, alpha: i32, beta: i32, squares: &mut [i8; 6]) -> i32 {
    let b = Board { player: p, opponent: o };
    let n = (p | o).count_ones() as i32;
    if n == 36 {
        return b.final_score(BoardSize::Six);
    }
    if beta >= stability_threshold(36 - n, alpha + 1 == beta) {
        let ub = 36 - 2 * stable_count(o, p) as i32;
        if ub <= alpha {
            return ub;
        }
    }
    let mut best = -36;
    let mut a = alpha;
    let mut legal = 0;
    for i in 0..6 {
        let s = squares[i];
        if s < 0 || around(s as u32) & o == 0 {
            continue;
        }
        let sq = Square::from_index(s as u32);
        let f = b.flips(sq);
        if f == 0 {
            continue;
        }
        if f == o {
            return 36;
        }
        legal += 1;
        squares[i] = -1;
        let next = b.play_with_flips(sq, f);
        if i == 0 {
            best = -endgame(next.player, next.opponent, -beta, -a, squares);
            if beta <= best {
                squares[i] = s;
                return best;
            }
            a = a.max(best);
        } else {
            let mut v = -endgame(next.player, next.opponent, -a - 1, -a, squares);
            if beta <= v {
                squares[i] = s;
                return v;
            }
            if a < v {
                a = v;
                v = -endgame(next.player, next.opponent, -beta, -a, squares);
                if beta <= v {
                    squares[i] = s;
                    return v;
                }
                a = a.max(v);
            }
            best = best.max(v);
        }
        squares[i] = s;
    }
    if legal == 0 {
        if b.pass().moves(BoardSize::Six) != 0 {
            return -endgame(o, p, -beta, -alpha, squares);
        }
        return b.final_score(BoardSize::Six);
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_core::rng::Rng;

    #[test]
    fn the_selection_keeps_the_taken_slots_key() {
        let m: Vec<Square> = (0..5).map(Square::from_index).collect();
        let order = published_order(&m, &[5, 9, 1, 7, 3]);
        let idx: Vec<usize> = order.iter().map(|s| s.index()).collect();
        assert_eq!(idx, vec![1, 4, 3, 2, 0]);
    }

    #[test]
    fn stability_counts_the_ring_as_stable() {
        assert_eq!(stable_count(1 << 9, 1 << 18), 1);
        assert_eq!(stable_count(1 << 18, 1 << 27), 0);
        // A full row b2..g2 of the mover: all six stable only with b2/g2 anchors.
        let row = 0x7Eu64 << 8;
        assert_eq!(stable_count(row, 0), 6);
    }

    /// The bit-parallel stability against a square-by-square statement of its rule.
    #[test]
    fn stability_matches_its_definition() {
        let dirs = [(0i32, 1i32), (1, 0), (1, -1), (1, 1)];
        let ring = |r: i32, c: i32| !(1..=6).contains(&r) || !(1..=6).contains(&c);
        let naive = |p: u64, o: u64| -> i64 {
            let filled = |r: i32, c: i32| ring(r, c) || (p | o) >> (r * 8 + c) & 1 != 0;
            let full = |r: i32, c: i32, d: (i32, i32)| {
                [1, -1].iter().all(|&s| {
                    let (mut rr, mut cc) = (r, c);
                    while !ring(rr, cc) {
                        if !filled(rr, cc) {
                            return false;
                        }
                        rr += s * d.0;
                        cc += s * d.1;
                    }
                    true
                })
            };
            let mut st = [[false; 8]; 8];
            for r in 0..8 {
                for c in 0..8 {
                    st[r as usize][c as usize] = ring(r, c);
                }
            }
            loop {
                let mut changed = false;
                for r in 1..=6 {
                    for c in 1..=6 {
                        if st[r as usize][c as usize] || p >> (r * 8 + c) & 1 == 0 {
                            continue;
                        }
                        let ok = dirs.iter().all(|&d| {
                            full(r, c, d)
                                || st[(r + d.0) as usize][(c + d.1) as usize]
                                || st[(r - d.0) as usize][(c - d.1) as usize]
                        });
                        if ok {
                            st[r as usize][c as usize] = true;
                            changed = true;
                        }
                    }
                }
                if !changed {
                    break;
                }
            }
            (1..=6).map(|r| (1..=6).filter(|&c| st[r][c]).count() as i64).sum()
        };
        let mut rng = Rng::new(7);
        for _ in 0..3000 {
            let a = rng.next_u64() & INNER;
            let fill = rng.next_u64() | rng.next_u64();
            let p = a & fill;
            let o = !a & fill & INNER;
            assert_eq!(stable_count(p, o), naive(p, o), "{p:x} {o:x}");
        }
    }

    /// A program halted twice (after a few answers each time) and resumed from its
    /// checkpoint visits exactly what the same program run whole visits, for both
    /// searches; a finished program leaves no checkpoint behind; a damaged snapshot is
    /// an error naming its file.
    #[test]
    fn a_halted_program_resumes_to_the_same_visits() {
        let limits = Limits { outer_below: 25, inner_below: 29, endgame_empties: 6 };
        let start = line_positions()[&20];
        let dir = tempfile::tempdir().unwrap();
        let cp = dir.path().join("program-0");
        let every = std::time::Duration::ZERO;
        let stop = AtomicBool::new(false);
        let from_start = Restart { board: start, kinds: kind::P, lower: -36, upper: 36 };
        let open = |reopening: bool| Program::resumable(reopening, limits, from_start, &cp, every, &stop);
        for reopening in [false, true] {
            let mut whole = Program::new(reopening, limits);
            whole.run(start, kind::P, -36, 36);
            assert!(!whole.halted() && whole.visited().len() > 50, "{}", whole.visited().len());
            for halt in [5, 7] {
                let reported = std::sync::atomic::AtomicU64::new(0);
                let report = |s: Snapshot| reported.store(s.answers, Ordering::Relaxed);
                let mut p = open(reopening).unwrap().on_snapshot(&report);
                p.halt_after(halt);
                p.resume();
                assert!(p.halted(), "halted after {halt} answers");
                assert!(reported.load(Ordering::Relaxed) >= halt, "the snapshots are reported");
                p.finish().unwrap();
                assert!(cp.join("inner.bin").exists());
            }
            let mut p = open(reopening).unwrap();
            p.resume();
            assert!(!p.halted());
            assert_eq!(p.visited(), whole.visited(), "reopening {reopening}");
            p.finish().unwrap();
            assert!(!cp.exists(), "a finished program's checkpoint is removed");
        }
        let mut p = open(false).unwrap();
        p.halt_after(3);
        p.resume();
        p.finish().unwrap();
        let snapshot = cp.join("inner.bin");
        let mut bytes = std::fs::read(&snapshot).unwrap();
        let last = bytes.len() - 9;
        bytes[last] ^= 1;
        std::fs::write(&snapshot, bytes).unwrap();
        let other = open(true).err().unwrap();
        assert!(other.contains("another program"), "{other}");
        let err = open(false).err().unwrap();
        assert!(err.contains("inner.bin") && err.contains("checksum"), "{err}");
    }

    #[test]
    fn the_line_moves_are_legal_in_the_canonical_positions() {
        let pos = line_positions();
        let mv = line_moves();
        for n in 4..36u32 {
            let b = pos[&n];
            let m = mv[n as usize];
            assert!(m < 64 && b.moves(BoardSize::Six) >> m & 1 == 1, "{n} discs");
        }
    }
}
