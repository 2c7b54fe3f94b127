//! How a list of patterns becomes a feature layout, computed at compile time: the
//! distinct symmetric instances of each pattern, the squares each instance reads on
//! the board as it is, the small ternary tables that turn those squares' bits into a
//! pattern index, and where each pattern's table starts in a stage's weights.
//!
//! Written once for every board size: the 8x8 layout ([`crate::features`]) and the
//! 6x6 one ([`crate::features6`]) are these functions applied to their pattern lists,
//! so both read instances the same way (see [`crate::pattern`] for the conventions).

use crate::pattern::{Pattern, MAX_PATTERN_SQUARES};
use solvo_othello::symmetry::{inverse_transform, transform};

/// Digit weights (`3^rank` in the canonical pattern) of an instance's squares, lowest
/// board square first, and their number.
pub type InstanceDigits = ([u16; MAX_PATTERN_SQUARES], usize);

/// The stage of a position with `discs` discs when stages are 2 discs wide from the
/// 4-disc start and there are `stages` of them (`stages >= 1`): `(discs - 4) / 2`, the
/// last stage also holding every later disc count (and fewer than 4 discs, stage 0).
#[inline(always)]
pub const fn stage_in(discs: u32, stages: usize) -> usize {
    let s = (discs.saturating_sub(4) / 2) as usize;
    if s < stages {
        s
    } else {
        stages - 1
    }
}

/// True if symmetry `k` gives a square set of `mask` that no smaller `k` gives.
const fn is_new_instance(mask: u64, k: u8) -> bool {
    let squares = inverse_transform(mask, k);
    let mut j = 0;
    while j < k {
        if inverse_transform(mask, j) == squares {
            return false;
        }
        j += 1;
    }
    true
}

/// The number of distinct instances of all `patterns` (distinct square sets under the
/// 8 symmetries, per pattern).
pub const fn instance_count(patterns: &[Pattern]) -> usize {
    let mut n = 0;
    let mut t = 0;
    while t < patterns.len() {
        let mut k = 0u8;
        while k < 8 {
            if is_new_instance(patterns[t].mask, k) {
                n += 1;
            }
            k += 1;
        }
        t += 1;
    }
    n
}

/// Every distinct instance as (pattern number, symmetry `k`), in pattern then symmetry
/// order, smallest `k` for each square set. `N` must be [`instance_count`]`(patterns)`
/// (a compile-time error otherwise).
pub const fn instances<const N: usize>(patterns: &[Pattern]) -> [(u8, u8); N] {
    assert!(N == instance_count(patterns), "N is not the number of instances");
    let mut out = [(0u8, 0u8); N];
    let mut n = 0;
    let mut t = 0;
    while t < patterns.len() {
        let mut k = 0u8;
        while k < 8 {
            if is_new_instance(patterns[t].mask, k) {
                out[n] = (t as u8, k);
                n += 1;
            }
            k += 1;
        }
        t += 1;
    }
    out
}

/// The squares each instance reads on the board as it is: `inverse_transform(mask, k)`.
pub const fn instance_masks<const N: usize>(patterns: &[Pattern], instances: &[(u8, u8); N]) -> [u64; N] {
    let mut out = [0u64; N];
    let mut i = 0;
    while i < N {
        let (t, k) = instances[i];
        out[i] = inverse_transform(patterns[t as usize].mask, k);
        i += 1;
    }
    out
}

/// The rank of square `sq` among the set bits of `mask` (lowest = 0).
const fn rank_in(mask: u64, sq: u32) -> u32 {
    (mask & ((1u64 << sq) - 1)).count_ones()
}

/// For each instance, the digit weight of each of its board squares (lowest first):
/// that of the canonical square it maps to.
pub const fn instance_digits<const N: usize>(
    patterns: &[Pattern],
    instances: &[(u8, u8); N],
    masks: &[u64; N],
) -> [InstanceDigits; N] {
    let mut out = [([0u16; MAX_PATTERN_SQUARES], 0usize); N];
    let mut i = 0;
    while i < N {
        let (t, k) = instances[i];
        let canonical = patterns[t as usize].mask;
        let mut rest = masks[i];
        let mut j = 0;
        while rest != 0 {
            let sq = rest.trailing_zeros();
            rest &= rest - 1;
            let image = transform(1u64 << sq, k).trailing_zeros();
            out[i].0[j] = 3u16.pow(rank_in(canonical, image));
            j += 1;
        }
        out[i].1 = j;
        i += 1;
    }
    out
}

const fn same_digits(a: &InstanceDigits, b: &InstanceDigits) -> bool {
    if a.1 != b.1 {
        return false;
    }
    let mut j = 0;
    while j < a.1 {
        if a.0[j] != b.0[j] {
            return false;
        }
        j += 1;
    }
    true
}

/// Each instance's table offset in the shared ternary tables (instances whose squares
/// carry the same digit weights share one table of `2^squares` entries) and the total
/// length.
pub const fn ternary_layout<const N: usize>(digits: &[InstanceDigits; N]) -> ([u32; N], usize) {
    let mut out = [0u32; N];
    let mut len = 0usize;
    let mut i = 0;
    while i < N {
        let mut shared = None;
        let mut e = 0;
        while e < i {
            if same_digits(&digits[e], &digits[i]) {
                shared = Some(out[e]);
                break;
            }
            e += 1;
        }
        out[i] = match shared {
            Some(at) => at,
            None => {
                let at = len as u32;
                len += 1 << digits[i].1;
                at
            }
        };
        i += 1;
    }
    (out, len)
}

/// The shared ternary tables: entry `offsets[i] + b` is the index contribution of
/// instance `i`'s squares whose bits are set in `b`. `L` must be the length
/// [`ternary_layout`] returned.
pub const fn ternary_tables<const L: usize, const N: usize>(
    digits: &[InstanceDigits; N],
    offsets: &[u32; N],
) -> [u16; L] {
    let mut out = [0u16; L];
    let mut i = 0;
    while i < N {
        let (weight, n) = digits[i];
        let at = offsets[i] as usize;
        let mut b = 0;
        while b < (1 << n) {
            let mut v = 0u16;
            let mut d = 0;
            while d < n {
                if b & (1 << d) != 0 {
                    v += weight[d];
                }
                d += 1;
            }
            out[at + b] = v;
            b += 1;
        }
        i += 1;
    }
    out
}

/// Start of each pattern's table (`3^squares` entries) in a stage's weights, in
/// pattern order.
pub const fn pattern_offsets<const P: usize>(patterns: &[Pattern; P]) -> [usize; P] {
    let mut out = [0usize; P];
    let mut at = 0;
    let mut t = 0;
    while t < P {
        out[t] = at;
        at += patterns[t].table_len();
        t += 1;
    }
    out
}

/// The total length of all pattern tables.
pub const fn pattern_table_total(patterns: &[Pattern]) -> usize {
    let mut at = 0;
    let mut t = 0;
    while t < patterns.len() {
        at += patterns[t].table_len();
        t += 1;
    }
    at
}

/// Start of each instance's pattern table in a stage's weights.
pub const fn instance_offsets<const N: usize, const P: usize>(
    instances: &[(u8, u8); N],
    pattern_offsets: &[usize; P],
) -> [u32; N] {
    let mut out = [0u32; N];
    let mut i = 0;
    while i < N {
        out[i] = pattern_offsets[instances[i].0 as usize] as u32;
        i += 1;
    }
    out
}
