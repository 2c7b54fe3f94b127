//! Which positions the threads of a parallel search are busy with, so that a thread can
//! leave a move another thread is searching for later (the "simplified ABDADA" of
//! parallel chess search): at a node, every child but the first whose position is being
//! searched (to the same depth) by another thread is deferred to the end of the node's
//! move loop, by which time the other thread has usually stored its value in the shared
//! transposition table.
//!
//! Used by the generic alpha-beta solvers (the Othello midgame search used it until it
//! split its nodes over threads as the exact search does): without it their helper
//! threads walked the same tree as the main thread (a table whose cutoffs need an entry
//! of exactly the node's depth, so that every thread count gives the negamax value):
//! twice the nodes for the same time on 2 threads.
//!
//! The table only decides the order of a node's moves, never which moves are searched
//! nor with what window, so the values do not change (the searches' tests compare 1 and
//! 2 threads). Entries are single atomic words; a collision of two keys in one slot only
//! makes a thread defer a move it need not (or not defer one it could): the order
//! changes, not the result.

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// Slots in the table (a power of two; 8 bytes each).
const SLOTS: usize = 1 << 14;

/// The positions (at their remaining depths) that some thread is searching now.
pub struct BusyTable {
    slots: Box<[AtomicU64]>,
}

impl Default for BusyTable {
    fn default() -> Self {
        BusyTable::new()
    }
}

impl BusyTable {
    /// An empty table.
    pub fn new() -> BusyTable {
        BusyTable { slots: (0..SLOTS).map(|_| AtomicU64::new(0)).collect() }
    }

    /// The key of a position (its table hash) searched to `depth`: never 0, the empty
    /// slot's mark.
    #[inline]
    pub fn key(hash: u64, depth: u32) -> u64 {
        (hash ^ u64::from(depth).wrapping_mul(0x9E37_79B9_7F4A_7C15)) | 1
    }

    #[inline]
    fn slot(&self, key: u64) -> &AtomicU64 {
        // The low bit is always set: index by the high bits.
        &self.slots[(key >> 50) as usize & (SLOTS - 1)]
    }

    /// True when another thread has marked `key` busy (and not yet released it).
    #[inline]
    pub fn is_busy(&self, key: u64) -> bool {
        self.slot(key).load(Relaxed) == key
    }

    /// Marks `key` busy (overwriting whatever the slot held).
    #[inline]
    pub fn enter(&self, key: u64) {
        self.slot(key).store(key, Relaxed);
    }

    /// Marks `key` busy and returns true, unless another thread has it marked already
    /// (then false: defer the move).
    #[inline]
    pub fn try_enter(&self, key: u64) -> bool {
        if self.is_busy(key) {
            return false;
        }
        self.enter(key);
        true
    }

    /// Releases `key` if its slot still holds it.
    #[inline]
    pub fn leave(&self, key: u64) {
        let _ = self.slot(key).compare_exchange(key, 0, Relaxed, Relaxed);
    }
}

/// The order in which a node searches its moves when the threads share a [`BusyTable`]:
/// a first round in list order that skips (defers) every move but the first that another
/// thread has marked busy and marks the others, then a second round over the deferred
/// ones. Without a table: the list order, nothing marked.
pub struct Rounds<'a> {
    busy: Option<&'a BusyTable>,
    pending: u64,
    rest: u64,
    first_round: bool,
}

impl<'a> Rounds<'a> {
    /// The rounds over `n` moves (at most 64).
    #[inline]
    pub fn new(busy: Option<&'a BusyTable>, n: usize) -> Rounds<'a> {
        let all = if n >= 64 { u64::MAX } else { (1u64 << n) - 1 };
        Rounds { busy, pending: all, rest: all, first_round: true }
    }

    /// The index of the next move to search and the key it marked busy (0: none; pass it
    /// to [`Rounds::release`] once the move is searched); `key_of(i)` is the key of move
    /// `i` ([`BusyTable::key`] of its position and remaining depth).
    #[inline]
    pub fn next(&mut self, key_of: impl Fn(usize) -> u64) -> Option<(usize, u64)> {
        loop {
            if self.rest == 0 {
                if self.pending == 0 {
                    return None;
                }
                self.first_round = false;
                self.rest = self.pending;
            }
            let i = self.rest.trailing_zeros() as usize;
            self.rest &= self.rest - 1;
            let mut key = 0;
            if let Some(b) = self.busy.filter(|_| self.first_round && i > 0) {
                key = key_of(i);
                if !b.try_enter(key) {
                    continue;
                }
            }
            self.pending &= !(1u64 << i);
            return Some((i, key));
        }
    }

    /// Releases the key [`Rounds::next`] marked (nothing for 0).
    #[inline]
    pub fn release(&self, key: u64) {
        if let Some(b) = self.busy.filter(|_| key != 0) {
            b.leave(key);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_busy_between_enter_and_leave_only() {
        let t = BusyTable::new();
        let k = BusyTable::key(0x1234_5678_9ABC_DEF0, 7);
        assert_ne!(k, 0);
        assert!(!t.is_busy(k));
        t.enter(k);
        assert!(t.is_busy(k));
        assert!(!t.is_busy(BusyTable::key(0x1234_5678_9ABC_DEF0, 6)));
        t.leave(k);
        assert!(!t.is_busy(k));
        assert!(t.try_enter(k), "a free key is taken");
        assert!(!t.try_enter(k), "a busy key is refused");
        t.leave(k);
        assert!(!t.is_busy(k));
    }

    #[test]
    fn rounds_defer_busy_moves_to_the_end_and_visit_each_move_once() {
        let t = BusyTable::new();
        let keys: Vec<u64> = (0..6).map(|i| BusyTable::key(i * 0x0123_4567_89AB_CDEF, 5)).collect();
        t.enter(keys[0]);
        t.enter(keys[2]);
        t.enter(keys[3]);
        let mut r = Rounds::new(Some(&t), 6);
        let mut order = Vec::new();
        while let Some((i, key)) = r.next(|i| keys[i]) {
            order.push(i);
            r.release(key);
        }
        // Move 0 is never deferred; 2 and 3 wait for the second round.
        assert_eq!(order, vec![0, 1, 4, 5, 2, 3]);
        let mut plain = Rounds::new(None, 3);
        let order: Vec<_> = std::iter::from_fn(|| plain.next(|_| unreachable!())).collect();
        assert_eq!(order, vec![(0, 0), (1, 0), (2, 0)]);
    }

    #[test]
    fn leaving_does_not_clear_another_key_in_the_slot() {
        let t = BusyTable::new();
        let a = BusyTable::key(0xFFFF_0000_0000_0000, 3);
        // Same high bits (same slot), another key.
        let b = a ^ 0x100;
        t.enter(a);
        t.enter(b);
        t.leave(a);
        assert!(t.is_busy(b));
    }
}
