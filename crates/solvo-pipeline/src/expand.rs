//! G36-first: the to-do list of one task. From the task's position and goal, walk down
//! to the leaf depth over what is already proven: a subtree whose goal the knowledge
//! proves is done, a child the knowledge refutes is skipped, a goal `value >= lo` is
//! pursued through the single most promising child (by estimate, G36-second: children
//! already proven first), a goal `value <= hi` through every child. Leaves whose goal is
//! still open become the to-do list `(leaf, goal)`; solving them and expanding again
//! converges because every round adds proven bounds.
//!
//! A [`ChoiceOracle`] may answer the choice exactly near the leaves: the candidates, in
//! the estimates' order, are asked `value <= bound?` (a null-window solve) and the first
//! that meets it is chosen, so no leaf below a wrong child is listed. Before any leaf is
//! listed the oracle is also asked whether the task's goal holds at all: a goal it shows
//! false is [`Expansion::Disproved`] at once (a wrong task is otherwise only found out
//! once the leaves refute it, i.e. after solving a whole refutation tree). Its answers
//! only order the work: a choice, like a task, is proven by the leaves below it, and a
//! disproved task only makes the selection look elsewhere.

use crate::estimate::Estimator;
use crate::goal::{Bounds, Goal};
use crate::node::{child_index, node, Node};
use crate::proof::{LeafBounds, Prover};
use solvo_othello::{Board, Square};
use std::collections::{HashMap, HashSet};

/// What one expansion found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expansion {
    /// The knowledge proves the task's goal: nothing to do.
    Proven,
    /// The knowledge proves the goal cannot hold (the task's hypothesis was wrong).
    Refuted,
    /// Leaves to solve (canonical boards with the goals to decide), sorted.
    Todo(Vec<(Board, Goal)>),
    /// The oracle (an exact solve of the task) shows the goal cannot hold: the bounds it
    /// found. Not a proof (verify never reads it): a reason to select other tasks now
    /// instead of listing the leaves of a refutation.
    Disproved(Bounds),
}

/// Exact answers that order the choice of the child carrying a `>=` goal (never used as
/// proof).
pub trait ChoiceOracle {
    /// Is `value(b) <= bound`? `None`: no answer (too many empties, or stopped).
    fn at_most(&mut self, b: &Board, bound: i32) -> Option<bool>;

    /// A move of `b` proven to reach `value(b) >= lo`; `None` when there is none (the
    /// goal is false) or no answer. One solve of `b` finds it: asking each child in
    /// turn proves every child tried before the right one short of the goal, which near
    /// an extreme goal (a wipe-out) costs far more than the parent's proof (an 8x8
    /// position of 34 empties: 5e10 nodes of child questions against 1.2e7 for the
    /// parent's exact solve). The default has no answer.
    fn move_reaching(&mut self, _b: &Board, _lo: i32) -> Option<Square> {
        None
    }
}

/// Builds to-do lists over a prover (knowledge) and an estimator.
pub struct Expander<'a, K> {
    /// The proof questions (and the knowledge they read).
    pub prover: &'a mut Prover<K>,
    estimator: &'a Estimator,
    oracle: Option<&'a mut dyn ChoiceOracle>,
    todo: HashMap<Board, Goal>,
    seen: HashSet<(Board, Goal)>,
}

impl<'a, K: LeafBounds> Expander<'a, K> {
    /// An expander reading `prover`'s knowledge and ordering by `estimator`.
    pub fn new(prover: &'a mut Prover<K>, estimator: &'a Estimator) -> Expander<'a, K> {
        Expander { prover, estimator, oracle: None, todo: HashMap::new(), seen: HashSet::new() }
    }

    /// The same expander choosing children through `oracle` where it answers.
    pub fn with_oracle(mut self, oracle: &'a mut dyn ChoiceOracle) -> Expander<'a, K> {
        self.oracle = Some(oracle);
        self
    }

    /// The to-do list of `root` (a task position) for `goal`.
    pub fn expand(mut self, root: &Board, goal: Goal) -> Expansion {
        if self.prover.proves(root, goal) {
            return Expansion::Proven;
        }
        if self.prover.refutes(root, goal) {
            return Expansion::Refuted;
        }
        if let Some(found) = self.disproved(root, goal) {
            return Expansion::Disproved(found);
        }
        self.walk(root, goal);
        let mut todo: Vec<_> = self.todo.into_iter().collect();
        todo.sort_by_key(|(b, g)| (*b, g.lo, g.hi));
        if todo.is_empty() {
            // Every open branch was refuted by the knowledge: the next round says so.
            return Expansion::Refuted;
        }
        Expansion::Todo(todo)
    }

    fn walk(&mut self, b: &Board, goal: Goal) {
        if !self.seen.insert((b.canonical(), goal)) {
            return;
        }
        if self.prover.proves(b, goal) || self.prover.refutes(b, goal) {
            return;
        }
        if self.prover.is_leaf(b) {
            let e = self.todo.entry(b.canonical()).or_insert(goal);
            *e = e.merged(goal);
            return;
        }
        let m = self.prover.size.squares() as i32;
        match node(b, self.prover.size) {
            Node::Over(_) => {}
            Node::Pass(p) => self.walk(&p, goal.negated()),
            Node::Moves(children) => {
                // The child that must reach `value <= -lo` (only when lo is asked).
                let chosen = if goal.lo > -m { self.choose(b, &children, goal.lo) } else { None };
                for (i, c) in children.iter().enumerate() {
                    if let Some(sub) = goal.for_child(Some(i) == chosen, m) {
                        self.walk(c, sub);
                    }
                }
            }
        }
    }

    /// The bounds the oracle finds that contradict `goal` at `b` (values are even: every
    /// board has an even number of squares); `None` when it finds none or cannot say.
    fn disproved(&mut self, b: &Board, goal: Goal) -> Option<Bounds> {
        let m = self.prover.size.squares() as i32;
        let oracle = self.oracle.as_mut()?;
        if goal.lo > -m && oracle.at_most(b, goal.lo - 1) == Some(true) {
            // value <= lo - 1, so at most the even value below lo.
            let u = goal.lo - 1;
            return Some(Bounds { lower: -m, upper: u - u.rem_euclid(2) });
        }
        if goal.hi < m && oracle.at_most(b, goal.hi) == Some(false) {
            // value >= hi + 1, so at least the even value above hi.
            let l = goal.hi + 1;
            return Some(Bounds { lower: l + l.rem_euclid(2), upper: m });
        }
        None
    }

    /// The child of `b` (its `children`, in square order) to prove `value(b) >= lo`
    /// through, i.e. the child's `value <= -lo`: one already proven if any; else the move
    /// the oracle proves reaches `lo` at `b`; else, among the children not refuted in the
    /// order of their estimates (lowest first, ties: square order), the first the oracle
    /// says meets it, or the first if it cannot say.
    fn choose(&mut self, b: &Board, children: &[Board], lo: i32) -> Option<usize> {
        let m = self.prover.size.squares() as i32;
        let bound = -lo;
        let goal = Goal { lo: -m, hi: bound };
        let mut unrefuted = Vec::new();
        for (i, c) in children.iter().enumerate() {
            if self.prover.proves(c, goal) {
                return Some(i);
            }
            if !self.prover.refutes(c, goal) {
                unrefuted.push(i);
            }
        }
        if let Some(sq) = self.oracle.as_mut().and_then(|oracle| oracle.move_reaching(b, lo)) {
            if let Some(i) = child_index(b, self.prover.size, sq) {
                return Some(i);
            }
        }
        // Estimated only when the oracle named no move.
        let mut open: Vec<(i32, usize)> = Vec::new();
        for i in unrefuted {
            let c = &children[i];
            let mut e = self.estimator.estimate(c);
            if self.prover.is_leaf(c) {
                e = self.prover.leaf(c).clamp_estimate(e);
            }
            open.push((e, i));
        }
        open.sort();
        if let Some(oracle) = self.oracle.as_mut() {
            for &(_, i) in &open {
                match oracle.at_most(&children[i], bound) {
                    Some(true) => return Some(i),
                    Some(false) => {}
                    None => break,
                }
            }
        }
        open.first().map(|&(_, i)| i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::node::solver_position;
    use solvo_othello::BoardSize;
    use solvo_othello_search::{solve, SolveOptions};

    /// The exact value from a full-window solve (not the null-window solve the pipeline's
    /// oracle uses), so the answers are computed another way.
    struct ExactOracle(SolveOptions);

    impl ChoiceOracle for ExactOracle {
        fn at_most(&mut self, b: &Board, bound: i32) -> Option<bool> {
            Some(solve(&solver_position(b, BoardSize::Six), &self.0).score().unwrap() <= bound)
        }
    }

    /// A task goal the exact value contradicts is disproved before any leaf is listed,
    /// with bounds that hold the exact value and refute the goal (rounded to even values
    /// for odd goal edges); a true goal is expanded; without an oracle nothing is
    /// disproved.
    #[test]
    fn a_false_task_goal_is_disproved_before_any_leaf() {
        let pos = crate::test_positions::six_by_six_after(&crate::test_positions::OPTIMAL_12);
        let b = pos.board;
        let v = solve(&pos, &SolveOptions::new(16)).score().unwrap();
        assert_eq!(v, -4);
        let est = Estimator::new(BoardSize::Six, 1);
        let cases = [
            (Goal { lo: v + 2, hi: 36 }, Some(Bounds { lower: -36, upper: v })),
            (Goal { lo: v + 1, hi: 36 }, Some(Bounds { lower: -36, upper: v })),
            (Goal { lo: -36, hi: v - 2 }, Some(Bounds { lower: v, upper: 36 })),
            (Goal { lo: -36, hi: v - 1 }, Some(Bounds { lower: v, upper: 36 })),
            (Goal::exact(v + 2), Some(Bounds { lower: -36, upper: v })),
            (Goal::exact(v), None),
            (Goal { lo: v, hi: 36 }, None),
        ];
        for (goal, want) in cases {
            let mut prover = Prover::new(BoardSize::Six, 14, HashMap::new());
            let mut oracle = ExactOracle(SolveOptions::new(16));
            let got = Expander::new(&mut prover, &est).with_oracle(&mut oracle).expand(&b, goal);
            match want {
                Some(bounds) => {
                    assert_eq!(got, Expansion::Disproved(bounds), "{goal:?}");
                    assert!(bounds.refutes(goal) && bounds.lower <= v && v <= bounds.upper);
                }
                None => assert!(matches!(got, Expansion::Todo(_)), "{goal:?}: {got:?}"),
            }
            let mut prover = Prover::new(BoardSize::Six, 14, HashMap::new());
            let plain = Expander::new(&mut prover, &est).expand(&b, goal);
            assert!(matches!(plain, Expansion::Todo(_)), "{goal:?} without an oracle: {plain:?}");
        }
    }

    /// An oracle that proves the parent's goal with one solve and names the move: the
    /// child questions (`at_most`) are then asked only of the task itself (whether its
    /// goal holds at all), never to choose a child; without `move_reaching` they are.
    struct ParentOracle {
        options: SolveOptions,
        child_questions: usize,
        parent_solves: usize,
        task: Board,
    }

    impl ChoiceOracle for ParentOracle {
        fn at_most(&mut self, b: &Board, bound: i32) -> Option<bool> {
            if *b != self.task {
                self.child_questions += 1;
            }
            Some(solve(&solver_position(b, BoardSize::Six), &self.options).score().unwrap() <= bound)
        }

        fn move_reaching(&mut self, b: &Board, lo: i32) -> Option<Square> {
            self.parent_solves += 1;
            let r = solve(&solver_position(b, BoardSize::Six), &self.options);
            (r.score().unwrap() >= lo).then_some(r.best_move).flatten()
        }
    }

    #[test]
    fn the_parents_proof_move_carries_a_lower_goal() {
        let pos = crate::test_positions::six_by_six_after(&crate::test_positions::OPTIMAL_12);
        let b = pos.board;
        let est = Estimator::new(BoardSize::Six, 1);
        let goal = Goal { lo: -4, hi: 36 };
        let mut prover = Prover::new(BoardSize::Six, 14, HashMap::new());
        let mut oracle = ParentOracle { options: SolveOptions::new(16), child_questions: 0, parent_solves: 0, task: b };
        let got = Expander::new(&mut prover, &est).with_oracle(&mut oracle).expand(&b, goal);
        assert!(matches!(got, Expansion::Todo(ref list) if !list.is_empty()), "{got:?}");
        assert!(oracle.parent_solves > 0);
        assert_eq!(oracle.child_questions, 0);
        // The task's goal holds and every child was chosen by a proof, so every listed
        // leaf's goal holds.
        let Expansion::Todo(list) = got else { unreachable!() };
        for (leaf, g) in list {
            let v = solve(&solver_position(&leaf, BoardSize::Six), &SolveOptions::new(16)).score().unwrap();
            assert!(g.lo <= v && v <= g.hi, "leaf goal {g:?} fails: {v}");
        }
    }
}
