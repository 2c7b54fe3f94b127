//! Best-move hints from outside the solve: the table of a selective search run to the
//! end just before (the selective ladder, [`crate::selective::ladder`]) names a good move
//! at the positions it stored. The solver searches a hinted move first at nodes with at
//! least `ExactConfig::hint_min_empties` empties where its own table has no move.
//! Ordering only: a hint never changes a value, whatever it says (an illegal or absent
//! hint is ignored).

use crate::table::{table_hash, SearchTable, NO_MOVE};
use std::sync::Arc;

/// The best moves a selective search's table holds, shared by every search thread (it
/// reads the table as it is: later searches on the same table change the hints).
#[derive(Clone)]
pub struct MoveHints {
    source: Source,
}

#[derive(Clone)]
enum Source {
    Table(Arc<SearchTable>),
    /// Any function of the position: the tests' hints that lie.
    #[cfg(test)]
    Function(fn(u64, u64) -> Option<u8>),
}

impl MoveHints {
    /// The hints of `table`: the best move stored for a position, whatever the depth or
    /// selectivity of the search that stored it.
    pub fn from_table(table: Arc<SearchTable>) -> MoveHints {
        MoveHints { source: Source::Table(table) }
    }

    /// Hints computed by `f` (tests: hints that name any square, legal or not).
    #[cfg(test)]
    pub(crate) fn from_function(f: fn(u64, u64) -> Option<u8>) -> MoveHints {
        MoveHints { source: Source::Function(f) }
    }

    /// A move believed best for `p` to move against `o` (square index 0..64), if the
    /// source knows one. May be wrong or illegal; the solver checks legality.
    #[inline]
    pub fn best_move(&self, p: u64, o: u64) -> Option<u8> {
        self.best_move_searched(p, o, 0)
    }

    /// [`Self::best_move`] from a table entry searched at least `min_depth` plies deep
    /// (a shallower entry gives no hint).
    #[inline]
    pub fn best_move_searched(&self, p: u64, o: u64, min_depth: u32) -> Option<u8> {
        match &self.source {
            Source::Table(t) => t
                .probe_entry(table_hash(p, o), p, o)
                .filter(|e| u32::from(e.depth) >= min_depth)
                .map(|e| e.best)
                .filter(|&b| b != NO_MOVE),
            #[cfg(test)]
            Source::Function(f) => f(p, o),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::MoveHints;
    use crate::exact::{solve, SolveOptions};
    use solvo_core::rng::Rng;
    use solvo_othello::{BoardSize, Position, Square, Variant};

    /// Names an arbitrary square (legal or not) at every position.
    fn lying(p: u64, o: u64) -> Option<u8> {
        Some(((p ^ o.rotate_left(7)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as u8)
    }

    #[test]
    fn hints_that_lie_at_every_node_never_change_a_value() {
        let mut rng = Rng::new(23);
        for i in 0..6 {
            let mut pos = Position::start(BoardSize::Eight, Variant::Normal);
            while pos.empties() > 16 && !pos.is_game_over() {
                let moves: Vec<Square> = Square::iter(pos.moves()).collect();
                pos = if moves.is_empty() { pos.passed() } else { pos.play(rng.pick(&moves)).unwrap() };
            }
            let plain = SolveOptions::new(16);
            let expected = solve(&pos, &plain).score();
            for threads in [1, 2] {
                let mut o = SolveOptions::new(16);
                o.threads = threads;
                o.hints = Some(MoveHints::from_function(lying));
                o.config.hint_min_empties = 0;
                assert_eq!(solve(&pos, &o).score(), expected, "position {i}, {threads} threads, lying hints");
            }
        }
    }
}
