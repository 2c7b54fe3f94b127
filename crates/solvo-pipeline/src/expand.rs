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
//! that meets it is chosen, so no leaf below a wrong child is listed. Its answers only
//! order the work: a choice is proven, like any other, by the leaves below it.

use crate::estimate::Estimator;
use crate::goal::Goal;
use crate::node::{node, Node};
use crate::proof::{LeafBounds, Prover};
use solvo_othello::Board;
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
}

/// Exact answers that order the choice of the child carrying a `>=` goal (never used as
/// proof).
pub trait ChoiceOracle {
    /// Is `value(b) <= bound`? `None`: no answer (too many empties, or stopped).
    fn at_most(&mut self, b: &Board, bound: i32) -> Option<bool>;
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
                let chosen = if goal.lo > -m { self.choose(&children, -goal.lo) } else { None };
                for (i, c) in children.iter().enumerate() {
                    if let Some(sub) = goal.for_child(Some(i) == chosen, m) {
                        self.walk(c, sub);
                    }
                }
            }
        }
    }

    /// The child to prove `value <= bound` through: one already proven if any; else,
    /// among those not refuted in the order of their estimates (lowest first, ties:
    /// square order), the first the oracle says meets it, or the first if it cannot say.
    fn choose(&mut self, children: &[Board], bound: i32) -> Option<usize> {
        let m = self.prover.size.squares() as i32;
        let goal = Goal { lo: -m, hi: bound };
        let mut open: Vec<(i32, usize)> = Vec::new();
        for (i, c) in children.iter().enumerate() {
            if self.prover.proves(c, goal) {
                return Some(i);
            }
            if self.prover.refutes(c, goal) {
                continue;
            }
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
