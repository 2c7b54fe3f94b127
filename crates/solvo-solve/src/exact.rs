//! Exact values by narrow-window endgame solves (MTD(f)-like): on 6x6 a full-window
//! solve costs tens of times a narrow one, so the exact value is found by windows of
//! width one around a guess moved to the fail-soft bound each time, then a last
//! window at the value gives the best move.

use solvo_othello::{Position, Square};
use solvo_othello_search::{solve, SolveOptions, Window};

/// Exact value (side to move), a best move (`None` when the side to move must pass or
/// the game is over) and the solver nodes spent. `opts.window` is overwritten.
pub fn exact_value(pos: &Position, opts: &mut SolveOptions) -> (i32, Option<Square>, u64) {
    exact_value_from(pos, opts, 0)
}

/// [`exact_value`] starting from `guess` (clamped to the board's range): when the guess
/// is the value, one narrow solve gives the value and a best move; a guess near the
/// value saves windows. The result never depends on the guess, only the cost does.
/// If a budget or the stop flag of `opts` ends a solve first, the result is the lower
/// bound proven so far (not exact): callers that set either use
/// [`exact_value_or_stop`].
pub fn exact_value_from(pos: &Position, opts: &mut SolveOptions, guess: i32) -> (i32, Option<Square>, u64) {
    exact_value_or_stop(pos, opts, guess).unwrap_or_else(|stopped| (stopped.lower, None, stopped.nodes))
}

/// Where a stopped [`exact_value_or_stop`] got to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stopped {
    /// The proven lower bound.
    pub lower: i32,
    /// The proven upper bound.
    pub upper: i32,
    /// Solver nodes spent.
    pub nodes: u64,
}

/// [`exact_value_from`], or the bounds proven so far when a budget or the stop flag of
/// `opts` ends a solve first (it never loops on a stopped solve).
pub fn exact_value_or_stop(
    pos: &Position,
    opts: &mut SolveOptions,
    guess: i32,
) -> Result<(i32, Option<Square>, u64), Stopped> {
    let max = pos.size.squares() as i32;
    let (mut lo, mut hi) = (-max, max);
    let mut guess = guess;
    let mut nodes = 0;
    loop {
        let g = guess.clamp(lo, hi);
        opts.window = Window { lo: g, hi: g };
        let r = solve(pos, opts);
        nodes += r.nodes;
        if r.lower == r.upper {
            return Ok((r.lower, r.best_move, nodes));
        }
        if r.stopped {
            return Err(Stopped { lower: lo.max(r.lower), upper: hi.min(r.upper), nodes });
        }
        lo = lo.max(r.lower);
        hi = hi.min(r.upper);
        if lo >= hi {
            // Bounds met without a solve at the value: one more for the best move.
            opts.window = Window { lo, hi: lo };
            let r = solve(pos, opts);
            return Ok((lo, r.best_move, nodes + r.nodes));
        }
        guess = if r.lower > g { r.lower } else { r.upper };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::{BoardSize, Variant};

    #[test]
    fn agrees_with_full_window_solves() {
        let mut opts = SolveOptions::new(16);
        let mut pos = Position::start(BoardSize::Four, Variant::Normal);
        let mut seen = 0;
        while !pos.is_game_over() {
            let full = solve(&pos, &SolveOptions::new(16));
            let (v, m, _) = exact_value(&pos, &mut opts);
            assert_eq!(Some(v), full.score());
            if let Some(m) = m {
                let child = pos.play(m).unwrap();
                let cv = solve(&child, &SolveOptions::new(16)).score().unwrap();
                assert_eq!(-cv, v, "best move {m} attains the value");
            }
            pos = match Square::iter(pos.moves()).last() {
                Some(m) => pos.play(m).unwrap(),
                None => pos.passed(),
            };
            seen += 1;
        }
        assert!(seen > 8);
    }

    #[test]
    fn any_guess_gives_the_same_value() {
        let pos = Position::start(BoardSize::Four, Variant::Normal);
        let mut opts = SolveOptions::new(16);
        for guess in [-100, -16, -10, -3, 0, 7, 16, 100] {
            let (v, m, _) = exact_value_from(&pos, &mut opts, guess);
            assert_eq!(v, -10, "guess {guess}");
            assert!(m.is_some());
        }
    }
}
