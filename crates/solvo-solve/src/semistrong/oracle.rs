//! The oracle of the semi-strong walk: the exact value and a best move of a node, by
//! the endgame solver, with symmetric moves searched once.
//!
//! The endgame solver's table does not know symmetries, so on a symmetric position
//! (the start: its four moves all lead to the same canonical position) a plain solve
//! proves every copy of the best move no better than the first, which on 6x6 costs
//! several times the solve of one child. Here, when two moves of a position lead to
//! the same canonical position, the oracle solves one child per class instead: the
//! first exactly (from the guess), every further one only as far as a null window at
//! the best value so far, and exactly when it is better.
//!
//! Each child solved exactly is recorded at once (an exact record without kinds, like
//! the oracle's own result), and a child the store already knows exactly is not solved
//! again: a run killed during the long first solves near the root keeps each finished
//! one.

use super::{Run, SemiError};
use crate::reopening::{play, Next};
use crate::store::Record;
use solvo_othello::{Board, Square};
use solvo_othello_search::Window;

impl Run<'_> {
    /// Exact value of `b` (its side to move can move) and a best move, from `guess`
    /// (an estimate that only steers the cost).
    pub(super) fn oracle(&mut self, b: Board, guess: i32) -> Result<(i32, Option<Square>), SemiError> {
        let moves = b.moves(self.size);
        let mut classes: Vec<Board> = Vec::new();
        let mut distinct = Vec::new();
        for sq in Square::iter(moves) {
            let c = b.play_with_flips(sq, b.flips(sq)).canonical();
            if !classes.contains(&c) {
                classes.push(c);
                distinct.push(sq);
            }
        }
        if distinct.len() == moves.count_ones() as usize {
            return Ok(self.solve_exact(b, guess));
        }
        let max = self.size.squares() as i32;
        let mut best: Option<(i32, Square)> = None;
        for sq in distinct {
            let (q, negate) = match play(&b, sq, self.size, self.variant) {
                Next::End(v) => {
                    if best.is_none_or(|(bv, _)| v > bv) {
                        best = Some((v, sq));
                    }
                    continue;
                }
                Next::Position { board, negate } => (board, negate),
            };
            let sign = if negate { -1 } else { 1 };
            if let Some(v) = self.lookup(&q)?.and_then(|r| r.value()) {
                let v = sign * v as i32;
                if best.is_none_or(|(bv, _)| v > bv) {
                    best = Some((v, sq));
                }
                continue;
            }
            let lower = match best {
                None => None,
                Some((bv, _)) if bv >= max => continue,
                Some((bv, _)) => {
                    // Is the move better than bv for b's mover? A null window at bv + 1.
                    let edge = sign * (bv + 1);
                    let (lo, hi, _) = self.solve(q, Window { lo: edge, hi: edge });
                    let mover_lo = if negate { -hi } else { lo };
                    if mover_lo <= bv {
                        continue;
                    }
                    Some(mover_lo)
                }
            };
            let (v, m) = self.solve_exact(q, sign * lower.unwrap_or(guess));
            if q.empties(self.size) > self.opts.min_empties {
                self.record(&q, Record::exact(v as i8, 0, m), false)?;
            }
            best = Some((sign * v, sq));
        }
        let (v, m) = best.expect("a position whose side can move has a move");
        Ok((v, Some(m)))
    }
}
