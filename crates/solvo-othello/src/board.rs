//! The colour-less board the solvers work on: the discs of the side to move and of
//! its opponent.

use crate::flips::flips;
use crate::moves::legal_moves;
use crate::size::BoardSize;
use crate::square::Square;

/// The discs of the side to move (`player`) and of the other side (`opponent`).
///
/// Invariant kept by every constructor and method here: `player & opponent == 0`.
/// Ordering compares `player` first, then `opponent` (the canonical-form order).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct Board {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the side that just moved (or passed).
    pub opponent: u64,
}

impl Board {
    /// A board from the two disc sets; `None` if they overlap.
    #[inline]
    pub const fn new(player: u64, opponent: u64) -> Option<Board> {
        if player & opponent == 0 {
            Some(Board { player, opponent })
        } else {
            None
        }
    }

    /// The standard start with black (the first player) to move.
    #[inline]
    pub const fn start() -> Board {
        Board { player: crate::size::START_BLACK, opponent: crate::size::START_WHITE }
    }

    /// Legal moves of the side to move on a board of `size`.
    #[inline(always)]
    pub fn moves(&self, size: BoardSize) -> u64 {
        legal_moves(self.player, self.opponent, size.mask())
    }

    /// Legal moves with the playable-square mask given directly (hot paths).
    #[inline(always)]
    pub fn moves_masked(&self, mask: u64) -> u64 {
        legal_moves(self.player, self.opponent, mask)
    }

    /// Discs flipped by playing `sq`; zero when the move is illegal.
    #[inline(always)]
    pub fn flips(&self, sq: Square) -> u64 {
        flips(sq.index(), self.player, self.opponent)
    }

    /// The board after the side to move plays `sq` flipping `flipped`
    /// (as returned by [`Board::flips`]); sides are swapped.
    #[inline(always)]
    pub fn play_with_flips(&self, sq: Square, flipped: u64) -> Board {
        Board { player: self.opponent ^ flipped, opponent: self.player ^ flipped ^ sq.bit() }
    }

    /// The board after the side to move plays `sq`, or `None` if the move is illegal
    /// (square occupied, off the board of `size`, or flipping nothing).
    #[inline]
    pub fn play(&self, sq: Square, size: BoardSize) -> Option<Board> {
        if (self.player | self.opponent | !size.mask()) & sq.bit() != 0 {
            return None;
        }
        let f = self.flips(sq);
        (f != 0).then(|| self.play_with_flips(sq, f))
    }

    /// The board after a pass: the sides are swapped, no disc changes.
    #[inline(always)]
    pub const fn pass(&self) -> Board {
        Board { player: self.opponent, opponent: self.player }
    }

    /// The board a forced pass leads to, the one fold of passes every walker of the game
    /// tree uses: `(self, false)` when the side to move can move, `(self.pass(), true)`
    /// when only the other side can (the value of `self` is then the negation of the
    /// returned board's), `None` when neither can (the game is over).
    #[inline]
    pub fn fold_pass(&self, size: BoardSize) -> Option<(Board, bool)> {
        if self.moves(size) != 0 {
            Some((*self, false))
        } else {
            let passed = self.pass();
            (passed.moves(size) != 0).then_some((passed, true))
        }
    }

    /// True when neither side has a legal move.
    #[inline]
    pub fn is_game_over(&self, size: BoardSize) -> bool {
        self.moves(size) == 0 && self.pass().moves(size) == 0
    }

    /// Number of empty playable squares.
    #[inline]
    pub fn empties(&self, size: BoardSize) -> u32 {
        size.squares() - (self.player | self.opponent).count_ones()
    }

    /// The final score under normal rules, for the side to move: disc difference,
    /// with the empty squares given to the winner (none on a draw).
    #[inline]
    pub fn final_score(&self, size: BoardSize) -> i32 {
        let p = self.player.count_ones() as i32;
        let o = self.opponent.count_ones() as i32;
        let empties = size.squares() as i32 - p - o;
        let diff = p - o;
        match diff.cmp(&0) {
            std::cmp::Ordering::Greater => diff + empties,
            std::cmp::Ordering::Less => diff - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_moves_are_the_four_classic_ones() {
        for size in BoardSize::ALL {
            let names: Vec<String> = Square::iter(Board::start().moves(size)).map(|s| s.to_string()).collect();
            assert_eq!(names, ["d3", "c4", "f5", "e6"], "{size}");
        }
    }

    #[test]
    fn final_score_gives_empties_to_the_winner() {
        let b = Board { player: 0b111, opponent: 0b1000 };
        assert_eq!(b.final_score(BoardSize::Eight), 3 - 1 + 60);
        assert_eq!(b.pass().final_score(BoardSize::Eight), -62);
        assert_eq!(Board { player: 1, opponent: 2 }.final_score(BoardSize::Four), 0);
    }

    #[test]
    fn illegal_plays_are_refused() {
        let b = Board::start();
        assert!(b.play(Square::parse("a1").unwrap(), BoardSize::Eight).is_none());
        assert!(b.play(Square::parse("d4").unwrap(), BoardSize::Eight).is_none());
        assert!(b.play(Square::parse("f5").unwrap(), BoardSize::Eight).is_some());
    }
}
