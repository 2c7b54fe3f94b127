//! The features of a position and where each one's weight lives in a stage's table.
//!
//! A stage's weights are one flat `i16` array: the tables of the [`PATTERNS`] one after
//! the other, then the side to move's mobility (legal moves, capped), the opponent's
//! mobility, and the parity of the number of empty squares (which doubles as the
//! stage's bias). Every position activates exactly [`ACTIVE_FEATURES`] entries; its
//! evaluation is their sum.

use crate::layout::{
    instance_count, instance_digits, instance_masks, instance_offsets, instances, pattern_offsets, pattern_table_total,
    ternary_layout, ternary_tables, InstanceDigits,
};
use crate::pattern::{extract_bits, PATTERNS};
use solvo_othello::moves::legal_moves;

/// Number of pattern instances read on every position (all patterns, all distinct
/// symmetric images).
pub const PATTERN_INSTANCES: usize = instance_count(&PATTERNS);

/// Mobility counts at or above this are read as `MOBILITY_CAP - 1`.
pub const MOBILITY_CAP: usize = 32;

/// Number of weights read for one position: every pattern instance, two mobility
/// entries, one parity entry.
pub const ACTIVE_FEATURES: usize = PATTERN_INSTANCES + 3;

/// Start of each pattern's table in a stage's array, in [`PATTERNS`] order.
pub const PATTERN_OFFSETS: [usize; PATTERNS.len()] = pattern_offsets(&PATTERNS);

/// Start of the side to move's mobility table.
pub const MOBILITY_PLAYER_OFFSET: usize = pattern_table_total(&PATTERNS);
/// Start of the opponent's mobility table.
pub const MOBILITY_OPPONENT_OFFSET: usize = MOBILITY_PLAYER_OFFSET + MOBILITY_CAP;
/// Start of the parity table (2 entries: even, odd number of empties).
pub const PARITY_OFFSET: usize = MOBILITY_OPPONENT_OFFSET + MOBILITY_CAP;
/// Number of weights in one stage.
pub const STAGE_LEN: usize = PARITY_OFFSET + 2;

/// Every pattern instance as (pattern number, symmetry `k`): read `PATTERNS[t].mask`
/// from `transform(board, k)`. Distinct square sets only, smallest `k` for each.
pub const INSTANCES: [(u8, u8); PATTERN_INSTANCES] = instances(&PATTERNS);

/// The squares each instance reads on the board as it is: `inverse_transform(mask, k)`.
pub const INSTANCE_MASKS: [u64; PATTERN_INSTANCES] = instance_masks(&PATTERNS, &INSTANCES);

/// `TERNARY_TABLES[INSTANCE_TERNARY_OFFSETS[i] + b]`: the pattern index contribution
/// of instance `i`'s squares whose bits are set in `b`, where `b` is extracted from the
/// board as it is with [`INSTANCE_MASKS`]`[i]` (bit `j` = the instance's `j`-th lowest
/// square, `b < 2^squares`). Each square's digit weight is that of the canonical square
/// it maps to, so an index read this way equals the one read from the transformed
/// board, without transforming it. Instances whose squares carry the same digit
/// weights share one table, and each table has exactly `2^squares` entries: 34 KiB in
/// all (one table of 1,024 entries per instance was 100 KiB, beyond the first-level
/// cache the evaluation's other reads need).
pub static TERNARY_TABLES: [u16; TERNARY_LAYOUT.1] = ternary_tables(&INSTANCE_DIGITS, &TERNARY_LAYOUT.0);

/// Where each instance's table starts in [`TERNARY_TABLES`].
pub const INSTANCE_TERNARY_OFFSETS: [u32; PATTERN_INSTANCES] = TERNARY_LAYOUT.0;

/// Digit weights of each instance's squares, lowest square first, and their number.
const INSTANCE_DIGITS: [InstanceDigits; PATTERN_INSTANCES] = instance_digits(&PATTERNS, &INSTANCES, &INSTANCE_MASKS);

/// Each instance's table offset (shared tables deduplicated) and the total length.
const TERNARY_LAYOUT: ([u32; PATTERN_INSTANCES], usize) = ternary_layout(&INSTANCE_DIGITS);

/// The weight-array index of every feature active for `player` to move against
/// `opponent` (8x8), in a fixed order: the pattern instances in [`INSTANCES`] order,
/// then player mobility, opponent mobility, parity.
#[inline(always)]
pub fn feature_indices(player: u64, opponent: u64) -> [u32; ACTIVE_FEATURES] {
    let mut out = [0u32; ACTIVE_FEATURES];
    let mut n = 0;
    for_each_feature(player, opponent, |idx| {
        out[n] = idx as u32;
        n += 1;
    });
    out
}

/// Calls `sink` with the weight-array index of every feature active for `player` to
/// move against `opponent`, in the order of [`feature_indices`] (the evaluation sums
/// them without storing the list).
#[inline(always)]
pub fn for_each_feature(player: u64, opponent: u64, mut sink: impl FnMut(usize)) {
    for i in 0..PATTERN_INSTANCES {
        let mask = INSTANCE_MASKS[i];
        let at = INSTANCE_TERNARY_OFFSETS[i] as usize;
        let own = TERNARY_TABLES[at + extract_bits(player, mask) as usize] as usize;
        let theirs = TERNARY_TABLES[at + extract_bits(opponent, mask) as usize] as usize;
        sink(INSTANCE_OFFSETS[i] as usize + own + 2 * theirs);
    }
    let mobility = |a: u64, b: u64| (legal_moves(a, b, u64::MAX).count_ones() as usize).min(MOBILITY_CAP - 1);
    sink(MOBILITY_PLAYER_OFFSET + mobility(player, opponent));
    sink(MOBILITY_OPPONENT_OFFSET + mobility(opponent, player));
    let empties = 64 - (player | opponent).count_ones() as usize;
    sink(PARITY_OFFSET + (empties & 1));
}

/// The evaluation's sum over one stage's weights `w` ([`STAGE_LEN`] entries): the sum
/// of `w[idx]` over every `idx` that [`for_each_feature`] names for disjoint `player`
/// and `opponent` (a test checks; a square in both is read as the player's), with each instance's mask and offsets compiled in as constants (the
/// loop form reloaded them from tables and cost about twice the instructions).
#[inline(always)]
pub fn feature_sum(player: u64, opponent: u64, w: &[i16]) -> i32 {
    const _: () = assert!(PATTERN_INSTANCES == 50, "feature_sum unrolls exactly 50 instances");
    macro_rules! sum_instances {
        ($p:expr, $o:expr; $($i:literal)*) => { 0 $(+ instance_weight::<$i>($p, $o, w))* };
    }
    assert!(w.len() >= STAGE_LEN, "a stage has {STAGE_LEN} weights");
    // A square claimed by both sides is read as the player's: the unchecked reads below
    // rely on the two sets being disjoint.
    let opponent = opponent & !player;
    let patterns = sum_instances!(player, opponent; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27
        28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49);
    let mobility = |a: u64, b: u64| (legal_moves(a, b, u64::MAX).count_ones() as usize).min(MOBILITY_CAP - 1);
    let empties = 64 - (player | opponent).count_ones() as usize;
    patterns
        + i32::from(w[MOBILITY_PLAYER_OFFSET + mobility(player, opponent)])
        + i32::from(w[MOBILITY_OPPONENT_OFFSET + mobility(opponent, player)])
        + i32::from(w[PARITY_OFFSET + (empties & 1)])
}

/// The active features of [`feature_indices`] (the same list, a test checks), read
/// with each instance's mask and offsets compiled in as in [`feature_sum`]: the
/// evaluation with a residual network reads the list twice (weights and network rows).
#[inline(always)]
pub fn feature_list(player: u64, opponent: u64) -> [u32; ACTIVE_FEATURES] {
    const _: () = assert!(PATTERN_INSTANCES == 50, "feature_list unrolls exactly 50 instances");
    macro_rules! list_instances {
        ($p:expr, $o:expr; $($i:literal)*) => { [$(instance_index::<$i>($p, $o) as u32,)*] };
    }
    let opponent = opponent & !player;
    let patterns: [u32; PATTERN_INSTANCES] = list_instances!(player, opponent; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27
        28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49);
    let mobility = |a: u64, b: u64| (legal_moves(a, b, u64::MAX).count_ones() as usize).min(MOBILITY_CAP - 1);
    let empties = 64 - (player | opponent).count_ones() as usize;
    let mut out = [0u32; ACTIVE_FEATURES];
    out[..PATTERN_INSTANCES].copy_from_slice(&patterns);
    out[PATTERN_INSTANCES] = (MOBILITY_PLAYER_OFFSET + mobility(player, opponent)) as u32;
    out[PATTERN_INSTANCES + 1] = (MOBILITY_OPPONENT_OFFSET + mobility(opponent, player)) as u32;
    out[PATTERN_INSTANCES + 2] = (PARITY_OFFSET + (empties & 1)) as u32;
    out
}

/// The index in a stage's array of instance `I`'s content for disjoint `player` and
/// `opponent`: always below [`STAGE_LEN`] (inside the instance's pattern table).
#[inline(always)]
fn instance_index<const I: usize>(player: u64, opponent: u64) -> usize {
    let mask = INSTANCE_MASKS[I];
    let at = INSTANCE_TERNARY_OFFSETS[I] as usize;
    let (own_bits, their_bits) = (extract_bits(player, mask) as usize, extract_bits(opponent, mask) as usize);
    debug_assert!(own_bits < 1 << INSTANCE_DIGITS[I].1 && their_bits < 1 << INSTANCE_DIGITS[I].1);
    // SAFETY: `extract_bits` gathers the bits of the instance's `n = INSTANCE_DIGITS[I].1`
    // squares into the low `n` bits, so each value is below `2^n`, and `ternary_layout`
    // reserved `2^n` entries from `at` for this instance inside `TERNARY_TABLES`.
    let (own, theirs) = unsafe {
        (*TERNARY_TABLES.get_unchecked(at + own_bits) as usize, *TERNARY_TABLES.get_unchecked(at + their_bits) as usize)
    };
    let index = INSTANCE_OFFSETS[I] as usize + own + 2 * theirs;
    debug_assert!(index < STAGE_LEN);
    index
}

/// The weight in `w` (at least [`STAGE_LEN`] entries, checked by the caller) of
/// instance `I`'s content on the board.
#[inline(always)]
fn instance_weight<const I: usize>(player: u64, opponent: u64, w: &[i16]) -> i32 {
    let index = instance_index::<I>(player, opponent);
    debug_assert!(STAGE_LEN <= w.len());
    // SAFETY: `own` and `theirs` in `instance_index` are sums of distinct powers `3^j`,
    // `j < n`, over disjoint squares (`feature_sum` removed the player's squares from the
    // opponent's), so `own + 2 * theirs <= 3^n - 1`: the index lies in the pattern's table
    // of `3^n` entries, which ends at or before `STAGE_LEN`, and `feature_sum` checked
    // `w.len() >= STAGE_LEN`. The test `unrolled_sum_equals_the_feature_list` compares
    // every read with the checked list.
    i32::from(unsafe { *w.get_unchecked(index) })
}

/// Start of each instance's pattern table in a stage's array.
pub const INSTANCE_OFFSETS: [u32; PATTERN_INSTANCES] = instance_offsets(&INSTANCES, &PATTERN_OFFSETS);

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
    use solvo_othello::symmetry::transform;

    #[test]
    fn layout_sizes() {
        assert_eq!(PATTERN_INSTANCES, 50);
        assert_eq!(STAGE_LEN, 19683 + 3 * 59049 + 4 * 6561 + 2187 + 729 + 243 + 81 + 2 * MOBILITY_CAP + 2);
    }

    /// The direct read (instance masks and tables) equals reading the canonical squares
    /// of the transformed board.
    #[test]
    fn instance_tables_match_transformed_reads() {
        use crate::pattern::TERNARY;
        let mut rng = solvo_core::rng::Rng::new(7);
        for _ in 0..2000 {
            let a = rng.next_u64();
            let b = rng.next_u64() & !a;
            let idx = feature_indices(a, b);
            for (i, &(t, k)) in INSTANCES.iter().enumerate() {
                let mask = PATTERNS[t as usize].mask;
                let own = TERNARY[extract_bits(transform(a, k), mask) as usize] as usize;
                let theirs = TERNARY[extract_bits(transform(b, k), mask) as usize] as usize;
                assert_eq!(idx[i] as usize, PATTERN_OFFSETS[t as usize] + own + 2 * theirs);
            }
        }
    }

    #[test]
    fn unrolled_sum_equals_the_feature_list() {
        let w: Vec<i16> = (0..STAGE_LEN).map(|i| (i as i64 * 2654435761 % 2001 - 1000) as i16).collect();
        let mut rng = solvo_core::rng::Rng::new(11);
        for _ in 0..5000 {
            let a = rng.next_u64();
            let b = rng.next_u64() & !a;
            let listed: i32 = feature_indices(a, b).iter().map(|&i| i32::from(w[i as usize])).sum();
            assert_eq!(feature_sum(a, b, &w), listed);
            assert_eq!(feature_list(a, b), feature_indices(a, b));
            // Overlapping sets stay in bounds: read as the player's.
            let c = rng.next_u64();
            assert_eq!(feature_sum(a | c, b | c, &w), feature_sum(a | c, b & !(a | c), &w));
        }
    }

    #[test]
    fn shared_ternary_tables_are_small() {
        eprintln!("ternary tables: {} entries", TERNARY_TABLES.len());
        assert!(TERNARY_TABLES.len() * 2 <= 36 * 1024);
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
