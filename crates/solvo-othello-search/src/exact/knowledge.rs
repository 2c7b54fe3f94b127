//! Proven bounds kept outside the solve: a persistent store read and written at nodes
//! with many empties, so that a long solve killed at any moment resumes without
//! proving again the subtrees it had finished.
//!
//! The solver asks the knowledge for bounds at every node with at least
//! [`Knowledge::min_empties`] empties whose table entry does not settle the window, and
//! tells it each bound it proves there (with the nodes the proof cost, so the source
//! keeps only costly ones). Bounds from the knowledge are used like the table's: a
//! source that returns a wrong bound makes the solve wrong, so only proven bounds of the
//! same board size and variant may be returned.

/// A source and sink of proven bounds, shared by every search thread.
pub trait Knowledge: Send + Sync {
    /// Nodes with fewer empties never ask or tell.
    fn min_empties(&self) -> u32;
    /// Proven `(lower, upper)` bounds of the value of `p` to move against `o` (final
    /// disc difference for the side to move, empties to the winner), if known.
    fn bounds(&self, p: u64, o: u64) -> Option<(i32, i32)>;
    /// The search proved `lower <= value <= upper` for `p` to move against `o` (each
    /// bound may be the open one, `-SCORE_INF + 1` / `SCORE_INF - 1`), at a cost of
    /// `nodes`; `best` is the move that proved the lower bound, when there is one.
    fn proven(&self, p: u64, o: u64, lower: i32, upper: i32, best: Option<u8>, nodes: u64);
}
