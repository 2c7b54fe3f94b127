//! The features of a position and where each one's weight lives in a stage's table.
//!
//! A stage's weights are one flat `i16` array: the tables of the [`PATTERNS`] one after
//! the other, then the side to move's mobility (legal moves, capped), the opponent's
//! mobility, and the parity of the number of empty squares (which doubles as the
//! stage's bias). Every position activates exactly [`ACTIVE_FEATURES`] entries; its
//! evaluation is their sum.

use crate::pattern::{extract_bits, PATTERNS, TERNARY};
use solvo_othello::moves::legal_moves;
use solvo_othello::symmetry::{inverse_transform, transform};

/// Number of pattern instances read on every position (all patterns, all distinct
/// symmetric images).
pub const PATTERN_INSTANCES: usize = count_instances();

/// Mobility counts at or above this are read as `MOBILITY_CAP - 1`.
pub const MOBILITY_CAP: usize = 32;

/// Number of weights read for one position: every pattern instance, two mobility
/// entries, one parity entry.
pub const ACTIVE_FEATURES: usize = PATTERN_INSTANCES + 3;

/// Start of each pattern's table in a stage's array, in [`PATTERNS`] order.
pub const PATTERN_OFFSETS: [usize; PATTERNS.len()] = pattern_offsets();

/// Start of the side to move's mobility table.
pub const MOBILITY_PLAYER_OFFSET: usize = pattern_table_total();
/// Start of the opponent's mobility table.
pub const MOBILITY_OPPONENT_OFFSET: usize = MOBILITY_PLAYER_OFFSET + MOBILITY_CAP;
/// Start of the parity table (2 entries: even, odd number of empties).
pub const PARITY_OFFSET: usize = MOBILITY_OPPONENT_OFFSET + MOBILITY_CAP;
/// Number of weights in one stage.
pub const STAGE_LEN: usize = PARITY_OFFSET + 2;

/// Every pattern instance as (pattern number, symmetry `k`): read `PATTERNS[t].mask`
/// from `transform(board, k)`. Distinct square sets only, smallest `k` for each.
pub const INSTANCES: [(u8, u8); PATTERN_INSTANCES] = instances();

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

const fn count_instances() -> usize {
    let mut n = 0;
    let mut t = 0;
    while t < PATTERNS.len() {
        let mut k = 0u8;
        while k < 8 {
            if is_new_instance(PATTERNS[t].mask, k) {
                n += 1;
            }
            k += 1;
        }
        t += 1;
    }
    n
}

const fn instances() -> [(u8, u8); PATTERN_INSTANCES] {
    let mut out = [(0u8, 0u8); PATTERN_INSTANCES];
    let mut n = 0;
    let mut t = 0;
    while t < PATTERNS.len() {
        let mut k = 0u8;
        while k < 8 {
            if is_new_instance(PATTERNS[t].mask, k) {
                out[n] = (t as u8, k);
                n += 1;
            }
            k += 1;
        }
        t += 1;
    }
    out
}

const fn pattern_offsets() -> [usize; PATTERNS.len()] {
    let mut out = [0usize; PATTERNS.len()];
    let mut at = 0;
    let mut t = 0;
    while t < PATTERNS.len() {
        out[t] = at;
        at += PATTERNS[t].table_len();
        t += 1;
    }
    out
}

const fn pattern_table_total() -> usize {
    let mut at = 0;
    let mut t = 0;
    while t < PATTERNS.len() {
        at += PATTERNS[t].table_len();
        t += 1;
    }
    at
}

/// The weight-array index of every feature active for `player` to move against
/// `opponent` (8x8), in a fixed order: the pattern instances in [`INSTANCES`] order,
/// then player mobility, opponent mobility, parity.
#[inline(always)]
pub fn feature_indices(player: u64, opponent: u64) -> [u32; ACTIVE_FEATURES] {
    let mut out = [0u32; ACTIVE_FEATURES];
    let ps: [u64; 8] = std::array::from_fn(|k| transform(player, k as u8));
    let os: [u64; 8] = std::array::from_fn(|k| transform(opponent, k as u8));
    for (slot, &(t, k)) in out.iter_mut().zip(INSTANCES.iter()) {
        let mask = PATTERNS[t as usize].mask;
        let own = TERNARY[extract_bits(ps[k as usize], mask) as usize] as usize;
        let theirs = TERNARY[extract_bits(os[k as usize], mask) as usize] as usize;
        *slot = (PATTERN_OFFSETS[t as usize] + own + 2 * theirs) as u32;
    }
    let mobility = |a: u64, b: u64| (legal_moves(a, b, u64::MAX).count_ones() as usize).min(MOBILITY_CAP - 1);
    out[PATTERN_INSTANCES] = (MOBILITY_PLAYER_OFFSET + mobility(player, opponent)) as u32;
    out[PATTERN_INSTANCES + 1] = (MOBILITY_OPPONENT_OFFSET + mobility(opponent, player)) as u32;
    let empties = 64 - (player | opponent).count_ones() as usize;
    out[PATTERN_INSTANCES + 2] = (PARITY_OFFSET + (empties & 1)) as u32;
    out
}

/// A fingerprint of the feature layout (pattern names, squares, instances, table
/// sizes): a weight file trained for another layout is refused.
pub fn layout_fingerprint() -> u64 {
    let mut h = crate::checksum::Fnv64::new();
    for p in &PATTERNS {
        h.write(p.name.as_bytes());
        h.write(&p.mask.to_le_bytes());
    }
    for &(t, k) in &INSTANCES {
        h.write(&[t, k]);
    }
    h.write(&(MOBILITY_CAP as u64).to_le_bytes());
    h.write(&(STAGE_LEN as u64).to_le_bytes());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_sizes() {
        assert_eq!(PATTERN_INSTANCES, 50);
        assert_eq!(STAGE_LEN, 19683 + 3 * 59049 + 4 * 6561 + 2187 + 729 + 243 + 81 + 2 * MOBILITY_CAP + 2);
    }

    #[test]
    fn indices_stay_in_their_tables() {
        let start = solvo_othello::Board::start();
        let idx = feature_indices(start.player, start.opponent);
        for (i, &(t, _)) in INSTANCES.iter().enumerate() {
            let lo = PATTERN_OFFSETS[t as usize];
            assert!((lo..lo + PATTERNS[t as usize].table_len()).contains(&(idx[i] as usize)));
        }
        assert_eq!(idx[PATTERN_INSTANCES] as usize, MOBILITY_PLAYER_OFFSET + 4);
        assert_eq!(idx[PATTERN_INSTANCES + 2] as usize, PARITY_OFFSET);
    }
}
