//! Every legal move's exact value in one call ([`solve_every_move`]): the children of
//! the root solved over one shared transposition table (what one child proves, its
//! siblings reuse), best guess first, each with an aspiration window around its
//! estimate, on several threads at once (each thread takes the next unsolved move), with
//! one time limit, node budget and stop flag for the whole call. This is what a board
//! showing every move's value needs, and what an OBF line scoring every move states.

use super::solve::{estimate_in_generation, solve_in_generation, SolveOptions, SolveResult, Window};
use solvo_othello::{Position, Square};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// One root move's value, for the side to move at the root.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveBounds {
    /// The move.
    pub square: Square,
    /// Proven lower bound of its value.
    pub lower: i32,
    /// Proven upper bound (`lower == upper`: exact).
    pub upper: i32,
    /// Nodes its solve visited (ordering nodes included).
    pub nodes: u64,
    /// A line of best play starting with the move (passes as `None`) when its value is
    /// exact: every move of it keeps the value; empty otherwise.
    pub pv: Vec<Option<Square>>,
}

impl MoveBounds {
    /// The exact value, if proven.
    pub fn score(&self) -> Option<i32> {
        (self.lower == self.upper).then_some(self.lower)
    }
}

/// What [`solve_every_move`] found.
#[derive(Clone, Debug, Default)]
pub struct EveryMoveResult {
    /// Every legal move solved, exact ones best first, then those a stop left with
    /// bounds only; moves never started are absent.
    pub moves: Vec<MoveBounds>,
    /// Number of legal moves of the position.
    pub legal: u32,
    /// Positions visited, all threads (search and ordering nodes).
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// True when the time limit, the node budget or the stop flag ended the call
    /// before every move was exact.
    pub stopped: bool,
}

impl EveryMoveResult {
    /// True when every legal move has an exact value.
    pub fn all_exact(&self) -> bool {
        self.moves.len() as u32 == self.legal && self.moves.iter().all(|m| m.score().is_some())
    }
}

/// Solves every legal move of `pos` exactly (the value of each move for the side to
/// move), calling `on_move` on the calling thread as each one is settled.
///
/// `guesses` are estimates of moves' values (discs, root side's view; e.g. a midgame
/// search's): moves are solved best guess first, and a move with a guess is solved
/// with a window of `aspiration` discs around it first (0: the whole window). Moves
/// without a guess come last. `options.threads` threads each solve one move at a time
/// (a single move gets them all); `options.time_limit`, `options.node_budget` (nodes of
/// the whole call, counted through `options.progress`) and `options.stop` end the
/// whole call; `options.window` is not used (every value is wanted exactly).
///
/// Guarantees: a move's bounds always hold, and meet (exact value, the one [`solve`]
/// gives its child, negated) unless the call was stopped; a position without legal
/// moves (a pass or a finished game) gives an empty list.
///
/// [`solve`]: super::solve
pub fn solve_every_move(
    pos: &Position,
    options: &SolveOptions,
    guesses: &[(Square, i32)],
    aspiration: i32,
    on_move: &mut dyn FnMut(&MoveBounds),
) -> EveryMoveResult {
    let start = Instant::now();
    let guess_of = |sq: Square| guesses.iter().find(|g| g.0 == sq).map(|g| g.1);
    let mut order: Vec<Square> = Square::iter(pos.moves()).collect();
    order.sort_by_key(|&sq| std::cmp::Reverse(guess_of(sq).map_or(i64::MIN, i64::from)));
    let mut result = EveryMoveResult { legal: order.len() as u32, ..EveryMoveResult::default() };
    if order.is_empty() {
        result.time = start.elapsed();
        return result;
    }
    options.tt.new_generation();
    let threads = options.threads.clamp(1, order.len());
    // One flag the children obey: raised at the deadline, past the node budget, or when
    // the caller's flag is raised (never raised by us on the caller's flag).
    let halt = std::sync::Arc::new(AtomicBool::new(options.stop.load(Ordering::Relaxed)));
    let mut child_options = options.clone();
    child_options.threads = if order.len() == 1 { options.threads } else { 1 };
    child_options.time_limit = None;
    child_options.node_budget = u64::MAX;
    child_options.window = Window::FULL;
    child_options.stop = halt.clone();
    let nodes_before = options.progress.load(Ordering::Relaxed);
    // A stop asked before the call starts no solve at all (the watcher below might
    // otherwise be scheduled only after the first solves finished).
    if options.stop.load(Ordering::Relaxed) {
        halt.store(true, Ordering::Relaxed);
    }
    let next = AtomicUsize::new(0);
    let finished = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel::<(MoveBounds, bool)>();
    std::thread::scope(|scope| {
        let (halt, finished, next, order, child_options) = (&*halt, &finished, &next, &order, &child_options);
        scope.spawn(move || {
            let until = options.time_limit.map(|t| start + t);
            while !finished.load(Ordering::Relaxed) {
                let spent = options.progress.load(Ordering::Relaxed).saturating_sub(nodes_before);
                let late = until.is_some_and(|u| Instant::now() >= u);
                if late || spent >= options.node_budget || options.stop.load(Ordering::Relaxed) {
                    halt.store(true, Ordering::Relaxed);
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
            }
        });
        for _ in 0..threads {
            let tx = tx.clone();
            scope.spawn(move || loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= order.len() || halt.load(Ordering::Relaxed) {
                    break;
                }
                let sq = order[i];
                let child = pos.play(sq).expect("a legal move");
                let r: SolveResult = match guess_of(sq) {
                    Some(g) if aspiration > 0 => estimate_in_generation(&child, child_options, -g, aspiration, false),
                    _ => solve_in_generation(&child, child_options, false),
                };
                let pv = if r.lower == r.upper && !r.pv.is_empty() {
                    std::iter::once(Some(sq)).chain(r.pv).collect()
                } else {
                    Vec::new()
                };
                let bounds =
                    MoveBounds { square: sq, lower: -r.upper, upper: -r.lower, nodes: r.nodes + r.ordering_nodes, pv };
                if tx.send((bounds, r.stopped)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (bounds, stopped) in rx {
            result.nodes += bounds.nodes;
            result.stopped |= stopped || bounds.score().is_none();
            on_move(&bounds);
            result.moves.push(bounds);
        }
        finished.store(true, Ordering::Relaxed);
    });
    result.stopped |= !result.all_exact();
    result.moves.sort_by_key(|m| (m.score().is_none(), std::cmp::Reverse(m.lower)));
    result.time = start.elapsed();
    result
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exact::solve::solve;
    use solvo_othello::formats::transcript::parse_transcript;
    use solvo_othello::{BoardSize, Variant};

    /// A 14-empty position of a real game (the first legal move played after its 37th).
    fn position() -> Position {
        let t = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8";
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let mut pos = parse_transcript(t, &start).unwrap().end();
        while pos.empties() > 14 {
            pos = match Square::iter(pos.moves()).next() {
                Some(m) => pos.play(m).unwrap(),
                None => pos.passed(),
            };
        }
        pos
    }

    #[test]
    fn every_value_equals_the_solve_of_its_child_on_one_and_two_threads() {
        let pos = position();
        let expected: Vec<(Square, i32)> = Square::iter(pos.moves())
            .map(|sq| (sq, -solve(&pos.play(sq).unwrap(), &SolveOptions::new(4)).score().unwrap()))
            .collect();
        for threads in [1, 2] {
            for (guesses, aspiration) in [(vec![], 0), (expected.iter().map(|&(s, v)| (s, v + 3)).collect(), 2)] {
                let mut options = SolveOptions::new(4);
                options.threads = threads;
                let mut seen = 0;
                let r = solve_every_move(&pos, &options, &guesses, aspiration, &mut |_| seen += 1);
                assert!(r.all_exact() && !r.stopped && seen == expected.len());
                for (sq, v) in &expected {
                    assert_eq!(r.moves.iter().find(|m| m.square == *sq).unwrap().score(), Some(*v), "{sq}");
                }
                assert!(r.moves.windows(2).all(|w| w[0].lower >= w[1].lower), "best first");
            }
        }
    }

    #[test]
    fn each_exact_move_comes_with_a_line_to_the_end_that_scores_its_value() {
        let pos = position();
        let r = solve_every_move(&pos, &SolveOptions::new(4), &[], 0, &mut |_| {});
        assert!(r.all_exact());
        for m in &r.moves {
            assert_eq!(m.pv.first(), Some(&Some(m.square)), "{m:?}");
            let (mut p, mut ours) = (pos, true);
            for ply in &m.pv {
                p = match ply {
                    Some(sq) => p.play(*sq).unwrap_or_else(|| panic!("{sq} illegal in the line {m:?}")),
                    None => {
                        assert_eq!(p.moves(), 0, "a pass with moves in the line {m:?}");
                        p.passed()
                    }
                };
                ours = !ours;
            }
            assert!(p.is_game_over(), "the line {m:?} stops before the end");
            let score = if ours { p.final_score() } else { -p.final_score() };
            assert_eq!(Some(score), m.score(), "{m:?}");
        }
    }

    #[test]
    fn a_budget_or_a_stop_ends_the_call_with_bounds_that_hold() {
        let pos = position();
        let mut options = SolveOptions::new(4);
        options.node_budget = 2_000;
        let r = solve_every_move(&pos, &options, &[], 0, &mut |_| {});
        // The budget is watched every millisecond: on a loaded machine the solves (about
        // 0.2 M nodes) may all finish before the watcher runs, and then every value is exact.
        assert!((r.stopped || r.all_exact()) && r.nodes < 2_000_000, "{r:?}");
        for m in &r.moves {
            let exact = -solve(&pos.play(m.square).unwrap(), &SolveOptions::new(4)).score().unwrap();
            assert!(m.lower <= exact && exact <= m.upper, "{m:?} {exact}");
        }
        options.node_budget = u64::MAX;
        options.stop.store(true, Ordering::Relaxed);
        let r = solve_every_move(&pos, &options, &[], 0, &mut |_| {});
        assert!(r.stopped && !r.all_exact());
    }
}
