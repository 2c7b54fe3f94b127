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
//! - **Choice at A' and C nodes**: a search of the node itself by the program's inner
//!   search (full window at A', the null window at `beta` at C), whose move is the
//!   first wipe-out in square order, else a child whose stored upper bound already
//!   proves the cut (first in square order), else the first move in the key order that
//!   cuts or reaches the best value ([`super::program`]).
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
//! - **Values below a stage's limit** come from the same inner search with its own
//!   table, fail-soft: a value outside the window is the bound it happened to prove, so
//!   what a program visits depends on everything it searched before. Each stage program
//!   is therefore run whole, in the published order ([`super::program::Program`]).

pub use super::program::Limits;
pub use super::program::{line_moves, line_positions, order_key, published_order, stable_count, Entry, PUBLISHED_LINE};
use super::program::{Program, RING};
use super::Counts;
use crate::store::kind;
use solvo_othello::Board;
use std::collections::{HashMap, HashSet};

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
    /// Stage programs run per stage (the first stage: 1, also when taken from a table).
    pub contexts: Vec<u64>,
    /// The restart positions each stage handed to the next (merged over its searches).
    pub restarts: Vec<Vec<Restart>>,
}

/// The stage program the published run started for `r` (its limits from its disc
/// count: 4, 10 or 18; see [`Limits::published`]), run whole: the unique positions it
/// visited per disc count and every one of them with its kinds and bounds, sorted by
/// board. Errors when `r` has another disc count.
pub fn run_restart(reopening: bool, r: &Restart) -> Result<(Counts, Vec<Restart>), String> {
    let n = discs(&r.board);
    let limits = Limits::published(reopening, n)
        .ok_or_else(|| format!("a published stage program starts at 4, 10 or 18 discs, not {n}"))?;
    let mut p = Program::new(reopening, limits);
    p.run(r.board, r.kinds, r.lower, r.upper);
    let mut counts = vec![0u64; 37];
    let mut all: Vec<Restart> = p
        .visited()
        .iter()
        .map(|(&board, e)| {
            counts[discs(&board) as usize] += 1;
            Restart { board, kinds: e.kinds, lower: i32::from(e.lower), upper: i32::from(e.upper) }
        })
        .collect();
    all.sort_by_key(|r| r.board);
    Ok((counts, all))
}

/// The published limits of a stage program starting with `start_discs` discs (4, 10 or
/// 18; `None` otherwise).
pub fn published_limits(reopening: bool, start_discs: u32) -> Option<Limits> {
    Limits::published(reopening, start_discs)
}

/// Converts the node kinds of a published plain table (`optimal-alphabeta`: 1 PV,
/// 2 ALL, 4 CUT) to [`crate::store::kind`] flags.
pub fn plain_kinds(code: u8) -> u8 {
    let mut k = 0;
    if code & 1 != 0 {
        k |= kind::P;
    }
    if code & 2 != 0 {
        k |= kind::A;
    }
    if code & 4 != 0 {
        k |= kind::C;
    }
    k
}

fn discs(b: &Board) -> u32 {
    (b.player | b.opponent).count_ones()
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

/// Counts the positions plain (`reopening == false`) or reopening alpha-beta visits on
/// 6x6 under the published rules, per disc count up to `max_discs` (rows beyond are
/// dropped; every stage program still runs whole, as the published one did, since what
/// it visits depends on everything it searched before).
///
/// `table`, when not empty, is the published program's reopening first-stage table
/// (positions with 4..=10 discs, their kinds and bounds): the reopening column then
/// takes its rows 4..=10 from it and starts the second stage from its 10-disc rows, as
/// the published run did (that first stage took about 36 hours on the published
/// machine). Without it every stage is run here. Plain alpha-beta always runs its own
/// first stage (to 18 discs). Stage programs run one after another in memory;
/// `progress` is called after each with (stage, programs done, of).
pub fn count_published(
    reopening: bool,
    max_discs: u32,
    table: &[Restart],
    progress: &mut dyn FnMut(usize, u64, u64),
) -> PublishedCounts {
    let mut visited: Vec<HashSet<Board>> = vec![HashSet::new(); 37];
    let mut out = PublishedCounts::default();
    let bounds = stage_boundaries(reopening);
    let keep = |visited: &mut Vec<HashSet<Board>>, p: &Program| {
        for b in p.visited().keys() {
            if discs(b) <= max_discs {
                visited[discs(b) as usize].insert(*b);
            }
        }
    };
    let at = |p: &Program, n: u32| -> Vec<Restart> {
        p.visited()
            .iter()
            .filter(|(b, _)| discs(b) == n)
            .map(|(&board, e)| Restart { board, kinds: e.kinds, lower: i32::from(e.lower), upper: i32::from(e.upper) })
            .collect()
    };
    // Stage 1.
    let mut restarts = if reopening && !table.is_empty() {
        for r in table {
            if discs(&r.board) <= max_discs.min(bounds[0]) {
                visited[discs(&r.board) as usize].insert(r.board);
            }
        }
        out.value = table.iter().find(|r| discs(&r.board) == 4).map_or(0, |r| r.lower);
        merge_restarts(table.iter().copied().filter(|r| discs(&r.board) == bounds[0]))
    } else {
        let limits = Limits::published(reopening, 4).expect("limits of the first stage");
        let mut p = Program::new(reopening, limits);
        out.value = p.outer_search(Board::start(), -36, 36, kind::P);
        keep(&mut visited, &p);
        progress(0, 1, 1);
        merge_restarts(at(&p, bounds[0]))
    };
    out.contexts.push(1);
    out.restarts.push(restarts.clone());
    for (stage, &from) in bounds.iter().enumerate() {
        // A stage's programs start at `from` and visit nothing else with `from` discs.
        if from >= max_discs {
            break;
        }
        let limits = Limits::published(reopening, from).expect("limits of a published stage");
        let mut next = Vec::new();
        let total = restarts.len() as u64;
        for (i, r) in restarts.iter().enumerate() {
            let mut p = Program::new(reopening, limits);
            p.run(r.board, r.kinds, r.lower, r.upper);
            keep(&mut visited, &p);
            if let Some(&to) = bounds.get(stage + 1) {
                next.extend(at(&p, to));
            }
            progress(stage + 1, i as u64 + 1, total);
        }
        out.contexts.push(total);
        restarts = merge_restarts(next);
        out.restarts.push(restarts.clone());
    }
    out.counts = visited.iter().map(|s| s.len() as u64).collect();
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
