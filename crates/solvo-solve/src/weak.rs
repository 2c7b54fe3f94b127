//! Weak solving: the game-theoretic value of the start and a principal variation that
//! realises it, proven by the exact solver. With a guessed value the solve is one
//! search with the window `[guess, guess]` (prove `>= guess` and `<= guess` at once);
//! if the guess is wrong, the bound it returned narrows a second, exact search.

use solvo_endgame::{solve, SolveOptions, SolveResult, Window};
use solvo_othello::{BoardSize, Position, Square, Variant};
use std::time::Duration;

/// One search of a weak solve.
#[derive(Clone, Debug)]
pub struct SolveStep {
    /// The window searched.
    pub window: Window,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// Nodes searched (all threads).
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
}

/// The weak solution of a board's start position.
#[derive(Clone, Debug)]
pub struct WeakSolution {
    /// The start position solved.
    pub start: Position,
    /// Value for the side to move at the start (black): final disc difference with
    /// the empty squares given to the winner.
    pub value: i32,
    /// A principal variation from the start to the end of the game (passes as `None`),
    /// replayed and checked: it is legal and ends with exactly `value`.
    pub pv: Vec<Option<Square>>,
    /// Final discs (black, white) at the end of the principal variation.
    pub final_discs: (u32, u32),
    /// The searches made, in order.
    pub steps: Vec<SolveStep>,
    /// The last solve's full result (TT statistics and so on).
    pub last: SolveResult,
}

impl WeakSolution {
    /// Total nodes of all searches: the size of the alpha-beta proof tree searched.
    pub fn nodes(&self) -> u64 {
        self.steps.iter().map(|s| s.nodes).sum()
    }

    /// Total wall time of all searches.
    pub fn time(&self) -> Duration {
        self.steps.iter().map(|s| s.time).sum()
    }
}

/// Replays `pv` from `start`: `Some((black discs, white discs, black's final score))`
/// when every ply is legal (passes exactly where forced) and the game is over at the
/// end, `None` otherwise.
pub fn replay_to_end(start: &Position, pv: &[Option<Square>]) -> Option<(u32, u32, i32)> {
    let mut pos = *start;
    for ply in pv {
        pos = match ply {
            Some(sq) => pos.play(*sq)?,
            None if pos.moves() == 0 && !pos.is_game_over() => pos.passed(),
            None => return None,
        };
    }
    pos.is_game_over().then(|| (pos.black().count_ones(), pos.white().count_ones(), pos.black_score()))
}

/// Weakly solves the start of `size` under `variant` with the threads, table and stop
/// flag of `base` (its window is ignored). `guess` is an expected value (even on every
/// size, since the board has an even number of squares); a wrong guess costs a second
/// search, never a wrong answer. Errors only if the solve was stopped or the principal
/// variation does not replay to the value (a solver bug).
pub fn weak_solve(
    size: BoardSize,
    variant: Variant,
    base: &SolveOptions,
    guess: Option<i32>,
) -> Result<WeakSolution, String> {
    let start = Position::start(size, variant);
    let max = size.squares() as i32;
    let mut steps = Vec::new();
    let mut window = match guess {
        Some(g) => Window { lo: g.clamp(-max, max), hi: g.clamp(-max, max) },
        None => Window { lo: -max, hi: max },
    };
    let last = loop {
        let mut opts = base.clone();
        opts.window = window;
        let r = solve(&start, &opts);
        steps.push(SolveStep { window, lower: r.lower, upper: r.upper, nodes: r.nodes, time: r.time });
        if r.stopped {
            return Err(format!("the solve was stopped with the value in [{}, {}]", r.lower, r.upper));
        }
        if r.score().is_some() {
            break r;
        }
        // Outside the guessed window: search the side the bound points to, exactly.
        window = Window { lo: r.lower.max(-max), hi: r.upper.min(max) };
    };
    let value = last.lower;
    let (black, white, score) =
        replay_to_end(&start, &last.pv).ok_or("the principal variation does not replay to the end of a game")?;
    if score != value {
        return Err(format!("the principal variation ends {score:+}, not the proven value {value:+}"));
    }
    Ok(WeakSolution { start, value, pv: last.pv.clone(), final_discs: (black, white), steps, last })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn four_by_four_is_a_ten_disc_loss_for_black_with_any_guess() {
        for guess in [None, Some(-10), Some(0), Some(-16), Some(16)] {
            let w = weak_solve(BoardSize::Four, Variant::Normal, &SolveOptions::new(4), guess).unwrap();
            assert_eq!(w.value, -10, "guess {guess:?}");
            assert_eq!(w.final_discs, (3, 11));
            assert!(w.nodes() > 0);
            assert_eq!(w.steps.len(), if guess == Some(-10) || guess.is_none() { 1 } else { 2 });
        }
    }

    #[test]
    fn replay_rejects_illegal_or_unfinished_lines() {
        let start = Position::start(BoardSize::Four, Variant::Normal);
        assert!(replay_to_end(&start, &[]).is_none());
        assert!(replay_to_end(&start, &[None]).is_none());
        assert!(replay_to_end(&start, &[Square::parse("c3")]).is_none());
    }
}
