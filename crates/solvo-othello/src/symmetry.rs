//! The 8 symmetries of the square board and canonical forms.
//!
//! They map the centre of the 8x8 grid onto itself, so they are also the symmetries
//! of the 6x6 and 4x4 boards embedded there.

use crate::board::Board;

/// Mirror across the horizontal middle line (rank 1 <-> rank 8).
#[inline]
pub const fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

/// Mirror across the vertical middle line (file a <-> file h).
#[inline]
pub const fn flip_horizontal(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Mirror across the a1-h8 diagonal (row and column exchanged).
#[inline]
pub const fn flip_diagonal(x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let mut x = x;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^ t ^ (t >> 7)
}

/// The `k`-th symmetry (`k` in `0..8`): bit 0 = flip vertically, bit 1 = flip
/// horizontally, bit 2 = then mirror on the a1-h8 diagonal. `k = 0` is the identity.
/// Every symmetry is its own group element: together they are the dihedral group D4.
#[inline]
pub const fn transform(x: u64, k: u8) -> u64 {
    let x = if k & 1 != 0 { flip_vertical(x) } else { x };
    let x = if k & 2 != 0 { flip_horizontal(x) } else { x };
    if k & 4 != 0 {
        flip_diagonal(x)
    } else {
        x
    }
}

/// The inverse of [`transform`] with the same `k`: `inverse_transform(transform(x, k), k) == x`.
#[inline]
pub const fn inverse_transform(x: u64, k: u8) -> u64 {
    let x = if k & 4 != 0 { flip_diagonal(x) } else { x };
    let x = if k & 2 != 0 { flip_horizontal(x) } else { x };
    if k & 1 != 0 {
        flip_vertical(x)
    } else {
        x
    }
}

impl Board {
    /// The image of the board under symmetry `k` (see [`transform`]).
    #[inline]
    pub const fn transformed(&self, k: u8) -> Board {
        Board { player: transform(self.player, k), opponent: transform(self.opponent, k) }
    }

    /// All 8 images, index = symmetry number.
    pub fn images(&self) -> [Board; 8] {
        std::array::from_fn(|k| self.transformed(k as u8))
    }

    /// The canonical form: the smallest image in (player, opponent) order, player
    /// compared first. Equal for all 8 images of a board.
    #[inline]
    pub fn canonical(&self) -> Board {
        self.canonical_with_symmetry().0
    }

    /// The canonical form and the (smallest) symmetry number that produces it.
    pub fn canonical_with_symmetry(&self) -> (Board, u8) {
        let mut best = (*self, 0u8);
        for k in 1..8u8 {
            let img = self.transformed(k);
            if img < best.0 {
                best = (img, k);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_core::rng::Rng;

    fn naive(x: u64, f: impl Fn(u32, u32) -> (u32, u32)) -> u64 {
        let mut y = 0;
        for sq in 0..64 {
            if x >> sq & 1 != 0 {
                let (r, c) = f(sq / 8, sq % 8);
                y |= 1 << (r * 8 + c);
            }
        }
        y
    }

    #[test]
    fn elementary_mirrors_match_naive_definitions() {
        let mut rng = Rng::new(0x2545_F491_4F6C_DD1D);
        for _ in 0..1000 {
            let s = rng.next_u64();
            assert_eq!(flip_vertical(s), naive(s, |r, c| (7 - r, c)));
            assert_eq!(flip_horizontal(s), naive(s, |r, c| (r, 7 - c)));
            assert_eq!(flip_diagonal(s), naive(s, |r, c| (c, r)));
            let images: std::collections::HashSet<u64> = (0..8).map(|k| transform(s, k)).collect();
            assert_eq!(images.len(), 8);
            for k in 0..8 {
                assert_eq!(inverse_transform(transform(s, k), k), s);
            }
        }
    }
}
