//! Board sizes: 8x8, 6x6 and 4x4 on one 8x8 bitboard grid.

use crate::square::Square;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The playable area. 6x6 is b2..g7 and 4x4 is c3..f6 of the 8x8 grid; every size
/// starts with white on d4/e5 and black on e4/d5.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
pub enum BoardSize {
    /// 4x4 (squares c3..f6).
    Four,
    /// 6x6 (squares b2..g7).
    Six,
    /// 8x8, the standard game.
    #[default]
    Eight,
}

/// White's starting discs: d4 and e5.
pub const START_WHITE: u64 = (1 << 27) | (1 << 36);
/// Black's starting discs: e4 and d5.
pub const START_BLACK: u64 = (1 << 28) | (1 << 35);

impl BoardSize {
    /// All sizes, smallest first.
    pub const ALL: [BoardSize; 3] = [BoardSize::Four, BoardSize::Six, BoardSize::Eight];

    /// Number of squares on a side (4, 6 or 8).
    #[inline]
    pub const fn side(self) -> u8 {
        match self {
            BoardSize::Four => 4,
            BoardSize::Six => 6,
            BoardSize::Eight => 8,
        }
    }

    /// Number of playable squares (16, 36 or 64).
    #[inline]
    pub const fn squares(self) -> u32 {
        (self.side() as u32) * (self.side() as u32)
    }

    /// Offset of the first playable row/column in the 8x8 grid (2, 1 or 0).
    #[inline]
    pub const fn offset(self) -> u8 {
        (8 - self.side()) / 2
    }

    /// Bitboard of the playable squares.
    #[inline]
    pub const fn mask(self) -> u64 {
        match self {
            BoardSize::Four => 0x0000_3C3C_3C3C_0000,
            BoardSize::Six => 0x007E_7E7E_7E7E_7E00,
            BoardSize::Eight => u64::MAX,
        }
    }

    /// The playable squares in reading order (row by row from rank 1, file a first):
    /// the order of the characters of a board string of this size.
    pub fn squares_in_order(self) -> impl Iterator<Item = Square> {
        let (off, side) = (self.offset(), self.side());
        (0..side).flat_map(move |r| (0..side).map(move |c| Square::from_row_col(r + off, c + off)))
    }

    /// The size whose board strings have `n` characters (16, 36, 64).
    pub const fn from_square_count(n: usize) -> Option<BoardSize> {
        match n {
            16 => Some(BoardSize::Four),
            36 => Some(BoardSize::Six),
            64 => Some(BoardSize::Eight),
            _ => None,
        }
    }
}

impl fmt::Display for BoardSize {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{0}x{0}", self.side())
    }
}

impl FromStr for BoardSize {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "4" | "4x4" => Ok(BoardSize::Four),
            "6" | "6x6" => Ok(BoardSize::Six),
            "8" | "8x8" => Ok(BoardSize::Eight),
            _ => Err(format!("unknown board size {s:?}: expected 4, 6 or 8")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_match_square_lists() {
        for size in BoardSize::ALL {
            let from_list = size.squares_in_order().fold(0u64, |m, sq| m | sq.bit());
            assert_eq!(from_list, size.mask(), "{size}");
            assert_eq!(size.mask().count_ones(), size.squares());
            assert_eq!(START_BLACK & size.mask(), START_BLACK);
            assert_eq!(START_WHITE & size.mask(), START_WHITE);
        }
    }
}
