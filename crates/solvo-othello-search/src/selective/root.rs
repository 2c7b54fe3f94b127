//! The root of a search: every legal move with its last value, one iteration of
//! principal variation search over them, and the aspiration windows of iterative
//! deepening.

use super::search::{SelectiveSearcher, INF};
use solvo_eval::SCALE;

/// A legal move at the root and what the last iteration learnt about it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RootMove {
    /// Square index of the move.
    pub sq: u8,
    /// Side to move after the move.
    pub p: u64,
    /// The other side after the move.
    pub o: u64,
    /// Value of the move for the root's side to move (search units): exact for the
    /// best move and, in all-moves mode, for every move; otherwise a bound.
    pub score: i32,
}

/// Half-width of the first aspiration window (search units: 2 discs).
pub const ASPIRATION: i32 = 2 * SCALE;

impl SelectiveSearcher<'_> {
    /// One iteration at the root to `depth` within `(alpha, beta)`. In `all_moves`
    /// mode every move is searched with the full window (every score exact). Moves
    /// are left sorted by their new scores, best first; the value is the best score
    /// (a fail-soft bound when outside the window). Meaningless once aborted.
    pub fn root_search(
        &mut self,
        moves: &mut [RootMove],
        mut alpha: i32,
        beta: i32,
        depth: u32,
        all_moves: bool,
    ) -> i32 {
        self.nodes += 1;
        let mut best = -INF;
        let mut best_index = 0;
        let mut searched = moves.len();
        for (i, slot) in moves.iter_mut().enumerate() {
            let m = *slot;
            let mut pv_search = true;
            let v = if all_moves {
                -self.pvs(m.p, m.o, -INF, INF, depth - 1, 1, true)
            } else if i == 0 {
                -self.pvs(m.p, m.o, -beta, -alpha, depth - 1, 1, true)
            } else {
                let v = -self.pvs(m.p, m.o, -alpha - 1, -alpha, depth - 1, 1, false);
                if v > alpha && v < beta {
                    -self.pvs(m.p, m.o, -beta, -alpha, depth - 1, 1, true)
                } else {
                    pv_search = false;
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            slot.score = v;
            if v > best {
                best = v;
                best_index = i;
                self.set_root_pv(m.sq, pv_search);
                if v > alpha && !all_moves {
                    alpha = v;
                    if v >= beta {
                        searched = i + 1;
                        break;
                    }
                }
            }
        }
        moves[..=best_index].rotate_right(1);
        moves[1..searched].sort_by_key(|m| -m.score);
        best
    }

    /// Iteration `depth` with aspiration windows around `guess` (the full window when
    /// `guess` is `None` or in all-moves mode): re-searched until the value is exact.
    pub fn aspirated(&mut self, moves: &mut [RootMove], depth: u32, guess: Option<i32>, all_moves: bool) -> i32 {
        let (mut lo, mut hi) = match guess {
            Some(g) if !all_moves => ((g - ASPIRATION).max(-INF), (g + ASPIRATION).min(INF)),
            _ => (-INF, INF),
        };
        let mut delta = ASPIRATION;
        let (mut failed_low, mut failed_high) = (false, false);
        loop {
            let v = self.root_search(moves, lo, hi, depth, all_moves);
            if self.aborted {
                return 0;
            }
            if v <= lo && lo > -INF {
                failed_low = true;
                delta *= 2;
                hi = (v + 1).min(INF);
                lo = (v - delta).max(-INF);
            } else if v >= hi && hi < INF {
                failed_high = true;
                delta *= 2;
                lo = (v - 1).max(-INF);
                hi = (v + delta).min(INF);
            } else {
                return v;
            }
            // A selective search may fail high, then low, on the same position (its
            // cuts depend on the window): the full window then ends the loop.
            if failed_low && failed_high {
                (lo, hi) = (-INF, INF);
            }
        }
    }
}
