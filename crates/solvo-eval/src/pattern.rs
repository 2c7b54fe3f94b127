//! The pattern set: which groups of squares the evaluation reads, and how a pattern's
//! contents become a table index.
//!
//! Each pattern is given once, by its squares in a canonical frame (near a1 / rank 1).
//! Its *instances* are the images of that set under the 8 board symmetries; an instance
//! is read by transforming the board with symmetry `k` and extracting the canonical
//! squares (`pext`), so every instance of a pattern lists its squares in the same
//! order and shares one weight table. A square's digit is 0 (empty), 1 (side to move)
//! or 2 (opponent); the digit of the `i`-th lowest square of the canonical mask has
//! weight `3^i`.
//!
//! The set follows the family that wins in Othello (Logistello, Edax, Zebra): the 3x3
//! and 2x5 corner blocks, the edge with both X-squares, the edge block (edge without
//! its B-squares plus the four central squares of the second rank), the second, third
//! and fourth ranks, and the diagonals of length 4 to 8.

use solvo_othello::symmetry::{inverse_transform, transform};

/// One pattern: a name and its squares in the canonical frame.
#[derive(Clone, Copy, Debug)]
pub struct Pattern {
    /// A short stable name (used in reports and the layout fingerprint).
    pub name: &'static str,
    /// The squares, as a bitboard in the canonical frame.
    pub mask: u64,
}

const fn bits(squares: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < squares.len() {
        m |= 1u64 << squares[i];
        i += 1;
    }
    m
}

/// The patterns of the 8x8 evaluation, in table order.
pub const PATTERNS: [Pattern; 12] = [
    Pattern { name: "corner3x3", mask: bits(&[0, 1, 2, 8, 9, 10, 16, 17, 18]) },
    Pattern { name: "corner2x5", mask: bits(&[0, 1, 2, 3, 4, 8, 9, 10, 11, 12]) },
    Pattern { name: "edge_x", mask: bits(&[0, 1, 2, 3, 4, 5, 6, 7, 9, 14]) },
    Pattern { name: "edge_block", mask: bits(&[0, 2, 3, 4, 5, 7, 10, 11, 12, 13]) },
    Pattern { name: "rank2", mask: 0xFF << 8 },
    Pattern { name: "rank3", mask: 0xFF << 16 },
    Pattern { name: "rank4", mask: 0xFF << 24 },
    Pattern { name: "diag8", mask: bits(&[0, 9, 18, 27, 36, 45, 54, 63]) },
    Pattern { name: "diag7", mask: bits(&[1, 10, 19, 28, 37, 46, 55]) },
    Pattern { name: "diag6", mask: bits(&[2, 11, 20, 29, 38, 47]) },
    Pattern { name: "diag5", mask: bits(&[3, 12, 21, 30, 39]) },
    Pattern { name: "diag4", mask: bits(&[4, 13, 22, 31]) },
];

/// The square of row `r`, column `c` (0..6 each, from b2) of the 6x6 board, which sits
/// in the middle of the 8x8 grid (b2..g7), as a bit index.
const fn sq6(r: u8, c: u8) -> u8 {
    8 * (r + 1) + c + 1
}

/// The squares `(r, c)` of the 6x6 board (see [`sq6`]) as a bitboard.
const fn bits6(squares: &[(u8, u8)]) -> u64 {
    let mut m = 0u64;
    let mut i = 0;
    while i < squares.len() {
        m |= 1u64 << sq6(squares[i].0, squares[i].1);
        i += 1;
    }
    m
}

/// The patterns of the 6x6 evaluation, in table order, in the canonical frame of the
/// 6x6 board (its corner b2, its edge rank 2). The same family as 8x8, cut to the
/// smaller board: the 3x3 and 2x4 corner blocks, the edge with both X-squares, the
/// edge with the four central squares of the second row, the second and third rows,
/// and the diagonals of length 6, 5 and 4. The 8 symmetries of the grid map the 6x6
/// board onto itself, so instances are read as on 8x8.
pub const PATTERNS6: [Pattern; 9] = [
    Pattern {
        name: "six_corner3x3",
        mask: bits6(&[(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2), (2, 0), (2, 1), (2, 2)]),
    },
    Pattern { name: "six_corner2x4", mask: bits6(&[(0, 0), (0, 1), (0, 2), (0, 3), (1, 0), (1, 1), (1, 2), (1, 3)]) },
    Pattern { name: "six_edge_x", mask: bits6(&[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 1), (1, 4)]) },
    Pattern {
        name: "six_edge_block",
        mask: bits6(&[(0, 0), (0, 1), (0, 2), (0, 3), (0, 4), (0, 5), (1, 1), (1, 2), (1, 3), (1, 4)]),
    },
    Pattern { name: "six_rank2", mask: bits6(&[(1, 0), (1, 1), (1, 2), (1, 3), (1, 4), (1, 5)]) },
    Pattern { name: "six_rank3", mask: bits6(&[(2, 0), (2, 1), (2, 2), (2, 3), (2, 4), (2, 5)]) },
    Pattern { name: "six_diag6", mask: bits6(&[(0, 0), (1, 1), (2, 2), (3, 3), (4, 4), (5, 5)]) },
    Pattern { name: "six_diag5", mask: bits6(&[(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]) },
    Pattern { name: "six_diag4", mask: bits6(&[(0, 2), (1, 3), (2, 4), (3, 5)]) },
];

/// Largest number of squares in a pattern.
pub const MAX_PATTERN_SQUARES: usize = 10;

/// `TERNARY[b]`: the base-3 number whose digits are the bits of `b` (digit `i` = bit
/// `i`), for `b < 2^10`. A pattern index is `TERNARY[own] + 2 * TERNARY[theirs]`.
pub static TERNARY: [u16; 1 << MAX_PATTERN_SQUARES] = {
    let mut t = [0u16; 1 << MAX_PATTERN_SQUARES];
    let mut b = 0;
    while b < t.len() {
        let mut v = 0u32;
        let mut pow = 1u32;
        let mut i = 0;
        while i < MAX_PATTERN_SQUARES {
            if b & (1 << i) != 0 {
                v += pow;
            }
            pow *= 3;
            i += 1;
        }
        t[b] = v as u16;
        b += 1;
    }
    t
};

impl Pattern {
    /// Number of squares.
    pub const fn len(&self) -> usize {
        self.mask.count_ones() as usize
    }

    /// Always false (every pattern has squares); for clippy's `len` convention.
    pub const fn is_empty(&self) -> bool {
        self.mask == 0
    }

    /// Number of distinct contents: `3^len`.
    pub const fn table_len(&self) -> usize {
        3usize.pow(self.len() as u32)
    }

    /// The symmetries `k` whose instances are distinct square sets, smallest `k` for
    /// each set. Reading instance `k` means extracting the mask from `transform(board, k)`.
    pub fn instances(&self) -> Vec<u8> {
        let mut seen: Vec<u64> = Vec::new();
        let mut ks = Vec::new();
        for k in 0..8u8 {
            let squares = inverse_transform(self.mask, k);
            if !seen.contains(&squares) {
                seen.push(squares);
                ks.push(k);
            }
        }
        ks
    }

    /// The permutations of the pattern's digits induced by the symmetries that map its
    /// square set onto itself (identity excluded): `perm[i]` is the digit that digit
    /// `i` moves to.
    pub fn self_symmetries(&self) -> Vec<Vec<usize>> {
        let squares: Vec<u32> = bit_indices(self.mask);
        let mut perms = Vec::new();
        for k in 1..8u8 {
            if transform(self.mask, k) != self.mask {
                continue;
            }
            let perm: Vec<usize> = squares
                .iter()
                .map(|&s| {
                    let image = transform(1u64 << s, k).trailing_zeros();
                    squares.iter().position(|&t| t == image).expect("image inside the mask")
                })
                .collect();
            perms.push(perm);
        }
        perms
    }

    /// For every index, the smallest index among its images under the pattern's self
    /// symmetries: contents that a symmetry of the board maps onto each other share
    /// this representative (and so must share a weight).
    pub fn representatives(&self) -> Vec<u32> {
        let n = self.len();
        let perms = self.self_symmetries();
        let mut digits = vec![0u32; n];
        (0..self.table_len() as u32)
            .map(|idx| {
                let mut v = idx;
                for d in digits.iter_mut() {
                    *d = v % 3;
                    v /= 3;
                }
                let mut best = idx;
                for perm in &perms {
                    // Digit i lands on perm[i].
                    let mut moved = vec![0u32; n];
                    for (i, &d) in digits.iter().enumerate() {
                        moved[perm[i]] = d;
                    }
                    let image = moved.iter().rev().fold(0u32, |acc, &d| acc * 3 + d);
                    best = best.min(image);
                }
                best
            })
            .collect()
    }
}

/// The set bits of `x`, lowest first.
pub fn bit_indices(mut x: u64) -> Vec<u32> {
    let mut v = Vec::new();
    while x != 0 {
        v.push(x.trailing_zeros());
        x &= x - 1;
    }
    v
}

/// Extracts the bits of `x` selected by `mask`, packed into the low bits in mask
/// order (BMI2 `pext` when compiled in, else a portable loop with the same result).
#[inline(always)]
pub fn extract_bits(x: u64, mask: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "bmi2"))]
    {
        // SAFETY: the `bmi2` target feature is enabled at compile time (cfg above), so
        // the instruction exists on every CPU this binary is built to run on.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "bmi2")))]
    {
        extract_bits_portable(x, mask)
    }
}

/// The portable version of [`extract_bits`].
#[inline]
pub fn extract_bits_portable(x: u64, mut mask: u64) -> u64 {
    let mut out = 0u64;
    let mut bit = 0;
    while mask != 0 {
        let low = mask & mask.wrapping_neg();
        if x & low != 0 {
            out |= 1 << bit;
        }
        bit += 1;
        mask ^= low;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn instance_counts() {
        let counts: Vec<usize> = PATTERNS.iter().map(|p| p.instances().len()).collect();
        assert_eq!(counts, [4, 8, 4, 4, 4, 4, 4, 2, 4, 4, 4, 4]);
    }

    #[test]
    fn six_by_six_patterns_stay_on_the_board() {
        let counts: Vec<usize> = PATTERNS6.iter().map(|p| p.instances().len()).collect();
        assert_eq!(counts, [4, 8, 4, 4, 4, 4, 2, 4, 4]);
        let board = solvo_othello::BoardSize::Six.mask();
        for p in &PATTERNS6 {
            for k in 0..8 {
                assert_eq!(inverse_transform(p.mask, k) & !board, 0, "{} symmetry {k}", p.name);
            }
            assert!(p.len() <= MAX_PATTERN_SQUARES);
        }
    }

    #[test]
    fn pext_paths_agree() {
        let mut x = 0x9E37_79B9_7F4A_7C15u64;
        for _ in 0..1000 {
            x = x.rotate_left(17).wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ 0x94D0_49BB_1331_11EB;
            for p in &PATTERNS {
                assert_eq!(extract_bits(x, p.mask), extract_bits_portable(x, p.mask));
            }
        }
    }

    #[test]
    fn representatives_are_fixed_points() {
        for p in PATTERNS.iter().chain(&PATTERNS6) {
            let reps = p.representatives();
            for (i, &r) in reps.iter().enumerate() {
                assert!(r as usize <= i);
                assert_eq!(reps[r as usize], r, "{}", p.name);
            }
        }
    }
}
