//! Time controls and the time a move may take.
//!
//! A game clock never runs out: each move gets a share of what is left after a
//! reserve, sized by the moves the engine still has to make before the endgame
//! (solved in a fraction of a second, it is planned as one move, and the moves just
//! before it as half a move each): the search aims
//! at that share and stops at a limit of a few times it (the midgame search returns
//! its last completed iteration). The reserve covers the moves' overheads (process
//! scheduling, pipes, a loaded machine: a tenth of the time left and 20 ms a move
//! still to make) so the sum of the moves stays below the time given.

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

/// The time one move may take: the search aims at `target` (it starts no iteration
/// it does not expect to finish near it) and never runs past `limit`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveTime {
    /// The time the move should take.
    pub target: Duration,
    /// The time the move must not exceed; at least `target`.
    pub limit: Duration,
}

impl MoveTime {
    /// A fixed time for the move: aimed at and never exceeded.
    pub const fn fixed(time: Duration) -> MoveTime {
        MoveTime { target: time, limit: time }
    }
}

impl From<Duration> for MoveTime {
    /// [`MoveTime::fixed`].
    fn from(time: Duration) -> MoveTime {
        MoveTime::fixed(time)
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
/// Empty squares from which the endgame is solved in a fraction of a second: the moves
/// after it cost little, so the midgame's moves share the clock with the endgame
/// counted as [`ENDGAME_MOVES`] move. On a clock of 26 s against NTest, solvo spent
/// a few milliseconds a move below 20 empties (`docs/results/clock.md`).
const ENDGAME_EMPTIES: u32 = 20;
/// The moves the endgame from [`ENDGAME_EMPTIES`] is planned as.
const ENDGAME_MOVES: u32 = 1;
/// Empty squares from which a move, though still a midgame search or a proof, is
/// planned as half a move: there the search reaches its deepest depth (the end less
/// one ply) or its proof finishes well before its share. On a clock of 26 s against
/// NTest, solvo used 0.59 of its target at 24-27 empties and 0.26 at 20-23.
const LATE_MIDGAME_EMPTIES: u32 = 27;
/// The most a move may run past its target, as a multiple of it (a search that
/// started an iteration near its target finishes it).
const LIMIT_FACTOR: u32 = 3;

/// The time a move may take with `remaining` on the clock, `increment` added after
/// it, and `empties` empty squares on the board.
///
/// The moves still to plan for are the engine's moves down to [`ENDGAME_EMPTIES`], each
/// from [`LATE_MIDGAME_EMPTIES`] down counted as half a move, and the endgame as
/// [`ENDGAME_MOVES`] move; the target is an equal share of what is left after the
/// reserve (a tenth of `remaining`, at most 1.5 s, plus 20 ms for each move still to
/// make, at most a quarter of `remaining`), plus nine tenths of the increment.
///
/// Guarantees: `target <= limit`; the limit is at most three times the target and at
/// most half of what is left after the reserve plus nine tenths of the increment
/// (never more than the time left after the reserve); the target is at least
/// [`MIN_MOVE`] when twice that much is usable; neither increases when `remaining`
/// decreases. Spending the whole limit on every move keeps the clock positive: each
/// move leaves at least half of what is left.
pub fn allot(remaining: Duration, increment: Duration, empties: u32) -> MoveTime {
    let moves_left = empties.div_ceil(2).max(1);
    let reserve = (remaining / RESERVE_FRACTION).min(MAX_RESERVE) + (PER_MOVE_OVERHEAD * moves_left).min(remaining / 4);
    let usable = remaining.saturating_sub(reserve);
    // The engine's moves with more than `x` empties, this one included.
    let moves_above = |x: u32| empties.saturating_sub(x).div_ceil(2);
    let full = moves_above(LATE_MIDGAME_EMPTIES);
    let half = moves_above(ENDGAME_EMPTIES) - full;
    let planned_halves = 2 * full + half + 2 * ENDGAME_MOVES;
    let bonus = increment * 9 / 10;
    let cap = usable / 2;
    let target = (usable * 2 / planned_halves).min(cap).max(MIN_MOVE.min(cap));
    let limit = (target * LIMIT_FACTOR).min(cap);
    MoveTime { target: (target + bonus).min(usable), limit: (limit + bonus).min(usable) }
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
    pub fn allot(&self, empties: u32) -> MoveTime {
        allot(self.remaining, self.increment, empties)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_spent_at_the_limit_never_runs_out() {
        for total_ms in [50u64, 1000, 60_000, 300_000] {
            for inc_ms in [0u64, 100] {
                let mut remaining = Duration::from_millis(total_ms);
                let inc = Duration::from_millis(inc_ms);
                // The engine's moves, from 60 empties down (it moves every other ply).
                for empties in (1..=60).rev().step_by(2) {
                    let t = allot(remaining, inc, empties);
                    assert!(t.target <= t.limit && t.limit <= t.target * LIMIT_FACTOR, "{t:?}");
                    assert!(t.limit <= remaining, "{total_ms} ms: {t:?} > {remaining:?}");
                    remaining = remaining - t.limit + inc;
                }
                assert!(remaining > Duration::ZERO, "{total_ms} ms + {inc_ms}: ran out");
            }
        }
    }

    #[test]
    fn allotments_shrink_with_the_clock_and_the_clock_charges_moves() {
        let inc = Duration::ZERO;
        let mut last = MoveTime::fixed(Duration::MAX);
        for s in (1..=60).rev() {
            let t = allot(Duration::from_secs(s), inc, 40);
            assert!(t.target <= last.target && t.limit <= last.limit);
            last = t;
        }
        // One minute, 60 empties: about 2.6 s a move (20 midgame moves and the endgame).
        let t = allot(Duration::from_secs(60), inc, 60).target;
        assert!(t > Duration::from_secs(2) && t < Duration::from_secs(3), "{t:?}");
        // The endgame gets what is left: at 20 empties half of it.
        let t = allot(Duration::from_secs(6), inc, 20);
        assert!(
            t.target == t.limit && t.target > Duration::from_millis(2500) && t.target < Duration::from_secs(3),
            "{t:?}"
        );
        let mut c = Clock::new(Duration::from_secs(1), Duration::from_millis(10));
        c.start();
        let (took, flagged) = c.stop();
        assert!(!flagged && c.remaining() + took == Duration::from_millis(1010));
    }
}
