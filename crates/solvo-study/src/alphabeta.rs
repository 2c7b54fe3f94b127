//! The study's depth-limited alpha-beta (negamax, fail-soft) on the feature
//! evaluation, with or without pre-sorting the moves by a shallow search (the
//! evaluation of each child, as the report's depth-1 pre-sort). Finished games score
//! their final disc difference under the variant, far above any evaluation.

use crate::features::FeatureWeights;
use solvo_othello::{Board, BoardSize, Square, Variant};

/// A finished game's score per disc: above any evaluation.
const WIN_UNIT: i32 = 1_000_000;

/// The search of one move.
pub struct AlphaBeta<'a> {
    /// The evaluation.
    pub weights: &'a FeatureWeights,
    /// The scoring rule of finished games.
    pub variant: Variant,
    /// Sort the moves by the child's evaluation before searching them.
    pub presort: bool,
    /// Nodes visited so far.
    pub nodes: u64,
}

impl AlphaBeta<'_> {
    /// The best move of `board` (8x8, side to move has a move) searched `depth` plies,
    /// and its value; `None` when the side to move must pass or the game is over.
    pub fn best_move(&mut self, board: &Board, depth: u32) -> Option<(Square, i32)> {
        let mut moves = self.ordered(board);
        if moves.is_empty() {
            return None;
        }
        let mut best = (moves[0].0, i32::MIN + 1);
        let mut alpha = i32::MIN + 1;
        for (sq, child) in moves.drain(..) {
            let v = -self.negamax(&child, depth.saturating_sub(1), -i32::MAX, -alpha);
            if v > best.1 {
                best = (sq, v);
                alpha = alpha.max(v);
            }
        }
        Some(best)
    }

    /// The children of `board`, best first by their evaluation when pre-sorting.
    fn ordered(&mut self, board: &Board) -> Vec<(Square, Board)> {
        let size = BoardSize::Eight;
        let mut moves: Vec<(Square, Board)> =
            Square::iter(board.moves(size)).map(|sq| (sq, board.play(sq, size).expect("a legal move"))).collect();
        if self.presort {
            self.nodes += moves.len() as u64;
            moves.sort_by_cached_key(|(_, child)| self.weights.evaluate(child));
        }
        moves
    }

    fn negamax(&mut self, board: &Board, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        let size = BoardSize::Eight;
        if board.moves(size) == 0 {
            let passed = board.pass();
            if passed.moves(size) == 0 {
                return self.variant.apply(board.final_score(size)) * WIN_UNIT;
            }
            return -self.negamax(&passed, depth, -beta, -alpha);
        }
        if depth == 0 {
            return self.weights.evaluate(board);
        }
        let mut best = i32::MIN + 1;
        for (_, child) in self.ordered(board) {
            let v = -self.negamax(&child, depth - 1, -beta, -alpha);
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presorting_changes_the_cost_not_the_value() {
        let w = FeatureWeights::hand_set(Variant::Reversed);
        let board = Board::start().play(Square::parse("f5").unwrap(), BoardSize::Eight).unwrap();
        let mut plain = AlphaBeta { weights: &w, variant: Variant::Reversed, presort: false, nodes: 0 };
        let mut sorted = AlphaBeta { weights: &w, variant: Variant::Reversed, presort: true, nodes: 0 };
        let a = plain.best_move(&board, 5).unwrap();
        let b = sorted.best_move(&board, 5).unwrap();
        assert_eq!(a.1, b.1, "same value");
        assert!(plain.nodes > 0 && sorted.nodes > 0);
    }
}
