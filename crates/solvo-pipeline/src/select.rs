//! G50 (Algorithm 1): which task positions to prove. Over predicted values of every
//! position at the task depth (estimates, corrected by what is already proven), the root's
//! predicted value `v` becomes the goal `value == v`; walking down, a goal
//! `value >= lo` needs only the best predicted child (ties broken by a frequency, e.g.
//! how often the position occurs in WTHOR games, then by square order) and a goal
//! `value <= hi` needs every child. Goals met at the task depth are the tasks. If every
//! task meets its goal, the root's value is `v`: the predictions are consistent with the
//! goals by construction, so the invariant holds whatever the predictions are.

use crate::goal::Goal;
use crate::node::{node, Node};
use solvo_othello::{Board, BoardSize};
use std::collections::{HashMap, HashSet};

/// Selects tasks over predictions of the positions at the task depth.
pub struct Selector<'a> {
    size: BoardSize,
    task_empties: u32,
    predictions: &'a HashMap<Board, i32>,
    frequency: &'a HashMap<Board, u64>,
    memo: HashMap<Board, i32>,
    tasks: HashMap<Board, Goal>,
    seen: HashSet<(Board, Goal)>,
    /// Task-depth positions the predictions did not cover (predicted 0).
    pub missing: u64,
}

impl<'a> Selector<'a> {
    /// A selector over `predictions` (canonical task-depth boards) and `frequency`
    /// (canonical boards, any depth; absent = 0).
    pub fn new(
        size: BoardSize,
        task_empties: u32,
        predictions: &'a HashMap<Board, i32>,
        frequency: &'a HashMap<Board, u64>,
    ) -> Selector<'a> {
        Selector {
            size,
            task_empties,
            predictions,
            frequency,
            memo: HashMap::new(),
            tasks: HashMap::new(),
            seen: HashSet::new(),
            missing: 0,
        }
    }

    /// The predicted value of `b` (negamax over the predictions at the task depth).
    pub fn predicted(&mut self, b: &Board) -> i32 {
        if b.empties(self.size) <= self.task_empties {
            if let Node::Over(score) = node(b, self.size) {
                return score;
            }
            return match self.predictions.get(&b.canonical()) {
                Some(&v) => v,
                None => {
                    self.missing += 1;
                    0
                }
            };
        }
        let key = b.canonical();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = match node(b, self.size) {
            Node::Over(score) => score,
            Node::Pass(p) => -self.predicted(&p),
            Node::Moves(children) => children.iter().map(|c| -self.predicted(c)).max().unwrap_or(0),
        };
        self.memo.insert(key, v);
        v
    }

    /// The tasks proving `root`'s value `hypothesis` (default: the predicted value), with
    /// that value.
    pub fn select(mut self, root: &Board, hypothesis: Option<i32>) -> (i32, Vec<(Board, Goal)>, u64) {
        let predicted = self.predicted(root);
        let v = hypothesis.unwrap_or(predicted);
        self.walk(root, Goal::exact(v));
        let mut tasks: Vec<_> = self.tasks.into_iter().collect();
        tasks.sort_by_key(|(b, g)| (*b, g.lo, g.hi));
        (v, tasks, self.missing)
    }

    fn walk(&mut self, b: &Board, goal: Goal) {
        if !self.seen.insert((b.canonical(), goal)) {
            return;
        }
        let m = self.size.squares() as i32;
        if b.empties(self.size) <= self.task_empties {
            if !matches!(node(b, self.size), Node::Over(_)) {
                let e = self.tasks.entry(b.canonical()).or_insert(goal);
                *e = e.merged(goal);
            }
            return;
        }
        match node(b, self.size) {
            Node::Over(_) => {}
            Node::Pass(p) => self.walk(&p, goal.negated()),
            Node::Moves(children) => {
                let chosen = if goal.lo > -m {
                    let mut best: Option<(i32, u64, usize)> = None;
                    for (i, c) in children.iter().enumerate() {
                        let v = -self.predicted(c);
                        let f = self.frequency.get(&c.canonical()).copied().unwrap_or(0);
                        if best.is_none_or(|(bv, bf, _)| v > bv || (v == bv && f > bf)) {
                            best = Some((v, f, i));
                        }
                    }
                    best.map(|(_, _, i)| i)
                } else {
                    None
                };
                for (i, c) in children.iter().enumerate() {
                    if let Some(sub) = goal.for_child(Some(i) == chosen, m) {
                        self.walk(c, sub);
                    }
                }
            }
        }
    }
}
