//! Successor positions under the counting rules of whole-board solving: a position is
//! a (side to move, opponent) pair whose side to move has a legal move; a forced pass
//! is applied at once and a finished game is no position.

use solvo_othello::{Board, BoardSize, Square};

/// The position reached by playing `sq` (a legal move of `board`), after applying a
/// forced pass; `None` when the game is over after the move. The side to move of a
/// returned board always has a legal move.
#[inline]
pub fn after_move(board: &Board, sq: Square, size: BoardSize) -> Option<Board> {
    let next = board.play_with_flips(sq, board.flips(sq));
    next.fold_pass(size).map(|(b, _)| b)
}

/// Calls `f` with every successor position of `board` (one per legal move whose game
/// goes on, forced passes applied), not canonicalised, in square order.
#[inline]
pub fn for_each_child(board: &Board, size: BoardSize, mut f: impl FnMut(Board)) {
    for sq in Square::iter(board.moves(size)) {
        if let Some(child) = after_move(board, sq, size) {
            f(child);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_has_four_children_with_one_canonical_form() {
        for size in BoardSize::ALL {
            let mut kids = Vec::new();
            for_each_child(&Board::start(), size, |c| kids.push(c.canonical()));
            assert_eq!(kids.len(), 4);
            kids.dedup();
            assert_eq!(kids.len(), 1, "{size}");
        }
    }

    #[test]
    fn every_child_can_move_and_passes_and_endings_occur_on_4x4() {
        fn walk(b: Board, passes: &mut u32, endings: &mut u32) {
            let size = BoardSize::Four;
            assert!(b.moves(size) != 0);
            for sq in Square::iter(b.moves(size)) {
                let next = b.play_with_flips(sq, b.flips(sq));
                match after_move(&b, sq, size) {
                    None => {
                        assert!(next.is_game_over(size));
                        *endings += 1;
                    }
                    Some(c) => {
                        if c != next {
                            assert_eq!(c, next.pass());
                            *passes += 1;
                        }
                        walk(c, passes, endings);
                    }
                }
            }
        }
        let (mut passes, mut endings) = (0, 0);
        walk(Board::start(), &mut passes, &mut endings);
        assert!(passes > 0 && endings > 0);
    }
}
