//! The transposition table shared by the search threads: lock-free, 4 entries per
//! 64-byte bucket, each entry two atomic words `(key ^ data, data)` so that a torn
//! write (two threads storing the same slot at once) reads back as a miss, never as
//! another position's bounds.
//!
//! An entry holds a lower and an upper bound of a position's value (units of
//! `1 / SCALE` disc) for one search depth and selectivity, the best move found, and
//! the generation (search number) that wrote it.
//!
//! The words live in a [`WordBuffer`]: transparent huge pages where the system offers
//! them, as for the exact solver's table (the search probes it at random over hundreds
//! of MiB, and the exact pass after a ladder climb probes it again for move hints).

use solvo_core::hugemem::{AllocError, WordBuffer};
use std::sync::atomic::{AtomicU8, Ordering};

/// Entries per bucket (one cache line).
const WAYS: usize = 4;

/// "No best move" in an entry.
pub const NO_MOVE: u8 = 64;

/// What a probe finds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtEntry {
    /// Lower bound of the value.
    pub lower: i32,
    /// Upper bound of the value.
    pub upper: i32,
    /// Best move (square index), or [`NO_MOVE`].
    pub best: u8,
    /// Search depth the bounds hold for.
    pub depth: u8,
    /// Selectivity level index the bounds hold for (see [`super::mpc::Selectivity`]).
    pub selectivity: u8,
}

impl TtEntry {
    fn pack(&self, generation: u8) -> u64 {
        (self.lower as i16 as u16 as u64)
            | (self.upper as i16 as u16 as u64) << 16
            | u64::from(self.best) << 32
            | u64::from(self.depth) << 40
            | u64::from(self.selectivity) << 48
            | u64::from(generation) << 56
    }

    fn unpack(data: u64) -> (TtEntry, u8) {
        let entry = TtEntry {
            lower: i32::from(data as u16 as i16),
            upper: i32::from((data >> 16) as u16 as i16),
            best: (data >> 32) as u8,
            depth: (data >> 40) as u8,
            selectivity: (data >> 48) as u8,
        };
        (entry, (data >> 56) as u8)
    }
}

/// Words per entry: `key ^ data`, then `data`.
const SLOT_WORDS: usize = 2;

/// Words per bucket.
const BUCKET_WORDS: usize = WAYS * SLOT_WORDS;

/// One entry's words: `check = key ^ data`, then `data`.
type AtomicU64Pair = [std::sync::atomic::AtomicU64; SLOT_WORDS];

/// The hash of a position (player to move `p`, opponent `o`): a full 64-bit mix of both
/// boards, used both to pick the bucket and to recognise the entry.
#[inline(always)]
pub fn position_hash(p: u64, o: u64) -> u64 {
    let mut x = p.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ o.rotate_left(29).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 29)
}

/// The table. `Sync`: every access is an atomic load or store.
pub struct SelectiveTable {
    /// `WAYS` entries per bucket, each `SLOT_WORDS` words: `check = key ^ data`, `data`.
    words: WordBuffer,
    bucket_mask: usize,
    generation: AtomicU8,
}

impl SelectiveTable {
    /// A table of at most `bytes` bytes (a power of two of buckets, at least one), empty.
    /// Panics if the memory cannot be had (see [`Self::try_new`]).
    pub fn new(bytes: usize) -> SelectiveTable {
        Self::try_new(bytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of at most `bytes` bytes (a power of two of buckets, at least one), empty,
    /// or an error (never an abort) when the system refuses the memory.
    pub fn try_new(bytes: usize) -> Result<SelectiveTable, AllocError> {
        let buckets = (bytes / (BUCKET_WORDS * 8)).max(1);
        let buckets = if buckets.is_power_of_two() { buckets } else { buckets.next_power_of_two() / 2 };
        let words = WordBuffer::try_zeroed(buckets * BUCKET_WORDS)?;
        Ok(SelectiveTable { words, bucket_mask: buckets - 1, generation: AtomicU8::new(0) })
    }

    /// Size in bytes.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// Whether the words are huge-page advised (see [`WordBuffer::huge_page_advised`]).
    pub fn huge_page_advised(&self) -> bool {
        self.words.huge_page_advised()
    }

    /// Forgets every entry.
    pub fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Ordering::Relaxed);
        }
    }

    /// Starts a new search: older entries become the first to be replaced.
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    /// The bucket of `hash`: `WAYS` pairs `(check, data)`.
    #[inline(always)]
    fn bucket(&self, hash: u64) -> &[AtomicU64Pair] {
        let b = (hash >> 32) as usize & self.bucket_mask;
        let words = &self.words[b * BUCKET_WORDS..(b + 1) * BUCKET_WORDS];
        let (pairs, rest) = words.as_chunks::<SLOT_WORDS>();
        debug_assert!(rest.is_empty());
        pairs
    }

    /// The entry stored for the position of `hash`, if any.
    #[inline]
    pub fn probe(&self, hash: u64) -> Option<TtEntry> {
        for [check, data] in self.bucket(hash) {
            let data = data.load(Ordering::Relaxed);
            if check.load(Ordering::Relaxed) ^ data == hash && data != 0 {
                return Some(TtEntry::unpack(data).0);
            }
        }
        None
    }

    /// Stores `entry` for the position of `hash`: over the same position's entry if
    /// there is one, else over the slot of the oldest generation and smallest depth.
    /// Entries of depth 0 are not stored (an all-zero word marks an empty slot).
    #[inline]
    pub fn store(&self, hash: u64, entry: TtEntry) {
        if entry.depth == 0 {
            return;
        }
        let generation = self.generation.load(Ordering::Relaxed);
        let bucket = self.bucket(hash);
        let mut victim = 0;
        let mut victim_cost = i32::MAX;
        for (i, [check, data]) in bucket.iter().enumerate() {
            let data = data.load(Ordering::Relaxed);
            if check.load(Ordering::Relaxed) ^ data == hash {
                victim = i;
                break;
            }
            let (old, old_gen) = TtEntry::unpack(data);
            let cost = if data == 0 { -1 } else { i32::from(old.depth) + if old_gen == generation { 256 } else { 0 } };
            if cost < victim_cost {
                victim_cost = cost;
                victim = i;
            }
        }
        let data = entry.pack(generation);
        let [check, slot_data] = &bucket[victim];
        slot_data.store(data, Ordering::Relaxed);
        check.store(hash ^ data, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip_and_miss_elsewhere() {
        let tt = SelectiveTable::new(1 << 16);
        let e = TtEntry { lower: -8320, upper: 300, best: 19, depth: 12, selectivity: 3 };
        let h = position_hash(0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        tt.store(h, e);
        assert_eq!(tt.probe(h), Some(e));
        assert_eq!(tt.probe(h ^ 1), None);
        let e2 = TtEntry { lower: 5, upper: 5, best: NO_MOVE, depth: 13, selectivity: 5 };
        tt.store(h, e2);
        assert_eq!(tt.probe(h), Some(e2));
        tt.clear();
        assert_eq!(tt.probe(h), None);
    }

    #[test]
    fn tables_have_the_size_asked_and_large_ones_are_huge_page_advised() {
        let tt = SelectiveTable::new(4 << 20);
        assert_eq!(tt.bytes(), 4 << 20);
        #[cfg(target_os = "linux")]
        assert!(tt.huge_page_advised());
        // Not a power of two of buckets: rounded down.
        assert_eq!(SelectiveTable::new(3 << 20).bytes(), 2 << 20);
        assert_eq!(SelectiveTable::new(1).bytes(), 64);
    }

    #[test]
    fn a_full_bucket_keeps_the_deepest_entries() {
        let tt = SelectiveTable::new(64);
        let e = |d| TtEntry { lower: 0, upper: 0, best: 0, depth: d, selectivity: 0 };
        for (i, d) in [5u8, 9, 7, 8, 6].into_iter().enumerate() {
            tt.store(i as u64 + 1, e(d));
        }
        assert_eq!(tt.probe(1), None, "the shallowest entry was replaced");
        for h in 2..=5 {
            assert!(tt.probe(h).is_some());
        }
    }
}
