//! The node kinds of reopening alpha-beta and their rules: which kind each child gets,
//! which stored searches a search of a given kind may reuse, and how a move leads to
//! the next position (forced passes folded in).
//!
//! Kinds (flags of [`crate::store::kind`]): the root is P. P -> first child P, others
//! A'; A' -> first child P', others C (re-searched as P' when they fail high); P' ->
//! every child A'; C -> A; A -> C. P, A' and P' are searched with the full window and
//! get exact values. A forced pass is the only (so the first) child of the passing
//! position, so folding a pass into the next position turns its kind into
//! [`first_child_kind`] of the kind the passing position would have had.

use solvo_othello::{Board, BoardSize, Square, Variant};

// The kind rules are the generic walk's (the same flags as [`crate::store::kind`]):
// one definition for the Othello fast path and for every other game.
pub use solvo_search::reopening::{first_child_kind, may_reuse, other_child_kind};

/// What playing a move leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    /// A position (its side to move can move). `negate` is true when its value is the
    /// negation of the value for the mover (no pass); false when the opponent had to
    /// pass, so the mover moves again (same value) and the kind steps once more.
    Position {
        /// The next position, side to move first.
        board: Board,
        /// True unless a pass was folded in.
        negate: bool,
    },
    /// The game is over; the final score for the side that made the move.
    End(i32),
}

/// Plays `sq` (legal on `board`) and folds a forced pass.
pub fn play(board: &Board, sq: Square, size: BoardSize, variant: Variant) -> Next {
    let next = board.play_with_flips(sq, board.flips(sq));
    match next.fold_pass(size) {
        Some((board, passed)) => Next::Position { board, negate: !passed },
        None => Next::End(variant.apply(next.pass().final_score(size))),
    }
}

pub use solvo_search::reopening::kind_after;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::kind;

    #[test]
    fn kinds_follow_the_definition() {
        assert_eq!(first_child_kind(kind::P), kind::P);
        assert_eq!(other_child_kind(kind::P), kind::A_PRIME);
        assert_eq!(first_child_kind(kind::A_PRIME), kind::P_PRIME);
        assert_eq!(other_child_kind(kind::A_PRIME), kind::C);
        assert_eq!(first_child_kind(kind::P_PRIME), kind::A_PRIME);
        assert_eq!(other_child_kind(kind::P_PRIME), kind::A_PRIME);
        assert_eq!(first_child_kind(kind::C), kind::A);
        assert_eq!(other_child_kind(kind::A), kind::C);
        assert!(may_reuse(kind::P, kind::P) && !may_reuse(kind::A_PRIME | kind::P_PRIME, kind::P));
        assert!(may_reuse(kind::P, kind::A_PRIME) && may_reuse(kind::A_PRIME, kind::A_PRIME));
        assert!(!may_reuse(kind::P_PRIME, kind::A_PRIME) && !may_reuse(kind::C, kind::A_PRIME));
        assert!(may_reuse(kind::P, kind::P_PRIME) && may_reuse(kind::P_PRIME, kind::P_PRIME));
        assert!(!may_reuse(kind::A_PRIME, kind::P_PRIME));
        assert!(may_reuse(kind::A, kind::C) && may_reuse(kind::STRONG, kind::A));
    }

    #[test]
    fn passes_are_folded() {
        // 4x4: play until some move forces a pass, check the fold.
        let size = BoardSize::Four;
        let mut found = false;
        let mut stack = vec![Board::start()];
        while let Some(b) = stack.pop() {
            for sq in Square::iter(b.moves(size)) {
                match play(&b, sq, size, Variant::Normal) {
                    Next::Position { board, negate } => {
                        assert!(board.moves(size) != 0);
                        let raw = b.play(sq, size).unwrap();
                        assert_eq!(board, if negate { raw } else { raw.pass() });
                        found |= !negate;
                        if !found {
                            stack.push(board);
                        }
                    }
                    Next::End(v) => assert!(b.play(sq, size).unwrap().is_game_over(size) && v.abs() <= 16),
                }
            }
        }
        assert!(found);
    }
}
