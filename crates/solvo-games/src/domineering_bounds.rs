//! Move-count bounds that decide Domineering and Misère Domineering positions before the
//! board is full.
//!
//! For a player X (vertical or horizontal) on the current board:
//! - **at most** `most(X)` more moves: every domino of X lies inside a run of empty cells
//!   along X's direction and the dominoes are disjoint, so X can never make more than the
//!   sum over those runs of `floor(len / 2)` moves (cells only ever fill up);
//! - **at least** `least(X)` more turns with a move: the cells that no domino of the
//!   opponent covers now can never be covered by the opponent (cells only fill up). Along
//!   X's direction they form runs; a run of `len` cells cannot be made unplayable with
//!   fewer than `ceil((len - 1) / 3)` dominoes (a maximal packing leaves gaps of at most
//!   one cell), and one move of X — inside a run, or taking the end cell of a run with its
//!   other cell outside — lowers the sum of those minima by at most one, while the
//!   opponent cannot touch them. So X has a move on each of its next `least(X)` turns,
//!   however both sides play (X trying to run out included).
//!
//! With P to move and O the opponent (turns alternate P, O, P, ...):
//! - if `least(O) >= most(P)`, P will be unable to move by its turn `most(P) + 1` while O
//!   still could move on each of its turns before: P is the first player stuck;
//! - if `least(P) >= most(O) + 1`, O is the first player stuck.
//!
//! The player stuck first loses normal Domineering and wins the misère game. Both
//! conditions never hold together (they would give P both outcomes).

use crate::grid::Grid;

/// The moves-left bounds of both players.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MovesLeftBounds {
    /// Upper bounds on the moves each side can still make, `[vertical, horizontal]`.
    pub most: [u32; 2],
    /// Lower bounds on the turns each side will still have a move, `[vertical, horizontal]`.
    pub least: [u32; 2],
}

/// Over the maximal runs of `set` along columns (`vertical`) or rows, the sum of
/// `floor(len / 2)` (`pack`) or of `ceil((len - 1) / 3)` (`!pack`), bit-parallel on all
/// runs at once: each round takes the first cells of every run — two cells for one
/// domino (`pack`), or one domino after the first cell, three cells (`!pack`); a run left
/// with a single cell is dropped.
fn sum_runs(grid: &Grid, set: u64, vertical: bool, pack: bool) -> u32 {
    let (dr, dc) = if vertical { (1, 0) } else { (0, 1) };
    let mut s = set;
    let mut total = 0;
    while s != 0 {
        let starts = s & !grid.shift(s, dr, dc);
        let second = grid.shift(starts, dr, dc) & s;
        total += second.count_ones();
        let mut taken = starts | second;
        if !pack {
            taken |= grid.shift(second, dr, dc) & s;
        }
        s &= !taken;
    }
    total
}

/// The lower-left cells of the dominoes that fit on `empty` (vertical: the cell and the one
/// above; horizontal: the cell and the one to its right).
#[inline]
pub fn fits(grid: &Grid, empty: u64, vertical: bool) -> u64 {
    if vertical {
        empty & grid.shift(empty, -1, 0)
    } else {
        empty & grid.shift(empty, 0, -1)
    }
}

/// The bounds of the module documentation for the board with `occupied` cells covered.
pub fn move_bounds(grid: &Grid, occupied: u64) -> MovesLeftBounds {
    let empty = !occupied & grid.full();
    let mut most = [0; 2];
    let mut least = [0; 2];
    for (side, vertical) in [(0, true), (1, false)] {
        most[side] = sum_runs(grid, empty, vertical, true);
        // Cells the opponent (other orientation) covers with some placement now.
        let theirs = fits(grid, empty, !vertical);
        let covered = if vertical { theirs | grid.shift(theirs, 0, 1) } else { theirs | grid.shift(theirs, 1, 0) };
        least[side] = sum_runs(grid, empty & !covered, vertical, false);
    }
    MovesLeftBounds { most, least }
}

/// Whether the side to move (`vertical` or not) is decided to be the first player unable
/// to move (`Some(true)`), or its opponent is (`Some(false)`), by the bounds; `None`
/// when they do not decide.
pub fn first_stuck(grid: &Grid, occupied: u64, vertical: bool) -> Option<bool> {
    let b = move_bounds(grid, occupied);
    let (p, o) = if vertical { (0, 1) } else { (1, 0) };
    if b.least[o] >= b.most[p] {
        Some(true)
    } else if b.least[p] > b.most[o] {
        Some(false)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_core::rng::Rng;

    /// The bit-parallel run sums equal the formulas run by run.
    #[test]
    fn run_sums_match_the_formulas() {
        let grid = Grid::new(7, 7).unwrap();
        let mut rng = Rng::new(0x1234_5678_9ABC_DEF1);
        for _ in 0..2000 {
            let x = rng.next_u64();
            let set = x & (x >> 3) & grid.full();
            for vertical in [false, true] {
                let (mut most, mut least) = (0, 0);
                for line in 0..7 {
                    let mut run = 0;
                    for k in 0..=7 {
                        let inside =
                            k < 7 && set >> (if vertical { grid.index(k, line) } else { grid.index(line, k) }) & 1 != 0;
                        if inside {
                            run += 1;
                        } else {
                            most += run / 2;
                            least += (run + 1) / 3;
                            run = 0;
                        }
                    }
                }
                assert_eq!(sum_runs(&grid, set, vertical, true), most);
                assert_eq!(sum_runs(&grid, set, vertical, false), least);
            }
        }
    }
}
