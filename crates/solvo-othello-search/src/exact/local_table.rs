//! A search thread's own small table for the nodes near the leaves: those just above
//! the shallow solver and the positions the search hands to it.
//!
//! Near the leaves a node is cheap and the shared table's probe is not: its bucket is
//! read from memory the other threads write, through atomic words, and the table is
//! far larger than the core's caches. These nodes are instead kept in a table of the
//! thread's own: direct-mapped, one slot per index, the last position stored there
//! wins; small enough to stay in the core's second-level cache. A slot holds the whole
//! position (so it never answers for another one), its proven bounds and its best move.
//! Neural Reversi's endgame keeps its near-leaf nodes apart from its main table the same
//! way.
//!
//! A thread lends its table to each of its searchers in turn (see [`LocalTable::take`]):
//! the selective search starts a searcher for every exact solve at its leaves, and the
//! table outlives them while they search through the same shared table. A searcher of
//! another shared table, of the same one once cleared, or under other rules finds it
//! empty, so a solve from a fresh table visits the same nodes whatever the thread did
//! before.

use crate::table::table_hash;
use solvo_othello::rules::Rules;
use std::cell::Cell;

/// Slots in a thread's table (a power of two): 32,768 slots of 24 bytes, 768 KiB, in
/// a core's 2 MiB second-level cache beside the evaluation's tables. FFO #40-#49 with
/// the table up to 12 empties (1 thread, 2026-11-30, a build without LTO): 16,384
/// slots 0.494 G search nodes, 19.4 s; 32,768 0.489 G, 18.7-19.6 s; 65,536 0.484 G,
/// 19.6 s; 131,072 0.480 G, 19.5 s.
pub const LOCAL_TABLE_SLOTS: usize = 1 << 15;

/// One position and what is proven about it.
#[derive(Clone, Copy)]
struct Slot {
    p: u64,
    o: u64,
    /// Proven bounds of the exact score; `-SCORE_INF`/`SCORE_INF` (or beyond) when
    /// nothing is proven.
    lower: i8,
    upper: i8,
    /// Best move found, or `NO_MOVE`.
    best: u8,
}

/// `Slot::best` when the slot has no move.
const NO_MOVE: u8 = 255;

/// A slot that matches no position: no board has 0 discs of either side, and its
/// bounds prove nothing anyway.
const EMPTY: Slot = Slot { p: 0, o: 0, lower: i8::MIN, upper: i8::MAX, best: NO_MOVE };

/// A thread's near-leaf table (see the module's documentation).
pub struct LocalTable {
    slots: Box<[Slot]>,
    /// The rules every stored bound holds under.
    rules: Rules,
    /// The epoch of the shared table the searches that stored here used.
    epoch: u64,
}

thread_local! {
    /// The thread's table between two searchers.
    static SPARE: Cell<Option<Box<LocalTable>>> = const { Cell::new(None) };
}

/// Where position `(p, o)` lives in a table of `LOCAL_TABLE_SLOTS` slots: the top bits
/// of the shared table's hash.
#[inline(always)]
fn index(p: u64, o: u64) -> usize {
    (table_hash(p, o) >> (64 - LOCAL_TABLE_SLOTS.trailing_zeros())) as usize
}

impl LocalTable {
    /// The calling thread's table for a search under `rules` beside a shared table of
    /// epoch `epoch` ([`crate::table::SearchTable::epoch`]): the one it used last if
    /// that was for the same rules and epoch, else an empty one. Give it back with
    /// [`LocalTable::give_back`] so the thread's next searcher finds it.
    pub fn take(rules: &Rules, epoch: u64) -> Box<LocalTable> {
        match SPARE.with(|s| s.take()) {
            Some(t) if t.rules == *rules && t.epoch == epoch => t,
            Some(mut t) => {
                t.slots.fill(EMPTY);
                (t.rules, t.epoch) = (*rules, epoch);
                t
            }
            None => {
                Box::new(LocalTable { slots: vec![EMPTY; LOCAL_TABLE_SLOTS].into_boxed_slice(), rules: *rules, epoch })
            }
        }
    }

    /// Keeps `table` for the calling thread's next searcher.
    pub fn give_back(table: Box<LocalTable>) {
        SPARE.with(|s| s.set(Some(table)));
    }

    /// The proven bounds and best move stored for `p` to move against `o`, if any.
    #[inline(always)]
    pub fn probe(&self, p: u64, o: u64) -> Option<(i32, i32, Option<u8>)> {
        // `index` is below LOCAL_TABLE_SLOTS, the slice's length.
        let s = &self.slots[index(p, o)];
        (s.p == p && s.o == o).then(|| (s.lower as i32, s.upper as i32, (s.best != NO_MOVE).then_some(s.best)))
    }

    /// Stores proven bounds `lower <= value <= upper` of `p` to move against `o`
    /// (each within `-127..=127`) and its best move: merged with what the slot knows
    /// of the same position, else replacing the slot's position.
    #[inline(always)]
    pub fn store(&mut self, p: u64, o: u64, lower: i32, upper: i32, best: Option<u8>) {
        let s = &mut self.slots[index(p, o)];
        let best = best.unwrap_or(NO_MOVE);
        if s.p == p && s.o == o {
            s.lower = s.lower.max(lower as i8);
            s.upper = s.upper.min(upper as i8);
            if best != NO_MOVE {
                s.best = best;
            }
        } else {
            *s = Slot { p, o, lower: lower as i8, upper: upper as i8, best };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::{BoardSize, Variant};

    #[test]
    fn bounds_merge_and_a_new_position_replaces_the_slot() {
        let rules = Rules::new(BoardSize::Eight, Variant::Normal);
        let mut t = LocalTable::take(&rules, 1);
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        t.store(p, o, -64, 12, Some(19));
        t.store(p, o, 4, 64, None);
        assert_eq!(t.probe(p, o), Some((4, 12, Some(19))));
        assert_eq!(t.probe(o, p), None);
        // Find another position for the same slot: it replaces the first.
        let other = (1u64..).map(|k| (p ^ k << 40, o)).find(|&(a, b)| index(a, b) == index(p, o)).unwrap();
        t.store(other.0, other.1, 0, 0, None);
        assert_eq!(t.probe(p, o), None);
        assert_eq!(t.probe(other.0, other.1), Some((0, 0, None)));
        LocalTable::give_back(t);
    }

    #[test]
    fn a_thread_keeps_its_table_for_the_same_rules_and_epoch_only() {
        let normal = Rules::new(BoardSize::Eight, Variant::Normal);
        let reversed = Rules::new(BoardSize::Eight, Variant::Reversed);
        let (p, o) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);
        let mut t = LocalTable::take(&normal, 7);
        t.store(p, o, 2, 2, None);
        LocalTable::give_back(t);
        let t = LocalTable::take(&normal, 7);
        assert_eq!(t.probe(p, o), Some((2, 2, None)));
        LocalTable::give_back(t);
        let t = LocalTable::take(&normal, 8);
        assert_eq!(t.probe(p, o), None, "another shared table or a cleared one");
        LocalTable::give_back(t);
        let mut t = LocalTable::take(&normal, 8);
        t.store(p, o, 2, 2, None);
        LocalTable::give_back(t);
        let t = LocalTable::take(&reversed, 8);
        assert_eq!(t.probe(p, o), None, "other rules");
        LocalTable::give_back(t);
    }
}
