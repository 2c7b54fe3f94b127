//! Small boards (6x6, 4x4) when an exact answer is beyond the question's reach (the
//! level's or the time's): an estimate by iterative deepening on the board's trained
//! evaluation (mobility and corners where the build has no weights for the size and
//! variant). A deadline or the stop flag ends it within a few thousand nodes, and the
//! last completed depth answers (depth 1 always completes).

use solvo_othello::flips::flips;
use solvo_othello::moves::legal_moves;
use solvo_othello::rules::Rules;
use solvo_othello::{Position, Square};
use solvo_othello_search::{eval_alphabeta, mobility_eval, EvalChild, EvalSearch, OrderingEval, TrainedEval};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Nodes between two looks at the clock and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Above every value an evaluation or a final score takes.
const INF: i32 = i32::MAX / 4;
/// Mobility units of one disc (a finished game scores its result this much a disc).
const MOBILITY_PER_DISC: i32 = 64;

/// [`mobility_eval`] at the leaves; a finished game is its final score under the rules
/// (empties to the winner, negated when reversed), [`MOBILITY_PER_DISC`] a disc.
struct Mobility<'a>(&'a Rules);

impl OrderingEval for Mobility<'_> {
    fn leaf(&self, p: u64, o: u64) -> i32 {
        mobility_eval(p, o, self.0)
    }
    fn terminal(&self, p: u64, o: u64) -> i32 {
        self.0.final_score(p, o) * MOBILITY_PER_DISC
    }
}

/// What an estimate found at its last completed depth.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Estimate {
    /// The move to play (`None`: the side to move must pass).
    pub best_move: Option<Square>,
    /// The value for the side to move, in discs.
    pub score: f64,
    /// The depth completed (plies, a pass counts as one).
    pub depth: u32,
    /// With `all_moves`, every legal move's value in discs, best first; else the best
    /// move's alone.
    pub move_scores: Vec<(Square, f64)>,
    /// Positions visited, the abandoned iteration's included.
    pub nodes: u64,
    /// True when a deadline or the stop flag ended it before `max_depth`.
    pub stopped: bool,
    /// True when the last depth reached the end of the game on every line searched:
    /// the best move's value is then the exact one.
    pub exact: bool,
}

/// How far and how long an estimate may search.
pub(crate) struct EstimateLimits<'a> {
    /// Deepest iteration (the search stops deepening once it reaches the end of the game
    /// everywhere).
    pub max_depth: u32,
    /// No new node after this instant (depth 1 excepted).
    pub deadline: Option<Instant>,
    /// Raised: stop as at the deadline.
    pub stop: &'a AtomicBool,
    /// Stop as at the deadline after about this many nodes (depth 1 excepted).
    pub nodes: Option<u64>,
    /// Every move's value (a full window for each), not only the best move's.
    pub all_moves: bool,
}

/// The estimate of `pos` (a position with moves; a pass is estimated after it) under
/// `limits`; `on_iteration` sees each completed depth.
pub(crate) fn estimate(pos: &Position, limits: &EstimateLimits, on_iteration: &mut dyn FnMut(&Estimate)) -> Estimate {
    let rules = Rules::new(pos.size, pos.variant);
    match solvo_eval::embedded_for(pos.size, pos.variant) {
        Ok(w) => iterate(pos, &TrainedEval(w, &rules), solvo_eval::SCALE, &rules, limits, on_iteration),
        Err(_) => iterate(pos, &Mobility(&rules), MOBILITY_PER_DISC, &rules, limits, on_iteration),
    }
}

/// A fail-soft alpha-beta that gives up (its value then meaningless) at the deadline
/// or on a stop.
struct Search<'a, E> {
    eval: &'a E,
    mask: u64,
    deadline: Option<Instant>,
    stop: &'a AtomicBool,
    node_limit: u64,
    nodes: u64,
    aborted: bool,
    /// True once a leaf was evaluated (not every line reached the end of the game).
    evaluated: bool,
}

impl<E: OrderingEval> EvalSearch for Search<'_, E> {
    const ORDERS: bool = true;

    #[inline]
    fn leaf(&mut self, p: u64, o: u64) -> i32 {
        self.evaluated = true;
        self.eval.leaf(p, o)
    }
    #[inline]
    fn terminal(&mut self, p: u64, o: u64) -> i32 {
        self.eval.terminal(p, o)
    }
    #[inline]
    fn visit(&mut self) -> bool {
        self.nodes += 1;
        if !self.aborted && self.nodes.is_multiple_of(CHECK_EVERY) {
            self.aborted = self.stop.load(Ordering::Relaxed)
                || self.nodes >= self.node_limit
                || self.deadline.is_some_and(|d| Instant::now() >= d);
        }
        self.aborted
    }
    /// The children leaving the opponent fewest replies first (from 3 plies up).
    fn order(&mut self, depth: u32, children: &mut [EvalChild]) {
        if depth > 2 {
            for c in children.iter_mut() {
                c.key = legal_moves(c.player, c.opponent, self.mask).count_ones() as i32;
            }
            children.sort_unstable_by_key(|c| c.key);
        }
    }
}

impl<E: OrderingEval> Search<'_, E> {
    fn negamax(&mut self, p: u64, o: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
        let mask = self.mask;
        eval_alphabeta(self, p, o, mask, depth, alpha, beta)
    }
}

fn iterate<E: OrderingEval>(
    pos: &Position,
    eval: &E,
    per_disc: i32,
    rules: &Rules,
    limits: &EstimateLimits,
    on_iteration: &mut dyn FnMut(&Estimate),
) -> Estimate {
    if pos.moves() == 0 && !pos.is_game_over() {
        let mut after = iterate(&pos.passed(), eval, per_disc, rules, limits, on_iteration);
        after.best_move = None;
        after.score = -after.score;
        after.move_scores.clear();
        return after;
    }
    let discs = |v: i32| f64::from(v) / f64::from(per_disc);
    let (p, o) = (pos.board.player, pos.board.opponent);
    let mut order: Vec<(Square, i32)> = Square::iter(pos.moves()).map(|sq| (sq, 0)).collect();
    let mut search = Search {
        eval,
        mask: rules.mask,
        deadline: None,
        stop: limits.stop,
        node_limit: u64::MAX,
        nodes: 0,
        aborted: false,
        evaluated: false,
    };
    let mut found = Estimate {
        best_move: order.first().map(|m| m.0),
        score: discs(if order.is_empty() { eval.terminal(p, o) } else { 0 }),
        depth: 0,
        move_scores: Vec::new(),
        nodes: 0,
        stopped: false,
        exact: order.is_empty(),
    };
    let max_depth = limits.max_depth.max(1);
    let start = Instant::now();
    for depth in 1..=max_depth {
        if order.is_empty() {
            break;
        }
        // Depth 1 always completes; a later depth starts only while less than half of
        // the time is spent (the next one costs more than all before it).
        if depth > 1 {
            search.deadline = limits.deadline;
            search.node_limit = limits.nodes.unwrap_or(u64::MAX);
            let half_spent = limits.deadline.is_some_and(|d| {
                let now = Instant::now();
                now >= d || now - start >= (d - now)
            });
            if half_spent || search.nodes >= search.node_limit || limits.stop.load(Ordering::Relaxed) {
                found.stopped = true;
                break;
            }
        }
        let mut scores: Vec<(Square, i32)> = Vec::with_capacity(order.len());
        let mut alpha = -INF;
        search.evaluated = false;
        for &(sq, _) in &order {
            let x = sq.index();
            let f = flips(x, p, o);
            let (cp, co) = (o ^ f, p ^ f ^ (1 << x));
            let upper = if limits.all_moves { INF } else { -alpha };
            let v = -search.negamax(cp, co, depth - 1, -INF, upper);
            if search.aborted {
                break;
            }
            alpha = alpha.max(v);
            scores.push((sq, v));
        }
        if search.aborted {
            found.stopped = true;
            break;
        }
        // Stable: among equal values the earlier (better last time) stays first.
        scores.sort_by_key(|s| std::cmp::Reverse(s.1));
        order = scores;
        found.best_move = Some(order[0].0);
        found.score = discs(order[0].1);
        found.depth = depth;
        let shown = if limits.all_moves { order.len() } else { 1 };
        found.move_scores = order[..shown].iter().map(|&(sq, v)| (sq, discs(v))).collect();
        found.nodes = search.nodes;
        found.exact = !search.evaluated;
        on_iteration(&found);
        if found.exact {
            break;
        }
    }
    found.nodes = search.nodes;
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::{BoardSize, Variant};
    use std::time::Duration;

    #[test]
    fn an_estimate_reaches_its_depth_or_stops_at_the_deadline_with_a_legal_move() {
        let stop = AtomicBool::new(false);
        for (size, variant) in [(BoardSize::Six, Variant::Normal), (BoardSize::Six, Variant::Reversed)] {
            let pos = Position::start(size, variant);
            let limits = EstimateLimits { max_depth: 4, deadline: None, stop: &stop, nodes: None, all_moves: true };
            let mut iterations = 0;
            let e = estimate(&pos, &limits, &mut |_| iterations += 1);
            assert_eq!((e.depth, iterations, e.stopped), (4, 4, false), "{size} {variant:?}");
            assert_eq!(e.move_scores.len(), 4);
            assert!(pos.moves() & e.best_move.unwrap().bit() != 0);
            // No depth limit, 100 ms: stopped by the deadline, soon after it.
            let t = Instant::now();
            let deadline = Some(t + Duration::from_millis(100));
            let limits = EstimateLimits { max_depth: 60, deadline, stop: &stop, nodes: None, all_moves: false };
            let e = estimate(&pos, &limits, &mut |_| {});
            assert!(e.stopped && e.depth >= 1 && t.elapsed() < Duration::from_secs(2), "{e:?}");
            assert!(pos.moves() & e.best_move.unwrap().bit() != 0);
        }
        // A node limit: stopped soon after it.
        let pos = Position::start(BoardSize::Six, Variant::Normal);
        let limits =
            EstimateLimits { max_depth: 60, deadline: None, stop: &stop, nodes: Some(50_000), all_moves: false };
        let e = estimate(&pos, &limits, &mut |_| {});
        assert!(e.stopped && e.nodes < 50_000 + 2 * CHECK_EVERY, "{e:?}");
        // A raised stop flag: depth 1 only.
        stop.store(true, Ordering::Relaxed);
        let pos = Position::start(BoardSize::Six, Variant::Normal);
        let limits = EstimateLimits { max_depth: 20, deadline: None, stop: &stop, nodes: None, all_moves: false };
        let e = estimate(&pos, &limits, &mut |_| {});
        assert!(e.stopped && e.depth == 1 && e.best_move.is_some());
    }

    #[test]
    fn an_estimate_that_reaches_the_end_everywhere_is_the_solvers_value() {
        let stop = AtomicBool::new(false);
        for variant in [Variant::Normal, Variant::Reversed] {
            let pos = Position::start(BoardSize::Four, variant);
            let limits = EstimateLimits { max_depth: 60, deadline: None, stop: &stop, nodes: None, all_moves: false };
            let e = estimate(&pos, &limits, &mut |_| {});
            let exact = solvo_othello_search::solve(&pos, &solvo_othello_search::SolveOptions::new(1)).score().unwrap();
            assert!(e.exact && !e.stopped && e.depth >= 12, "{e:?}");
            assert_eq!(e.score, f64::from(exact), "{variant:?}");
        }
    }
}
