//! A fixed-size transposition table for the alpha-beta solvers.
//!
//! Buckets of two entries: the first keeps the entry that cost the most work (nodes
//! searched below it), the second is always replaced. Entries carry the full 64-bit
//! key, so a hit is a hash collision only if two positions share all 64 bits.

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
    /// Writes.
    pub stores: u64,
    /// Writes that evicted another position.
    pub overwrites: u64,
}

/// A transposition table of `2^bits` buckets of two 16-byte entries. Its memory is
/// zeroed lazily by the system, so a big table costs nothing until it is used.
pub struct TranspositionTable {
    slots: Vec<[u64; 2]>,
    mask: usize,
    /// Traffic so far.
    pub counters: TtCounters,
}

impl TranspositionTable {
    /// A table with `2^bits` buckets (`bits` is clamped to 4..=30).
    pub fn new(bits: u32) -> Self {
        let bits = bits.clamp(MIN_BITS, MAX_BITS);
        TranspositionTable {
            slots: vec![[0u64; 2]; 2usize << bits],
            mask: (1usize << bits) - 1,
            counters: TtCounters::default(),
        }
    }

    fn bucket(&self, key: u64) -> usize {
        2 * ((key ^ (key >> 32)) as usize & self.mask)
    }

    fn get(&self, i: usize) -> Option<Entry> {
        Entry::unpack(self.slots[i])
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&mut self, key: u64) -> Option<Entry> {
        self.counters.probes += 1;
        let b = self.bucket(key);
        let found = [self.get(b), self.get(b + 1)].into_iter().flatten().find(|e| e.key == key);
        if found.is_some() {
            self.counters.hits += 1;
        }
        found
    }

    /// Stores `entry`, replacing its own key's entry, else the cheaper slot: the first
    /// slot of a bucket keeps the entry with the most work, the second is replaced
    /// always.
    pub fn store(&mut self, entry: Entry) {
        self.counters.stores += 1;
        let b = self.bucket(entry.key);
        let first = self.get(b);
        let second = self.get(b + 1);
        let new = entry.pack();
        let beats_first = !matches!(first, Some(e) if entry.work < e.work);
        if first.is_some_and(|e| e.key == entry.key) {
            self.slots[b] = new;
        } else if second.is_some_and(|e| e.key == entry.key) {
            if beats_first {
                self.slots[b + 1] = self.slots[b];
                self.slots[b] = new;
            } else {
                self.slots[b + 1] = new;
            }
        } else {
            if second.is_some() {
                self.counters.overwrites += 1;
            }
            if beats_first {
                self.slots[b + 1] = self.slots[b];
                self.slots[b] = new;
            } else {
                self.slots[b + 1] = new;
            }
        }
    }

    /// Number of slots (two per bucket).
    pub fn capacity(&self) -> usize {
        self.slots.len()
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
