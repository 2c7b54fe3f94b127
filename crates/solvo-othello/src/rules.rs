//! The scoring rule a search runs under: board size (mask, square count) and variant.

use crate::{BoardSize, Variant};

/// Highest possible absolute score on any board (8x8: 64).
pub const SCORE_INF: i32 = 65;

/// Every square but the a-file: the result of a shift towards higher columns
/// (`<< 1`) masked with it never wraps into the next row.
pub const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
/// Every square but the h-file: masks a shift towards lower columns (`>> 1`).
pub const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// The corners of a rectangular area of the grid: squares with no neighbour in the area
/// on one side horizontally and on one side vertically.
const fn corners_of(mask: u64) -> u64 {
    let west_open = mask & !((mask << 1) & NOT_A);
    let east_open = mask & !((mask >> 1) & NOT_H);
    let south_open = mask & !(mask << 8);
    let north_open = mask & !(mask >> 8);
    (west_open | east_open) & (south_open | north_open) & mask
}

/// Board size and variant, in the form the search's inner loops need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Playable squares.
    pub mask: u64,
    /// Number of playable squares (16, 36, 64).
    pub squares: i32,
    /// The 4 corner squares of the playable area (a1 h1 a8 h8 on 8x8, b2 g2 b7 g7 on 6x6).
    pub corners: u64,
    /// Reversed (misère) scoring: every final score is negated.
    pub reversed: bool,
}

impl Rules {
    /// The rules of `size` and `variant`.
    pub const fn new(size: BoardSize, variant: Variant) -> Rules {
        let mask = size.mask();
        Rules {
            mask,
            squares: size.squares() as i32,
            corners: corners_of(mask),
            reversed: matches!(variant, Variant::Reversed),
        }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn corners_of_every_size() {
        let sq = |names: &[&str]| names.iter().map(|n| crate::Square::parse(n).unwrap().bit()).fold(0, |a, b| a | b);
        assert_eq!(Rules::new(BoardSize::Eight, Variant::Normal).corners, sq(&["a1", "h1", "a8", "h8"]));
        assert_eq!(Rules::new(BoardSize::Six, Variant::Normal).corners, sq(&["b2", "g2", "b7", "g7"]));
        assert_eq!(Rules::new(BoardSize::Four, Variant::Normal).corners, sq(&["c3", "f3", "c6", "f6"]));
    }
}
