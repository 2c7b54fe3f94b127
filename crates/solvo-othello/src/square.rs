//! Squares and their names (`a1`..`h8`).

use std::fmt;

/// A square of the 8x8 grid, `0..64` (a1 = 0, b1 = 1, ..., h8 = 63).
///
/// Invariant: the index is always `< 64`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this index, or `None` if `index >= 64`.
    #[inline]
    pub const fn new(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index. The caller guarantees `index < 64`
    /// (checked in debug builds; in release an out-of-range index is masked to 6 bits).
    #[inline]
    pub const fn from_index(index: u32) -> Square {
        debug_assert!(index < 64);
        Square((index & 63) as u8)
    }

    /// The square in `row` (0 = rank 1) and `col` (0 = file a), both `< 8`.
    #[inline]
    pub const fn from_row_col(row: u8, col: u8) -> Square {
        debug_assert!(row < 8 && col < 8);
        Square((row & 7) * 8 + (col & 7))
    }

    /// Index `0..64`.
    #[inline]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// Row `0..8` (0 = rank 1).
    #[inline]
    pub const fn row(self) -> u8 {
        self.0 / 8
    }

    /// Column `0..8` (0 = file a).
    #[inline]
    pub const fn col(self) -> u8 {
        self.0 % 8
    }

    /// The single-bit bitboard of this square.
    #[inline]
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }

    /// Parses a name such as `f5` or `F5` (exactly two characters).
    pub fn parse(name: &str) -> Option<Square> {
        let b = name.as_bytes();
        if b.len() != 2 {
            return None;
        }
        let col = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let row = b[1].wrapping_sub(b'1');
        if col < 8 && row < 8 {
            Some(Square::from_row_col(row, col))
        } else {
            None
        }
    }

    /// Iterates over the squares of a bitboard in increasing index order.
    #[inline]
    pub fn iter(bits: u64) -> SquareIter {
        SquareIter(bits)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.col()) as char, self.row() + 1)
    }
}

/// Debug output is the square's name too (`d3`), so move lists in messages read as
/// Othello players write them.
impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Iterator over the set bits of a bitboard, as squares, lowest index first.
#[derive(Clone, Copy, Debug)]
pub struct SquareIter(u64);

impl Iterator for SquareIter {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            let sq = Square::from_index(self.0.trailing_zeros());
            self.0 &= self.0 - 1;
            Some(sq)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for i in 0..64 {
            let sq = Square::new(i).unwrap();
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
            assert_eq!(Square::parse(&sq.to_string().to_uppercase()), Some(sq));
        }
        assert_eq!(Square::parse("a1").unwrap().index(), 0);
        assert_eq!(Square::parse("h1").unwrap().index(), 7);
        assert_eq!(Square::parse("h8").unwrap().index(), 63);
        for bad in ["", "a", "a0", "i1", "a9", "a10", "é1", "11"] {
            assert_eq!(Square::parse(bad), None, "{bad}");
        }
    }
}
