//! What a solver found: an exact value, one side of a threshold, or nothing.

use crate::budget::SolverStats;

/// A solver's answer about the root position, from the side to move's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The exact negamax value (alpha-beta solvers).
    Exact(i32),
    /// The value is at least this threshold (proof-number and MCTS solvers: proven).
    AtLeast(i32),
    /// The value is below this threshold (proof-number and MCTS solvers: disproven).
    Below(i32),
    /// The budget ran out (or a repetition made the answer unsafe): nothing is claimed.
    Unknown,
}

impl Verdict {
    /// Whether the side to move wins: `Some(true)` when the value is certainly > 0,
    /// `Some(false)` when it is certainly <= 0 (for win/loss games: a loss), `None` when
    /// unknown or when the verdict does not settle the sign.
    pub fn side_to_move_wins(self) -> Option<bool> {
        match self {
            Verdict::Exact(v) => Some(v > 0),
            Verdict::AtLeast(t) if t >= 1 => Some(true),
            Verdict::Below(t) if t <= 1 => Some(false),
            _ => None,
        }
    }

    /// Whether the verdict settles "value >= threshold" and how.
    pub fn at_least(self, threshold: i32) -> Option<bool> {
        match self {
            Verdict::Exact(v) => Some(v >= threshold),
            Verdict::AtLeast(t) if t >= threshold => Some(true),
            Verdict::Below(t) if t <= threshold => Some(false),
            _ => None,
        }
    }
}

/// The full answer of a solver run.
#[derive(Clone, Debug)]
pub struct SolverAnswer<M> {
    /// What was proven.
    pub verdict: Verdict,
    /// A move of the side to move that achieves the verdict when it is a win (an
    /// exact value's best move, a proving move); `None` when the side to move has no
    /// winning move or nothing was proven.
    pub best_move: Option<M>,
    /// Work done.
    pub stats: SolverStats,
}
