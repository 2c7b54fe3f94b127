//! Node and time budgets shared by every solver, and the statistics they all report.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How much work a solver may do. A solver that runs out of budget (or is stopped)
/// reports an unknown result, never a guessed value.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    /// Stop after this many nodes (positions searched); `None` for no limit.
    pub max_nodes: Option<u64>,
    /// Stop after this much wall-clock time; `None` for no limit.
    pub time_limit: Option<Duration>,
    /// Stop soon after this flag is raised (from another thread: Ctrl-C, a stop
    /// button); read where the clock is read, once every 1024 budget checks. A
    /// `'static` flag keeps budgets (and the configurations holding them) `Copy`: make
    /// one with [`stop_flag`] and reuse it.
    pub stop: Option<&'static AtomicBool>,
}

impl Budget {
    /// No limit at all.
    pub const UNLIMITED: Budget = Budget { max_nodes: None, time_limit: None, stop: None };

    /// The same budget, stopped when `stop` is raised.
    pub fn with_stop(self, stop: &'static AtomicBool) -> Budget {
        Budget { stop: Some(stop), ..self }
    }
}

/// A new lowered stop flag for [`Budget::stop`], living as long as the program (one
/// byte each: make one per caller that stops searches and reuse it, not one per search).
pub fn stop_flag() -> &'static AtomicBool {
    Box::leak(Box::new(AtomicBool::new(false)))
}

impl PartialEq for Budget {
    /// Equal limits and the same stop flag (or none).
    fn eq(&self, other: &Budget) -> bool {
        let same_stop = match (&self.stop, &other.stop) {
            (None, None) => true,
            (Some(a), Some(b)) => std::ptr::eq(*a, *b),
            _ => false,
        };
        self.max_nodes == other.max_nodes && self.time_limit == other.time_limit && same_stop
    }
}

impl Eq for Budget {}

/// The counters every solver reports (fields that do not apply stay 0).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SolverStats {
    /// Positions searched by the solver proper (alpha-beta calls, proof-number
    /// expansions, tree nodes of MCTS), excluding the Monte Carlo ordering search.
    pub nodes: u64,
    /// Wall-clock time of the whole run (ordering search included).
    pub time: Duration,
    /// Transposition-table look-ups.
    pub tt_probes: u64,
    /// Look-ups that found the position.
    pub tt_hits: u64,
    /// Hits whose bound ended a node's search at once.
    pub tt_cutoffs: u64,
    /// Entries written.
    pub tt_stores: u64,
    /// Writes that evicted another position's entry.
    pub tt_overwrites: u64,
    /// Look-ups that missed a position stored before and evicted since (measured only
    /// when the table tracks it, see [`crate::tt::TableShape::track_lost`]).
    pub tt_lost: u64,
    /// Iterative-deepening iterations (0 when not iterative).
    pub iterations: u64,
    /// Monte Carlo playouts (GRAVE ordering search or MCTS-Solver).
    pub playouts: u64,
    /// Tree nodes of the Monte Carlo ordering search.
    pub mc_nodes: u64,
    /// Time spent in the Monte Carlo ordering search (part of `time`).
    pub mc_time: Duration,
    /// Repetitions of a position on the current search path (df-pn): any makes the
    /// result unknown rather than risk the graph-history-interaction problem.
    pub repetitions: u64,
}

/// Enforces a [`Budget`] cheaply: the clock is read once every 1024 checks.
#[derive(Debug)]
pub(crate) struct Limiter {
    start: Instant,
    max_nodes: u64,
    deadline: Option<Instant>,
    stop: Option<&'static AtomicBool>,
    ticks: u64,
    exhausted: bool,
}

impl Limiter {
    /// Starts the clock now.
    pub(crate) fn new(budget: Budget) -> Limiter {
        let start = Instant::now();
        Limiter {
            start,
            max_nodes: budget.max_nodes.unwrap_or(u64::MAX),
            deadline: budget.time_limit.map(|t| start + t),
            stop: budget.stop,
            ticks: 0,
            exhausted: false,
        }
    }

    /// Whether the budget is used up after `nodes` nodes (sticky once true).
    #[inline]
    pub(crate) fn out(&mut self, nodes: u64) -> bool {
        if self.exhausted {
            return true;
        }
        if nodes > self.max_nodes {
            self.exhausted = true;
        }
        self.ticks += 1;
        if self.ticks & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.exhausted = true;
                }
            }
            if self.stop.as_ref().is_some_and(|s| s.load(Ordering::Relaxed)) {
                self.exhausted = true;
            }
        }
        self.exhausted
    }

    /// Time since the start.
    pub(crate) fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    /// A budget for the rest of the run, for a sub-search started after `used` nodes.
    pub(crate) fn remaining(&self, used: u64) -> Budget {
        Budget {
            max_nodes: (self.max_nodes != u64::MAX).then(|| self.max_nodes.saturating_sub(used)),
            time_limit: self.deadline.map(|d| d.saturating_duration_since(Instant::now())),
            stop: self.stop,
        }
    }
}
