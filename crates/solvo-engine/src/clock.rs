//! Time controls and the time a move may take.
//!
//! A game clock never runs out: each move gets a share of what is left after a
//! reserve, sized by the moves the engine still has to make (half the empties), and
//! the search stops at that share (the midgame search returns its last completed
//! iteration). The reserve covers the moves' overheads (process scheduling, pipes,
//! a loaded machine: a tenth of the time left and 20 ms a move still to make) so the
//! sum of the shares stays below the time given.

use std::time::{Duration, Instant};

/// How much time the engine may think.
#[derive(Clone, Copy, Debug, PartialEq, Default)]
pub enum TimeControl {
    /// No time limit: the level alone decides (fixed depth).
    #[default]
    None,
    /// At most this long for each move.
    PerMove(Duration),
    /// A clock for the whole game: `total` at the start, plus `increment` after each
    /// of the engine's moves.
    PerGame {
        /// Time for the whole game.
        total: Duration,
        /// Time added after each move.
        increment: Duration,
    },
}

impl TimeControl {
    /// A fresh clock for one side of a game under this control: `Some` for
    /// [`TimeControl::PerGame`] only.
    pub fn new_clock(&self) -> Option<Clock> {
        match *self {
            TimeControl::PerGame { total, increment } => Some(Clock::new(total, increment)),
            _ => None,
        }
    }
}

/// Share of the remaining time kept back (never planned for).
const RESERVE_FRACTION: u32 = 10;
/// Most time kept back.
const MAX_RESERVE: Duration = Duration::from_millis(1500);
/// Least time a move is given (the search always completes depth 1).
const MIN_MOVE: Duration = Duration::from_millis(5);
/// Time kept back for each move still to make: what a move costs beyond its search
/// (pipes, process scheduling, a loaded machine), at most a quarter of what is left.
const PER_MOVE_OVERHEAD: Duration = Duration::from_millis(20);

/// The time a move may take with `remaining` on the clock, `increment` added after
/// it, and `empties` empty squares on the board.
///
/// Guarantees: the result is at most half of `remaining` after the reserve (a tenth
/// of `remaining`, at most 1.5 s, plus 20 ms for each move still to make, at most a
/// quarter of `remaining`), plus nine tenths of the increment, and never more than the time left after the
/// reserve; at least
/// [`MIN_MOVE`] when twice that much is usable; it does not increase when `remaining`
/// decreases. Spending exactly the allotted time on every move keeps the clock
/// positive: each allotment leaves at least half of what is left.
pub fn allot(remaining: Duration, increment: Duration, empties: u32) -> Duration {
    let moves_left = empties.div_ceil(2).max(1);
    let reserve = (remaining / RESERVE_FRACTION).min(MAX_RESERVE) + (PER_MOVE_OVERHEAD * moves_left).min(remaining / 4);
    let usable = remaining.saturating_sub(reserve);
    // The engine makes about half of the remaining moves; the midgame deserves more
    // than the last plies (solved exactly and fast), so plan for a few extra moves.
    let my_moves = moves_left + 2;
    let share = (usable / my_moves * 3 / 2).min(usable / 2);
    let bonus = increment * 9 / 10;
    (share.max(MIN_MOVE.min(usable / 2)) + bonus).min(usable)
}

/// One side's clock in a game with a [`TimeControl::PerGame`] time control: the time
/// left, charged with the time each move took.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Clock {
    remaining: Duration,
    increment: Duration,
    started: Option<Instant>,
}

impl Clock {
    /// A clock with `total` left and `increment` added after each move.
    pub fn new(total: Duration, increment: Duration) -> Clock {
        Clock { remaining: total, increment, started: None }
    }

    /// The time left (not counting a move being thought about).
    pub fn remaining(&self) -> Duration {
        self.remaining
    }

    /// Sets the time left (as a GUI's `time_left` says); a move in progress keeps
    /// running.
    pub fn set_remaining(&mut self, remaining: Duration) {
        self.remaining = remaining;
    }

    /// The increment added after each move.
    pub fn increment(&self) -> Duration {
        self.increment
    }

    /// Starts timing a move.
    pub fn start(&mut self) {
        self.started = Some(Instant::now());
    }

    /// Stops timing the move: charges its time and adds the increment. Returns the
    /// time the move took, and whether the clock ran out (time left went below zero
    /// before the increment).
    pub fn stop(&mut self) -> (Duration, bool) {
        let took = self.started.take().map_or(Duration::ZERO, |t| t.elapsed());
        let flagged = took > self.remaining;
        self.remaining = self.remaining.saturating_sub(took) + self.increment;
        (took, flagged)
    }

    /// The time the next move may take with `empties` empty squares ([`allot`]).
    pub fn allot(&self, empties: u32) -> Duration {
        allot(self.remaining, self.increment, empties)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_spent_at_the_allotment_never_runs_out() {
        for total_ms in [50u64, 1000, 60_000, 300_000] {
            for inc_ms in [0u64, 100] {
                let mut remaining = Duration::from_millis(total_ms);
                let inc = Duration::from_millis(inc_ms);
                // The engine's moves, from 60 empties down (it moves every other ply).
                for empties in (1..=60).rev().step_by(2) {
                    let t = allot(remaining, inc, empties);
                    assert!(t <= remaining, "{total_ms} ms: {t:?} > {remaining:?}");
                    remaining = remaining - t + inc;
                }
                assert!(remaining > Duration::ZERO, "{total_ms} ms + {inc_ms}: ran out");
            }
        }
    }

    #[test]
    fn allotments_shrink_with_the_clock_and_the_clock_charges_moves() {
        let inc = Duration::ZERO;
        let mut last = Duration::MAX;
        for s in (1..=60).rev() {
            let t = allot(Duration::from_secs(s), inc, 40);
            assert!(t <= last);
            last = t;
        }
        // One minute, 60 empties: about 3 s a move.
        let t = allot(Duration::from_secs(60), inc, 60);
        assert!(t > Duration::from_secs(2) && t < Duration::from_secs(5), "{t:?}");
        let mut c = Clock::new(Duration::from_secs(1), Duration::from_millis(10));
        c.start();
        let (took, flagged) = c.stop();
        assert!(!flagged && c.remaining() + took == Duration::from_millis(1010));
    }
}
