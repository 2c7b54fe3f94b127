//! The study's Monte Carlo tree search (UCT) with random playouts: a playout budget
//! per move, the move most visited at the root chosen. Results count 1 for a win, 1/2
//! for a draw, from the side that moved into each node.

use solvo_core::rng::Rng;
use solvo_othello::{Board, BoardSize, Square, Variant};

/// The exploration constant of UCB1.
const EXPLORATION: f64 = 1.4;

struct Node {
    board: Board,
    /// Unexpanded moves (a pass is `None`).
    untried: Vec<Option<Square>>,
    children: Vec<(Option<Square>, usize)>,
    visits: f64,
    /// Sum of results for the side that moved into this node.
    wins: f64,
}

fn node(board: Board) -> Node {
    let size = BoardSize::Eight;
    let untried = match board.fold_pass(size) {
        Some((_, false)) => Square::iter(board.moves(size)).map(Some).collect(),
        Some((_, true)) => vec![None],
        None => Vec::new(),
    };
    Node { board, untried, children: Vec::new(), visits: 0.0, wins: 0.0 }
}

fn child_board(board: &Board, mv: Option<Square>) -> Board {
    mv.map_or_else(|| board.pass(), |sq| board.play(sq, BoardSize::Eight).expect("a legal move"))
}

/// A random game from `board`: 1 when the side to move at `board` wins, 0.5 drawn, 0 lost.
fn playout(board: &Board, variant: Variant, rng: &mut Rng) -> f64 {
    let size = BoardSize::Eight;
    let (mut b, mut flipped) = (*board, false);
    loop {
        let moves = b.moves(size);
        if moves == 0 {
            if b.pass().moves(size) == 0 {
                break;
            }
            b = b.pass();
            flipped = !flipped;
            continue;
        }
        let n = moves.count_ones() as usize;
        let sq = Square::iter(moves).nth(rng.below(n)).expect("n moves");
        b = b.play(sq, size).expect("a legal move");
        flipped = !flipped;
    }
    let score = variant.apply(b.final_score(size));
    let score = if flipped { -score } else { score };
    match score.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

/// The move chosen by `playouts` UCT playouts from `board` (`None`: pass or game over).
pub fn mcts_move(board: &Board, variant: Variant, playouts: u32, rng: &mut Rng) -> Option<Square> {
    let size = BoardSize::Eight;
    if board.moves(size) == 0 {
        return None;
    }
    let mut tree = vec![node(*board)];
    for _ in 0..playouts.max(1) {
        // Selection.
        let mut path = vec![0usize];
        let mut at = 0;
        while tree[at].untried.is_empty() && !tree[at].children.is_empty() {
            let ln = tree[at].visits.ln();
            let (_, next) = *tree[at]
                .children
                .iter()
                .max_by(|a, b| {
                    let ucb = |&(_, c): &(Option<Square>, usize)| {
                        let n: &Node = &tree[c];
                        n.wins / n.visits + EXPLORATION * (ln / n.visits).sqrt()
                    };
                    ucb(a).total_cmp(&ucb(b))
                })
                .expect("children");
            at = next;
            path.push(at);
        }
        // Expansion.
        if let Some(mv) = tree[at].untried.pop() {
            let b = child_board(&tree[at].board, mv);
            tree.push(node(b));
            let id = tree.len() - 1;
            tree[at].children.push((mv, id));
            at = id;
            path.push(at);
        }
        // Simulation: the result for the side to move at the leaf.
        let mut result = playout(&tree[at].board, variant, rng);
        // Backpropagation: each node counts for the side that moved into it.
        for &id in path.iter().rev() {
            result = 1.0 - result;
            tree[id].visits += 1.0;
            tree[id].wins += result;
        }
    }
    let best = tree[0].children.iter().max_by(|a, b| tree[a.1].visits.total_cmp(&tree[b.1].visits))?;
    best.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chooses_legal_moves_and_none_without_one() {
        let mut rng = Rng::new(1);
        let start = Board::start();
        let m = mcts_move(&start, Variant::Normal, 200, &mut rng).unwrap();
        assert!(start.moves(BoardSize::Eight) & m.bit() != 0);
        assert_eq!(mcts_move(&Board { player: 0, opponent: 1 }, Variant::Normal, 10, &mut rng), None);
    }
}
