//! Visited-position counts of 6x6 under the rules of the published experiment (the
//! semi-strong paper's Table 3; program: github eukaryo/reopening-alphabeta-experiment),
//! beside solvo's own rules in [`super`].
//!
//! The rules, as that program applies them (stated here in our words and written anew):
//!
//! - **Positions** are canonical: the smallest (mover, other) pair of the 8 symmetric
//!   images ([`Board::canonical`] is the same order). Every node works on its canonical
//!   board, so "the first move in square order" means in the canonical orientation.
//! - **The P line** is a fixed game, [`PUBLISHED_LINE`] (a published perfect game of
//!   6x6, with a pass before `g3`), not a search's choice.
//! - **Move order**: each move gets a key: a wipe-out `2^30`; otherwise
//!   `square value + 32 (36 - w(potential mobility)) + 2048 stable + 32768 (36 - w(mobility))`
//!   of the position after the move ([`order_key`]: the opponent's mobility counted
//!   on the whole 8x8 grid, `w` counting the 6x6 corners twice, the mover's stable
//!   discs with the off-board ring counted as stable). The designated move (P line, or
//!   the choice at A' and C nodes) gets `2^50`. Moves are then taken by a selection that
//!   moves the last move into the taken one's slot but leaves that slot's key in place
//!   ([`published_order`]), so after the first move the order is mostly descending
//!   square order: the published order, kept as it ran.
//! - **Choice at A' and C nodes**: a search of the node itself (full window at A', the
//!   null window at `beta` at C) whose chosen move is the first wipe-out in square
//!   order, else the first move in the key order (no designated move) that reaches the
//!   best value (A') or `beta` (C). Here the values come from solvo's exact solver;
//!   the published search also took a move from its table when a child's stored upper
//!   bound already proved the cut (enhanced transposition cutoff), which depends on
//!   everything that search had stored before. That part is not reproduced.
//! - **Tables**: a position searched as P is never looked up; as P' it reuses an entry
//!   searched as P or P'; as A' one searched as P or A'; as C or A any entry whose bounds
//!   decide the window. Entries keep the intersection of their bounds and the kinds of
//!   the searches that completed.
//! - **Stages**: the published run went in stages, each a fresh program (fresh tables):
//!   reopening alpha-beta from the start down to 10 discs, then from every 10-disc
//!   position down to 18, then from every 18-disc position to the end; plain alpha-beta
//!   from the start to 18 discs, then from every 18-disc position. A restarted position
//!   is searched once per kind it had in the stage before (P, A', P', A, C in this
//!   order), A with the null window above `upper + 1`, C with the one at `lower - 1`
//!   (one wider than the bound recorded). Counts are the union, per disc count, of the
//!   positions every stage searched (passing positions are not counted; the pass is
//!   folded into the next position, whose kind is the first child's).
//! - **Values at a stage's depth limit** come from a search of that position; the
//!   published search returned its fail-soft value, which depends on its table. Here
//!   solvo's solver gives a bound as tight as it proves inside the window.

use super::Counts;
use crate::reopening::{first_child_kind, other_child_kind, play, Next};
use crate::store::kind;
use solvo_othello::{Board, BoardSize, Color, Position, Square, Variant};
use solvo_othello_search::{solve, SolveOptions, Window};
use std::collections::{HashMap, HashSet};

/// The published P line (a perfect game of 6x6; a pass falls before `g3`).
pub const PUBLISHED_LINE: &str = "f5d6c5f4d3e3g4g5g6c4b4d2e6f6e2f2f3b6d7b5b7f7c6c7b3c3e7g7c2b2g3g2";

/// Table 3 of the semi-strong paper: visited positions per disc count (4..=35) for
/// plain alpha-beta and reopening alpha-beta (index 0 = 4 discs).
pub const PAPER_TABLE3: [(u64, u64); 32] = [
    (1, 1),
    (1, 1),
    (3, 3),
    (7, 14),
    (12, 32),
    (32, 118),
    (59, 296),
    (151, 934),
    (287, 2_464),
    (731, 7_092),
    (1_382, 19_531),
    (3_549, 51_776),
    (6_864, 142_746),
    (17_812, 363_233),
    (35_006, 974_505),
    (90_240, 2_401_483),
    (177_787, 6_271_034),
    (447_687, 14_822_962),
    (858_184, 36_854_245),
    (2_080_872, 81_901_503),
    (3_815_862, 191_019_755),
    (8_819_433, 394_226_392),
    (15_263_415, 838_504_061),
    (32_755_025, 1_553_868_269),
    (52_251_880, 2_857_346_877),
    (99_391_021, 4_476_742_944),
    (139_488_250, 6_534_521_498),
    (215_616_210, 7_824_953_417),
    (240_828_705, 7_905_447_135),
    (255_621_773, 6_029_178_394),
    (180_738_857, 3_232_614_583),
    (90_900_623, 1_004_996_923),
];

/// Table 3's exhaustive column: positions with a legal move reachable from the start, per
/// disc count 4..=25 (index 0 = 4 discs).
pub const PAPER_EXHAUSTIVE: [u64; 22] = [
    1,
    1,
    3,
    14,
    60,
    314,
    1_632,
    9_069,
    51_964,
    292_946,
    1_706_168,
    9_289_258,
    51_072_917,
    251_070_145,
    1_208_692_475,
    5_014_312_131,
    19_791_417_568,
    65_844_387_711,
    203_504_012_437,
    525_923_099_578,
    1_234_638_103_732,
    2_417_685_025_700,
];

/// Disc counts where the published run restarted (reopening: 10 and 18; plain: 18).
pub fn stage_boundaries(reopening: bool) -> &'static [u32] {
    if reopening {
        &[10, 18]
    } else {
        &[18]
    }
}

/// A position where a stage starts again: canonical board, the kinds it was searched as
/// in the stage before, and the bounds recorded there.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Restart {
    /// Canonical board, side to move first.
    pub board: Board,
    /// Kind flags (of [`crate::store::kind`]).
    pub kinds: u8,
    /// Recorded lower bound.
    pub lower: i32,
    /// Recorded upper bound.
    pub upper: i32,
}

/// What a counting run under the published rules found.
#[derive(Clone, Debug, Default)]
pub struct PublishedCounts {
    /// Unique positions per disc count (index = discs).
    pub counts: Counts,
    /// The start's value (from the first stage).
    pub value: i32,
    /// Fresh searches (stage programs) run per stage.
    pub contexts: Vec<u64>,
    /// The restart positions each stage handed to the next (merged over its searches).
    pub restarts: Vec<Vec<Restart>>,
    /// Solves asked of solvo's solver.
    pub solves: u64,
    /// With a table: the positions our first stage searched at its last disc count (9),
    /// with kinds and bounds, to hold against the table's.
    pub first_stage_check: Option<Vec<Restart>>,
    /// Children whose value beat a null window the rules said they could not (an order
    /// the published program asserts never happens; zero when the choices were right).
    pub order_violations: u64,
}

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

/// The 8x8 squares around the 6x6 board.
const RING: u64 = 0xFF81_8181_8181_81FF;
/// The 6x6 corners (b2, g2, b7, g7), counted twice by the order's weighted counts.
const CORNERS6: u64 = (1 << 9) | (1 << 14) | (1 << 49) | (1 << 54);
/// The four line directions as (row step, column step).
const DIRS: [(i32, i32); 4] = [(0, 1), (1, 0), (1, -1), (1, 1)];

fn weighted(v: u64) -> i64 {
    i64::from(v.count_ones() + (v & CORNERS6).count_ones())
}

/// The squares of `filled` (a grid with the ring filled) whose line in direction `d` is
/// filled from ring to ring.
fn full_lines(filled: u64, d: (i32, i32)) -> u64 {
    let mut full = 0;
    for sq in Square::iter(!RING) {
        let (r, c) = (sq.index() as i32 / 8, sq.index() as i32 % 8);
        let whole = [1, -1].iter().all(|&s| {
            let (mut rr, mut cc) = (r, c);
            loop {
                if filled & (1u64 << (rr * 8 + cc)) == 0 {
                    return false;
                }
                if RING & (1u64 << (rr * 8 + cc)) != 0 {
                    return true;
                }
                rr += s * d.0;
                cc += s * d.1;
            }
        });
        if whole {
            full |= sq.bit();
        }
    }
    full
}

/// The neighbours of the squares of `x` in direction `d`, both ways (bits off the grid
/// dropped; `x` is only ever used on inner squares and the ring).
fn neighbours(x: u64, d: (i32, i32)) -> u64 {
    let mut out = 0;
    for sq in Square::iter(x) {
        let (r, c) = (sq.index() as i32 / 8, sq.index() as i32 % 8);
        for s in [1, -1] {
            let (rr, cc) = (r + s * d.0, c + s * d.1);
            if (0..8).contains(&rr) && (0..8).contains(&cc) {
                out |= 1u64 << (rr * 8 + cc);
            }
        }
    }
    out
}

/// Stable discs of `p` as the published order counts them: the off-board ring is stable;
/// a disc of `p` is stable when in each of the four directions its line is full or a
/// neighbour on it is stable.
pub fn stable_discs(p: u64, o: u64) -> i64 {
    let filled = p | o | RING;
    let full: Vec<u64> = DIRS.iter().map(|&d| full_lines(filled, d)).collect();
    let mut stable = RING | (p & full.iter().fold(!0, |a, f| a & f));
    loop {
        let mut ok = p;
        for (i, &d) in DIRS.iter().enumerate() {
            ok &= neighbours(stable, d) | full[i];
        }
        let next = stable | ok;
        if next == stable {
            break;
        }
        stable = next;
    }
    i64::from((stable & !RING).count_ones())
}

/// Empty 6x6 squares next to a disc of `x`.
fn potential(x: u64, empty: u64) -> u64 {
    let mut out = 0;
    for &d in &DIRS {
        out |= neighbours(x, d);
    }
    out & empty
}

/// The published order key of the legal move `sq` of `b` (see the module text).
pub fn order_key(b: &Board, sq: Square) -> i64 {
    let f = b.flips(sq);
    if f == b.opponent {
        return 1 << 30;
    }
    let next = b.play_with_flips(sq, f);
    let empty = !(next.player | next.opponent | RING);
    let pot = potential(next.opponent, empty);
    // The opponent's moves on the whole 8x8 grid (off-board squares can count).
    let mob = next.moves_masked(!0);
    SQUARE_VALUE[sq.index()]
        + (36 - weighted(pot)) * 32
        + stable_discs(next.opponent, next.player) * 2048
        + (36 - weighted(mob)) * 32768
}

/// The order the published selection takes `moves` (ascending squares) with `keys`: the
/// first largest key is taken, the last move moves into its slot, the key stays.
pub fn published_order(moves: &[Square], keys: &[i64]) -> Vec<Square> {
    let mut m = moves.to_vec();
    let mut n = m.len();
    let mut out = Vec::with_capacity(n);
    while n > 0 {
        let mut best = 0;
        for i in 1..n {
            if keys[i] > keys[best] {
                best = i;
            }
        }
        out.push(m[best]);
        m[best] = m[n - 1];
        n -= 1;
    }
    out
}

/// The moves of canonical `b` in the published order, `first` (if any) first.
fn ordered_moves(b: &Board, first: Option<Square>) -> Vec<Square> {
    let moves: Vec<Square> = Square::iter(b.moves(BoardSize::Six)).collect();
    let keys: Vec<i64> = moves.iter().map(|&m| if Some(m) == first { 1 << 50 } else { order_key(b, m) }).collect();
    published_order(&moves, &keys)
}

/// Exact facts about positions, from solvo's solver (bounds per canonical board).
struct Values {
    bounds: HashMap<Board, (i32, i32)>,
    solver: SolveOptions,
    solves: u64,
}

impl Values {
    fn new() -> Self {
        Values { bounds: HashMap::new(), solver: SolveOptions::new(512), solves: 0 }
    }

    /// Bounds of canonical `c` deciding the window `(alpha, beta)` (or exact).
    fn bounds(&mut self, c: Board, alpha: i32, beta: i32) -> (i32, i32) {
        // A zero-width window (a published restart) asks whether the value reaches beta.
        let alpha = alpha.min(beta - 1);
        let (lo, hi) = *self.bounds.get(&c).unwrap_or(&(-36, 36));
        if lo == hi || lo >= beta || hi <= alpha {
            return (lo, hi);
        }
        self.solver.window = Window { lo: alpha + 1, hi: beta - 1 };
        let pos = Position { board: c, side: Color::Black, size: BoardSize::Six, variant: Variant::Normal };
        let r = solve(&pos, &self.solver);
        self.solves += 1;
        let e = self.bounds.entry(c).or_insert((-36, 36));
        *e = (e.0.max(r.lower), e.1.min(r.upper));
        *e
    }

    fn exact(&mut self, b: &Board) -> i32 {
        self.bounds(b.canonical(), -37, 37).0
    }

    /// Whether playing `sq` in `b` is worth at least `x` to the mover.
    fn move_at_least(&mut self, b: &Board, sq: Square, x: i32) -> bool {
        match play(b, sq, BoardSize::Six, Variant::Normal) {
            Next::End(v) => v >= x,
            Next::Position { board, negate: true } => self.bounds(board.canonical(), -x, -x + 1).1 <= -x,
            Next::Position { board, negate: false } => self.bounds(board.canonical(), x - 1, x).0 >= x,
        }
    }

    /// The published choice at a C node (`Some(beta)`) or an A' node (`None`).
    fn choice(&mut self, b: &Board, beta: Option<i32>) -> Square {
        let moves = b.moves(BoardSize::Six);
        if let Some(w) = Square::iter(moves).find(|&m| b.flips(m) == b.opponent) {
            return w;
        }
        let x = match beta {
            Some(beta) => beta,
            None => self.exact(b),
        };
        let order = ordered_moves(b, None);
        order.iter().copied().find(|&m| self.move_at_least(b, m, x)).unwrap_or(order[0])
    }
}

/// One stage program's search (fresh table).
struct Stage<'a> {
    reopening: bool,
    /// Positions with fewer discs than this are searched and counted.
    limit: u32,
    table: HashMap<Board, (i32, i32, u8)>,
    visited: &'a mut [HashSet<Board>],
    values: &'a mut Values,
    /// Canonical P-line position per disc count.
    line: &'a HashMap<u32, Board>,
    violations: u64,
}

fn discs(b: &Board) -> u32 {
    (b.player | b.opponent).count_ones()
}

impl Stage<'_> {
    /// Fail-soft value of `b` (its mover can move) in `(alpha, beta)` as kind `k`.
    fn search(&mut self, b: Board, alpha: i32, beta: i32, k: u8) -> i32 {
        let c = b.canonical();
        let n = discs(&c);
        if n >= self.limit {
            let (lo, hi) = self.values.bounds(c, alpha, beta);
            return if lo >= beta {
                lo
            } else if hi <= alpha {
                hi
            } else {
                lo
            };
        }
        if let Some(&(lo, hi, kinds)) = self.table.get(&c) {
            let reuse = match k {
                kind::P => false,
                kind::P_PRIME => kinds & (kind::P | kind::P_PRIME) != 0,
                kind::A_PRIME => kinds & (kind::P | kind::A_PRIME) != 0,
                _ => {
                    if lo == hi || hi <= alpha {
                        return hi;
                    }
                    if lo >= beta {
                        return lo;
                    }
                    false
                }
            };
            if reuse {
                return hi;
            }
        }
        self.visited[n as usize].insert(c);
        let first = match k {
            kind::P => {
                let next = self.line.get(&(n + 1));
                Square::iter(c.moves(BoardSize::Six)).find(|&m| match play(&c, m, BoardSize::Six, Variant::Normal) {
                    Next::Position { board, .. } => Some(&board.canonical()) == next,
                    Next::End(_) => false,
                })
            }
            kind::A_PRIME if self.reopening => Some(self.values.choice(&c, None)),
            kind::C => Some(self.values.choice(&c, Some(beta))),
            _ => None,
        };
        let order = ordered_moves(&c, first);
        let full = |ck: u8| ck == kind::P || ck == kind::A_PRIME;
        let mut best = -36;
        let mut a = alpha;
        let mut cut = false;
        for (i, &m) in order.iter().enumerate() {
            let ck = if i == 0 {
                first_child_kind(k)
            } else if !self.reopening && k == kind::P {
                kind::C
            } else {
                other_child_kind(k)
            };
            let (ca, cb) = if self.reopening && full(ck) {
                (-36, 36)
            } else if i == 0 {
                (a, beta)
            } else {
                (a, a + 1)
            };
            let v = match play(&c, m, BoardSize::Six, Variant::Normal) {
                Next::End(v) => v,
                Next::Position { board, negate: true } => -self.search(board, -cb, -ca, ck),
                Next::Position { board, negate: false } => self.search(board, ca, cb, first_child_kind(ck)),
            };
            if i == 0 {
                best = v;
            }
            if v >= beta {
                best = v;
                cut = true;
                break;
            }
            if i == 0 || (self.reopening && ck == kind::A_PRIME) {
                a = a.max(v);
            } else if v > a {
                self.violations += 1;
            }
            best = best.max(v);
        }
        let (lo, hi) = if cut {
            (best, 36)
        } else if best > alpha {
            (best, best)
        } else {
            (-36, best)
        };
        let e = self.table.entry(c).or_insert((-36, 36, 0));
        *e = (e.0.max(lo), e.1.min(hi), e.2 | k);
        best
    }

    /// Searches a restarted position once per kind it had, as the published stages did.
    fn restart(&mut self, r: &Restart) {
        for k in [kind::P, kind::A_PRIME, kind::P_PRIME, kind::A, kind::C] {
            if r.kinds & k == 0 {
                continue;
            }
            match k {
                // The published restarts give both window edges the same value.
                kind::A => {
                    let x = (r.upper + 1).min(36);
                    self.search(r.board, x, x, k);
                }
                kind::C => {
                    let x = (r.lower - 1).max(-36);
                    self.search(r.board, x, x, k);
                }
                _ => {
                    self.search(r.board, -36, 36, k);
                }
            }
        }
    }

    /// The positions with `discs` discs this stage searched, with kinds and bounds.
    fn at(&self, discs_at: u32) -> Vec<Restart> {
        self.table
            .iter()
            .filter(|(b, _)| discs(b) == discs_at)
            .map(|(&board, &(lower, upper, kinds))| Restart { board, kinds, lower, upper })
            .collect()
    }
}

/// What one stage program (a fresh table) searched from a restarted position, down to
/// `max_discs`: unique positions per disc count and every position it searched with its
/// kinds and bounds. The published run started one such program per restart position.
pub fn run_restart(reopening: bool, r: &Restart, max_discs: u32) -> (Counts, Vec<Restart>) {
    let line = line_positions();
    let mut values = Values::new();
    let mut visited: Vec<HashSet<Board>> = vec![HashSet::new(); 37];
    let mut s = Stage {
        reopening,
        limit: max_discs + 1,
        table: HashMap::new(),
        visited: &mut visited,
        values: &mut values,
        line: &line,
        violations: 0,
    };
    s.restart(r);
    let mut all: Vec<Restart> = (4..=max_discs).flat_map(|d| s.at(d)).collect();
    all.sort_by_key(|r| r.board);
    (visited.iter().map(|s| s.len() as u64).collect(), all)
}

/// How two lists of searched positions differ: (positions only in `ours`, only in
/// `theirs`, in both with other kinds).
pub fn differences(ours: &[Restart], theirs: &[Restart]) -> (usize, usize, usize) {
    let t: HashMap<Board, &Restart> = theirs.iter().map(|r| (r.board, r)).collect();
    let o: HashMap<Board, &Restart> = ours.iter().map(|r| (r.board, r)).collect();
    let only_ours = o.keys().filter(|b| !t.contains_key(b)).count();
    let only_theirs = t.keys().filter(|b| !o.contains_key(b)).count();
    let kinds = o.iter().filter(|(b, r)| t.get(b).is_some_and(|x| x.kinds != r.kinds)).count();
    (only_ours, only_theirs, kinds)
}

/// Merges restart lists (kinds ORed, bounds intersected), sorted by board.
pub fn merge_restarts(lists: impl IntoIterator<Item = Restart>) -> Vec<Restart> {
    let mut m: HashMap<Board, Restart> = HashMap::new();
    for r in lists {
        m.entry(r.board)
            .and_modify(|e| {
                e.kinds |= r.kinds;
                e.lower = e.lower.max(r.lower);
                e.upper = e.upper.min(r.upper);
            })
            .or_insert(r);
    }
    let mut v: Vec<Restart> = m.into_values().collect();
    v.sort_by_key(|r| r.board);
    v
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

/// Counts the positions plain (`reopening == false`) or reopening alpha-beta visits on
/// 6x6 under the published rules, per disc count up to `max_discs` (positions with more
/// discs are valued, not counted).
///
/// `table`, when not empty, is the published program's first-stage table (positions
/// with 4..=10 discs, their kinds and bounds): its bounds are taken as known values
/// (they are proven facts; `tests/takizawa.rs` checks them against solvo's solver), and
/// the reopening run then runs its first stage to 9 discs only (valuing the 10-disc
/// positions from the table), counts the table's 10-disc positions as its 10-disc row
/// and starts the second stage from them, as the published run did. Without it the
/// first stage runs to 10 discs with every value from solvo's solver (hours: exact
/// solves of 25-empty positions). `progress` is called after each stage program with
/// (stage, programs done, of).
pub fn count_published(
    reopening: bool,
    max_discs: u32,
    table: &[Restart],
    progress: &mut dyn FnMut(usize, u64, u64),
) -> PublishedCounts {
    let line = line_positions();
    let mut values = Values::new();
    for r in table {
        let e = values.bounds.entry(r.board).or_insert((-36, 36));
        *e = (e.0.max(r.lower), e.1.min(r.upper));
    }
    let first_from_table = reopening && !table.is_empty();
    let mut visited: Vec<HashSet<Board>> = vec![HashSet::new(); 37];
    let mut out = PublishedCounts::default();
    let bounds = stage_boundaries(reopening);
    let mut restarts: Vec<Restart> = Vec::new();
    for stage in 0..=bounds.len() {
        let from = if stage == 0 { 4 } else { bounds[stage - 1] };
        if from > max_discs {
            break;
        }
        let mut to = bounds.get(stage).copied().unwrap_or(35).min(max_discs);
        if stage == 0 && first_from_table {
            to = to.min(bounds[0] - 1);
        }
        let mut next: Vec<Restart> = Vec::new();
        let mut programs = 0;
        let jobs: Vec<Option<Restart>> =
            if stage == 0 { vec![None] } else { restarts.iter().copied().map(Some).collect() };
        let total = jobs.len() as u64;
        for job in jobs {
            let mut s = Stage {
                reopening,
                limit: to + 1,
                table: HashMap::new(),
                visited: &mut visited,
                values: &mut values,
                line: &line,
                violations: 0,
            };
            match job {
                None => out.value = s.search(Board::start(), -36, 36, kind::P),
                Some(r) => s.restart(&r),
            }
            out.order_violations += s.violations;
            next.extend(s.at(to));
            programs += 1;
            progress(stage, programs, total);
        }
        out.contexts.push(programs);
        restarts = merge_restarts(next);
        if stage == 0 && first_from_table {
            if to == bounds[0] - 1 {
                out.first_stage_check = Some(restarts.clone());
            }
            restarts = merge_restarts(table.iter().copied().filter(|r| discs(&r.board) == bounds[0]));
            if max_discs >= bounds[0] {
                visited[bounds[0] as usize].extend(restarts.iter().map(|r| r.board));
            }
        }
        out.restarts.push(restarts.clone());
    }
    out.counts = visited.iter().map(|s| s.len() as u64).collect();
    out.solves = values.solves;
    out
}

/// Reads restart positions from a file in the published program's table format
/// (`obf,disccount,nodekindcode,lowerbound,upperbound`, boards written with `X` to
/// move), keeping the rows with `discs` discs. Errors name the line.
pub fn read_published_table(text: &str, discs_at: u32) -> Result<Vec<Restart>, String> {
    let mut lines = text.lines().enumerate();
    match lines.next() {
        Some((_, "obf,disccount,nodekindcode,lowerbound,upperbound")) => {}
        _ => return Err("line 1: expected the header obf,disccount,nodekindcode,lowerbound,upperbound".into()),
    }
    let mut out = Vec::new();
    for (i, line) in lines {
        let bad = |what: &str| format!("line {}: {what}", i + 1);
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 5 || f[0].len() != 67 || !f[0].is_ascii() {
            return Err(bad("expected 5 fields, the first a 67-character board"));
        }
        if &f[0][64..] != " X;" {
            return Err(bad("the board must be written with X to move (' X;')"));
        }
        let mut board = Board::default();
        for (sq, ch) in f[0].bytes().take(64).enumerate() {
            match ch {
                b'X' => board.player |= 1 << sq,
                b'O' => board.opponent |= 1 << sq,
                b'-' => {}
                _ => return Err(bad(&format!("square {sq}: '{}' is not X, O or -", ch as char))),
            }
        }
        if (board.player | board.opponent) & RING != 0 {
            return Err(bad("a disc lies outside the 6x6 board (b2..g7)"));
        }
        let num =
            |s: &str, what: &str| s.trim().parse::<i32>().map_err(|_| bad(&format!("{what} '{s}' is not a number")));
        let (n, k, lo, hi) =
            (num(f[1], "disc count")?, num(f[2], "kind")?, num(f[3], "lower bound")?, num(f[4], "upper bound")?);
        if n != discs(&board) as i32 {
            return Err(bad(&format!("disc count {n} but the board has {}", discs(&board))));
        }
        if !(1..32).contains(&k) || !(-36..=36).contains(&lo) || !(lo..=36).contains(&hi) {
            return Err(bad("kind must be 1..31 and -36 <= lower <= upper <= 36"));
        }
        if n as u32 == discs_at {
            out.push(Restart { board: board.canonical(), kinds: k as u8, lower: lo, upper: hi });
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_selection_keeps_the_taken_slots_key() {
        let m: Vec<Square> = (0..5).map(Square::from_index).collect();
        // Largest key at slot 1: taken first; slot 1 then holds move 4 with the largest
        // key still, so move 4 comes second, then move 3 (moved into slot 1), ...
        let order = published_order(&m, &[5, 9, 1, 7, 3]);
        let idx: Vec<usize> = order.iter().map(|s| s.index()).collect();
        assert_eq!(idx, vec![1, 4, 3, 2, 0]);
    }

    #[test]
    fn the_line_is_the_published_game_with_one_pass() {
        let l = line_positions();
        assert_eq!(l.len(), 33, "4..=36 discs");
        assert_eq!(l[&4], Board::start().canonical());
        assert!(l.contains_key(&36));
    }

    #[test]
    fn stability_counts_the_ring_as_stable() {
        // b2 alone (a 6x6 corner) is stable; c3 alone is not.
        assert_eq!(stable_discs(1 << 9, 1 << 18), 1);
        assert_eq!(stable_discs(1 << 18, 1 << 27), 0);
    }
}
