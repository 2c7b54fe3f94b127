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

/// Stable discs of `p` (against `o`) on the board whose playable squares are `mask`.
pub fn stable_discs(p: u64, o: u64, mask: u64) -> u64 {
    let filled = p | o | !mask;
    let [rows, cols, d9, d7] = full_lines(filled);
    let wall = !mask;
    let mut stable = p & rows & cols & d9 & d7;
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

    #[test]
    fn corners_are_stable() {
        assert_eq!(stable_discs(1, 2, u64::MAX) & 1, 1);
        assert_eq!(stable_discs(2, 1, u64::MAX), 0);
    }
}
