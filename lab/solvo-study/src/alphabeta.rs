//! The study's search: the one alpha-beta on an evaluation (`solvo_othello_search::eval_alphabeta`), fail-soft, on the feature
//! evaluation, with or without pre-sorting the moves by a shallow search (the
//! evaluation of each child, as the report's depth-1 pre-sort), and the report's
//! endgame search on the disc difference alone. Finished games score their final disc
//! difference under the variant, far above any evaluation. The search keeps the line
//! from the root (the disc difference after each ply) for the evaluation's greedy term.

use crate::features::FeatureWeights;
use solvo_othello::{Board, BoardSize, Square, Variant};
use solvo_othello_search::{eval_alphabeta, EvalChild, EvalSearch};

/// A finished game's score per disc: above any evaluation.
const WIN_UNIT: i32 = 1_000_000;

/// What the search scores at its depth limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leaf {
    /// The feature evaluation (greedy term included).
    Features,
    /// The disc difference alone, under the variant (the report's search after move 50).
    Discs,
}

/// The search of one move.
pub struct AlphaBeta<'a> {
    /// The evaluation.
    pub weights: &'a FeatureWeights,
    /// The scoring rule of finished games.
    pub variant: Variant,
    /// Sort the moves by the child's evaluation before searching them.
    pub presort: bool,
    /// Cut off with alpha-beta (`true`, the default) or search every move to the depth
    /// limit (plain minimax, the report's slowest rows of its Table II): the value is the
    /// same either way.
    pub prune: bool,
    /// What the depth limit scores.
    pub leaf: Leaf,
    /// Nodes visited so far.
    pub nodes: u64,
    /// Disc differences for the root's side to move after each ply of the current line.
    line: Vec<i32>,
}

impl<'a> AlphaBeta<'a> {
    /// A search on `weights` for `variant`, pre-sorting the moves when `presort`,
    /// scoring the depth limit by `leaf`.
    pub fn new(weights: &'a FeatureWeights, variant: Variant, presort: bool, leaf: Leaf) -> AlphaBeta<'a> {
        AlphaBeta { weights, variant, presort, prune: true, leaf, nodes: 0, line: Vec::new() }
    }

    /// The best move of `board` (8x8, side to move has a move) searched `depth` plies,
    /// and its value; `None` when the side to move must pass or the game is over.
    pub fn best_move(&mut self, board: &Board, depth: u32) -> Option<(Square, i32)> {
        self.line.clear();
        let mut moves = self.ordered(board);
        if moves.is_empty() {
            return None;
        }
        let mut best = (moves[0].0, i32::MIN + 1);
        let mut alpha = i32::MIN + 1;
        for (sq, child) in moves.drain(..) {
            let v = -self.child(&child, depth.saturating_sub(1), -i32::MAX, -alpha);
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

    /// Searches `board`, one ply further down the line than the node before.
    fn child(&mut self, board: &Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        self.enter(board.player, board.opponent);
        let v = eval_alphabeta(self, board.player, board.opponent, BoardSize::Eight.mask(), depth, alpha, beta);
        self.leave();
        v
    }
}

/// The study's conventions: a pass is free (and a ply of the line), finished games score
/// far above any evaluation, the moves pre-sorted when asked.
impl EvalSearch for AlphaBeta<'_> {
    const PASS_IS_PLY: bool = false;
    const ORDERS: bool = true;

    fn leaf(&mut self, p: u64, o: u64) -> i32 {
        let board = Board { player: p, opponent: o };
        match self.leaf {
            Leaf::Features => self.weights.evaluate_line(&board, &self.line),
            Leaf::Discs => self.variant.apply(p.count_ones() as i32 - o.count_ones() as i32),
        }
    }
    fn terminal(&mut self, p: u64, o: u64) -> i32 {
        self.variant.apply(Board { player: p, opponent: o }.final_score(BoardSize::Eight)) * WIN_UNIT
    }
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        false
    }
    /// Without pruning: plain minimax (every move to the depth limit).
    fn prunes(&self) -> bool {
        self.prune
    }
    fn order(&mut self, _depth: u32, children: &mut [EvalChild]) {
        if self.presort {
            self.nodes += children.len() as u64;
            let weights = self.weights;
            children.sort_by_cached_key(|c| weights.evaluate(&Board { player: c.player, opponent: c.opponent }));
        }
    }
    fn enter(&mut self, p: u64, o: u64) {
        let diff = p.count_ones() as i32 - o.count_ones() as i32;
        // The root's side is to move again after an even number of plies.
        self.line.push(if self.line.len().is_multiple_of(2) { -diff } else { diff });
    }
    fn leave(&mut self) {
        self.line.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::features::greedy_term;

    #[test]
    fn presorting_changes_the_cost_not_the_value() {
        let w = FeatureWeights::hand_set(Variant::Reversed);
        let board = Board::start().play(Square::parse("f5").unwrap(), BoardSize::Eight).unwrap();
        for leaf in [Leaf::Features, Leaf::Discs] {
            let mut plain = AlphaBeta::new(&w, Variant::Reversed, false, leaf);
            let mut sorted = AlphaBeta::new(&w, Variant::Reversed, true, leaf);
            let a = plain.best_move(&board, 5).unwrap();
            let b = sorted.best_move(&board, 5).unwrap();
            assert_eq!(a.1, b.1, "same value");
            assert!(plain.nodes > 0 && sorted.nodes > 0);
        }
    }

    #[test]
    fn minimax_finds_the_alpha_beta_value_with_more_nodes() {
        let w = FeatureWeights::hand_set(Variant::Reversed);
        let board = Board::start().play(Square::parse("f5").unwrap(), BoardSize::Eight).unwrap();
        for depth in 1..=4 {
            let mut pruned = AlphaBeta::new(&w, Variant::Reversed, false, Leaf::Features);
            let mut plain = AlphaBeta { prune: false, ..AlphaBeta::new(&w, Variant::Reversed, false, Leaf::Features) };
            let a = pruned.best_move(&board, depth).unwrap();
            let b = plain.best_move(&board, depth).unwrap();
            assert_eq!(a, b, "depth {depth}");
            assert!(plain.nodes >= pruned.nodes, "depth {depth}");
        }
    }

    #[test]
    fn leaves_see_the_line_from_the_root() {
        // Depth 2 from the start: the value of the best move is the minimum over the
        // replies of the evaluation with the two-ply line, checked by hand.
        let w = FeatureWeights::hand_set(Variant::Reversed);
        let size = BoardSize::Eight;
        let root = Board::start();
        let mut search = AlphaBeta::new(&w, Variant::Reversed, false, Leaf::Features);
        let (_, value) = search.best_move(&root, 2).unwrap();
        let diff = |b: &Board| b.player.count_ones() as i32 - b.opponent.count_ones() as i32;
        let mut expected = i32::MIN;
        for a in Square::iter(root.moves(size)) {
            let c = root.play(a, size).unwrap();
            let mut worst = i32::MAX;
            for r in Square::iter(c.moves(size)) {
                let g = c.play(r, size).unwrap();
                // For the root's side: after ply 1 the opponent moves (turn c's round).
                let line = [-diff(&c), diff(&g)];
                worst = worst.min(w.evaluate(&g) + greedy_term(-4, &line));
            }
            expected = expected.max(worst);
        }
        assert_eq!(value, expected);
    }

    #[test]
    fn the_disc_search_solves_a_short_endgame() {
        // Ten plies from 6 empties reach the end (a pass is not counted in the depth): the
        // value is the exact final score.
        let w = FeatureWeights::hand_set(Variant::Normal);
        let size = BoardSize::Eight;
        let mut rng = solvo_core::rng::Rng::new(7);
        let mut b = Board::start();
        while b.empties(size) > 6 {
            let moves = b.moves(size);
            b = if moves == 0 {
                b.pass()
            } else {
                let n = moves.count_ones() as usize;
                b.play(Square::iter(moves).nth(rng.below(n)).unwrap(), size).unwrap()
            };
            if b.moves(size) == 0 && b.pass().moves(size) == 0 {
                b = Board::start();
            }
        }
        if b.moves(size) == 0 {
            b = b.pass();
        }
        // Brute force: the exact final score for the side to move.
        fn exact(b: &Board) -> i32 {
            let size = BoardSize::Eight;
            if b.moves(size) == 0 {
                return if b.pass().moves(size) == 0 { b.final_score(size) } else { -exact(&b.pass()) };
            }
            Square::iter(b.moves(size)).map(|sq| -exact(&b.play(sq, size).unwrap())).max().unwrap()
        }
        let mut search = AlphaBeta::new(&w, Variant::Normal, true, Leaf::Discs);
        let (_, v) = search.best_move(&b, 10).unwrap();
        assert_eq!(v, exact(&b) * WIN_UNIT);
    }
}
