//! The transposition table of the Othello searches, one for both: the exact search
//! and the selective search store into the same table, and each reads what the other
//! stored (Edax's and Egaroucid's searches share one table the same way).
//!
//! Each entry stores the full position (player and opponent bitboards), so a hash
//! collision can never hand a search the bounds of another position, beside a lower and
//! an upper bound of its value, the best move found, the depth and the selectivity the
//! bounds hold for, the generation (search number) that wrote it and the cost of its
//! subtree. Two kinds of entries share the slots:
//! - **proven** entries ([`PROVEN`]), written by the exact search: bounds of the exact
//!   final disc difference, in discs, each proven by some search (fail-soft results are
//!   true bounds whatever window produced them); bounds of one position from several
//!   searches are merged (max of lowers, min of uppers), which stays sound, and exact
//!   values are entries whose two bounds are equal;
//! - **selective** entries (a Multi-ProbCut level, [`Entry::selectivity`] below
//!   [`PROVEN`]), written by the selective search: bounds of a depth-limited value in
//!   the evaluation's units (`1 / SCALE` disc) for that depth and selectivity.
//!
//! The exact search cuts only on proven bounds; from a selective entry it takes the move
//! (the first move it searches), never the bounds. The selective search reads both:
//! a proven entry's bounds, scaled to its units, hold at any depth. A selective store
//! never replaces a proven entry of the same position.
//!
//! Concurrency: an entry is three `AtomicU64` words `[player ^ data, opponent ^ data,
//! data]` (Hyatt's lockless hashing). A reader recomputes the board from the first two
//! words and the third; a torn entry (words from two different writes of different
//! positions) fails that check and reads as a miss.
//!
//! Replacement (chosen by measurement, see the issue notes): buckets of 2 entries in one
//! 64-byte cache line; a store first looks for the same position, then replaces the
//! entry with the lower priority: an entry of an older search (generation) first, else
//! the one whose subtree cost (log2 of nodes) is smaller. The entry is 24 bytes, as
//! Edax's; the selective search's own table had 16-byte entries, four to a line, and
//! halving its entries measured no cost (docs/results/one-search.md).

use solvo_core::hugemem::{AllocError, WordBuffer};
use solvo_othello::rules::SCORE_INF;
use std::sync::atomic::{AtomicU64, AtomicU8, Ordering::Relaxed};

/// What the exact search's probe found: proven bounds, or, for a selective entry, the
/// whole window and its move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtHit {
    /// Proven lower bound of the value (`-SCORE_INF` when nothing is proven).
    pub lower: i32,
    /// Proven upper bound of the value (`SCORE_INF` when nothing is proven).
    pub upper: i32,
    /// Best move found (square index), or `None`.
    pub best: Option<u8>,
    /// Whether the bounds come from a proven entry (else they are the whole window).
    pub proven: bool,
}

/// What the exact search stores about a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TtRecord {
    /// Empty squares of the position.
    pub empties: u32,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// Best move found, if any (square index).
    pub best: Option<u8>,
    /// Nodes the search of this position took (its cost, for replacement).
    pub nodes: u64,
}

/// An entry as stored, of either kind (see the module's documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Lower bound: discs for a proven entry, evaluation units for a selective one.
    pub lower: i32,
    /// Upper bound, in the same units.
    pub upper: i32,
    /// Best move (square index), or [`NO_MOVE`].
    pub best: u8,
    /// Depth the bounds hold for (a proven entry: the position's empties).
    pub depth: u8,
    /// Multi-ProbCut level index the bounds hold for, or [`PROVEN`].
    pub selectivity: u8,
}

/// The selectivity of an entry proven by the exact search: above every Multi-ProbCut
/// level index.
pub const PROVEN: u8 = 7;

/// "No best move" in an entry.
pub const NO_MOVE: u8 = 64;

/// Largest depth an entry records (6 bits); deeper searches are recorded at this depth.
const MAX_DEPTH: u8 = 63;

/// Packed entry data (64 bits): lower i16 | upper i16 | best 7 bits | depth 6 bits |
/// selectivity 3 bits | generation u8 | cost 6 bits | (unused) | occupied.
#[derive(Clone, Copy, Debug)]
struct Data(u64);

impl Data {
    #[inline(always)]
    fn pack(lower: i32, upper: i32, best: u8, depth: u8, selectivity: u8, generation: u8, cost: u8) -> Data {
        Data(
            u64::from(lower as i16 as u16)
                | u64::from(upper as i16 as u16) << 16
                | u64::from(best & 0x7f) << 32
                | u64::from(depth.min(MAX_DEPTH)) << 39
                | u64::from(selectivity & 7) << 45
                | u64::from(generation) << 48
                | u64::from(cost.min(63)) << 56
                | 1 << 63, // occupied
        )
    }
    #[inline(always)]
    fn lower(self) -> i32 {
        i32::from(self.0 as u16 as i16)
    }
    #[inline(always)]
    fn upper(self) -> i32 {
        i32::from((self.0 >> 16) as u16 as i16)
    }
    #[inline(always)]
    fn best(self) -> u8 {
        (self.0 >> 32) as u8 & 0x7f
    }
    #[inline(always)]
    fn depth(self) -> u8 {
        (self.0 >> 39) as u8 & 0x3f
    }
    #[inline(always)]
    fn selectivity(self) -> u8 {
        (self.0 >> 45) as u8 & 7
    }
    #[inline(always)]
    fn proven(self) -> bool {
        self.selectivity() == PROVEN
    }
    #[inline(always)]
    fn generation(self) -> u8 {
        (self.0 >> 48) as u8
    }
    #[inline(always)]
    fn cost(self) -> u8 {
        (self.0 >> 56) as u8 & 0x3f
    }
    #[inline(always)]
    fn occupied(self) -> bool {
        self.0 >> 63 != 0
    }
    fn entry(self) -> Entry {
        Entry {
            lower: self.lower(),
            upper: self.upper(),
            best: self.best(),
            depth: self.depth(),
            selectivity: self.selectivity(),
        }
    }
}

/// Where a store goes: the word index of the position's own entry and its data, or of
/// the entry to replace and whether that evicts another position.
enum Slot {
    Same(usize, Data),
    Victim(usize, bool),
}

/// log2 of a subtree's nodes, as an entry records it.
#[inline(always)]
fn cost_of(nodes: u64) -> u8 {
    (64 - nodes.leading_zeros()) as u8
}

/// Table traffic counted by one search thread (plain integers: no shared counters,
/// so threads never contend on them); [`SearchTable::stats`] adds them up.
#[derive(Default, Debug, Clone, Copy)]
pub struct TtCounts {
    /// Lookups.
    pub probes: u64,
    /// Lookups that found the position.
    pub hits: u64,
    /// Stores.
    pub stores: u64,
    /// Stores that evicted another position.
    pub overwrites: u64,
}

impl std::ops::AddAssign for TtCounts {
    fn add_assign(&mut self, o: TtCounts) {
        self.probes += o.probes;
        self.hits += o.hits;
        self.stores += o.stores;
        self.overwrites += o.overwrites;
    }
}

/// A snapshot of the table's statistics.
#[derive(Clone, Copy, Debug, Default, serde::Serialize)]
pub struct TtStats {
    /// Lookups.
    pub probes: u64,
    /// Lookups that found the position.
    pub hits: u64,
    /// Lookups whose bounds ended the node at once (counted by the search).
    pub cutoffs: u64,
    /// Stores.
    pub stores: u64,
    /// Stores that evicted another position.
    pub overwrites: u64,
    /// Occupied entries / all entries (sampled).
    pub occupancy: f64,
    /// Table size in bytes.
    pub bytes: u64,
}

const WORDS_PER_BUCKET: usize = 8;
const ENTRIES_PER_BUCKET: usize = 2;

/// Which entry of a full bucket a store evicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Replacement {
    /// Older generation first, then the smaller subtree (log2 of its nodes). Default.
    #[default]
    Cost,
    /// Older generation first, then fewer empties ("depth-preferred").
    Depth,
    /// Always the bucket's first entry.
    Always,
}

impl std::str::FromStr for Replacement {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "cost" => Ok(Replacement::Cost),
            "depth" => Ok(Replacement::Depth),
            "always" => Ok(Replacement::Always),
            _ => Err(format!("unknown replacement scheme {s:?}: expected cost, depth or always")),
        }
    }
}

/// A fixed-size, lock-free transposition table.
pub struct SearchTable {
    policy: Replacement,
    words: WordBuffer,
    /// Buckets of the far region (the deep positions). A bucket is `hash * buckets >> 64`:
    /// for a power of two `2^k`, the hash's top `k` bits.
    far_buckets: u64,
    /// The near region (see [`NEAR_REGION_BYTES`]): the word index where its buckets
    /// start (after the far ones), its number of buckets, and the fewest discs a position
    /// needs to live there (65, more than any board holds, when the table has no near
    /// region).
    near_base: usize,
    near_buckets: u64,
    near_min_discs: u32,
    generation: AtomicU8,
    /// Which contents the table holds: a number no other table and no other
    /// [`SearchTable::clear`] of this one was given (see [`SearchTable::epoch`]).
    epoch: AtomicU64,
}

/// The next [`SearchTable::epoch`] to hand out.
static NEXT_EPOCH: AtomicU64 = AtomicU64::new(1);

/// Size of the near region: positions with at most [`NEAR_REGION_EMPTIES`] empties of the
/// 8x8 board (at least 54 discs) are kept in a region of their own, small enough to stay
/// in the processor's last-level cache and taken from the requested size; the rest of the
/// table keeps the deeper positions. Most probes are of such near-leaf positions, and
/// their transpositions are found again soon after they are stored, so a small region
/// serves them, and they no longer evict the deep positions. Measured on a 2-core VM
/// (1 thread, interleaved runs): FFO #50-#51 with `--hash-mb 1024` 105.0 / 113.2 s
/// without, 79.9 / 79.7 s with an 8 MiB region from 10 empties (+3.8% nodes; 82.2 s
/// with the region taken from the table); FFO #40-#49 with the default 256 MiB
/// 44.2 / 43.8 / 45.3 s without, 44.9 / 41.8 / 40.6 s with.
pub const NEAR_REGION_BYTES: usize = 8 << 20;

/// Most empties (of the 8x8 board) of a position kept in the near region.
pub const NEAR_REGION_EMPTIES: u32 = 10;

/// Smallest requested table that gets a near region: a smaller table is fast enough
/// without one, and the region must not dwarf it.
pub const NEAR_REGION_MIN_TABLE: usize = 64 << 20;

/// The table's hash of a position (`p` to move against `o`): each board's upper half is
/// folded onto its lower half, then multiplied by an odd constant (both steps
/// invertible), so that the top bits, where the bucket is taken from, depend on every
/// square. Cheaper than a full mixer; entries store the whole board, so a collision
/// costs a miss, never a wrong answer.
#[inline(always)]
pub fn table_hash(p: u64, o: u64) -> u64 {
    (p ^ p >> 32).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (o ^ o >> 32).wrapping_mul(0xD6E8_FEB8_6659_FD93)
}

impl SearchTable {
    /// A table of at most `bytes` bytes (rounded down to a power of two of 64-byte
    /// buckets, at least one bucket), all entries empty; from [`NEAR_REGION_MIN_TABLE`]
    /// on, [`NEAR_REGION_BYTES`] of it are the near region.
    pub fn new(bytes: usize) -> SearchTable {
        Self::with_replacement(bytes, Replacement::default())
    }

    /// A table of at most `bytes` bytes (sized as [`Self::new`]) with the given replacement scheme. Panics if the
    /// memory cannot be had (see [`Self::try_with_replacement`]).
    pub fn with_replacement(bytes: usize, policy: Replacement) -> SearchTable {
        Self::try_with_replacement(bytes, policy).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of at most `bytes` bytes (sized as [`Self::new`]) with the given replacement scheme, or an error
    /// (never an abort) when the system refuses the memory.
    pub fn try_with_replacement(bytes: usize, policy: Replacement) -> Result<SearchTable, AllocError> {
        let pow2 = |b: usize| 1usize << (usize::BITS - 1 - b.max(1).leading_zeros());
        let buckets = pow2(bytes / 64);
        let near = buckets * 64 >= NEAR_REGION_MIN_TABLE;
        let near_buckets = if near { NEAR_REGION_BYTES / 64 } else { 0 };
        let far_buckets = buckets - near_buckets;
        let words = WordBuffer::try_zeroed(buckets * WORDS_PER_BUCKET)?;
        Ok(SearchTable {
            policy,
            words,
            far_buckets: far_buckets as u64,
            near_base: far_buckets * WORDS_PER_BUCKET,
            near_buckets: near_buckets as u64,
            near_min_discs: if near { 64 - NEAR_REGION_EMPTIES } else { 65 },
            generation: AtomicU8::new(0),
            epoch: AtomicU64::new(NEXT_EPOCH.fetch_add(1, Relaxed)),
        })
    }

    /// Size in bytes, the near region included.
    pub fn bytes(&self) -> u64 {
        self.words.len() as u64 * 8
    }

    /// Starts a new search generation: older entries become the first to be replaced
    /// (they stay valid and usable).
    pub fn new_generation(&self) {
        self.generation.fetch_add(1, Relaxed);
    }

    /// Empties the table.
    pub fn clear(&self) {
        for w in self.words.iter() {
            w.store(0, Relaxed);
        }
        self.epoch.store(NEXT_EPOCH.fetch_add(1, Relaxed), Relaxed);
    }

    /// A number that changes when the table is cleared and that no other table has:
    /// what a search keeps beside the table (a thread's near-leaf table) is kept only
    /// while the epoch is the same, so a solve from a new or cleared table does what it
    /// did the first time.
    pub fn epoch(&self) -> u64 {
        self.epoch.load(Relaxed)
    }

    /// The first word of the bucket of the position (`p`, `o`) with hash `hash`: in the
    /// near region for a position with at least `near_min_discs` discs, else in the far one.
    #[inline(always)]
    fn bucket(&self, hash: u64, p: u64, o: u64) -> usize {
        let scaled = |buckets: u64| ((u128::from(hash) * u128::from(buckets)) >> 64) as usize * WORDS_PER_BUCKET;
        if (p | o).count_ones() >= self.near_min_discs {
            self.near_base + scaled(self.near_buckets)
        } else {
            scaled(self.far_buckets)
        }
    }

    #[inline(always)]
    fn read(&self, at: usize) -> (u64, u64, Data) {
        let d = self.words[at + 2].load(Relaxed);
        (self.words[at].load(Relaxed) ^ d, self.words[at + 1].load(Relaxed) ^ d, Data(d))
    }

    #[inline(always)]
    fn write(&self, at: usize, p: u64, o: u64, d: Data) {
        self.words[at].store(p ^ d.0, Relaxed);
        self.words[at + 1].store(o ^ d.0, Relaxed);
        self.words[at + 2].store(d.0, Relaxed);
    }

    /// Prefetches the bucket of the position (`p`, `o`) with hash `hash` into the cache (a
    /// hint; no effect on results).
    #[inline(always)]
    pub fn prefetch(&self, hash: u64, p: u64, o: u64) {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: prefetching is only a hint and cannot fault; the address is that of an
        // element of `words`, which is in bounds: `bucket` scales the hash to fewer than
        // `far_buckets` (or `near_buckets` past `near_base`) buckets, and the two regions
        // together are the whole buffer (the test `near_region_keeps_near_leaf_positions_apart`
        // checks the extremes).
        unsafe {
            use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch(self.words.as_ptr().add(self.bucket(hash, p, o)) as *const i8, _MM_HINT_T0);
        }
    }

    /// What the exact search reads of the position (`p` to move against `o`): a proven
    /// entry's bounds and move, or a selective entry's move with the whole window
    /// (`-SCORE_INF..SCORE_INF`, not proven).
    #[inline]
    pub fn probe(&self, hash: u64, p: u64, o: u64, counts: &mut TtCounts) -> Option<TtHit> {
        counts.probes += 1;
        let d = self.find(hash, p, o)?;
        counts.hits += 1;
        let best = (d.best() != NO_MOVE).then_some(d.best());
        Some(if d.proven() {
            TtHit { lower: d.lower(), upper: d.upper(), best, proven: true }
        } else {
            TtHit { lower: -SCORE_INF, upper: SCORE_INF, best, proven: false }
        })
    }

    /// The entry of the position (`p` to move against `o`) as stored, of either kind.
    #[inline]
    pub fn probe_entry(&self, hash: u64, p: u64, o: u64) -> Option<Entry> {
        self.find(hash, p, o).map(Data::entry)
    }

    #[inline(always)]
    fn find(&self, hash: u64, p: u64, o: u64) -> Option<Data> {
        let b = self.bucket(hash, p, o);
        for i in 0..ENTRIES_PER_BUCKET {
            let (ep, eo, d) = self.read(b + 3 * i);
            if ep == p && eo == o && d.occupied() {
                return Some(d);
            }
        }
        None
    }

    /// Stores proven bounds `lower <= value <= upper` of the position, the best move
    /// found (if any) and the subtree size. Merges with proven bounds already stored for
    /// the same position; replaces a selective entry of it (keeping its move when the
    /// record names none).
    #[inline(always)]
    pub fn store(&self, hash: u64, p: u64, o: u64, record: TtRecord, counts: &mut TtCounts) {
        let TtRecord { empties, lower, upper, best, nodes } = record;
        counts.stores += 1;
        let generation = self.generation.load(Relaxed);
        let cost = cost_of(nodes);
        let best_u8 = best.unwrap_or(NO_MOVE);
        let (at, data) = match self.slot(self.bucket(hash, p, o), p, o, generation) {
            Slot::Same(at, d) => {
                let mv = if best.is_some() { best_u8 } else { d.best() };
                let (lo, up, cost) = if d.proven() {
                    let lo = lower.max(d.lower());
                    let up = upper.min(d.upper());
                    // Bounds of one position can only conflict if a search was wrong;
                    // keep the new ones then rather than store an empty interval.
                    let (lo, up) = if lo <= up { (lo, up) } else { (lower, upper) };
                    (lo, up, cost.max(d.cost()))
                } else {
                    (lower, upper, cost)
                };
                (at, Data::pack(lo, up, mv, empties as u8, PROVEN, generation, cost))
            }
            Slot::Victim(at, evicts) => {
                counts.overwrites += u64::from(evicts);
                (at, Data::pack(lower, upper, best_u8, empties as u8, PROVEN, generation, cost))
            }
        };
        self.write(at, p, o, data);
    }

    /// Stores the selective search's `entry` (its selectivity below [`PROVEN`]) of the
    /// position, searched in `nodes` nodes: over the same position's selective entry if
    /// there is one (never over its proven entry, which is kept), else over the
    /// bucket's entry of lowest priority. Entries of depth 0 are not stored.
    #[inline]
    pub fn store_selective(&self, hash: u64, p: u64, o: u64, entry: Entry, nodes: u64) {
        debug_assert!(entry.selectivity < PROVEN);
        if entry.depth == 0 {
            return;
        }
        let generation = self.generation.load(Relaxed);
        let at = match self.slot(self.bucket(hash, p, o), p, o, generation) {
            Slot::Same(_, d) if d.proven() => return,
            Slot::Same(at, _) | Slot::Victim(at, _) => at,
        };
        let Entry { lower, upper, best, depth, selectivity } = entry;
        self.write(at, p, o, Data::pack(lower, upper, best, depth, selectivity, generation, cost_of(nodes)));
    }

    /// Where a store of the position (`p`, `o`) goes in the bucket starting at `b`: the
    /// position's own entry, else the entry of lowest priority.
    #[inline(always)]
    fn slot(&self, b: usize, p: u64, o: u64, generation: u8) -> Slot {
        let mut victim = b;
        let mut victim_priority = u32::MAX;
        for i in 0..ENTRIES_PER_BUCKET {
            let at = b + 3 * i;
            let (ep, eo, d) = self.read(at);
            if d.occupied() && ep == p && eo == o {
                return Slot::Same(at, d);
            }
            let priority = self.priority(d, generation, i);
            if priority < victim_priority {
                victim_priority = priority;
                victim = at;
            }
        }
        Slot::Victim(victim, victim_priority != 0)
    }

    /// How much the entry `d`, the `i`-th of its bucket, is worth keeping (the lowest is
    /// replaced first; 0 for an empty slot).
    #[inline(always)]
    fn priority(&self, d: Data, generation: u8, i: usize) -> u32 {
        let current = u32::from(d.generation() == generation) << 8;
        match self.policy {
            _ if !d.occupied() => 0,
            Replacement::Cost => 1 + (current | u32::from(d.cost())),
            Replacement::Depth => 1 + (current | u32::from(d.depth())),
            Replacement::Always => 1 + i as u32,
        }
    }

    /// The statistics: `counts` summed over the threads of a solve, the occupancy
    /// sampled from the table (`cutoffs` is filled in by the search).
    pub fn stats(&self, counts: TtCounts) -> TtStats {
        let buckets = self.words.len() / WORDS_PER_BUCKET;
        let step = (buckets / 4096).max(1);
        let (mut seen, mut used) = (0u64, 0u64);
        for bucket in (0..buckets).step_by(step) {
            for i in 0..ENTRIES_PER_BUCKET {
                seen += 1;
                used += u64::from(Data(self.words[bucket * WORDS_PER_BUCKET + 3 * i + 2].load(Relaxed)).occupied());
            }
        }
        TtStats {
            probes: counts.probes,
            hits: counts.hits,
            cutoffs: 0,
            stores: counts.stores,
            overwrites: counts.overwrites,
            occupancy: used as f64 / seen.max(1) as f64,
            bytes: self.bytes(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Boards that differ only in one corner region (the last row, the first row, or
    /// the side to move) still spread over the buckets (the top 14 bits).
    #[test]
    fn table_hash_spreads_local_differences() {
        assert_ne!(table_hash(1, 2), table_hash(2, 1));
        for shift in (0..=56).step_by(8) {
            let mut tops = std::collections::HashSet::new();
            for a in 0..256u64 {
                for b in 0..256u64 {
                    if a & b == 0 {
                        tops.insert(table_hash(a << shift, b << shift) >> 50);
                    }
                }
            }
            // 6,561 boards (3^8) into 16,384 buckets: expect ~5,400 distinct.
            assert!(tops.len() > 5_000, "shift {shift}: only {} buckets", tops.len());
        }
    }

    #[test]
    fn stores_merges_and_never_confuses_positions() {
        let tt = SearchTable::new(1 << 12);
        let c = &mut TtCounts::default();
        tt.store(5, 1, 2, TtRecord { empties: 20, lower: -10, upper: 64, best: Some(3), nodes: 100 }, c);
        assert_eq!(tt.probe(5, 1, 2, c), Some(TtHit { lower: -10, upper: 64, best: Some(3), proven: true }));
        tt.store(5, 1, 2, TtRecord { empties: 20, lower: -64, upper: 4, best: None, nodes: 10 }, c);
        assert_eq!(tt.probe(5, 1, 2, c), Some(TtHit { lower: -10, upper: 4, best: Some(3), proven: true }));
        assert_eq!(tt.probe(5, 2, 1, c), None, "same hash, other position");
        for i in 0..10 {
            tt.store(5, 100 + i, 0, TtRecord { empties: 10, lower: 0, upper: 0, best: None, nodes: 1 << i }, c);
        }
        assert!(c.overwrites > 0);
    }

    /// The two kinds in one table: the exact search reads a selective entry's move and
    /// never its bounds; a proven store replaces it; a selective store never replaces a
    /// proven entry; the selective search reads both as stored.
    #[test]
    fn selective_and_proven_entries_share_the_table() {
        let tt = SearchTable::new(1 << 12);
        let c = &mut TtCounts::default();
        let sel = Entry { lower: -8320, upper: 300, best: 19, depth: 12, selectivity: 3 };
        tt.store_selective(9, 1, 2, sel, 5000);
        assert_eq!(tt.probe_entry(9, 1, 2), Some(sel));
        assert_eq!(
            tt.probe(9, 1, 2, c),
            Some(TtHit { lower: -SCORE_INF, upper: SCORE_INF, best: Some(19), proven: false })
        );
        assert_eq!(tt.probe_entry(9, 2, 1), None, "same hash, other position");
        tt.store(9, 1, 2, TtRecord { empties: 20, lower: -6, upper: 4, best: None, nodes: 100 }, c);
        assert_eq!(tt.probe(9, 1, 2, c), Some(TtHit { lower: -6, upper: 4, best: Some(19), proven: true }));
        tt.store_selective(9, 1, 2, Entry { best: 7, ..sel }, 1 << 30);
        let kept = tt.probe_entry(9, 1, 2).unwrap();
        assert_eq!((kept.lower, kept.upper, kept.best, kept.depth, kept.selectivity), (-6, 4, 19, 20, PROVEN));
        // Depth 0 is not stored; depths beyond 63 are recorded as 63.
        tt.store_selective(9, 3, 4, Entry { depth: 0, ..sel }, 1);
        assert_eq!(tt.probe_entry(9, 3, 4), None);
        tt.store_selective(9, 3, 4, Entry { depth: 200, ..sel }, 1);
        assert_eq!(tt.probe_entry(9, 3, 4).map(|e| e.depth), Some(63));
    }

    /// A table with a near region keeps near-leaf and deep positions apart: both are
    /// found again, filling the near region never evicts a deep entry, the region is
    /// taken from the requested size, and every bucket lies in its region.
    #[test]
    fn near_region_keeps_near_leaf_positions_apart() {
        let small = SearchTable::new(NEAR_REGION_MIN_TABLE / 2);
        assert_eq!(small.bytes(), (NEAR_REGION_MIN_TABLE / 2) as u64);
        let tt = SearchTable::new(NEAR_REGION_MIN_TABLE);
        assert_eq!(tt.bytes(), NEAR_REGION_MIN_TABLE as u64);
        assert_eq!(tt.far_buckets as usize, (NEAR_REGION_MIN_TABLE - NEAR_REGION_BYTES) / 64);
        // 20 discs (deep) and 60 discs (near), on boards sharing one hash.
        let deep = (0x0000_0000_000F_FFFFu64, 0u64);
        let near = (0x0FFF_FFFF_FFFF_FFFFu64, 0u64);
        // The bucket of a deep position is the hash scaled to the far region, which ends
        // where the near region starts.
        for hash in [0, 1 << 40, u64::MAX / 3, u64::MAX] {
            assert!(tt.bucket(hash, deep.0, deep.1) + WORDS_PER_BUCKET <= tt.near_base);
            assert!(tt.bucket(hash, near.0, near.1) >= tt.near_base);
            assert!(tt.bucket(hash, near.0, near.1) + WORDS_PER_BUCKET <= tt.words.len());
        }
        let c = &mut TtCounts::default();
        let rec = |empties, v| TtRecord { empties, lower: v, upper: v, best: None, nodes: 1 << 20 };
        tt.store(7, deep.0, deep.1, rec(44, 3), c);
        for i in 0..64u64 {
            // Near positions of one hash: they all land in one near bucket.
            tt.store(7, near.0 ^ (i << 60 | i), near.1, rec(4, -2), c);
        }
        assert_eq!(tt.probe(7, deep.0, deep.1, c).map(|h| h.lower), Some(3), "the deep entry survives");
        tt.store(7, near.0, near.1, rec(4, -5), c);
        assert_eq!(tt.probe(7, near.0, near.1, c).map(|h| h.lower), Some(-5));
        assert_eq!(tt.probe(7, near.1, near.0, c), None, "same hash, other position");
    }
}
