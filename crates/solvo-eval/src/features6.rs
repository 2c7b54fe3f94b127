//! The features of a 6x6 position and where each one's weight lives in a stage's
//! table: the 6x6 counterpart of [`crate::features`], built from [`PATTERNS6`] by the
//! same compile-time layout ([`crate::layout`]).
//!
//! A stage's weights are the tables of the [`PATTERNS6`] one after the other, then the
//! side to move's mobility (legal moves on the 6x6 board), the opponent's mobility,
//! and the parity of the number of empty squares. Every position activates exactly
//! [`ACTIVE_FEATURES6`] entries; its evaluation is their sum. A 6x6 stage holds the
//! positions of two disc counts, as on 8x8; there are [`NUM_STAGES6`] of them.

use crate::features::MOBILITY_CAP;
use crate::layout::{
    instance_count, instance_digits, instance_masks, instance_offsets, instances, pattern_offsets, pattern_table_total,
    stage_in, ternary_layout, ternary_tables, InstanceDigits,
};
use crate::pattern::{extract_bits, PATTERNS6};
use solvo_othello::moves::legal_moves;
use solvo_othello::BoardSize;

/// Number of 6x6 stages: stage `s` holds the positions with `4 + 2s` or `5 + 2s`
/// discs, the last one also the full board (36).
pub const NUM_STAGES6: usize = 16;

/// Number of pattern instances read on every 6x6 position.
pub const PATTERN_INSTANCES6: usize = instance_count(&PATTERNS6);

/// Number of weights read for one 6x6 position: every pattern instance, two mobility
/// entries, one parity entry.
pub const ACTIVE_FEATURES6: usize = PATTERN_INSTANCES6 + 3;

/// Start of each pattern's table in a 6x6 stage's array, in [`PATTERNS6`] order.
pub const PATTERN_OFFSETS6: [usize; PATTERNS6.len()] = pattern_offsets(&PATTERNS6);

/// Start of the side to move's mobility table.
pub const MOBILITY_PLAYER_OFFSET6: usize = pattern_table_total(&PATTERNS6);
/// Start of the opponent's mobility table.
pub const MOBILITY_OPPONENT_OFFSET6: usize = MOBILITY_PLAYER_OFFSET6 + MOBILITY_CAP;
/// Start of the parity table (2 entries: even, odd number of empties).
pub const PARITY_OFFSET6: usize = MOBILITY_OPPONENT_OFFSET6 + MOBILITY_CAP;
/// Number of weights in one 6x6 stage.
pub const STAGE_LEN6: usize = PARITY_OFFSET6 + 2;

/// Every 6x6 pattern instance as (pattern number, symmetry `k`).
pub const INSTANCES6: [(u8, u8); PATTERN_INSTANCES6] = instances(&PATTERNS6);

/// The squares each 6x6 instance reads on the board as it is.
pub const INSTANCE_MASKS6: [u64; PATTERN_INSTANCES6] = instance_masks(&PATTERNS6, &INSTANCES6);

/// Digit weights of each instance's squares, lowest square first, and their number.
const INSTANCE_DIGITS6: [InstanceDigits; PATTERN_INSTANCES6] =
    instance_digits(&PATTERNS6, &INSTANCES6, &INSTANCE_MASKS6);

/// Each instance's ternary table offset (shared tables deduplicated) and the total length.
const TERNARY_LAYOUT6: ([u32; PATTERN_INSTANCES6], usize) = ternary_layout(&INSTANCE_DIGITS6);

/// The 6x6 ternary tables (see [`crate::features::TERNARY_TABLES`]).
pub static TERNARY_TABLES6: [u16; TERNARY_LAYOUT6.1] = ternary_tables(&INSTANCE_DIGITS6, &TERNARY_LAYOUT6.0);

/// Where each 6x6 instance's table starts in [`TERNARY_TABLES6`].
pub const INSTANCE_TERNARY_OFFSETS6: [u32; PATTERN_INSTANCES6] = TERNARY_LAYOUT6.0;

/// Start of each 6x6 instance's pattern table in a stage's array.
pub const INSTANCE_OFFSETS6: [u32; PATTERN_INSTANCES6] = instance_offsets(&INSTANCES6, &PATTERN_OFFSETS6);

/// The 6x6 stage of a position with `discs` discs.
#[inline(always)]
pub const fn stage_of6(discs: u32) -> usize {
    stage_in(discs, NUM_STAGES6)
}

/// Mobility on the 6x6 board, capped.
#[inline(always)]
fn mobility6(a: u64, b: u64) -> usize {
    (legal_moves(a, b, BoardSize::Six.mask()).count_ones() as usize).min(MOBILITY_CAP - 1)
}

/// Empties of a 6x6 position (discs outside the board are not counted: the caller
/// passes 6x6 positions).
#[inline(always)]
fn empties6(player: u64, opponent: u64) -> usize {
    36usize.saturating_sub((player | opponent).count_ones() as usize)
}

/// The weight-array index of every feature active for `player` to move against
/// `opponent` (6x6 board), in a fixed order: the pattern instances in [`INSTANCES6`]
/// order, then player mobility, opponent mobility, parity.
pub fn feature_indices6(player: u64, opponent: u64) -> [u32; ACTIVE_FEATURES6] {
    let mut out = [0u32; ACTIVE_FEATURES6];
    for i in 0..PATTERN_INSTANCES6 {
        let mask = INSTANCE_MASKS6[i];
        let at = INSTANCE_TERNARY_OFFSETS6[i] as usize;
        let own = TERNARY_TABLES6[at + extract_bits(player, mask) as usize] as usize;
        let theirs = TERNARY_TABLES6[at + extract_bits(opponent, mask) as usize] as usize;
        out[i] = (INSTANCE_OFFSETS6[i] as usize + own + 2 * theirs) as u32;
    }
    out[PATTERN_INSTANCES6] = (MOBILITY_PLAYER_OFFSET6 + mobility6(player, opponent)) as u32;
    out[PATTERN_INSTANCES6 + 1] = (MOBILITY_OPPONENT_OFFSET6 + mobility6(opponent, player)) as u32;
    out[PATTERN_INSTANCES6 + 2] = (PARITY_OFFSET6 + (empties6(player, opponent) & 1)) as u32;
    out
}

/// The evaluation's sum over one 6x6 stage's weights `w` ([`STAGE_LEN6`] entries): the
/// sum of `w[idx]` over every `idx` of [`feature_indices6`] for disjoint `player` and
/// `opponent` (a square in both is read as the player's), with each instance's mask
/// and offsets compiled in as constants, as on 8x8.
#[inline(always)]
pub fn feature_sum6(player: u64, opponent: u64, w: &[i16]) -> i32 {
    const _: () = assert!(PATTERN_INSTANCES6 == 38, "feature_sum6 unrolls exactly 38 instances");
    macro_rules! sum_instances {
        ($p:expr, $o:expr; $($i:literal)*) => { 0 $(+ instance_weight6::<$i>($p, $o, w))* };
    }
    assert!(w.len() >= STAGE_LEN6, "a 6x6 stage has {STAGE_LEN6} weights");
    let opponent = opponent & !player;
    let patterns = sum_instances!(player, opponent; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27
        28 29 30 31 32 33 34 35 36 37);
    patterns
        + i32::from(w[MOBILITY_PLAYER_OFFSET6 + mobility6(player, opponent)])
        + i32::from(w[MOBILITY_OPPONENT_OFFSET6 + mobility6(opponent, player)])
        + i32::from(w[PARITY_OFFSET6 + (empties6(player, opponent) & 1)])
}

/// The weight in `w` (at least [`STAGE_LEN6`] entries, checked by the caller) of 6x6
/// instance `I`'s content on the board.
#[inline(always)]
fn instance_weight6<const I: usize>(player: u64, opponent: u64, w: &[i16]) -> i32 {
    let mask = INSTANCE_MASKS6[I];
    let at = INSTANCE_TERNARY_OFFSETS6[I] as usize;
    let (own_bits, their_bits) = (extract_bits(player, mask) as usize, extract_bits(opponent, mask) as usize);
    debug_assert!(own_bits < 1 << INSTANCE_DIGITS6[I].1 && their_bits < 1 << INSTANCE_DIGITS6[I].1);
    // SAFETY: `extract_bits` packs the instance's `n` squares into the low `n` bits, so
    // each value is below `2^n`, and `ternary_layout` reserved `2^n` entries from `at`
    // for this instance inside `TERNARY_TABLES6`.
    let (own, theirs) = unsafe {
        (
            *TERNARY_TABLES6.get_unchecked(at + own_bits) as usize,
            *TERNARY_TABLES6.get_unchecked(at + their_bits) as usize,
        )
    };
    let index = INSTANCE_OFFSETS6[I] as usize + own + 2 * theirs;
    debug_assert!(index < STAGE_LEN6 && STAGE_LEN6 <= w.len());
    // SAFETY: `own` and `theirs` are sums of distinct powers `3^j`, `j < n`, over disjoint
    // squares (`feature_sum6` removed the player's squares from the opponent's), so the
    // index lies in the pattern's table of `3^n` entries, inside `STAGE_LEN6`, and
    // `feature_sum6` checked `w.len() >= STAGE_LEN6`. The test
    // `unrolled_sum_equals_the_feature_list` compares every read with the checked list.
    i32::from(unsafe { *w.get_unchecked(index) })
}

/// A fingerprint of the 6x6 feature layout (board size, pattern names, squares,
/// instances, table sizes): a weight file trained for another layout is refused.
pub fn layout_fingerprint6() -> u64 {
    let mut h = crate::checksum::Fnv64::new();
    h.write(b"6x6");
    for p in &PATTERNS6 {
        h.write(p.name.as_bytes());
        h.write(&p.mask.to_le_bytes());
    }
    for &(t, k) in &INSTANCES6 {
        h.write(&[t, k]);
    }
    h.write(&(MOBILITY_CAP as u64).to_le_bytes());
    h.write(&(STAGE_LEN6 as u64).to_le_bytes());
    h.write(&(NUM_STAGES6 as u64).to_le_bytes());
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pattern::TERNARY;
    use solvo_othello::symmetry::transform;

    /// Random disjoint discs on the 6x6 board.
    fn random_six(rng: &mut solvo_core::rng::Rng) -> (u64, u64) {
        let m = BoardSize::Six.mask();
        let a = rng.next_u64() & m;
        (a, rng.next_u64() & m & !a)
    }

    #[test]
    fn layout_sizes() {
        assert_eq!(PATTERN_INSTANCES6, 38);
        assert_eq!(STAGE_LEN6, 19683 + 2 * 6561 + 59049 + 3 * 729 + 243 + 81 + 2 * MOBILITY_CAP + 2);
        assert!(TERNARY_TABLES6.len() * 2 <= 36 * 1024);
    }

    #[test]
    fn instance_tables_match_transformed_reads() {
        let mut rng = solvo_core::rng::Rng::new(17);
        for _ in 0..2000 {
            let (a, b) = random_six(&mut rng);
            let idx = feature_indices6(a, b);
            for (i, &(t, k)) in INSTANCES6.iter().enumerate() {
                let mask = PATTERNS6[t as usize].mask;
                let own = TERNARY[extract_bits(transform(a, k), mask) as usize] as usize;
                let theirs = TERNARY[extract_bits(transform(b, k), mask) as usize] as usize;
                assert_eq!(idx[i] as usize, PATTERN_OFFSETS6[t as usize] + own + 2 * theirs);
            }
        }
    }

    #[test]
    fn unrolled_sum_equals_the_feature_list() {
        let w: Vec<i16> = (0..STAGE_LEN6).map(|i| (i as i64 * 2654435761 % 2001 - 1000) as i16).collect();
        let mut rng = solvo_core::rng::Rng::new(19);
        for _ in 0..5000 {
            let (a, b) = random_six(&mut rng);
            let listed: i32 = feature_indices6(a, b).iter().map(|&i| i32::from(w[i as usize])).sum();
            assert_eq!(feature_sum6(a, b, &w), listed);
            // Any bits, even off the 6x6 board or overlapping, stay in bounds.
            let (c, d) = (rng.next_u64(), rng.next_u64());
            let _ = feature_sum6(c, d, &w);
        }
    }

    #[test]
    fn the_start_reads_its_mobility_and_parity() {
        let start = solvo_othello::Board::start();
        let idx = feature_indices6(start.player, start.opponent);
        assert_eq!(idx[PATTERN_INSTANCES6] as usize, MOBILITY_PLAYER_OFFSET6 + 4);
        assert_eq!(idx[PATTERN_INSTANCES6 + 2] as usize, PARITY_OFFSET6);
        assert_eq!(stage_of6(4), 0);
        assert_eq!(stage_of6(35), NUM_STAGES6 - 1);
        assert_eq!(stage_of6(36), NUM_STAGES6 - 1);
    }

    #[test]
    fn the_fingerprint_differs_from_the_8x8_one() {
        assert_ne!(layout_fingerprint6(), crate::features::layout_fingerprint());
    }
}
