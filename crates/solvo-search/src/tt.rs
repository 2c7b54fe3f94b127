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

/// One stored search result.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M> {
    /// The position's hash key.
    pub key: u64,
    /// The value (a bound or exact, see `bound`).
    pub value: i32,
    /// How `value` bounds the true value.
    pub bound: Bound,
    /// Remaining depth of the search that produced it ([`DEPTH_EXACT`] if horizon-free).
    pub depth: u16,
    /// log2 of the nodes spent below this position (replacement priority).
    pub work: u8,
    /// The best (or refuting) move found, if any.
    pub best: Option<M>,
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

/// A transposition table of `2^bits` buckets of two entries.
pub struct TranspositionTable<M> {
    slots: Vec<Option<Entry<M>>>,
    mask: usize,
    /// Traffic so far.
    pub counters: TtCounters,
}

impl<M: Copy> TranspositionTable<M> {
    /// A table with `2^bits` buckets (`bits` is clamped to 4..=30).
    pub fn new(bits: u32) -> Self {
        let bits = bits.clamp(4, 30);
        TranspositionTable {
            slots: vec![None; 2usize << bits],
            mask: (1usize << bits) - 1,
            counters: TtCounters::default(),
        }
    }

    /// A table of about `megabytes` MiB.
    pub fn with_megabytes(megabytes: usize) -> Self {
        let entry = std::mem::size_of::<Option<Entry<M>>>().max(1);
        let buckets = (megabytes.max(1) << 20) / (2 * entry);
        Self::new(usize::BITS - 1 - buckets.max(16).leading_zeros())
    }

    fn bucket(&self, key: u64) -> usize {
        2 * ((key ^ (key >> 32)) as usize & self.mask)
    }

    /// The entry stored for `key`, if any.
    pub fn probe(&mut self, key: u64) -> Option<Entry<M>> {
        self.counters.probes += 1;
        let b = self.bucket(key);
        let found = self.slots[b..b + 2].iter().flatten().find(|e| e.key == key).copied();
        if found.is_some() {
            self.counters.hits += 1;
        }
        found
    }

    /// Stores `entry`, replacing its own key's entry, else the cheaper slot.
    pub fn store(&mut self, entry: Entry<M>) {
        self.counters.stores += 1;
        let b = self.bucket(entry.key);
        let first = self.slots[b];
        let second = self.slots[b + 1];
        if first.is_some_and(|e| e.key == entry.key) {
            self.slots[b] = Some(entry);
        } else if second.is_some_and(|e| e.key == entry.key) {
            // Promote if it now deserves the work-preferred slot.
            if !matches!(first, Some(e) if entry.work < e.work) {
                self.slots[b + 1] = first;
                self.slots[b] = Some(entry);
            } else {
                self.slots[b + 1] = Some(entry);
            }
        } else if !matches!(first, Some(e) if entry.work < e.work) {
            if second.is_some() {
                self.counters.overwrites += 1;
            }
            self.slots[b + 1] = first;
            self.slots[b] = Some(entry);
        } else {
            if second.is_some() {
                self.counters.overwrites += 1;
            }
            self.slots[b + 1] = Some(entry);
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
