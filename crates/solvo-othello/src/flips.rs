//! Discs turned over by a move.
//!
//! For each of the 8 directions a precomputed ray (the squares from the move to the
//! edge, move excluded) is scanned: the first square of the ray that is *not* an
//! opponent disc is found with one bit trick (lowest set bit for directions of
//! increasing index, highest set bit via `lzcnt` for the others); if it is a player
//! disc, the ray squares before it flip. Off-board squares of the small boards are
//! never discs, so the scan stops there by itself.

/// Ray masks: `RAYS[sq][d]` is the set of squares strictly beyond `sq` in direction
/// `d`, up to the edge. Directions 0..4 go towards higher indices (+1, +8, +7, +9),
/// 4..8 towards lower indices (-1, -8, -7, -9).
pub static RAYS: [[u64; 8]; 64] = build_rays();

const fn build_rays() -> [[u64; 8]; 64] {
    // (row step, column step) for +1, +8, +7, +9, -1, -8, -7, -9.
    const STEPS: [(i32, i32); 8] = [(0, 1), (1, 0), (1, -1), (1, 1), (0, -1), (-1, 0), (-1, 1), (-1, -1)];
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = STEPS[d];
            let (mut r, mut c) = (sq as i32 / 8 + dr, sq as i32 % 8 + dc);
            let mut ray = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                ray |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            rays[sq][d] = ray;
            d += 1;
        }
        sq += 1;
    }
    rays
}

/// Flips along a ray of increasing indices.
#[inline(always)]
fn flips_up(p: u64, o: u64, ray: u64) -> u64 {
    let stop = ray & !o;
    let first = stop & stop.wrapping_neg();
    let between = first.wrapping_sub(1) & ray;
    between & (((first & p) != 0) as u64).wrapping_neg()
}

/// Flips along a ray of decreasing indices.
#[inline(always)]
fn flips_down(p: u64, o: u64, ray: u64) -> u64 {
    let stop = ray & !o;
    // With `stop == 0`, leading_zeros is 64, the shift wraps to 0 and `first` is h8:
    // then `between` is empty whatever `p` holds, as it must be.
    let first = (1u64 << 63).wrapping_shr(stop.leading_zeros());
    let between = (first.wrapping_neg() << 1) & ray;
    between & (((first & p) != 0) as u64).wrapping_neg()
}

/// The opponent discs turned over when the player `p` plays on `sq` (an empty square)
/// against the opponent `o`. Zero exactly when the move is illegal. Uses the build's
/// fastest implementation (AVX2 when compiled in, else portable).
#[inline(always)]
pub fn flips(sq: usize, p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        flips_avx2(sq, p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        flips_portable(sq, p, o)
    }
}

/// AVX2 flips (see [`crate::avx2::flips_lanes`]). Same result as [`flips_portable`].
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
pub fn flips_avx2(sq: usize, p: u64, o: u64) -> u64 {
    use crate::avx2::{flips_lanes, or_lanes, splat};
    or_lanes(flips_lanes(sq, splat(p), splat(o)))
}

/// Portable flips (plain `u64`, `lzcnt` when the build has it).
#[inline]
pub fn flips_portable(sq: usize, p: u64, o: u64) -> u64 {
    let r = &RAYS[sq & 63];
    (flips_up(p, o, r[0]) | flips_up(p, o, r[1]))
        | (flips_up(p, o, r[2]) | flips_up(p, o, r[3]))
        | (flips_down(p, o, r[4]) | flips_down(p, o, r[5]))
        | (flips_down(p, o, r[6]) | flips_down(p, o, r[7]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::moves::legal_moves;
    use solvo_core::rng::Rng;

    fn naive_flips(sq: i32, p: u64, o: u64) -> u64 {
        let mut all = 0;
        let (r, c) = (sq / 8, sq % 8);
        for (dr, dc) in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] {
            let (mut rr, mut cc, mut run) = (r + dr, c + dc, 0u64);
            while (0..8).contains(&rr) && (0..8).contains(&cc) && o >> (rr * 8 + cc) & 1 != 0 {
                run |= 1 << (rr * 8 + cc);
                rr += dr;
                cc += dc;
            }
            if (0..8).contains(&rr) && (0..8).contains(&cc) && p >> (rr * 8 + cc) & 1 != 0 {
                all |= run;
            }
        }
        all
    }

    #[test]
    fn flips_agree_with_naive_on_random_boards() {
        let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
        let mut next = || rng.next_u64();
        for _ in 0..20_000 {
            let (a, b, c) = (next(), next(), next());
            let (p, o) = (a & !b, b & !a & c);
            let legal = legal_moves(p, o, u64::MAX);
            for sq in 0..64 {
                if (p | o) >> sq & 1 != 0 {
                    continue;
                }
                let f = flips(sq as usize, p, o);
                assert_eq!(f, naive_flips(sq, p, o));
                assert_eq!(flips_portable(sq as usize, p, o), f);
                #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
                assert_eq!(flips_avx2(sq as usize, p, o), f);
                assert_eq!(f != 0, legal >> sq & 1 != 0);
            }
        }
    }
}
