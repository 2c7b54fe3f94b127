//! A running 64-bit checksum of a stream of boards, for files that have no checksum of
//! their own (enumeration level files).
//!
//! Each board's two words are folded in by invertible steps (xor, multiplication by an
//! odd constant, rotation), so a change of any single board, and any change that
//! leaves all but one board as they were, always changes the result; other damage goes
//! unnoticed with probability about 2^-64. Order matters: a reordered stream has
//! another checksum.

use solvo_othello::Board;

/// The checksum of the boards added so far (starts at a fixed non-zero value).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RecordChecksum(u64);

impl Default for RecordChecksum {
    fn default() -> Self {
        RecordChecksum(0x736f_6c76_6f6c_7632)
    }
}

impl RecordChecksum {
    /// Folds in the next board.
    #[inline]
    pub fn add(&mut self, b: &Board) {
        let mut h = self.0;
        h = (h ^ b.player).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(27);
        h = (h ^ b.opponent).wrapping_mul(0xC2B2_AE3D_27D4_EB4F).rotate_left(31);
        self.0 = h;
    }

    /// The value, to store or compare.
    pub fn value(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn any_single_bit_change_changes_the_checksum() {
        let boards: Vec<Board> = (0..50u64).map(|i| Board::new(i * 3 + 1, 1 << 63).unwrap()).collect();
        let sum = |bs: &[Board]| {
            let mut c = RecordChecksum::default();
            bs.iter().for_each(|b| c.add(b));
            c.value()
        };
        let good = sum(&boards);
        for i in [0, 17, 49] {
            for bit in [0, 13, 62] {
                let mut damaged = boards.clone();
                damaged[i] = Board::new(damaged[i].player ^ 1 << bit, damaged[i].opponent).unwrap();
                assert_ne!(sum(&damaged), good, "board {i} bit {bit}");
            }
        }
    }
}
