//! Proofs that outlive a run: the interface through which an alpha-beta solve reads the
//! positions earlier runs proved and hands over the ones it proves, so that a solve of
//! hours killed at any moment resumes without redoing proven subtrees.
//!
//! Only horizon-free results pass through it (true bounds of the game value, whatever
//! algorithm or window found them), keyed as the transposition table is (by
//! [`solvo_core::Game::hash_key`]). The storage behind it (a database file) lives in a
//! crate above this one.

use crate::tt::Bound;

/// Subtrees cheaper than this many nodes are not worth recording: redoing them costs
/// less than storing them.
pub const MIN_RECORD_NODES: u64 = 1 << 10;

/// What a [`ProvenPositions`] reports at a checkpoint.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofProgress {
    /// Nodes searched so far by this run.
    pub nodes: u64,
    /// Proven positions known (loaded and recorded).
    pub proven: u64,
    /// Proven positions recorded by this run.
    pub recorded: u64,
    /// Look-ups by this run that found a proven position (it replaces a search where
    /// its bound settles the window asked).
    pub reused: u64,
}

/// Proven positions: read before searching a node, written after proving one.
pub trait ProvenPositions: Send {
    /// The proven bound of the position with key `key`, if any: `value` as `bound`,
    /// from the side to move's point of view.
    fn proven(&mut self, key: u64) -> Option<(i32, Bound)>;

    /// Records that the position with key `key` is worth `value` as `bound` (a
    /// horizon-free result of `nodes` nodes of search).
    fn record(&mut self, key: u64, value: i32, bound: Bound, nodes: u64);

    /// Called every few thousand nodes with the run's node count: a chance to make the
    /// records durable and report progress. `false` stops the search (its result is
    /// then unknown), e.g. when the records can no longer be written.
    fn checkpoint(&mut self, nodes: u64) -> bool;

    /// Called by the search that reads these proofs about each move of the root it has
    /// settled: `mv` (the move as the game's `Debug` writes it), the child's value from
    /// the root side's point of view as `bound`, and the nodes its search took (`0`: read
    /// here before searching). Long solves report with it which first moves are decided.
    /// The default ignores it.
    fn root_move(&mut self, mv: &str, value: i32, bound: Bound, nodes: u64) {
        let _ = (mv, value, bound, nodes);
    }
}
