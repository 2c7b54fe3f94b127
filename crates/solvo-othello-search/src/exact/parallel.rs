//! Parallel search: young brothers wait (YBWC) with split points.
//!
//! A node with enough empties whose first child has been searched may offer its other
//! children to idle threads: it publishes a [`SplitPoint`] in the shared slot, and every
//! thread working on it takes children one by one, searches them with a null window
//! around the current best (re-searching on a fail high) and merges the results under
//! the split point's lock. A fail high sets the split point's cutoff flag; threads
//! searching under it (directly or deeper) notice it at their next stop check and
//! unwind, their results discarded and never stored. The owner waits for its helpers
//! before it returns, helping at split points opened below it meanwhile.
//!
//! A child's search becomes *stale* when another thread raises the split point's alpha
//! above the alpha the child was started with: its question (is the child better than
//! the old best?) no longer matters, and proving a fail high against a stale alpha can
//! cost many times the proof against the new one (at a PV node whose best move is not
//! first, searching siblings against the stale alpha cost ~50% more nodes on FFO #48).
//! Such a search is abandoned like a cut-off one (nothing stored) and restarted with a
//! null window at the current alpha; split points opened under it are abandoned too.
//!
//! The value is exactly that of the sequential search: only the order in which the
//! children are searched and the table's contents differ.

use super::search::{Child, ExactSearcher};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex};

/// What the threads of one solve share.
pub struct ExactShared {
    slot: Mutex<Option<Arc<SplitPoint>>>,
    /// Threads waiting for work.
    idle: AtomicUsize,
    /// Set when the solve is over: helpers leave.
    pub quit: AtomicBool,
    /// Nodes with fewer empties are never split.
    pub split_min_empties: u32,
}

impl ExactShared {
    /// A fresh context.
    pub fn new(split_min_empties: u32) -> ExactShared {
        ExactShared {
            slot: Mutex::new(None),
            idle: AtomicUsize::new(0),
            quit: AtomicBool::new(false),
            split_min_empties,
        }
    }

    fn offered(&self) -> Option<Arc<SplitPoint>> {
        self.slot.lock().expect("split slot poisoned").clone()
    }

    /// Counts one more thread as idle although it is busy with other work, because it
    /// looks for offered split points often ([`ExactSearcher::help_offered`]): the owners of
    /// nodes then offer their children, and search them alone when nobody comes (the
    /// values are the same either way). Undone by [`ExactShared::leave_standby`].
    pub fn enter_standby(&self) {
        self.idle.fetch_add(1, Relaxed);
    }

    /// Undoes one [`ExactShared::enter_standby`].
    pub fn leave_standby(&self) {
        self.idle.fetch_sub(1, Relaxed);
    }

    /// Whether a split point with children left to search is offered now.
    pub fn has_offered_work(&self) -> bool {
        self.offered().is_some_and(|sp| sp.has_work())
    }
}

/// A node whose remaining children are searched by several threads.
pub struct SplitPoint {
    children: Vec<Child>,
    next: AtomicUsize,
    empties: u32,
    beta: i32,
    alpha: AtomicI32,
    best: Mutex<(i32, u8)>,
    workers: AtomicUsize,
    cutoff: AtomicBool,
    parent: Option<Arc<SplitPoint>>,
    /// The lower end of the window of the parent's child this split point lies under:
    /// once the parent's alpha exceeds it, everything here is stale.
    parent_alpha: i32,
}

impl SplitPoint {
    /// Whether a child searched with a window starting at `child_alpha` is stale.
    #[inline]
    pub(crate) fn stale_for(&self, child_alpha: i32) -> bool {
        self.alpha.load(Relaxed) > child_alpha
    }

    fn has_work(&self) -> bool {
        !self.cutoff.load(Relaxed) && self.next.load(Relaxed) < self.children.len()
    }
}

/// Whether a new split point may be offered in `slot`: nothing is offered, or the
/// offered split point has no child left to hand out (its owner may still be searching
/// its last child for a long time; leaving it offered kept an idle thread waiting for
/// that whole search: FFO #49, 2 threads, 1.3 s of 15 s in 5 waits of over 100 ms).
fn slot_free(slot: &Option<Arc<SplitPoint>>) -> bool {
    !matches!(slot, Some(sp) if sp.has_work())
}

/// True when this split point or one it lies under has been cut off or has become stale
/// (lies under a child whose search window fell below its split point's alpha).
pub fn chain_cut(mut sp: Option<&Arc<SplitPoint>>) -> bool {
    while let Some(s) = sp {
        if s.cutoff.load(Relaxed) || above_stale(s) {
            return true;
        }
        sp = s.parent.as_ref();
    }
    false
}

/// True when `sp` lies under a child of its parent that has become stale.
#[inline]
fn above_stale(sp: &SplitPoint) -> bool {
    sp.parent.as_ref().is_some_and(|p| p.alpha.load(Relaxed) > sp.parent_alpha)
}

/// True when something above `sp` ended the work there: a cut-off or stale ancestor
/// (not `sp`'s own cutoff, whose fail-high result is sound).
#[inline]
fn cut_above(sp: &SplitPoint) -> bool {
    above_stale(sp) || chain_cut(sp.parent.as_ref())
}

impl ExactSearcher<'_> {
    /// Whether the node should offer its remaining `remaining` children to idle threads.
    #[inline]
    pub(crate) fn should_split(&self, empties: u32, remaining: usize) -> bool {
        match self.shared {
            Some(sh) => {
                remaining >= 2
                    && empties >= sh.split_min_empties
                    && sh.idle.load(Relaxed) > 0
                    && sh.slot.lock().map(|s| slot_free(&s)).unwrap_or(false)
            }
            None => false,
        }
    }

    /// Searches `children` (the node's remaining children) together with idle threads,
    /// starting from the window `(alpha, beta)` and the best value and move found so far.
    /// Returns the best value and move over all children searched (fail-soft).
    pub(crate) fn split(
        &mut self,
        children: &[Child],
        empties: u32,
        alpha: i32,
        beta: i32,
        best: (i32, u8),
    ) -> (i32, u8) {
        let shared = self.shared.expect("split without a parallel context");
        let sp = Arc::new(SplitPoint {
            children: children.to_vec(),
            next: AtomicUsize::new(0),
            empties,
            beta,
            alpha: AtomicI32::new(alpha),
            best: Mutex::new(best),
            workers: AtomicUsize::new(1),
            cutoff: AtomicBool::new(false),
            parent: self.chain.clone(),
            parent_alpha: self.child_alpha,
        });
        {
            let mut slot = shared.slot.lock().expect("split slot poisoned");
            if slot_free(&slot) {
                *slot = Some(sp.clone());
            }
        }
        self.work_on(&sp);
        {
            let mut slot = shared.slot.lock().expect("split slot poisoned");
            if slot.as_ref().is_some_and(|s| Arc::ptr_eq(s, &sp)) {
                *slot = None;
            }
        }
        shared.idle.fetch_add(1, Relaxed);
        while sp.workers.load(Acquire) > 1 {
            if self.aborted {
                if self.outer_stop() || cut_above(&sp) {
                    break; // the abort comes from above this node: pass it on
                }
                // Our own split point was cut off (a sound result for this node).
                self.aborted = false;
            }
            if sp.cutoff.load(Acquire) {
                break;
            }
            if !self.help_once(Some(&sp)) {
                std::hint::spin_loop();
            }
        }
        shared.idle.fetch_sub(1, Relaxed);
        // Decide afresh whether this node was aborted, whatever happened while helping:
        // - an abort picked up at a split point elsewhere (whose own ancestor was cut)
        //   must not leak into this node once the loop has ended;
        // - a helper that left one of our children unfinished because the stop flag or
        //   a split point above us fired leaves our result incomplete, even if we saw
        //   nothing yet: then this node is aborted too and nothing may be stored.
        // A cutoff of our own split point is not an abort: its fail-high result is sound.
        self.aborted = self.outer_stop() || cut_above(&sp);
        let result = *sp.best.lock().expect("split result poisoned");
        result
    }

    /// Joins the offered split point, if any (other than `exclude`) and it has work.
    /// Returns whether any work was done.
    pub(crate) fn help_once(&mut self, exclude: Option<&Arc<SplitPoint>>) -> bool {
        let Some(shared) = self.shared else { return false };
        let Some(sp) = shared.offered() else { return false };
        if exclude.is_some_and(|e| Arc::ptr_eq(e, &sp)) || !sp.has_work() {
            return false;
        }
        sp.workers.fetch_add(1, AcqRel);
        self.work_on(&sp);
        sp.workers.fetch_sub(1, AcqRel);
        true
    }

    /// Takes children of `sp` until none is left or it is cut off.
    fn work_on(&mut self, sp: &Arc<SplitPoint>) {
        let saved = (self.chain.replace(sp.clone()), self.child_alpha);
        let mut next = sp.next.fetch_add(1, AcqRel);
        while let Some(&c) = sp.children.get(next) {
            if sp.cutoff.load(Relaxed) {
                break;
            }
            let v = self.search_split_child(sp, &c);
            if self.aborted {
                if self.outer_stop() || cut_above(sp) {
                    break; // from above: keep the abort going
                }
                self.aborted = false;
                if sp.cutoff.load(Acquire) {
                    break; // our split point failed high: its result stands without this child
                }
                continue; // the child went stale: search it again at the current alpha
            }
            let mut best = sp.best.lock().expect("split result poisoned");
            if v > best.0 {
                *best = (v, c.x);
                if v > sp.alpha.load(Acquire) {
                    sp.alpha.store(v, Release);
                }
                if v >= sp.beta {
                    sp.cutoff.store(true, Release);
                }
            }
            drop(best);
            next = sp.next.fetch_add(1, AcqRel);
        }
        (self.chain, self.child_alpha) = saved;
    }

    /// Searches the child `c` of `sp`: a null window at the split point's current alpha,
    /// then, on a fail high that still beats the current alpha, the wide window up to
    /// beta. Returns a fail-soft value valid against the alpha it ended with, or `alpha`
    /// itself when nothing needs searching any more; meaningless if `aborted`.
    fn search_split_child(&mut self, sp: &SplitPoint, c: &Child) -> i32 {
        let e = sp.empties - 1;
        let mut tested = sp.alpha.load(Acquire);
        while tested < sp.beta {
            self.child_alpha = tested;
            let v = -self.search(c.p, c.o, -tested - 1, -tested, e);
            if self.aborted || v <= tested || v >= sp.beta {
                return v;
            }
            // The child is worth more than `tested`; it matters only if it beats the
            // current alpha (another thread may have raised it meanwhile).
            let current = sp.alpha.load(Acquire);
            if v > current {
                self.child_alpha = v;
                return -self.search(c.p, c.o, -sp.beta, -v, e);
            }
            tested = current;
        }
        tested
    }

    /// Works on the offered split point, if any has work, as a helper does, then returns
    /// (for a thread that does other work between looks: see [`ExactShared::enter_standby`]).
    /// Returns whether any work was done; the searcher is left ready for the next call.
    pub fn help_offered(&mut self) -> bool {
        let worked = self.help_once(None);
        self.aborted = false;
        worked
    }

    /// The life of a helper thread: wait for split points and work on them until `quit`.
    pub fn helper_loop(&mut self) {
        let Some(shared) = self.shared else { return };
        while !shared.quit.load(Relaxed) {
            shared.idle.fetch_add(1, Relaxed);
            let mut spins = 0u32;
            while !shared.quit.load(Relaxed) && !shared.offered().is_some_and(|sp| sp.has_work()) {
                spins += 1;
                if spins < 1000 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
            shared.idle.fetch_sub(1, Relaxed);
            self.help_once(None);
            self.aborted = false;
        }
    }
}
