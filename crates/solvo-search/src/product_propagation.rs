//! Product propagation (Saffidine & Cazenave 2013, after Stern, Herbrich & Graepel's
//! probability search): a best-first solver that backs up, instead of proof numbers,
//! the probability that the side to move reaches its target, each child taken as
//! independent.
//!
//! The question is that of the proof-number solvers: does the side to move reach
//! "value >= threshold" (targets alternate `t`, `1 - t` down the tree, so for win/loss
//! games with threshold 1 every node asks "does the side to move win?"). A leaf the
//! search has not expanded has probability [`ProductOptions::leaf`]; a finished position
//! 1 or 0; an expanded node `1 - prod_c p(c)` (it fails only if the side to move at
//! every child reaches that child's target). Each iteration descends from the root to
//! the unsolved child of least probability (the most likely refutation of its parent's
//! hopes, as the published rule picks at both OR and AND nodes), expands the leaf it
//! reaches and recomputes the probabilities on the path. Proofs are kept apart from
//! the probabilities (a product can round to 0 or 1 without proving anything): a node
//! is proven when some child is disproven, disproven when every child is proven. The
//! tree is a tree (no transposition sharing) and counts its nodes against the budget.

use crate::budget::{Budget, Limiter, SolverStats};
use crate::outcome::SolverAnswer;
use crate::search_tree::{append, children, threshold_verdict};
use solvo_core::{Game, Status};

/// Options of product propagation.
#[derive(Clone, Copy, Debug)]
pub struct ProductOptions {
    /// The root question: value >= threshold for the side to move.
    pub threshold: i32,
    /// The probability given to a position not yet expanded (strictly between 0 and 1).
    pub leaf: f64,
}

impl Default for ProductOptions {
    /// Threshold 1, leaves at 1/2.
    fn default() -> Self {
        ProductOptions { threshold: 1, leaf: 0.5 }
    }
}

struct Node<G: Game> {
    state: G,
    target: i32,
    mv: Option<G::Move>,
    children: Vec<u32>,
    expanded: bool,
    /// The probability that the side to move here reaches its target.
    p: f64,
    /// 1: proven to reach its target; -1: proven not to; 0: open.
    proven: i8,
}

struct Search<G: Game> {
    nodes: Vec<Node<G>>,
    leaf: f64,
    moves: Vec<G::Move>,
    path: Vec<usize>,
}

impl<G: Game> Search<G> {
    fn node(&self, state: G, target: i32, mv: Option<G::Move>) -> Node<G> {
        let (p, proven) = match state.status() {
            Status::Over(v) if v >= target => (1.0, 1),
            Status::Over(_) => (0.0, -1),
            _ => (self.leaf, 0),
        };
        Node { state, target, mv, children: Vec::new(), expanded: false, p, proven }
    }

    fn expand(&mut self, i: usize) {
        let t = 1 - self.nodes[i].target;
        let kids: Vec<Node<G>> = children(&self.nodes[i].state, &mut self.moves)
            .into_iter()
            .map(|(child, mv)| self.node(child, t, mv))
            .collect();
        self.nodes[i].children = append(&mut self.nodes, kids);
        self.nodes[i].expanded = true;
    }

    /// Recomputes the probability and the proof of expanded node `i` from its children.
    fn update(&mut self, i: usize) {
        let (mut product, mut any_disproven, mut all_proven) = (1.0, false, true);
        for &c in &self.nodes[i].children {
            let k = &self.nodes[c as usize];
            product *= k.p;
            any_disproven |= k.proven == -1;
            all_proven &= k.proven == 1;
        }
        let node = &mut self.nodes[i];
        node.p = 1.0 - product;
        node.proven = if any_disproven {
            1
        } else if all_proven {
            -1
        } else {
            0
        };
    }

    /// One iteration: descend to an open leaf, expand it, update the path.
    fn iterate(&mut self) {
        self.path.clear();
        let mut i = 0;
        while self.nodes[i].expanded {
            self.path.push(i);
            let kids = &self.nodes[i].children;
            i = kids
                .iter()
                .map(|&c| c as usize)
                .filter(|&c| self.nodes[c].proven == 0)
                .min_by(|&a, &b| self.nodes[a].p.total_cmp(&self.nodes[b].p))
                .expect("an open node has an open child");
        }
        self.expand(i);
        self.update(i);
        while let Some(j) = self.path.pop() {
            self.update(j);
        }
    }
}

/// Solves "value >= threshold" for the side to move at `game` by product propagation.
/// The verdict is [`crate::Verdict::AtLeast`] with a proving move, [`crate::Verdict::Below`], or
/// [`crate::Verdict::Unknown`] when the budget (tree nodes, time) runs out.
pub fn product_propagation<G: Game>(game: &G, options: &ProductOptions, budget: Budget) -> SolverAnswer<G::Move> {
    let t = options.threshold;
    let mut s =
        Search { nodes: Vec::new(), leaf: options.leaf.clamp(1e-9, 1.0 - 1e-9), moves: Vec::new(), path: Vec::new() };
    let root = s.node(game.clone(), t, None);
    s.nodes.push(root);
    let mut limiter = Limiter::new(budget);
    while s.nodes[0].proven == 0 {
        if limiter.out(s.nodes.len() as u64) {
            break;
        }
        s.iterate();
    }
    let root = &s.nodes[0];
    let proving = root.children.iter().map(|&c| &s.nodes[c as usize]).find(|k| k.proven == -1).and_then(|k| k.mv);
    let (verdict, best_move) = threshold_verdict(root.proven, t, proving);
    let stats = SolverStats { nodes: s.nodes.len() as u64, time: limiter.elapsed(), ..SolverStats::default() };
    SolverAnswer { verdict, best_move, stats }
}
