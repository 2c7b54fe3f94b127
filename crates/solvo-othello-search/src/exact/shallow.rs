//! The last few empties: no transposition table, no sorting. Squares in quadrants with
//! an odd number of empties go first (parity). From 4 empties up a node generates its
//! legal moves once (FFO #41-#42 under cachegrind: 17.7% fewer mispredicted branches
//! and 1.9% fewer instructions than trying every empty square); with 3 and 2 empties
//! each square is tried directly (an adjacent opponent disc, then its flips), which
//! measured cheaper there; the last empty square is scored by counting the flips of the
//! last move without playing it.

use super::stability::stability_cutoff;
use solvo_othello::rules::{Rules, SCORE_INF};

use solvo_othello::flips::flips;
use solvo_othello::moves::legal_moves;

/// The 4 quadrants of the 8x8 grid.
const QUADRANTS: [u64; 4] =
    [0x0000_0000_0F0F_0F0F, 0x0000_0000_F0F0_F0F0, 0x0F0F_0F0F_0000_0000, 0xF0F0_F0F0_0000_0000];

/// The (up to 8) squares adjacent to each square.
static NEIGHBOURS: [u64; 64] = {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq as i32 / 8, sq as i32 % 8);
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (rr, cc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && rr >= 0 && rr < 8 && cc >= 0 && cc < 8 {
                    t[sq] |= 1 << (rr * 8 + cc);
                }
                dc += 1;
            }
            dr += 1;
        }
        sq += 1;
    }
    t
};

/// Bit `q` set when quadrant `q` holds an odd number of the `empties`.
#[inline(always)]
fn parity_of(empties: u64) -> u8 {
    let mut parity = 0;
    for (q, mask) in QUADRANTS.iter().enumerate() {
        parity |= (((empties & mask).count_ones() & 1) as u8) << q;
    }
    parity
}

/// `QUADRANT_BIT[sq]`: the parity bit of the quadrant of square `sq`.
static QUADRANT_BIT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = 1 << ((sq / 32) * 2 + (sq % 8) / 4);
        sq += 1;
    }
    t
};

/// The squares next to a corner (C and X squares) on 8x8: b1, g1, a2, b2, g2, h2, a7,
/// b7, g7, h7, b8, g8. Tried last at a shallow node (and by the selective search's nodes
/// next to the leaves).
pub(crate) const NEXT_TO_CORNERS: u64 = 0x42C3_0000_0000_C342;

/// `ODD_SQUARES[parity]`: the union of the quadrants whose bit is set in `parity`.
static ODD_SQUARES: [u64; 16] = {
    let mut t = [0u64; 16];
    let mut parity = 0;
    while parity < 16 {
        let mut q = 0;
        while q < 4 {
            if parity >> q & 1 == 1 {
                t[parity] |= QUADRANTS[q];
            }
            q += 1;
        }
        parity += 1;
    }
    t
};

/// The union of the quadrants holding an odd number of the `empties`.
#[inline(always)]
pub fn odd_quadrants(empties: u64) -> u64 {
    ODD_SQUARES[parity_of(empties) as usize & 15]
}

/// Number of discs flipped along one line by playing at position `pos` of the line when
/// the player's discs on the line are `bits` (bit `i` = square `i` of the line) and
/// every other square of the line is the opponent's (the board is full but for the
/// move). Squares past the end of a short line read as 0 (opponent) and are never
/// closed by a player disc, so one table serves lines of every length.
static LAST_FLIP_COUNT: [[u8; 256]; 8] = {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut bits = 0;
        while bits < 256 {
            let mut n = 0;
            // Upwards.
            let mut i = pos + 1;
            while i < 8 && bits >> i & 1 == 0 {
                i += 1;
            }
            if i < 8 {
                n += i - pos - 1;
            }
            // Downwards.
            let mut j = pos as i32 - 1;
            while j >= 0 && bits >> j & 1 == 0 {
                j -= 1;
            }
            if j >= 0 {
                n += pos - j as usize - 1;
            }
            t[pos][bits] = n as u8;
            bits += 1;
        }
        pos += 1;
    }
    t
};

/// The 4 lines through each square (row, column, both diagonals), as masks.
static LINES: [[u64; 4]; 64] = {
    let mut t = [[0u64; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = (sq as i32 / 8, sq as i32 % 8);
        let mut other = 0;
        while other < 64 {
            let (rr, cc) = (other / 8, other % 8);
            if rr == r {
                t[sq][0] |= 1 << other;
            }
            if cc == c {
                t[sq][1] |= 1 << other;
            }
            if rr - cc == r - c {
                t[sq][2] |= 1 << other;
            }
            if rr + cc == r + c {
                t[sq][3] |= 1 << other;
            }
            other += 1;
        }
        sq += 1;
    }
    t
};

/// `LINE_POS[sq][i]`: the position of `sq` in its line `LINES[sq][i]` (the number of
/// the line's squares below it).
static LINE_POS: [[u8; 4]; 64] = {
    let mut t = [[0u8; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut i = 0;
        while i < 4 {
            t[sq][i] = (LINES[sq][i] & ((1u64 << sq) - 1)).count_ones() as u8;
            i += 1;
        }
        sq += 1;
    }
    t
};

/// Discs `p` flips by playing the last empty square `x` of a full 8x8 board (all other
/// squares are the opponent's). BMI2 `pext` gathers each line's bits for the table.
#[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
#[inline(always)]
fn last_flip_count(x: usize, p: u64) -> i32 {
    use core::arch::x86_64::_pext_u64;
    let x = x & 63;
    let mut n = 0;
    for (line, pos) in LINES[x].into_iter().zip(LINE_POS[x]) {
        // SAFETY: compiled only when the build enables BMI2; pext acts on registers.
        let bits = unsafe { _pext_u64(p, line) } as usize;
        n += LAST_FLIP_COUNT[pos as usize & 7][bits & 255] as i32;
    }
    n
}

/// Portable version of the same count.
#[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
#[inline(always)]
fn last_flip_count(x: usize, p: u64) -> i32 {
    flips(x, p, !p & !(1u64 << x)).count_ones() as i32
}

/// Exact score when exactly one square `x` is empty, `p` to move.
#[inline(always)]
pub fn last_one(rules: &Rules, p: u64, x: usize, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let np = p.count_ones() as i32;
    let normal = if rules.mask == u64::MAX {
        let n = last_flip_count(x, p);
        if n != 0 {
            2 * (np + n + 1) - 64
        } else {
            let o = !p & !(1u64 << x);
            let m = last_flip_count(x, o);
            if m != 0 {
                *nodes += 1;
                2 * (np - m) - 64
            } else {
                let diff = 2 * np - 63;
                diff + diff.signum()
            }
        }
    } else {
        last_one_small_board(rules, p, x, nodes)
    };
    rules.signed(normal)
}

/// [`last_one`] on a 6x6 or 4x4 board (normal score): flips are computed in full.
fn last_one_small_board(rules: &Rules, p: u64, x: usize, nodes: &mut u64) -> i32 {
    let o = rules.mask & !p & !(1u64 << x);
    let np = p.count_ones() as i32;
    let f = flips(x, p, o);
    if f != 0 {
        2 * (np + f.count_ones() as i32 + 1) - rules.squares
    } else {
        let g = flips(x, o, p);
        if g != 0 {
            *nodes += 1;
            2 * (np - g.count_ones() as i32) - rules.squares
        } else {
            // Nobody can fill the last square: it goes to the winner.
            let diff = 2 * np - (rules.squares - 1);
            diff + diff.signum()
        }
    }
}

/// Fail-soft negamax with exactly two empty squares `x1`, `x2`: both orders written
/// out, no move generation.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn solve_two(rules: &Rules, p: u64, o: u64, alpha: i32, beta: i32, x1: usize, x2: usize, nodes: &mut u64) -> i32 {
    *nodes += 1;
    let mut best = -SCORE_INF;
    if NEIGHBOURS[x1] & o != 0 {
        let f = flips(x1, p, o);
        if f != 0 {
            best = -last_one(rules, o ^ f, x2, nodes);
            if best >= beta {
                return best;
            }
        }
    }
    if NEIGHBOURS[x2] & o != 0 {
        let f = flips(x2, p, o);
        if f != 0 {
            return best.max(-last_one(rules, o ^ f, x1, nodes));
        }
    }
    if best > -SCORE_INF {
        return best;
    }
    // No move: the opponent plays, or the game is over.
    let mut best = SCORE_INF;
    let mut moved = false;
    for (x, y) in [(x1, x2), (x2, x1)] {
        if NEIGHBOURS[x] & p != 0 {
            let f = flips(x, o, p);
            if f != 0 {
                moved = true;
                *nodes += 1;
                best = best.min(last_one(rules, p ^ f, y, nodes));
                if best <= alpha {
                    return best;
                }
            }
        }
    }
    if moved {
        best
    } else {
        rules.final_score(p, o)
    }
}

/// Fail-soft negamax over the last `n` empties (`n >= 1`), `p` to move, window
/// `(alpha, beta)`, trying the stability cutoff at nodes with at least `stability_min`
/// empties (0: never; `gate`: only where it can succeed often, see
/// [`stability_cutoff`]). Counts every position visited in `nodes`.
#[allow(clippy::too_many_arguments)]
pub fn solve_shallow(
    rules: &Rules,
    p: u64,
    o: u64,
    alpha: i32,
    beta: i32,
    n: u32,
    stability_min: u32,
    gate: bool,
    nodes: &mut u64,
) -> i32 {
    // The common case (no stability cutoff here) gets its own copy without the test.
    if stability_min == 0 {
        Shallow::<false> { rules, stability_min, gate }.solve(p, o, alpha, beta, n, nodes)
    } else {
        Shallow::<true> { rules, stability_min, gate }.solve(p, o, alpha, beta, n, nodes)
    }
}

/// Defines `Shallow::$name`, the node with `$n` empties, whose children are solved by
/// `Shallow::$child`; each such level is a function of its own (inlining the
/// 4-empties one measured worse; the 3-empties node is inlined, see [`Shallow::three`]).
macro_rules! level_fn {
    ($name:ident, $n:literal, $child:ident) => {
        #[inline(never)]
        fn $name(&self, p: u64, o: u64, alpha: i32, beta: i32, parity: u8, nodes: &mut u64) -> i32 {
            self.level(p, o, alpha, beta, $n, parity, nodes, |p, o, a, b, parity, nodes| {
                self.$child(p, o, a, b, parity, nodes)
            })
        }
    };
}

/// The shallow solver's fixed parameters. Each number of empties up to 6 has its own
/// function calling the next one directly, so no node dispatches on its number of
/// empties (that dispatch was the most mispredicted branch of the solver). `STABILITY`:
/// whether the stability cutoff is tried at all (from `stability_min` empties).
struct Shallow<'a, const STABILITY: bool> {
    rules: &'a Rules,
    stability_min: u32,
    gate: bool,
}

impl<const STABILITY: bool> Shallow<'_, STABILITY> {
    /// The entry: dispatches once on the number of empties `n`.
    fn solve(&self, p: u64, o: u64, alpha: i32, beta: i32, n: u32, nodes: &mut u64) -> i32 {
        let rules = self.rules;
        let parity = parity_of(!(p | o) & rules.mask);
        match n {
            0 => {
                *nodes += 1;
                rules.final_score(p, o)
            }
            1 => last_one(rules, p, (!(p | o) & rules.mask).trailing_zeros() as usize, nodes),
            2 => self.two(p, o, alpha, beta, parity, nodes),
            3 => self.three(p, o, alpha, beta, parity, nodes),
            4 => self.four(p, o, alpha, beta, parity, nodes),
            5 => self.five(p, o, alpha, beta, parity, nodes),
            6 => self.six(p, o, alpha, beta, parity, nodes),
            _ => self.level(p, o, alpha, beta, n, parity, nodes, |p, o, a, b, _parity, nodes| {
                self.solve(p, o, a, b, n - 1, nodes)
            }),
        }
    }

    /// The stability cutoff at a node with `n` empties, when it is on from `n` empties.
    #[inline(always)]
    fn stability(&self, p: u64, o: u64, alpha: i32, n: u32) -> Option<i32> {
        if STABILITY && n >= self.stability_min {
            stability_cutoff(self.rules, p, o, alpha, self.gate.then_some(n))
        } else {
            None
        }
    }

    #[inline(always)]
    fn two(&self, p: u64, o: u64, alpha: i32, beta: i32, _parity: u8, nodes: &mut u64) -> i32 {
        let empties = !(p | o) & self.rules.mask;
        let x1 = empties.trailing_zeros() as usize;
        let x2 = 63 - empties.leading_zeros() as usize;
        solve_two(self.rules, p, o, alpha, beta, x1, x2, nodes)
    }

    /// The node with exactly 3 empties, written out: the squares are found once and
    /// passed down; the first square of an odd quadrant goes first, then the others by
    /// index ([`Shallow::level`] also puts the squares next to a corner last; here that
    /// saved 0.15% of the nodes of FFO #40-#49, 726.6 M against 727.7 M, for a longer
    /// node, so not kept). Inlined into its caller (a pass goes through [`Shallow::solve`], so it
    /// does not call itself): FFO #41-#42 under cachegrind, 18.57 G -> 18.38 G
    /// instructions.
    #[inline(always)]
    fn three(&self, p: u64, o: u64, alpha: i32, beta: i32, parity: u8, nodes: &mut u64) -> i32 {
        let rules = self.rules;
        *nodes += 1;
        if let Some(v) = self.stability(p, o, alpha, 3) {
            return v;
        }
        let empties = !(p | o) & rules.mask;
        // 3 empties: at least one quadrant is odd; its lowest square goes first, then
        // the other two by index.
        let x = (empties & ODD_SQUARES[parity as usize & 15]).trailing_zeros() as usize & 63;
        let rest = empties ^ (1 << x);
        let y = rest.trailing_zeros() as usize;
        let z = 63 - rest.leading_zeros() as usize;
        let mut best = -SCORE_INF;
        let mut alpha = alpha;
        macro_rules! try_move {
            ($m:expr, $r1:expr, $r2:expr) => {
                if NEIGHBOURS[$m] & o != 0 {
                    let f = flips($m, p, o);
                    if f != 0 {
                        let v = -solve_two(rules, o ^ f, p ^ f ^ (1 << $m), -beta, -alpha, $r1, $r2, nodes);
                        best = best.max(v);
                        if v >= beta {
                            return v;
                        }
                        alpha = alpha.max(v);
                    }
                }
            };
        }
        try_move!(x, y, z);
        try_move!(y, x.min(z), x.max(z));
        try_move!(z, x.min(y), x.max(y));
        if best > -SCORE_INF {
            best
        } else if legal_moves(o, p, rules.mask) != 0 {
            -self.solve(o, p, -beta, -alpha, 3, nodes)
        } else {
            rules.final_score(p, o)
        }
    }

    level_fn!(four, 4, three);
    level_fn!(five, 5, four);
    level_fn!(six, 6, five);

    /// One node with `n >= 4` empties (3 has [`Shallow::three`]); `child` solves the
    /// positions after a move.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn level(
        &self,
        p: u64,
        o: u64,
        alpha: i32,
        beta: i32,
        n: u32,
        parity: u8,
        nodes: &mut u64,
        child: impl Fn(u64, u64, i32, i32, u8, &mut u64) -> i32,
    ) -> i32 {
        let rules = self.rules;
        let empties = !(p | o) & rules.mask;
        *nodes += 1;
        if let Some(v) = self.stability(p, o, alpha, n) {
            return v;
        }
        let odd = ODD_SQUARES[parity as usize & 15];
        let mut best = -SCORE_INF;
        let mut alpha = alpha;
        let moves = legal_moves(p, o, empties);
        // Odd quadrants first; within each, the squares next to a corner last (FFO
        // #40-#49 741.4 M -> 727.7 M search nodes, FFO #45-#54 7.13 G -> 6.96 G, the
        // first 40 of hard-25 6.10 G -> 5.99 G; corners first as well: 729.3 M).
        let late = if rules.mask == u64::MAX { NEXT_TO_CORNERS } else { 0 };
        // One loop over the four sets: the next square is chosen by selects, so a node
        // ends its loop once (a loop per set mispredicted each exit; a list of the moves
        // built first cost as much time as the order saved: FFO #40-#49 21.3-22.0 s
        // against 20.9-21.4 s, where this loop takes 21.4-21.6 s against 21.8-22.2 s).
        let (mut s0, mut s1, mut s2, mut s3) =
            (moves & odd & !late, moves & odd & late, moves & !odd & !late, moves & !odd & late);
        while s0 | s1 | s2 | s3 != 0 {
            let set = if s0 != 0 {
                s0
            } else if s1 != 0 {
                s1
            } else if s2 != 0 {
                s2
            } else {
                s3
            };
            let x = set.trailing_zeros() as usize;
            let keep = !(1u64 << x);
            (s0, s1, s2, s3) = (s0 & keep, s1 & keep, s2 & keep, s3 & keep);
            let f = flips(x, p, o);
            let v = -child(o ^ f, p ^ f ^ (1 << x), -beta, -alpha, parity ^ QUADRANT_BIT[x], nodes);
            // Maxima by selects; only the cutoff branches.
            best = best.max(v);
            if v >= beta {
                return v;
            }
            alpha = alpha.max(v);
        }
        if moves != 0 {
            best
        } else if legal_moves(o, p, rules.mask) != 0 {
            // A pass: rare, so the general entry is good enough.
            -self.solve(o, p, -beta, -alpha, n, nodes)
        } else {
            rules.final_score(p, o)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_core::rng::Rng;

    #[test]
    fn parity_bits_follow_the_empties() {
        let mut rng = Rng::new(0x1234_5678_9abc_def1u64);
        for _ in 0..20_000 {
            let s = rng.next_u64();
            let x = (s >> 58) as usize;
            let odd = QUADRANTS.iter().filter(|&&q| (s & q).count_ones() % 2 == 1).fold(0, |a, q| a | q);
            assert_eq!(odd_quadrants(s), odd);
            assert_eq!(parity_of(s ^ (1 << x)), parity_of(s) ^ QUADRANT_BIT[x]);
        }
    }

    #[test]
    fn last_flip_count_matches_full_flips() {
        let mut rng = Rng::new(0x9876_5432_1fed_cba9);
        for _ in 0..20_000 {
            let s = rng.next_u64();
            let x = (s >> 58) as usize;
            let p = s & !(1u64 << x);
            let o = !p & !(1u64 << x);
            assert_eq!(last_flip_count(x, p), flips(x, p, o).count_ones() as i32, "x {x} p {p:#x}");
        }
    }
}
