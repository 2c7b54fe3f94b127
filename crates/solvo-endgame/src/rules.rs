//! The scoring rule a search runs under: board size (mask, square count) and variant.

use solvo_othello::{BoardSize, Variant};

/// Highest possible absolute score on any board (8x8: 64).
pub const SCORE_INF: i32 = 65;

/// Board size and variant, in the form the search's inner loops need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Playable squares.
    pub mask: u64,
    /// Number of playable squares (16, 36, 64).
    pub squares: i32,
    /// Reversed (misère) scoring: every final score is negated.
    pub reversed: bool,
}

impl Rules {
    /// The rules of `size` and `variant`.
    pub const fn new(size: BoardSize, variant: Variant) -> Rules {
        Rules { mask: size.mask(), squares: size.squares() as i32, reversed: matches!(variant, Variant::Reversed) }
    }

    /// The final score of a finished game for the player `p` (disc difference, empties
    /// to the winner; negated when reversed).
    #[inline(always)]
    pub fn final_score(&self, p: u64, o: u64) -> i32 {
        let np = p.count_ones() as i32;
        let no = o.count_ones() as i32;
        let diff = np - no;
        let empties = self.squares - np - no;
        let normal = match diff.cmp(&0) {
            std::cmp::Ordering::Greater => diff + empties,
            std::cmp::Ordering::Less => diff - empties,
            std::cmp::Ordering::Equal => 0,
        };
        self.signed(normal)
    }

    /// A normal-rule score turned into this variant's score.
    #[inline(always)]
    pub const fn signed(&self, normal: i32) -> i32 {
        if self.reversed {
            -normal
        } else {
            normal
        }
    }

    /// Upper bound of every score under these rules.
    pub const fn max_score(&self) -> i32 {
        self.squares
    }
}
