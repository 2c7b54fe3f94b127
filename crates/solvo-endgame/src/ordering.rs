//! Move ordering for the nodes above the shallow solver.
//!
//! A move's key (higher is searched first): the transposition-table move first; then
//! "fastest first": fewest replies for the opponent (corners counted twice), then fewer
//! empty squares next to our discs (the opponent's potential mobility), with bonuses for
//! corners and odd-parity quadrants. Measured variants are recorded in the issue notes.

use solvo_othello::moves::legal_moves;

/// The 4 corners.
pub const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Squares next to a disc of `discs` (8 directions), within `empty`.
#[inline(always)]
pub fn neighbours(discs: u64, empty: u64) -> u64 {
    const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
    const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;
    let h = ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    let hv = h | discs;
    (h | (hv << 8) | (hv >> 8)) & empty
}

/// Ordering key of the move to `x` leading to the child where `cp` (the opponent) is to
/// move against `co` (us, after the move). `odd` is the odd-parity quadrant mask.
#[inline(always)]
pub fn move_key(cp: u64, co: u64, x: usize, mask: u64, odd: u64) -> i32 {
    let replies = legal_moves(cp, co, mask);
    let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
    let empty = !(cp | co) & mask;
    let potential = neighbours(co, empty).count_ones() as i32;
    let bit = 1u64 << x;
    let corner = i32::from(bit & CORNERS != 0);
    let parity = i32::from(bit & odd != 0);
    -(mobility << 6) - (potential << 3) + (corner << 5) + (parity << 1)
}
