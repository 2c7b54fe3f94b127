//! E: a position's estimated value, used to choose which moves to prove (never as proof).
//!
//! On 8x8 it is the published rule over solvo's trained evaluation: the static value
//! `v`; when `|v| > 10` that is the estimate, otherwise an alpha-beta search of the given
//! depth (2 in the published run) with the evaluation at its leaves and the window
//! `[min(-3, v), max(3, v)]`. Boards without trained weights (6x6, 4x4) use a small
//! hand-made evaluation (corners, mobility, discs) with the same search. Estimates are
//! rounded to even values, the only values a board takes.

use crate::goal::even;
use solvo_eval::{Weights, SCALE};
use solvo_othello::{Board, BoardSize, Variant};
use solvo_othello_search::{eval_alphabeta, EvalSearch};
use std::sync::Arc;

/// The estimator: a board size, an evaluation and a search depth.
#[derive(Clone)]
pub struct Estimator {
    size: BoardSize,
    weights: Option<Arc<Weights>>,
    depth: u32,
}

impl Estimator {
    /// The estimator for `size` with search depth `depth`: the embedded trained weights
    /// on 8x8, the hand-made evaluation elsewhere.
    pub fn new(size: BoardSize, depth: u32) -> Estimator {
        let weights = match size {
            BoardSize::Eight => solvo_eval::embedded_shared(Variant::Normal).ok(),
            _ => None,
        };
        Estimator { size, weights, depth }
    }

    /// The estimate of `b` for its side to move (even, within the board's range).
    pub fn estimate(&self, b: &Board) -> i32 {
        let m = self.size.squares() as i32;
        let v = self.static_value(b);
        let e = if v.abs() > 10 && self.weights.is_some() {
            v
        } else {
            self.search(b, self.depth, (-3).min(v) - 1, 3.max(v) + 1)
        };
        even(e).clamp(-m, m)
    }

    /// The static evaluation in discs (side to move).
    pub fn static_value(&self, b: &Board) -> i32 {
        match &self.weights {
            Some(w) => w.evaluate(b.player, b.opponent) / SCALE,
            None => self.handmade(b),
        }
    }

    fn handmade(&self, b: &Board) -> i32 {
        let mask = self.size.mask();
        let side = u32::from(self.size.side());
        let off = u32::from(self.size.offset());
        let (lo, hi) = (off, off + side - 1);
        let corners: u64 = [(lo, lo), (lo, hi), (hi, lo), (hi, hi)].iter().map(|&(r, c)| 1u64 << (8 * r + c)).sum();
        let corner = (b.player & corners).count_ones() as i32 - (b.opponent & corners).count_ones() as i32;
        let mob = b.moves(self.size).count_ones() as i32 - b.pass().moves(self.size).count_ones() as i32;
        let discs = (b.player & mask).count_ones() as i32 - (b.opponent & mask).count_ones() as i32;
        4 * corner + mob + discs / 4
    }

    /// Fail-soft alpha-beta over the static evaluation, exact at game ends, a pass free.
    fn search(&self, b: &Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        eval_alphabeta(&mut StaticSearch(self), b.player, b.opponent, self.size.mask(), depth, alpha, beta)
    }
}

/// The estimator's static value as an [`EvalSearch`]: a pass is free, a finished game
/// its final score, nothing counted.
struct StaticSearch<'a>(&'a Estimator);

impl EvalSearch for StaticSearch<'_> {
    const PASS_IS_PLY: bool = false;

    fn leaf(&mut self, p: u64, o: u64) -> i32 {
        self.0.static_value(&Board { player: p, opponent: o })
    }
    fn terminal(&mut self, p: u64, o: u64) -> i32 {
        Board { player: p, opponent: o }.final_score(self.0.size)
    }
    fn visit(&mut self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn estimates_are_even_and_in_range_and_exact_at_the_end() {
        for size in BoardSize::ALL {
            let e = Estimator::new(size, 2);
            let v = e.estimate(&Board::start());
            assert_eq!(v % 2, 0);
            assert!(v.abs() <= size.squares() as i32);
        }
        // A finished 4x4 game: the estimate is the final score.
        let b = Board { player: BoardSize::Four.mask(), opponent: 0 };
        assert_eq!(Estimator::new(BoardSize::Four, 2).estimate(&b), 16);
    }
}
