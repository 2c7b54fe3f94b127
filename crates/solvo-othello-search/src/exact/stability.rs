//! Stable discs: discs that no sequence of moves can flip. Their count bounds the final
//! score, which lets a search stop early ("stability cutoff").
//!
//! The set found is a sound subset of the truly stable discs: a disc is taken as stable
//! when, on each of its 4 lines (row, column, 2 diagonals), the line is full, or one of
//! its two neighbours on that line is a wall (board edge, or off the small board) or a
//! disc of the same colour already proven stable. Iterating from nothing to the fixed
//! point only ever adds discs justified by discs added before.

const FILE_A: u64 = 0x0101_0101_0101_0101;
const FILE_H: u64 = 0x8080_8080_8080_8080;
const RANK_1: u64 = 0x0000_0000_0000_00FF;
const RANK_8: u64 = 0xFF00_0000_0000_0000;
const EDGE: u64 = FILE_A | FILE_H | RANK_1 | RANK_8;

/// The 15 diagonals in each direction (a1-h8 direction, then h1-a8 direction).
#[cfg(test)]
static DIAGONALS: [[u64; 15]; 2] = build_diagonals();

#[cfg(test)]
const fn build_diagonals() -> [[u64; 15]; 2] {
    let mut d = [[0u64; 15]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq / 8, sq % 8);
        d[0][7 + r - c] |= 1 << sq; // r - c constant: a1-h8 direction
        d[1][r + c] |= 1 << sq; // r + c constant: h1-a8 direction
        sq += 1;
    }
    d
}

/// Squares whose row, column and both diagonals are full, one set per line direction:
/// (rows, columns, a1-h8 diagonals, h1-a8 diagonals). `filled` must count off-board
/// squares as filled.
/// Squares whose diagonal (shift `s` = 9 or 7) is full from them to its end in the
/// direction of higher indices (`up`) or lower ones. `end` holds the squares with no
/// neighbour in that direction. Three doubling steps cover lines of up to 8 squares:
/// after the step of distance `d`, a square is kept when it and the `2d - 1` squares
/// after it are filled, or the line ends before; `end` grows to the squares within
/// `2d` steps of the line's end, so a shift that would cross to another diagonal is
/// only ever used where `end` already answers.
#[inline(always)]
fn full_towards(filled: u64, s: u32, mut end: u64, up: bool) -> u64 {
    let mut full = filled;
    let mut d = s;
    for _ in 0..3 {
        let next = if up { full >> d } else { full << d };
        full &= next | end;
        end |= if up { end >> d } else { end << d };
        d *= 2;
    }
    full
}

/// The squares of full lines: [rows, columns, a1-h8 diagonals, h1-a8 diagonals].
#[inline]
fn full_lines(filled: u64) -> [u64; 4] {
    let mut h = filled;
    h &= h >> 1;
    h &= h >> 2;
    h &= h >> 4;
    let rows = (h & FILE_A).wrapping_mul(0xFF);
    let mut v = filled;
    v &= v.rotate_right(8);
    v &= v.rotate_right(16);
    v &= v.rotate_right(32);
    // +9 goes up a row and right a column; +7 up a row and left a column.
    let d9 = full_towards(filled, 9, FILE_H | RANK_8, true) & full_towards(filled, 9, FILE_A | RANK_1, false);
    let d7 = full_towards(filled, 7, FILE_A | RANK_8, true) & full_towards(filled, 7, FILE_H | RANK_1, false);
    [rows, v, d9, d7]
}

/// Flips along one line of 8 squares by playing square `x` for `me` against `other`
/// (bit `i` = square `i` of the line).
const fn line_flips(me: u32, other: u32, x: u32) -> u32 {
    let mut f = 0;
    let mut dir = 0;
    while dir < 2 {
        let mut run = 0;
        let mut i = x as i32;
        loop {
            i += if dir == 0 { 1 } else { -1 };
            if i < 0 || i > 7 || (me | other) >> i & 1 == 0 {
                break;
            }
            if me >> i & 1 == 1 {
                f |= run;
                break;
            }
            run |= 1 << i;
        }
        dir += 1;
    }
    f
}

/// `EDGE_STABLE[me << 8 | other]`: the discs of `me` on a board edge (8 squares, bit
/// `i` = square `i` along the edge) that no sequence of moves on that edge can flip,
/// whoever plays each empty square and in whatever order. A disc on an edge can only be
/// flipped along it (its other lines end at the wall beside it), so these discs are
/// stable: the table is the fixed point of "stable now = mine now, and stable after
/// every move either side can make on the edge", filled from full edges up.
static EDGE_STABLE: [u8; 1 << 16] = {
    let mut t = [0u8; 1 << 16];
    let mut empties = 0;
    while empties <= 8 {
        let mut me = 0u32;
        while me < 256 {
            let mut other = 0u32;
            while other < 256 {
                let empty = !(me | other) & 0xFF;
                if me & other == 0 && empty.count_ones() == empties {
                    let mut stable = me;
                    let mut x = 0;
                    while x < 8 {
                        if empty >> x & 1 == 1 {
                            // Either side may fill `x`, flipping what it brackets.
                            let f = line_flips(me, other, x);
                            let (m1, o1) = (me | f | 1 << x, other & !f);
                            stable &= t[(m1 << 8 | o1) as usize] as u32;
                            let g = line_flips(other, me, x);
                            let (m2, o2) = (me & !g, other | g | 1 << x);
                            stable &= t[(m2 << 8 | o2) as usize] as u32;
                        }
                        x += 1;
                    }
                    t[(me << 8 | other) as usize] = stable as u8;
                }
                other += 1;
            }
            me += 1;
        }
        empties += 1;
    }
    t
};

/// The discs of `p` (against `o`) on the four edges of the full 8x8 board that moves
/// along their edge can never flip ([`EDGE_STABLE`]).
#[inline(always)]
fn edge_stable(p: u64, o: u64) -> u64 {
    let look = |me: u64, other: u64| u64::from(EDGE_STABLE[((me & 0xFF) << 8 | (other & 0xFF)) as usize]);
    let bottom = look(p, o);
    let top = look(p >> 56, o >> 56) << 56;
    let left = spread_file_a(look(gather_file_a(p), gather_file_a(o)));
    let right = spread_file_a(look(gather_file_a(p >> 7), gather_file_a(o >> 7))) << 7;
    bottom | top | left | right
}

/// The 8 squares of file A of `b` as a byte (bit `i` = rank `i + 1`).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn gather_file_a(b: u64) -> u64 {
    // SAFETY: compiled only when the build enables BMI2; pext acts on registers.
    unsafe { core::arch::x86_64::_pext_u64(b, FILE_A) }
}

/// The byte `bits` laid out on file A (the inverse of [`gather_file_a`]).
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn spread_file_a(bits: u64) -> u64 {
    // SAFETY: compiled only when the build enables BMI2; pdep acts on registers.
    unsafe { core::arch::x86_64::_pdep_u64(bits, FILE_A) }
}

/// Portable [`gather_file_a`]: each rank's A square shifted into its bit.
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn gather_file_a(b: u64) -> u64 {
    (0..8).fold(0, |acc, r| acc | (b >> (8 * r) & 1) << r)
}

/// Portable [`spread_file_a`].
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn spread_file_a(bits: u64) -> u64 {
    (0..8).fold(0, |acc, r| acc | (bits >> r & 1) << (8 * r))
}

/// Stable discs of `p` (against `o`) on the board whose playable squares are `mask`.
pub fn stable_discs(p: u64, o: u64, mask: u64) -> u64 {
    let filled = p | o | !mask;
    let [rows, cols, d9, d7] = full_lines(filled);
    let wall = !mask;
    // On the full board the edges' own stable discs start the search (the loop below
    // would reach those held from a corner one square per round, and never those an
    // edge keeps by its own shape); a smaller board's edges are not the 8x8 edges.
    let edges = if mask == u64::MAX { edge_stable(p, o) } else { 0 };
    grow_stable(p, (p & rows & cols & d9 & d7) | edges, [rows, cols, d9, d7], wall)
}

/// The rounds of the stable-disc search: from the discs of `p` already known stable,
/// adds each disc of `p` whose four lines (`lines`: the full ones, as [`full_lines`]
/// gives them) are each full or hold a wall (`wall`, or the board's edge) or a stable
/// disc of `p` beside it, until no disc is added.
#[inline(always)]
fn grow_stable(p: u64, mut stable: u64, lines: [u64; 4], wall: u64) -> u64 {
    let [rows, cols, d9, d7] = lines;
    loop {
        let s = stable | wall;
        let h = rows | FILE_A | FILE_H | ((s << 1) & !FILE_A) | ((s >> 1) & !FILE_H);
        let v = cols | RANK_1 | RANK_8 | (s << 8) | (s >> 8);
        let a = d9 | EDGE | ((s << 9) & !FILE_A) | ((s >> 9) & !FILE_H);
        let b = d7 | EDGE | ((s << 7) & !FILE_H) | ((s >> 7) & !FILE_A);
        let next = stable | (p & h & v & a & b);
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The stability bound, when it already decides a node searched with lower bound
/// `alpha`: the opponent's stable discs cap our score (in the reversed variant our own
/// stable discs do). `Some(upper)` with `upper <= alpha` proves a fail low.
///
/// With `empties` given, the search is not tried when it would need more stable discs
/// than positions with that many empties usually have (33 - empties below 10 empties,
/// 32 - empties from 10: an empirical gate, as in Edax; it only skips work).
#[inline]
pub fn stability_cutoff(
    rules: &solvo_othello::rules::Rules,
    p: u64,
    o: u64,
    alpha: i32,
    empties: Option<u32>,
) -> Option<i32> {
    let squares = rules.squares;
    if let Some(n) = empties {
        let usual = if n < 10 { 33 - n as i32 } else { 32 - n as i32 };
        if squares - alpha > 2 * usual {
            return None;
        }
    }
    let capped_by = if rules.reversed { p } else { o };
    // Even if every one of those discs were stable the cap could not reach alpha.
    if squares - 2 * capped_by.count_ones() as i32 > alpha {
        return None;
    }
    let stable = if rules.reversed { stable_discs(p, o, rules.mask) } else { stable_discs(o, p, rules.mask) };
    let upper = squares - 2 * stable.count_ones() as i32;
    (upper <= alpha).then_some(upper)
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_core::rng::Rng;

    /// The full diagonals found one line at a time (the reference for `full_lines`).
    fn full_diagonals_by_line(filled: u64) -> [u64; 2] {
        let mut diag = [0u64; 2];
        for (k, dirs) in DIAGONALS.iter().enumerate() {
            for &line in dirs {
                if filled & line == line {
                    diag[k] |= line;
                }
            }
        }
        diag
    }

    #[test]
    fn full_diagonals_match_the_line_by_line_reference() {
        let mut rng = Rng::new(0x2545_f491_4f6c_dd1d);
        for i in 0..200_000 {
            let s = rng.next_u64();
            // Dense boards, so that full diagonals are common.
            let filled = if i % 2 == 0 { s | s.rotate_left(17) | s.rotate_left(31) } else { s | s.rotate_left(23) };
            let [_, _, d9, d7] = full_lines(filled);
            assert_eq!([d9, d7], full_diagonals_by_line(filled), "{filled:#x}");
        }
        assert_eq!(full_lines(u64::MAX)[2], u64::MAX);
        assert_eq!(full_lines(u64::MAX)[3], u64::MAX);
    }
    use solvo_othello::flips::flips;

    /// A disc reported stable is never flipped by any legal move in a random playout.
    #[test]
    fn stable_discs_are_never_flipped_in_random_games() {
        let mut rng = Rng::new(0x1234_5678);
        let mut rnd = || rng.next_u64();
        for mask in [u64::MAX, 0x007E_7E7E_7E7E_7E00] {
            for _ in 0..300 {
                let (mut p, mut o) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
                let mut stable_p = 0;
                let mut stable_o = 0;
                loop {
                    let m = solvo_othello::moves::legal_moves(p, o, mask);
                    if m == 0 {
                        if solvo_othello::moves::legal_moves(o, p, mask) == 0 {
                            break;
                        }
                        std::mem::swap(&mut p, &mut o);
                        std::mem::swap(&mut stable_p, &mut stable_o);
                        continue;
                    }
                    let k = (rnd() % m.count_ones() as u64) as u32;
                    let mut mm = m;
                    for _ in 0..k {
                        mm &= mm - 1;
                    }
                    let x = mm.trailing_zeros() as usize;
                    let f = flips(x, p, o);
                    assert_eq!(f & stable_o, 0, "a stable disc was flipped");
                    let (np, no) = (o ^ f, p ^ f ^ (1 << x));
                    p = np;
                    o = no;
                    std::mem::swap(&mut stable_p, &mut stable_o);
                    stable_p |= stable_discs(p, o, mask);
                    stable_o |= stable_discs(o, p, mask);
                    assert_eq!(stable_p & !p, 0);
                    assert_eq!(stable_o & !o, 0);
                }
            }
        }
    }

    /// The rounds of [`stable_discs`] on the full board started from the full-line
    /// discs alone (no edge table); panics unless the search with the table keeps
    /// every disc this one finds.
    fn stable_without_edge_table(p: u64, o: u64) -> u64 {
        let lines = full_lines(p | o);
        let [rows, cols, d9, d7] = lines;
        let stable = grow_stable(p, p & rows & cols & d9 & d7, lines, 0);
        assert_eq!(stable & !stable_discs(p, o, u64::MAX), 0, "the edge table lost a disc");
        stable
    }

    /// Every edge disc the table calls stable survives random sequences of placements on
    /// its edge by either side, played on rank 1 of an otherwise empty board by the
    /// board's own [`flips`] (not the table's `line_flips`), so each flips what it
    /// brackets along the edge.
    #[test]
    fn edge_table_discs_survive_every_random_edge_line() {
        let mut rng = Rng::new(0x0ed9_e5ab_1e00_0001);
        for _ in 0..20_000 {
            let r = rng.next_u64();
            let (mut me, mut other) = ((r & 0xFF) as u32, ((r >> 8) & 0xFF) as u32);
            other &= !me;
            let stable = u32::from(EDGE_STABLE[(me << 8 | other) as usize]);
            assert_eq!(stable & !me, 0);
            for step in 0..8 {
                let empty = !(me | other) & 0xFF;
                if empty == 0 {
                    break;
                }
                let k = (r >> (16 + 4 * step)) as u32 % empty.count_ones();
                let mut e = empty;
                for _ in 0..k {
                    e &= e - 1;
                }
                let x = e.trailing_zeros();
                if rng.next_u64() & 1 == 0 {
                    let f = flips(x as usize, u64::from(me), u64::from(other)) as u32;
                    (me, other) = (me | f | 1 << x, other & !f);
                } else {
                    let g = flips(x as usize, u64::from(other), u64::from(me)) as u32;
                    (me, other) = (me & !g, other | g | 1 << x);
                }
                assert_eq!(stable & !me, 0, "a disc the edge table calls stable was flipped");
            }
        }
    }

    #[test]
    fn the_edge_table_holds_runs_from_a_corner_and_no_bracketed_run() {
        // `P P P . O . . .`: the run from a1 is stable in one look-up.
        let (p, o) = (0b0000_0111u64, 0b0001_0000u64);
        assert_eq!(EDGE_STABLE[(p << 8 | o) as usize], 0b0000_0111);
        assert_eq!(stable_discs(p, o, u64::MAX) & 0xFF, 0b0000_0111);
        // `. O P P O . . .`: P can flip e1 by playing f1, and then O at g1 takes c1-f1.
        let (p, o) = (0b0000_1100u64, 0b0001_0010u64);
        assert_eq!(EDGE_STABLE[(p << 8 | o) as usize], 0);
        // The search with the table keeps every disc the search without it finds.
        let mut rng = Rng::new(77);
        for _ in 0..2_000 {
            let (a, b) = (rng.next_u64() | rng.next_u64(), rng.next_u64());
            let (p, o) = (a & !b, b & !a);
            stable_without_edge_table(p, o);
        }
    }

    #[test]
    fn corners_are_stable() {
        assert_eq!(stable_discs(1, 2, u64::MAX) & 1, 1);
        assert_eq!(stable_discs(2, 1, u64::MAX), 0);
    }
}
