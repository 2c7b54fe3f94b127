//! Parallel search for both Othello searches: young brothers wait (YBWC) with split
//! points, written once over the [`Splitting`] trait that the exact and the selective
//! searchers implement.
//!
//! A node big enough (empties for the exact search, plies left for the selective one)
//! whose first child has been searched may offer its other children to idle threads: it
//! publishes a [`SplitPoint`] in the shared slot, and every thread working on it takes
//! children one by one, searches them with a null window around the current best
//! (re-searching on a fail high) and merges the results under the split point's lock. A
//! fail high sets the split point's cutoff flag; threads searching under it (directly or
//! deeper) notice it at their next stop check and unwind, their results discarded and
//! never stored. The owner waits for its helpers before it returns, helping at split
//! points opened below it meanwhile.
//!
//! A child's search becomes *stale* when another thread raises the split point's alpha
//! above the alpha the child was started with: its question (is the child better than
//! the old best?) no longer matters, and proving a fail high against a stale alpha can
//! cost many times the proof against the new one (at a PV node whose best move is not
//! first, searching siblings against the stale alpha cost ~50% more nodes on FFO #48).
//! Such a search is abandoned like a cut-off one (nothing stored) and restarted with a
//! null window at the current alpha; split points opened under it are abandoned too.
//!
//! Every child is searched with a window the sequential search could have given it at
//! that point of the node (a null window at an alpha some earlier sibling reached), so a
//! split node's value is one the sequential search accepts: only the order in which the
//! children are searched and the table's contents differ (for the exact search, the
//! value is exactly the sequential one).

use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::*};
use std::sync::{Arc, Mutex};

/// What the threads of one search share: the offered split point, the count of idle
/// threads, the end of the search.
pub struct Shared<C, N> {
    slot: Mutex<Option<Arc<SplitPoint<C, N>>>>,
    /// Whether `slot` holds a split point: waiting threads read it without the lock.
    occupied: AtomicBool,
    /// Threads waiting for work.
    idle: AtomicUsize,
    /// Set when the search is over: helpers leave.
    pub quit: AtomicBool,
    /// Nodes smaller than this (empties in the exact search, plies left in the selective
    /// one) are never split.
    pub split_min: u32,
}

impl<C, N> Shared<C, N> {
    /// A fresh context: nodes of at least `split_min` may split.
    pub fn new(split_min: u32) -> Shared<C, N> {
        Shared {
            slot: Mutex::new(None),
            occupied: AtomicBool::new(false),
            idle: AtomicUsize::new(0),
            quit: AtomicBool::new(false),
            split_min,
        }
    }

    fn offered(&self) -> Option<Arc<SplitPoint<C, N>>> {
        if !self.occupied.load(Acquire) {
            return None;
        }
        self.slot.lock().expect("split slot poisoned").clone()
    }

    /// Counts one more thread as idle: owners of nodes then offer their children (and
    /// search them alone when nobody comes: the values are the same either way). For a
    /// thread that waits for the split points of several searches at once (see
    /// [`Splitting::help_offered`]). Undone by [`Shared::leave_standby`].
    pub fn enter_standby(&self) {
        self.idle.fetch_add(1, Relaxed);
    }

    /// Undoes one [`Shared::enter_standby`].
    pub fn leave_standby(&self) {
        self.idle.fetch_sub(1, Relaxed);
    }

    /// Whether a split point with children left to search is offered now.
    pub fn has_offered_work(&self) -> bool {
        self.offered().is_some_and(|sp| sp.has_work())
    }
}

/// A node whose remaining children are searched by several threads.
pub struct SplitPoint<C, N> {
    children: Vec<C>,
    next: AtomicUsize,
    node: N,
    beta: i32,
    alpha: AtomicI32,
    best: Mutex<(i32, u8)>,
    workers: AtomicUsize,
    cutoff: AtomicBool,
    parent: Option<Arc<SplitPoint<C, N>>>,
    /// The lower end of the window of the parent's child this split point lies under:
    /// once the parent's alpha exceeds it, everything here is stale.
    parent_alpha: i32,
}

impl<C, N> SplitPoint<C, N> {
    fn has_work(&self) -> bool {
        !self.cutoff.load(Relaxed) && self.next.load(Relaxed) < self.children.len()
    }

    /// True when this split point or one it lies under has been cut off or has become
    /// stale (lies under a child whose search window fell below its split point's alpha).
    fn chain_cut(&self) -> bool {
        let mut sp = Some(self);
        while let Some(s) = sp {
            if s.cutoff.load(Relaxed) || s.above_stale() {
                return true;
            }
            sp = s.parent.as_deref();
        }
        false
    }

    /// True when this split point lies under a child of its parent that has become stale.
    #[inline]
    fn above_stale(&self) -> bool {
        self.parent.as_ref().is_some_and(|p| p.alpha.load(Relaxed) > self.parent_alpha)
    }

    /// True when something above ended the work here: a cut-off or stale ancestor (not
    /// this split point's own cutoff, whose fail-high result is sound).
    #[inline]
    fn cut_above(&self) -> bool {
        self.above_stale() || self.parent.as_ref().is_some_and(|p| p.chain_cut())
    }
}

/// Where one thread stands among the split points: the one it works under and the
/// window of the child it searches there.
pub struct SplitState<C, N> {
    chain: Option<Arc<SplitPoint<C, N>>>,
    /// The lower end of the window of the child of `chain` this thread is searching: the
    /// search is stale once the split point's alpha exceeds it.
    child_alpha: i32,
}

impl<C, N> Default for SplitState<C, N> {
    fn default() -> Self {
        SplitState { chain: None, child_alpha: i32::MIN }
    }
}

impl<C, N> SplitState<C, N> {
    /// Whether the split point this thread works under was cut off, lies under a cut or
    /// stale one, or this thread's child of it went stale: its search must unwind.
    #[inline]
    pub fn abandoned(&self) -> bool {
        match &self.chain {
            None => false,
            Some(sp) => sp.alpha.load(Relaxed) > self.child_alpha || sp.chain_cut(),
        }
    }
}

/// Whether a new split point may be offered in `slot`: nothing is offered, or the
/// offered split point has no child left to hand out (its owner may still be searching
/// its last child for a long time; leaving it offered kept an idle thread waiting for
/// that whole search: FFO #49, 2 threads, 1.3 s of 15 s in 5 waits of over 100 ms).
fn slot_free<C, N>(slot: &Option<Arc<SplitPoint<C, N>>>) -> bool {
    !matches!(slot, Some(sp) if sp.has_work())
}

/// A search whose nodes can be split: what a split point needs from it. The provided
/// methods are the YBWC machinery.
pub trait Splitting<'a>: Sized {
    /// A child handed out at a split point.
    type Child: Copy + Send + Sync + 'a;
    /// What a child's search needs to know about its node besides the window.
    type Node: Copy + Send + Sync + 'a;
    /// Whether a fail high of the null window at `t` proves the child worth at least its
    /// fail-soft value `v`, so that the wide re-search may start at `v` (true of the
    /// exact search); otherwise it starts at the split point's current alpha, as the
    /// sequential search's would.
    const RESEARCH_FROM_VALUE: bool;

    /// The threads' shared context, when several threads search.
    fn shared(&self) -> Option<&'a Shared<Self::Child, Self::Node>>;
    /// This thread's place among the split points.
    fn split_state(&mut self) -> &mut SplitState<Self::Child, Self::Node>;
    /// The fail-soft value of `child` of `node` in the window `(alpha, beta)` for the
    /// side to move at `node`; meaningless if the search aborts.
    fn search_child(&mut self, node: Self::Node, child: &Self::Child, alpha: i32, beta: i32) -> i32;
    /// The move that leads to `child`.
    fn move_of(child: &Self::Child) -> u8;
    /// Whether the search is unwinding (stopped, or its split point abandoned); the
    /// machinery sets and clears it.
    fn aborted(&mut self) -> &mut bool;
    /// Whether the whole search is stopped (stop flag, budget, clock), not only a split
    /// point abandoned.
    fn outer_stop(&self) -> bool;

    /// Whether a node of size `size` should offer its `remaining` children to idle threads.
    #[inline]
    fn should_split(&self, size: u32, remaining: usize) -> bool {
        match self.shared() {
            Some(sh) => {
                remaining >= 2
                    && size >= sh.split_min
                    && sh.idle.load(Relaxed) > 0
                    && sh.slot.lock().map(|s| slot_free(&s)).unwrap_or(false)
            }
            None => false,
        }
    }

    /// Searches `children` (the node's remaining children) together with idle threads,
    /// starting from the window `(alpha, beta)` and the best value and move found so far.
    /// Returns the best value and move over all children searched (fail-soft); the
    /// search is left aborted when the result is incomplete.
    fn split(
        &mut self,
        children: &[Self::Child],
        node: Self::Node,
        alpha: i32,
        beta: i32,
        best: (i32, u8),
    ) -> (i32, u8) {
        let shared = self.shared().expect("split without a parallel context");
        let state = self.split_state();
        let sp = Arc::new(SplitPoint {
            children: children.to_vec(),
            next: AtomicUsize::new(0),
            node,
            beta,
            alpha: AtomicI32::new(alpha),
            best: Mutex::new(best),
            workers: AtomicUsize::new(1),
            cutoff: AtomicBool::new(false),
            parent: state.chain.clone(),
            parent_alpha: state.child_alpha,
        });
        {
            let mut slot = shared.slot.lock().expect("split slot poisoned");
            if slot_free(&slot) {
                *slot = Some(sp.clone());
                shared.occupied.store(true, Release);
            }
        }
        self.work_on(&sp);
        {
            let mut slot = shared.slot.lock().expect("split slot poisoned");
            if slot.as_ref().is_some_and(|s| Arc::ptr_eq(s, &sp)) {
                *slot = None;
                shared.occupied.store(false, Release);
            }
        }
        shared.idle.fetch_add(1, Relaxed);
        while sp.workers.load(Acquire) > 1 {
            if *self.aborted() {
                if self.outer_stop() || sp.cut_above() {
                    break; // the abort comes from above this node: pass it on
                }
                // Our own split point was cut off (a sound result for this node).
                *self.aborted() = false;
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
        *self.aborted() = self.outer_stop() || sp.cut_above();
        let result = *sp.best.lock().expect("split result poisoned");
        result
    }

    /// Joins the offered split point, if any (other than `exclude`) and it has work.
    /// Returns whether any work was done.
    fn help_once(&mut self, exclude: Option<&Arc<SplitPoint<Self::Child, Self::Node>>>) -> bool {
        let Some(shared) = self.shared() else { return false };
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
    fn work_on(&mut self, sp: &Arc<SplitPoint<Self::Child, Self::Node>>) {
        let state = self.split_state();
        let saved = (state.chain.replace(sp.clone()), state.child_alpha);
        let mut next = sp.next.fetch_add(1, AcqRel);
        while let Some(&c) = sp.children.get(next) {
            if sp.cutoff.load(Relaxed) {
                break;
            }
            let v = self.search_split_child(sp, &c);
            if *self.aborted() {
                if self.outer_stop() || sp.cut_above() {
                    break; // from above: keep the abort going
                }
                *self.aborted() = false;
                if sp.cutoff.load(Acquire) {
                    break; // our split point failed high: its result stands without this child
                }
                continue; // the child went stale: search it again at the current alpha
            }
            let mut best = sp.best.lock().expect("split result poisoned");
            if v > best.0 {
                *best = (v, Self::move_of(&c));
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
        let state = self.split_state();
        (state.chain, state.child_alpha) = saved;
    }

    /// Searches the child `c` of `sp`: a null window at the split point's current alpha,
    /// then, on a fail high that still beats the current alpha, the wide window up to
    /// beta. Returns a fail-soft value valid against the alpha it ended with, or `alpha`
    /// itself when nothing needs searching any more; meaningless if aborted.
    fn search_split_child(&mut self, sp: &SplitPoint<Self::Child, Self::Node>, c: &Self::Child) -> i32 {
        let mut tested = sp.alpha.load(Acquire);
        while tested < sp.beta {
            self.split_state().child_alpha = tested;
            let v = self.search_child(sp.node, c, tested, tested + 1);
            if *self.aborted() || v <= tested || v >= sp.beta {
                return v;
            }
            // The child is worth more than `tested`; it matters only if it beats the
            // current alpha (another thread may have raised it meanwhile).
            let current = sp.alpha.load(Acquire);
            if v > current {
                let from = if Self::RESEARCH_FROM_VALUE { v } else { current };
                self.split_state().child_alpha = from;
                return self.search_child(sp.node, c, from, sp.beta);
            }
            tested = current;
        }
        tested
    }

    /// Works on the offered split point, if any has work, as a helper does, then returns
    /// (for a thread that waits for several searches' split points: see
    /// [`Shared::enter_standby`]). Returns whether any work was done; the searcher is
    /// left ready for the next call.
    fn help_offered(&mut self) -> bool {
        let worked = self.help_once(None);
        *self.aborted() = false;
        worked
    }

    /// The life of a helper thread: wait for split points and work on them until `quit`.
    fn helper_loop(&mut self) {
        let Some(shared) = self.shared() else { return };
        while !shared.quit.load(Relaxed) {
            shared.idle.fetch_add(1, Relaxed);
            let mut spins = 0u32;
            while !shared.quit.load(Relaxed) && !shared.has_offered_work() {
                spins += 1;
                if spins < 1000 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            }
            shared.idle.fetch_sub(1, Relaxed);
            self.help_offered();
        }
    }
}
