//! The last few empties: no transposition table, no sorting. Moves are tried square by
//! square over the empty squares (no move generation), squares in quadrants with an
//! odd number of empties first (parity), and the last empty square is scored by
//! counting the flips of the last move without playing it.

use crate::rules::{Rules, SCORE_INF};
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

/// The union of the quadrants holding an odd number of the `empties`.
#[inline(always)]
pub fn odd_quadrants(empties: u64) -> u64 {
    let mut odd = 0;
    for q in QUADRANTS {
        if (empties & q).count_ones() & 1 == 1 {
            odd |= q;
        }
    }
    odd
}

/// Exact score when exactly one square `x` is empty, `p` to move.
#[inline(always)]
pub fn last_one(rules: &Rules, p: u64, x: usize, nodes: &mut u64) -> i32 {
    let o = rules.mask & !p & !(1u64 << x);
    let np = p.count_ones() as i32;
    let f = flips(x, p, o);
    *nodes += 1;
    let normal = if f != 0 {
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
    };
    rules.signed(normal)
}

/// Fail-soft negamax over the last `n` empties (`n >= 1`), `p` to move, window
/// `(alpha, beta)`. Counts every position visited in `nodes`.
pub fn solve_shallow(rules: &Rules, p: u64, o: u64, alpha: i32, beta: i32, n: u32, nodes: &mut u64) -> i32 {
    let empties = !(p | o) & rules.mask;
    if n == 1 {
        return last_one(rules, p, empties.trailing_zeros() as usize, nodes);
    }
    *nodes += 1;
    let odd = odd_quadrants(empties);
    let mut best = -SCORE_INF;
    let mut alpha = alpha;
    let mut moved = false;
    for set in [empties & odd, empties & !odd] {
        let mut set = set;
        while set != 0 {
            let x = set.trailing_zeros() as usize;
            set &= set - 1;
            // A move needs an adjacent opponent disc: a cheap test before the flips.
            if NEIGHBOURS[x] & o == 0 {
                continue;
            }
            let f = flips(x, p, o);
            if f == 0 {
                continue;
            }
            moved = true;
            let v = -solve_shallow(rules, o ^ f, p ^ f ^ (1 << x), -beta, -alpha, n - 1, nodes);
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
                if v > alpha {
                    alpha = v;
                }
            }
        }
    }
    if moved {
        best
    } else if legal_moves(o, p, rules.mask) != 0 {
        -solve_shallow(rules, o, p, -beta, -alpha, n, nodes)
    } else {
        rules.final_score(p, o)
    }
}
