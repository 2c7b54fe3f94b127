//! Move ordering for the nodes above the shallow solver.
//!
//! A move's key (higher is searched first): the transposition-table move first; then
//! "fastest first": fewest replies for the opponent (corners counted twice), then fewer
//! empty squares next to our discs (the opponent's potential mobility), with bonuses for
//! corners, for our discs made stable by corners, and for odd-parity quadrants. Measured
//! variants are recorded in the issue notes.

use crate::eval_alphabeta::{eval_alphabeta, EvalSearch};
use solvo_eval::{Weights, SCALE};
use solvo_othello::moves::legal_moves;
use solvo_othello::rules::{Rules, NOT_A, NOT_H};

/// Squares next to a disc of `discs` (8 directions), within `empty`.
#[inline(always)]
pub fn neighbours(discs: u64, empty: u64) -> u64 {
    let h = ((discs << 1) & NOT_A) | ((discs >> 1) & NOT_H);
    let hv = h | discs;
    (h | (hv << 8) | (hv >> 8)) & empty
}

/// Ordering key of the move to `x` leading to the child where `cp` (the opponent) is to
/// move against `co` (us, after the move). `odd` is the odd-parity quadrant mask.
#[inline(always)]
pub fn move_key(cp: u64, co: u64, x: usize, rules: &Rules, odd: u64) -> i32 {
    let replies = legal_moves(cp, co, rules.mask);
    let mobility = (replies.count_ones() + (replies & rules.corners).count_ones()) as i32;
    let empty = !(cp | co) & rules.mask;
    let potential = neighbours(co, empty).count_ones() as i32;
    let bit = 1u64 << x;
    let corner = i32::from(bit & rules.corners != 0);
    let parity = i32::from(bit & odd != 0);
    let stable = corner_stable(co, rules.corners).count_ones() as i32;
    -(mobility << 6) - (potential << 3) + (corner << 5) + (stable << CORNER_STABLE_SHIFT) + (parity << 1)
}

/// Weight (as a shift) of the mover's corner-stable discs in [`move_key`]: as much as one
/// square of the opponent's potential mobility. FFO #40-#49, 1 thread: without the term
/// 2.155 G nodes; shift 1 / 2 / 3 / 4: 2.102 / 2.099 / 2.097 / 2.112 G. FFO #41-#42
/// under cachegrind (shift 3): 88.3 M -> 83.9 M nodes, 20.49 G -> 20.23 G instructions,
/// 101.0 M -> 97.7 M mispredicted branches.
const CORNER_STABLE_SHIFT: i32 = 3;

/// The discs of `discs` made stable by a corner: the corners they hold and, next to
/// such a corner along an edge, the discs they hold there.
#[inline(always)]
pub fn corner_stable(discs: u64, corners: u64) -> u64 {
    let own = discs & corners;
    let along = ((own << 1) & NOT_A) | ((own >> 1) & NOT_H) | (own << 8) | (own >> 8);
    (own | along) & discs
}

/// A cheap static evaluation for `p` to move against `o`: mobility difference (corners
/// counted twice) plus corner discs. Only used to order moves, never as a value.
#[inline]
pub fn mobility_eval(p: u64, o: u64, rules: &Rules) -> i32 {
    let mp = legal_moves(p, o, rules.mask);
    let mo = legal_moves(o, p, rules.mask);
    let mob = |m: u64| (m.count_ones() + (m & rules.corners).count_ones()) as i32;
    let corners = (p & rules.corners).count_ones() as i32 - (o & rules.corners).count_ones() as i32;
    4 * (mob(mp) - mob(mo)) + 8 * corners
}

/// The static values an ordering search stands on: a leaf's value and a finished
/// game's value, both for the side to move.
pub trait OrderingEval {
    /// Value of a leaf (`p` to move against `o`).
    fn leaf(&self, p: u64, o: u64) -> i32;
    /// Value of a finished game.
    fn terminal(&self, p: u64, o: u64) -> i32;
}

/// [`mobility_eval`] at the leaves; a finished game is its disc difference times 64.
pub struct MobilityEval<'a>(pub &'a Rules);

impl OrderingEval for MobilityEval<'_> {
    #[inline(always)]
    fn leaf(&self, p: u64, o: u64) -> i32 {
        mobility_eval(p, o, self.0)
    }
    #[inline(always)]
    fn terminal(&self, p: u64, o: u64) -> i32 {
        (p.count_ones() as i32 - o.count_ones() as i32) * 64
    }
}

/// The trained evaluation at the leaves (1/SCALE discs, [`Weights::evaluate`]); a
/// finished game is its final score under the rules, in the same unit.
pub struct TrainedEval<'a>(pub &'a Weights, pub &'a Rules);

impl OrderingEval for TrainedEval<'_> {
    #[inline(always)]
    fn leaf(&self, p: u64, o: u64) -> i32 {
        self.0.evaluate(p, o)
    }
    #[inline(always)]
    fn terminal(&self, p: u64, o: u64) -> i32 {
        self.1.final_score(p, o) * SCALE
    }
}

/// [`TrainedEval`] with the weights' residual network left out
/// ([`Weights::evaluate_linear`]): the lab's experiment (feature `residual`).
#[cfg(feature = "residual")]
pub struct LinearEval<'a>(pub &'a Weights, pub &'a Rules);

#[cfg(feature = "residual")]
impl OrderingEval for LinearEval<'_> {
    #[inline(always)]
    fn leaf(&self, p: u64, o: u64) -> i32 {
        self.0.evaluate_linear(p, o)
    }
    #[inline(always)]
    fn terminal(&self, p: u64, o: u64) -> i32 {
        self.1.final_score(p, o) * SCALE
    }
}

/// A depth-limited alpha-beta on [`mobility_eval`]: the "shallow search" used to order
/// moves high in the tree, where a subtree is large enough to pay for it. Counts the
/// positions it visits in `nodes`.
pub fn shallow_eval(p: u64, o: u64, rules: &Rules, depth: u32, alpha: i32, beta: i32, nodes: &mut u64) -> i32 {
    ordering_search(p, o, &MobilityEval(rules), rules.mask, depth, alpha, beta, nodes)
}

/// A depth-limited alpha-beta on the trained evaluation (a finished game scores its
/// final result times `SCALE`): the ordering search when the solve has weights. Counts
/// the positions it visits in `nodes`. Only used to order moves, never as a value.
#[allow(clippy::too_many_arguments)]
pub fn eval_search(
    p: u64,
    o: u64,
    weights: &Weights,
    rules: &Rules,
    depth: u32,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    ordering_search(p, o, &TrainedEval(weights, rules), rules.mask, depth, alpha, beta, nodes)
}

/// [`eval_search`] on the linear evaluation alone, the weights' residual network left
/// out: the lab's experiment (feature `residual`), where the network costs more than it
/// saves.
#[cfg(feature = "residual")]
#[allow(clippy::too_many_arguments)]
pub fn eval_search_linear(
    p: u64,
    o: u64,
    weights: &Weights,
    rules: &Rules,
    depth: u32,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    ordering_search(p, o, &LinearEval(weights, rules), rules.mask, depth, alpha, beta, nodes)
}

/// An [`OrderingEval`] as the [`EvalSearch`] of an ordering search: a pass costs a ply,
/// moves in square order, every node counted in `nodes`, never given up.
struct Counting<'a, E> {
    eval: &'a E,
    nodes: &'a mut u64,
}

impl<E: OrderingEval> EvalSearch for Counting<'_, E> {
    #[inline(always)]
    fn leaf(&mut self, p: u64, o: u64) -> i32 {
        self.eval.leaf(p, o)
    }
    #[inline(always)]
    fn terminal(&mut self, p: u64, o: u64) -> i32 {
        self.eval.terminal(p, o)
    }
    #[inline(always)]
    fn visit(&mut self) -> bool {
        *self.nodes += 1;
        false
    }
}

/// Fail-soft alpha-beta to `depth` plies on `eval` (a pass costs a ply), without table
/// or sorting ([`eval_alphabeta`]). Counts the positions it visits in `nodes`.
#[allow(clippy::too_many_arguments)]
#[inline]
pub fn ordering_search<E: OrderingEval>(
    p: u64,
    o: u64,
    eval: &E,
    mask: u64,
    depth: u32,
    alpha: i32,
    beta: i32,
    nodes: &mut u64,
) -> i32 {
    eval_alphabeta(&mut Counting { eval, nodes }, p, o, mask, depth, alpha, beta)
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::{BoardSize, Variant};

    #[test]
    fn corner_stable_discs_follow_the_edges_only() {
        let rules = Rules::new(BoardSize::Eight, Variant::Normal);
        let (a1, b1, a2, b2, h1, g1, h2) = (1u64, 1 << 1, 1 << 8, 1 << 9, 1 << 7, 1 << 6, 1 << 15);
        // Edge neighbours of an own corner count, the diagonal one does not.
        assert_eq!(corner_stable(a1 | b1 | a2 | b2, rules.corners), a1 | b1 | a2);
        // No wrap from h1 to a2, nor from a2 back to h1 without a corner.
        assert_eq!(corner_stable(h1 | a2, rules.corners), h1);
        assert_eq!(corner_stable(g1 | h2 | b1, rules.corners), 0);
        // On 6x6 the corners of the centred board are used.
        let six = Rules::new(BoardSize::Six, Variant::Normal);
        let (b2, c2, b3) = (1u64 << 9, 1 << 10, 1 << 17);
        assert_eq!(corner_stable(b2 | c2 | b3 | a1, six.corners), b2 | c2 | b3);
    }
}
