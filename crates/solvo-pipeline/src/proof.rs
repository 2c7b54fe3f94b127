//! Proofs from knowledge alone (G36-third as yes/no questions): is `value >= x` or
//! `value <= x` implied by the proven bounds of the positions at the leaf depth?
//!
//! Negamax down to the leaf depth: at a leaf the known bounds answer; above it,
//! `value >= x` needs one child proven `<= -x` and `value <= x` needs every child
//! proven `>= -x`. Answers are memoised by canonical board. The same code checks a task
//! from 36-empty knowledge and the root from the tasks' bounds (leaf depth = task depth).

use crate::goal::{Bounds, Goal};
use crate::node::{node, Node};
use solvo_othello::{Board, BoardSize};
use std::collections::HashMap;

/// Where proven bounds of leaf positions come from.
pub trait LeafBounds {
    /// What is proven about `b` (a position at the leaf depth, not necessarily
    /// canonical); [`Bounds::unknown`] when nothing is.
    fn leaf_bounds(&mut self, b: &Board) -> Bounds;
}

impl LeafBounds for HashMap<Board, Bounds> {
    fn leaf_bounds(&mut self, b: &Board) -> Bounds {
        self.get(&b.canonical()).copied().unwrap_or(Bounds { lower: -64, upper: 64 })
    }
}

/// Answers proof questions over a tree cut at `leaf_empties`, memoised.
pub struct Prover<K> {
    /// The board size.
    pub size: BoardSize,
    /// Positions with this many empties (or fewer) are leaves.
    pub leaf_empties: u32,
    /// The leaves' bounds.
    pub knowledge: K,
    memo: HashMap<(Board, i32, bool), bool>,
    /// Positions visited (memo misses), for statistics.
    pub nodes: u64,
}

impl<K: LeafBounds> Prover<K> {
    /// A prover over `knowledge` with an empty memo.
    pub fn new(size: BoardSize, leaf_empties: u32, knowledge: K) -> Prover<K> {
        Prover { size, leaf_empties, knowledge, memo: HashMap::new(), nodes: 0 }
    }

    fn max(&self) -> i32 {
        self.size.squares() as i32
    }

    /// Forgets memoised answers (after the knowledge grew).
    pub fn clear(&mut self) {
        self.memo.clear();
    }

    /// True when `b` is at the leaf depth.
    pub fn is_leaf(&self, b: &Board) -> bool {
        b.empties(self.size) <= self.leaf_empties
    }

    /// The leaf bounds of `b`, clipped to the board's range.
    pub fn leaf(&mut self, b: &Board) -> Bounds {
        let k = self.knowledge.leaf_bounds(b);
        let m = self.max();
        Bounds { lower: k.lower.max(-m), upper: k.upper.min(m) }
    }

    /// Is `value(b) >= x` proven?
    pub fn proves_ge(&mut self, b: &Board, x: i32) -> bool {
        self.answer(b, x, true)
    }

    /// Is `value(b) <= x` proven?
    pub fn proves_le(&mut self, b: &Board, x: i32) -> bool {
        self.answer(b, x, false)
    }

    /// Is `goal` proven for `b`?
    pub fn proves(&mut self, b: &Board, goal: Goal) -> bool {
        let m = self.max();
        (goal.lo <= -m || self.proves_ge(b, goal.lo)) && (goal.hi >= m || self.proves_le(b, goal.hi))
    }

    /// Is `goal` proven impossible for `b`?
    pub fn refutes(&mut self, b: &Board, goal: Goal) -> bool {
        let m = self.max();
        (goal.lo > -m && self.proves_le(b, goal.lo - 1)) || (goal.hi < m && self.proves_ge(b, goal.hi + 1))
    }

    /// The proven bounds of `b` among the values that matter for `goal`: its edges and
    /// the values just outside them (so a refutation shows as a bound).
    pub fn bounds_for(&mut self, b: &Board, goal: Goal) -> Bounds {
        let m = self.max();
        let mut out = Bounds::unknown(m);
        if goal.lo > -m {
            if self.proves_ge(b, goal.lo) {
                out.lower = goal.lo;
            } else if self.proves_le(b, goal.lo - 1) {
                out.upper = goal.lo - 2;
            }
        }
        if goal.hi < m {
            if self.proves_le(b, goal.hi) {
                out.upper = out.upper.min(goal.hi);
            } else if self.proves_ge(b, goal.hi + 1) {
                out.lower = out.lower.max(goal.hi + 2);
            }
        }
        out
    }

    /// The tightest bounds of `b` the knowledge proves (scanning the even values).
    pub fn proven_bounds(&mut self, b: &Board) -> Bounds {
        let m = self.max();
        let evens: Vec<i32> = (-m..=m).step_by(2).collect();
        let lower = evens.iter().rev().copied().find(|&x| self.proves_ge(b, x)).unwrap_or(-m);
        let upper = evens.iter().copied().find(|&x| self.proves_le(b, x)).unwrap_or(m);
        Bounds { lower, upper }
    }

    /// Every position above the leaf depth this prover proved something about, with the
    /// tightest bounds it proved (canonical boards, sorted).
    pub fn facts(&self) -> Vec<(Board, Bounds)> {
        let m = self.max();
        let mut out: HashMap<Board, Bounds> = HashMap::new();
        for (&(b, x, ge), &v) in &self.memo {
            if v {
                let e = out.entry(b).or_insert(Bounds::unknown(m));
                if ge {
                    e.lower = e.lower.max(x);
                } else {
                    e.upper = e.upper.min(x);
                }
            }
        }
        let mut v: Vec<_> = out.into_iter().filter(|(_, k)| *k != Bounds::unknown(m)).collect();
        v.sort_by_key(|(b, _)| *b);
        v
    }

    fn answer(&mut self, b: &Board, x: i32, ge: bool) -> bool {
        let m = self.max();
        if (ge && x <= -m) || (!ge && x >= m) {
            return true;
        }
        if (ge && x > m) || (!ge && x < -m) {
            return false;
        }
        if self.is_leaf(b) {
            if let Node::Over(score) = node(b, self.size) {
                return if ge { score >= x } else { score <= x };
            }
            let k = self.leaf(b);
            return if ge { k.lower >= x } else { k.upper <= x };
        }
        let key = (b.canonical(), x, ge);
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        self.nodes += 1;
        let v = match node(b, self.size) {
            Node::Over(score) => {
                if ge {
                    score >= x
                } else {
                    score <= x
                }
            }
            Node::Pass(p) => self.answer(&p, -x, !ge),
            Node::Moves(children) => {
                if ge {
                    children.iter().any(|c| self.answer(c, -x, false))
                } else {
                    children.iter().all(|c| self.answer(c, -x, true))
                }
            }
        };
        self.memo.insert(key, v);
        v
    }
}
