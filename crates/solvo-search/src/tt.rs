//! A fixed-size transposition table for the alpha-beta solvers, with the replacement
//! schemes the study and the literature compare ([`Replacement`]).
//!
//! Default: buckets of two entries, the first keeping the entry that cost the most
//! work (nodes searched below it), the second always replaced. Entries carry the full
//! 64-bit key, so a hit is a hash collision only if two positions share all 64 bits.

use solvo_core::hugemem::WordBuffer;
use std::sync::atomic::Ordering;
use std::sync::Mutex;

/// What an entry's value means for the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The value is exact.
    Exact,
    /// The true value is at least the stored value.
    Lower,
    /// The true value is at most the stored value.
    Upper,
}

impl Bound {
    /// The same bound seen from the other side (values negated): lower and upper swap.
    pub fn negated(self) -> Bound {
        match self {
            Bound::Exact => Bound::Exact,
            Bound::Lower => Bound::Upper,
            Bound::Upper => Bound::Lower,
        }
    }

    /// Whether `value` as this bound settles a search of the window (`alpha`, `beta`):
    /// exact, a lower bound at or above `beta`, or an upper bound at or below `alpha`.
    pub fn settles(self, value: i32, alpha: i32, beta: i32) -> bool {
        match self {
            Bound::Exact => true,
            Bound::Lower => value >= beta,
            Bound::Upper => value <= alpha,
        }
    }
}

/// Depth stored for results that do not depend on a search horizon.
pub const DEPTH_EXACT: u16 = u16::MAX;

/// Fewest bucket-count bits of a table ([`TranspositionTable::new`] clamps to this).
pub const MIN_BITS: u32 = 4;
/// Most bucket-count bits of a table ([`TranspositionTable::new`] clamps to this).
pub const MAX_BITS: u32 = 30;
/// Bytes of one bucket (two 16-byte slots): a table of `bits` takes `BUCKET_BYTES << bits`.
pub const BUCKET_BYTES: usize = 32;

/// One stored search result.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The position's hash key.
    pub key: u64,
    /// The value (a bound or exact, see `bound`).
    pub value: i32,
    /// How `value` bounds the true value.
    pub bound: Bound,
    /// Remaining depth of the search that produced it ([`DEPTH_EXACT`] if horizon-free);
    /// at least 1.
    pub depth: u16,
    /// log2 of the nodes spent below this position (replacement priority), at most 63.
    pub work: u8,
    /// Index, in generation order, of the best (or refuting) move found, if any (< 255).
    pub best: Option<u8>,
}

impl Entry {
    fn pack(&self) -> [u64; 2] {
        let bound = match self.bound {
            Bound::Exact => 0u64,
            Bound::Lower => 1,
            Bound::Upper => 2,
        };
        let best = self.best.map_or(0, |b| u64::from(b) + 1);
        let data = u64::from(self.value as u32)
            | bound << 32
            | u64::from(self.depth.max(1)) << 34
            | u64::from(self.work.min(63)) << 50
            | best << 56;
        [self.key, data]
    }

    fn unpack(slot: [u64; 2]) -> Option<Entry> {
        let [key, data] = slot;
        if data == 0 {
            return None;
        }
        let bound = match (data >> 32) & 3 {
            0 => Bound::Exact,
            1 => Bound::Lower,
            _ => Bound::Upper,
        };
        let best = (data >> 56) as u8;
        Some(Entry {
            key,
            value: data as u32 as i32,
            bound,
            depth: (data >> 34) as u16,
            work: ((data >> 50) & 63) as u8,
            best: best.checked_sub(1),
        })
    }
}

/// Counters of table traffic.
#[derive(Clone, Copy, Debug, Default)]
pub struct TtCounters {
    /// Look-ups.
    pub probes: u64,
    /// Look-ups that found the key.
    pub hits: u64,
    /// Hits whose bound ended the search of the node at once (counted by the searcher).
    pub cutoffs: u64,
    /// Writes.
    pub stores: u64,
    /// Writes that evicted another position.
    pub overwrites: u64,
    /// Look-ups that missed a position stored earlier and evicted since (counted only
    /// by a table built with `track_lost`).
    pub lost: u64,
}

impl TtCounters {
    /// Adds `other`'s traffic to this one's (threads sharing a table).
    pub fn add(&mut self, other: &TtCounters) {
        self.probes += other.probes;
        self.hits += other.hits;
        self.cutoffs += other.cutoffs;
        self.stores += other.stores;
        self.overwrites += other.overwrites;
        self.lost += other.lost;
    }
}

/// Which entry a full table gives up for a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Replacement {
    /// One entry per index, always overwritten (the study's baseline table).
    AlwaysReplace,
    /// One entry per index, overwritten only by an entry searched at least as deep (a
    /// horizon-free entry counts as deepest; between two of them the newer wins).
    DepthPreferred,
    /// Two entries per bucket: the first depth-preferred, the second always replaced.
    TwoTier,
    /// Two entries per bucket: the first keeps the entry that cost the most nodes, the
    /// second is always replaced (the scheme of solvo's Othello solver; the default).
    CostBased,
}

impl Replacement {
    /// Every scheme, in the order of the benchmark table.
    pub const ALL: [Replacement; 4] =
        [Replacement::AlwaysReplace, Replacement::DepthPreferred, Replacement::TwoTier, Replacement::CostBased];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Replacement::AlwaysReplace => "always",
            Replacement::DepthPreferred => "depth",
            Replacement::TwoTier => "two-tier",
            Replacement::CostBased => "cost",
        }
    }

    /// Entries per bucket.
    fn ways(self) -> usize {
        match self {
            Replacement::AlwaysReplace | Replacement::DepthPreferred => 1,
            Replacement::TwoTier | Replacement::CostBased => 2,
        }
    }
}

impl std::fmt::Display for Replacement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Replacement {
    type Err = String;

    /// Parses a command-line name; the error lists the valid ones.
    fn from_str(s: &str) -> Result<Self, String> {
        Replacement::ALL.into_iter().find(|r| r.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Replacement::ALL.iter().map(|r| r.name()).collect();
            format!("unknown replacement scheme '{s}' (expected one of: {})", names.join(", "))
        })
    }
}

/// The size and replacement scheme of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableShape {
    /// Entries in all (rounded down to whole buckets; at least one bucket).
    pub entries: usize,
    /// The replacement scheme.
    pub scheme: Replacement,
    /// Count look-ups that miss a position stored before ([`TtCounters::lost`]): keeps
    /// every stored key in a set, so only for measurements.
    pub track_lost: bool,
}

impl TableShape {
    /// The study's baseline: 1,048,575 entries, always replaced.
    pub const STUDY: TableShape =
        TableShape { entries: 1_048_575, scheme: Replacement::AlwaysReplace, track_lost: false };

    /// `2^bits` buckets of two entries (bits clamped to 4..=30), cost-based: the default.
    pub fn buckets(bits: u32) -> TableShape {
        let bits = bits.clamp(MIN_BITS, MAX_BITS);
        TableShape { entries: 2usize << bits, scheme: Replacement::CostBased, track_lost: false }
    }
}

/// A transposition table of 16-byte entries in buckets of one or two, by
/// [`Replacement`] scheme, that threads can share (lazy SMP): each slot holds the key
/// xor-ed with the data word and the data word, so an entry torn by two threads writing
/// at once reads as a miss, never as another position's entry. Its memory is zeroed
/// lazily by the system, so a big table costs nothing until it is used.
pub struct TranspositionTable {
    /// Two words a slot: key ^ data, data.
    words: WordBuffer,
    buckets: usize,
    scheme: Replacement,
    stored: Option<Mutex<crate::keyhash::KeySet>>,
}

impl TranspositionTable {
    /// A cost-based table with `2^bits` buckets (`bits` is clamped to 4..=30).
    pub fn new(bits: u32) -> Self {
        Self::with_shape(TableShape::buckets(bits))
    }

    /// A table of the given shape.
    pub fn with_shape(shape: TableShape) -> Self {
        let ways = shape.scheme.ways();
        let buckets = (shape.entries / ways).max(1);
        TranspositionTable {
            words: WordBuffer::zeroed(2 * buckets * ways),
            buckets,
            scheme: shape.scheme,
            stored: shape.track_lost.then(|| Mutex::new(crate::keyhash::KeySet::default())),
        }
    }

    /// Index of the first slot of `key`'s bucket: low bits of the folded key when the
    /// bucket count is a power of two, else its multiply-shift reduction.
    fn bucket(&self, key: u64) -> usize {
        let folded = key ^ (key >> 32);
        let b = if self.buckets.is_power_of_two() {
            folded as usize & (self.buckets - 1)
        } else {
            ((u128::from(key.wrapping_mul(0x9E37_79B9_7F4A_7C15)) * self.buckets as u128) >> 64) as usize
        };
        b * self.scheme.ways()
    }

    /// The slot's raw words (key, data), or zeros when torn or empty.
    fn raw(&self, i: usize) -> [u64; 2] {
        let data = self.words[2 * i + 1].load(Ordering::Relaxed);
        let key = self.words[2 * i].load(Ordering::Relaxed) ^ data;
        [key, data]
    }

    fn get(&self, i: usize) -> Option<Entry> {
        Entry::unpack(self.raw(i))
    }

    fn put(&self, i: usize, [key, data]: [u64; 2]) {
        self.words[2 * i].store(key ^ data, Ordering::Relaxed);
        self.words[2 * i + 1].store(data, Ordering::Relaxed);
    }

    /// Asks the processor to bring `key`'s bucket into the cache (a hint with no effect
    /// on any result): probes of many keys in a row (the enhanced transposition cutoff)
    /// then wait for memory once instead of once per key.
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is only a hint and cannot fault; the address is that of an
        // element of `words`, which is in bounds (`bucket` reduces the key into the table).
        unsafe {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.words.as_ptr().add(2 * self.bucket(key)) as *const i8, _MM_HINT_T0);
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry stored for `key`, if any; traffic counted in `counters`.
    pub fn probe(&self, key: u64, counters: &mut TtCounters) -> Option<Entry> {
        counters.probes += 1;
        let b = self.bucket(key);
        let found = (b..b + self.scheme.ways()).filter_map(|i| self.get(i)).find(|e| e.key == key);
        if found.is_some() {
            counters.hits += 1;
        } else if let Some(stored) = &self.stored {
            if stored.lock().is_ok_and(|s| s.contains(&key)) {
                counters.lost += 1;
            }
        }
        found
    }

    /// Stores `entry` by the table's [`Replacement`] scheme (an entry for the same key
    /// is always replaced); traffic counted in `counters`.
    pub fn store(&self, entry: Entry, counters: &mut TtCounters) {
        counters.stores += 1;
        if let Some(stored) = &self.stored {
            if let Ok(mut s) = stored.lock() {
                s.insert(entry.key);
            }
        }
        let b = self.bucket(entry.key);
        let new = entry.pack();
        let first = self.get(b);
        let evicts = |old: Option<Entry>| old.is_some_and(|e| e.key != entry.key);
        match self.scheme {
            Replacement::AlwaysReplace => {
                counters.overwrites += u64::from(evicts(first));
                self.put(b, new);
            }
            Replacement::DepthPreferred => {
                if !matches!(first, Some(e) if e.key != entry.key && entry.depth < e.depth) {
                    counters.overwrites += u64::from(evicts(first));
                    self.put(b, new);
                }
            }
            Replacement::TwoTier | Replacement::CostBased => {
                let second = self.get(b + 1);
                let beats_first = match (self.scheme, first) {
                    (_, None) => true,
                    (Replacement::TwoTier, Some(e)) => entry.depth >= e.depth,
                    (_, Some(e)) => entry.work >= e.work,
                };
                if first.is_some_and(|e| e.key == entry.key) {
                    self.put(b, new);
                } else if beats_first {
                    // The first slot's entry moves down to the second.
                    counters.overwrites += u64::from(evicts(second));
                    self.put(b + 1, self.raw(b));
                    self.put(b, new);
                } else {
                    counters.overwrites += u64::from(evicts(second));
                    self.put(b + 1, new);
                }
            }
        }
    }

    /// Number of entries the table holds at most.
    pub fn capacity(&self) -> usize {
        self.words.len() / 2
    }
}

/// log2 of a node count, for [`Entry::work`].
pub fn work_of(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        for (value, bound, depth, best) in
            [(-64, Bound::Upper, DEPTH_EXACT, None), (1, Bound::Lower, 1, Some(0)), (0, Bound::Exact, 7, Some(254))]
        {
            let e = Entry { key: 42, value, bound, depth, work: 17, best };
            assert_eq!(Entry::unpack(e.pack()), Some(e));
        }
    }
}
