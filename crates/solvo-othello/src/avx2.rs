//! AVX2 kernels on 256-bit registers holding a bitboard in all 4 lanes ("broadcast"
//! form), so that a move can be played and the reply moves generated without moving
//! data between vector and general registers. Compiled only when the build enables
//! AVX2; [`crate::moves`] and [`crate::flips`] hold the portable equivalents, and tests
//! hold both paths equal.
//!
//! SAFETY (whole module): every function here is compiled only under
//! `target_feature = "avx2"`, so every CPU that runs the binary has AVX2; the
//! intrinsics act on registers, and the one memory access (in [`flips`]) is
//! explained where it happens.

use core::arch::x86_64::*;

use crate::flips::RAYS;

/// Files b..g: opponent discs a horizontal or diagonal run may cross.
const NOT_AH: i64 = 0x7E7E_7E7E_7E7E_7E7E;

/// A bitboard in all 4 lanes.
#[inline(always)]
pub fn splat(x: u64) -> __m256i {
    unsafe { _mm256_set1_epi64x(x as i64) }
}

/// The OR of the 4 lanes, as a `u64`.
#[inline(always)]
pub fn or_lanes(v: __m256i) -> u64 {
    unsafe {
        let half = _mm_or_si128(_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
        _mm_cvtsi128_si64(_mm_or_si128(half, _mm_unpackhi_epi64(half, half))) as u64
    }
}

/// The OR of the 4 lanes, in all 4 lanes.
#[inline(always)]
pub fn or_lanes_splat(v: __m256i) -> __m256i {
    unsafe {
        let v = _mm256_or_si256(v, _mm256_permute4x64_epi64::<0b0100_1110>(v));
        _mm256_or_si256(v, _mm256_shuffle_epi32::<0b0100_1110>(v))
    }
}

/// Candidate moves (any square, empty or not) of `p` against `o`, both in broadcast
/// form; the 4 lanes hold the directions (1, 8, 7, 9), each shifted both ways, and
/// must be ORed together.
#[inline(always)]
pub fn candidate_lanes(pp: __m256i, oo: __m256i) -> __m256i {
    unsafe {
        let s1 = _mm256_set_epi64x(9, 7, 8, 1);
        let s2 = _mm256_add_epi64(s1, s1);
        let om = _mm256_and_si256(oo, _mm256_set_epi64x(NOT_AH, NOT_AH, -1, NOT_AH));

        let mut fl = _mm256_and_si256(om, _mm256_sllv_epi64(pp, s1));
        let mut fr = _mm256_and_si256(om, _mm256_srlv_epi64(pp, s1));
        fl = _mm256_or_si256(fl, _mm256_and_si256(om, _mm256_sllv_epi64(fl, s1)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(om, _mm256_srlv_epi64(fr, s1)));
        let pre_l = _mm256_and_si256(om, _mm256_sllv_epi64(om, s1));
        // Bit k of pre_l is O[k] & O[k - s]; shifted right by s it is O[k + s] & O[k].
        let pre_r = _mm256_srlv_epi64(pre_l, s1);
        fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, s2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, s2)));
        fl = _mm256_or_si256(fl, _mm256_and_si256(pre_l, _mm256_sllv_epi64(fl, s2)));
        fr = _mm256_or_si256(fr, _mm256_and_si256(pre_r, _mm256_srlv_epi64(fr, s2)));
        _mm256_or_si256(_mm256_sllv_epi64(fl, s1), _mm256_srlv_epi64(fr, s1))
    }
}

/// Discs flipped when `p` plays `sq` against `o` (broadcast inputs), per direction
/// lane: OR the lanes for the full set. Directions of increasing index use the
/// lowest-set-bit trick on the precomputed rays; the others flood from the move
/// through opponent discs and check the square beyond the run.
#[inline(always)]
pub fn flips_lanes(sq: usize, pp: __m256i, oo: __m256i) -> __m256i {
    let sq = sq & 63;
    unsafe {
        let zero = _mm256_setzero_si256();
        // SAFETY: reads the 32 bytes `RAYS[sq][0..4]`, inside the 64-byte row
        // `RAYS[sq]` (`sq < 64` after the mask above); `loadu` needs no alignment.
        let ray_up = _mm256_loadu_si256(RAYS[sq].as_ptr() as *const __m256i);
        let stop = _mm256_andnot_si256(oo, ray_up);
        let first = _mm256_and_si256(stop, _mm256_sub_epi64(zero, stop));
        let between = _mm256_and_si256(_mm256_add_epi64(first, _mm256_set1_epi64x(-1)), ray_up);
        let open_up = _mm256_cmpeq_epi64(_mm256_and_si256(first, pp), zero);
        let flips_up = _mm256_andnot_si256(open_up, between);

        let s1 = _mm256_set_epi64x(9, 7, 8, 1);
        let s2 = _mm256_add_epi64(s1, s1);
        let om = _mm256_and_si256(oo, _mm256_set_epi64x(NOT_AH, NOT_AH, -1, NOT_AH));
        let x = _mm256_set1_epi64x((1u64 << sq) as i64);
        let mut f = _mm256_and_si256(om, _mm256_srlv_epi64(x, s1));
        f = _mm256_or_si256(f, _mm256_and_si256(om, _mm256_srlv_epi64(f, s1)));
        let pre = _mm256_and_si256(om, _mm256_srlv_epi64(om, s1));
        f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srlv_epi64(f, s2)));
        f = _mm256_or_si256(f, _mm256_and_si256(pre, _mm256_srlv_epi64(f, s2)));
        let open_down = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_srlv_epi64(f, s1), pp), zero);
        let flips_down = _mm256_andnot_si256(open_down, f);
        _mm256_or_si256(flips_up, flips_down)
    }
}

/// Plays `sq` for `p` against `o` and returns (flipped discs, legal moves of the
/// opponent afterwards within `empty_after`). `pp`, `oo` are `p`, `o` in broadcast
/// form (hoisted by the caller over all moves of a position); `empty_after` must be
/// the empty playable squares once `sq` is filled.
#[inline(always)]
pub fn play_and_reply_moves(sq: usize, pp: __m256i, oo: __m256i, empty_after: u64) -> (u64, u64) {
    unsafe {
        let f = or_lanes_splat(flips_lanes(sq, pp, oo));
        let next_p = _mm256_xor_si256(oo, f);
        let next_o = _mm256_xor_si256(pp, _mm256_or_si256(f, _mm256_set1_epi64x((1u64 << (sq & 63)) as i64)));
        let replies = or_lanes(candidate_lanes(next_p, next_o)) & empty_after;
        (_mm_cvtsi128_si64(_mm256_castsi256_si128(f)) as u64, replies)
    }
}
