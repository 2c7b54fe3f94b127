//! Weak solving: the game-theoretic value of the start and a principal variation that
//! realises it, proven by the exact solver. Symmetric first moves are searched once.
//! With a guessed value the solve is one search with the window `[guess, guess]`
//! (prove `>= guess` and `<= guess` at once); if the guess is wrong, the bound it
//! returned narrows a second, exact search.

use solvo_othello::{BoardSize, Position, Square, Variant};
use solvo_othello_search::{solve, SolveOptions, SolveResult, Window};
use std::time::Duration;

/// One search of a weak solve.
#[derive(Clone, Debug)]
pub struct SolveStep {
    /// The start's move whose resulting position was searched.
    pub root_move: Option<Square>,
    /// The window searched (for the position searched, i.e. the opponent's view).
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

/// Solves `pos` exactly, first inside `window` (a guess), then, if the value is
/// outside, inside the bound the first search returned. Every search is recorded.
fn solve_exact(
    pos: &Position,
    base: &SolveOptions,
    mut window: Window,
    root_move: Option<Square>,
    steps: &mut Vec<SolveStep>,
) -> Result<SolveResult, String> {
    let max = pos.size.squares() as i32;
    loop {
        let r = solve_step(pos, base, window, root_move, steps)?;
        if r.score().is_some() {
            return Ok(r);
        }
        window = Window { lo: r.lower.max(-max), hi: r.upper.min(max) };
    }
}

/// One recorded search of `pos` inside `window`.
fn solve_step(
    pos: &Position,
    base: &SolveOptions,
    window: Window,
    root_move: Option<Square>,
    steps: &mut Vec<SolveStep>,
) -> Result<SolveResult, String> {
    let mut opts = base.clone();
    opts.window = window;
    let r = solve(pos, &opts);
    steps.push(SolveStep { root_move, window, lower: r.lower, upper: r.upper, nodes: r.nodes, time: r.time });
    if r.stopped {
        return Err(format!("the solve was stopped with the value in [{}, {}]", r.lower, r.upper));
    }
    Ok(r)
}

/// Weakly solves the start of `size` under `variant` with the threads, table and stop
/// flag of `base` (its window is ignored). `guess` is an expected value (even on every
/// size, since the board has an even number of squares); a wrong guess costs a second
/// search, never a wrong answer. Errors only if the solve was stopped or the principal
/// variation does not replay to the value (a solver bug).
///
/// The start's moves are grouped by the canonical form of the position they lead to
/// and only one move per group is searched: on the standard start all four first moves
/// are symmetric, so one child is solved instead of proving three siblings no better
/// (the solver's table does not know symmetries). The first child is solved inside the
/// guess; each further distinct child only has to be proven no better (a null window
/// at the best value so far) and is solved exactly if it is better.
pub fn weak_solve(
    size: BoardSize,
    variant: Variant,
    base: &SolveOptions,
    guess: Option<i32>,
) -> Result<WeakSolution, String> {
    let start = Position::start(size, variant);
    let max = size.squares() as i32;
    let mut steps = Vec::new();
    let guess_window = |g: Option<i32>| match g {
        Some(g) => Window { lo: g.clamp(-max, max), hi: g.clamp(-max, max) },
        None => Window { lo: -max, hi: max },
    };
    // One representative move per distinct child position.
    let mut seen = Vec::new();
    let mut children = Vec::new();
    for sq in Square::iter(start.moves()) {
        let child = start.play(sq).expect("legal move");
        let canon = child.board.canonical();
        if !seen.contains(&canon) {
            seen.push(canon);
            children.push((sq, child));
        }
    }
    let mut best: Option<(i32, Square, SolveResult)> = None;
    for (sq, child) in children {
        match &best {
            None => {
                let r = solve_exact(&child, base, guess_window(guess.map(|g| -g)), Some(sq), &mut steps)?;
                best = Some((-r.lower, sq, r));
            }
            Some((b, _, _)) => {
                // Better only if value(child) <= -b - 1.
                let b = *b;
                let r = solve_step(&child, base, Window { lo: -b - 1, hi: -b - 1 }, Some(sq), &mut steps)?;
                if r.upper < -b {
                    let r = solve_exact(&child, base, Window { lo: -max, hi: -b - 1 }, Some(sq), &mut steps)?;
                    best = Some((-r.lower, sq, r));
                }
            }
        }
    }
    let (value, first, last) = best.ok_or("the start position has no legal move")?;
    let mut pv = vec![Some(first)];
    pv.extend(last.pv.iter().copied());
    let (black, white, score) =
        replay_to_end(&start, &pv).ok_or("the principal variation does not replay to the end of a game")?;
    if score != value {
        return Err(format!("the principal variation ends {score:+}, not the proven value {value:+}"));
    }
    Ok(WeakSolution { start, value, pv, final_discs: (black, white), steps, last })
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
            assert_eq!(w.pv.len(), 10);
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
