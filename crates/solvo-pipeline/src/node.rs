//! One step of the game tree as the pipeline walks it: a board is either over, a forced
//! pass, or has children (one per legal move, not canonicalised).

use solvo_othello::{Board, BoardSize, Color, Position, Square, Variant};

/// What a board leads to.
pub enum Node {
    /// Neither side can move: the final score for the side to move.
    Over(i32),
    /// The side to move must pass: the board after the pass.
    Pass(Board),
    /// The boards after each legal move, in square order.
    Moves(Vec<Board>),
}

/// Classifies `b` on a board of `size` (normal rules).
pub fn node(b: &Board, size: BoardSize) -> Node {
    let moves = b.moves(size);
    if moves == 0 {
        return match b.fold_pass(size) {
            Some((passed, _)) => Node::Pass(passed),
            None => Node::Over(b.final_score(size)),
        };
    }
    Node::Moves(Square::iter(moves).map(|sq| b.play_with_flips(sq, b.flips(sq))).collect())
}

/// The index of the child `sq` leads to among `b`'s children ([`Node::Moves`], square
/// order); `None` when `sq` is not a legal move of `b`.
pub fn child_index(b: &Board, size: BoardSize, sq: Square) -> Option<usize> {
    let moves = b.moves(size);
    (moves & sq.bit() != 0).then(|| (moves & (sq.bit() - 1)).count_ones() as usize)
}

/// `b` (its side to move first) as a position the endgame solver takes: the pipeline's
/// boards carry no colour (the solver reads only the board) and use normal rules.
pub fn solver_position(b: &Board, size: BoardSize) -> Position {
    Position { board: *b, side: Color::Black, size, variant: Variant::Normal }
}

/// `b` itself when its side to move can move, the passed board when only the other side
/// can, `b` when the game is over: the form the pipeline stores positions in.
pub fn normalized(b: Board, size: BoardSize) -> Board {
    b.fold_pass(size).map_or(b, |(folded, _)| folded)
}
