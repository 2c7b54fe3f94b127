//! Best-move hints from outside the solve: a source (typically the table of a selective
//! midgame search run to the end just before, the "selective ladder") that names a
//! good move at a position. The solver searches a hinted move first at nodes with at
//! least `SearchConfig::hint_min_empties` empties where its own table has no move.
//! Ordering only: a hint never changes a value, whatever it says (an illegal or absent
//! hint is ignored).

/// A source of move hints, shared by every search thread.
pub trait MoveHints: Send + Sync {
    /// A move believed best for `p` to move against `o` (square index 0..64), if the
    /// source knows one. May be wrong or illegal; the solver checks legality.
    fn best_move(&self, p: u64, o: u64) -> Option<u8>;
}
