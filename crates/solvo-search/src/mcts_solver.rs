//! MCTS-Solver (Winands, Björnsson & Saito 2008): UCT whose backups also carry proofs.
//!
//! The question is the same as for the proof-number solvers: does the side to move
//! reach "value >= threshold" (targets alternate `t`, `1 - t` down the tree, so for
//! win/loss games with threshold 1 each node asks "does the side to move win?").
//! A node is proven won when some child is proven lost for its side to move, proven
//! lost when every child is proven won; a finished position is proven at once.
//! Unproven parts back up ordinary playout results (uniformly random playouts). The
//! tree is a tree (no transposition sharing). It proves only what its tree covers.

use crate::budget::{Budget, Limiter, SolverStats};
use crate::outcome::SolverAnswer;
use crate::rng::Rng;
use crate::search_tree::{append, children, random_playout, threshold_verdict, Tally};
use solvo_core::{Game, Status};

/// Options of MCTS-Solver.
#[derive(Clone, Copy, Debug)]
pub struct MctsOptions {
    /// The root question: value >= threshold for the side to move.
    pub threshold: i32,
    /// The UCT exploration constant.
    pub exploration: f64,
    /// The random seed.
    pub seed: u64,
}

impl Default for MctsOptions {
    /// Threshold 1, exploration 0.7, seed 1.
    fn default() -> Self {
        MctsOptions { threshold: 1, exploration: 0.7, seed: 1 }
    }
}

struct Node<G: Game> {
    state: G,
    target: i32,
    mv: Option<G::Move>,
    children: Vec<u32>,
    expanded: bool,
    /// Visits, and wins of the side that moved into this node.
    tally: Tally,
    /// 1: the side to move here is proven to reach its target; -1: proven not to.
    proven: i8,
}

struct Mcts<G: Game> {
    nodes: Vec<Node<G>>,
    rng: Rng,
    limiter: Limiter,
    exploration: f64,
    playouts: u64,
    moves: Vec<G::Move>,
}

impl<G: Game> Mcts<G> {
    fn new_node(state: G, target: i32, mv: Option<G::Move>) -> Node<G> {
        let proven = match state.status() {
            Status::Over(v) if v >= target => 1,
            Status::Over(_) => -1,
            _ => 0,
        };
        Node { state, target, mv, children: Vec::new(), expanded: false, tally: Tally::default(), proven }
    }

    fn expand(&mut self, i: usize) {
        let t = 1 - self.nodes[i].target;
        let kids: Vec<Node<G>> = children(&self.nodes[i].state, &mut self.moves)
            .into_iter()
            .map(|(child, mv)| Self::new_node(child, t, mv))
            .collect();
        self.nodes[i].children = append(&mut self.nodes, kids);
        self.nodes[i].expanded = true;
    }

    /// A random playout from `state` (target `target`): 1.0 if its side to move
    /// reaches the target, else 0.0.
    fn playout(&mut self, state: &G, target: i32) -> f64 {
        self.playouts += 1;
        if random_playout(state, &mut self.rng, &mut self.moves) >= target {
            1.0
        } else {
            0.0
        }
    }

    fn settle(&mut self, i: usize) {
        let kids = &self.nodes[i].children;
        if kids.iter().any(|&c| self.nodes[c as usize].proven == -1) {
            self.nodes[i].proven = 1;
        } else if kids.iter().all(|&c| self.nodes[c as usize].proven == 1) {
            self.nodes[i].proven = -1;
        }
    }

    /// One iteration below node `i`: the result for its side to move (1 win, 0 loss).
    fn iterate(&mut self, i: usize) -> f64 {
        match self.nodes[i].proven {
            1 => return 1.0,
            -1 => return 0.0,
            _ => {}
        }
        if !self.nodes[i].expanded {
            self.expand(i);
            self.settle(i);
            match self.nodes[i].proven {
                1 => return 1.0,
                -1 => return 0.0,
                _ => {}
            }
            let c = *self.nodes[i].children.iter().find(|&&c| self.nodes[c as usize].proven == 0).expect("unsettled");
            let c = c as usize;
            let (s, t) = (self.nodes[c].state.clone(), self.nodes[c].target);
            let r = self.playout(&s, t);
            self.nodes[c].tally.add(1.0 - r);
            return 1.0 - r;
        }
        let parent_visits = self.nodes[i].tally.visits;
        let mut best = usize::MAX;
        let mut best_value = f64::NEG_INFINITY;
        for &c in &self.nodes[i].children {
            let k = &self.nodes[c as usize];
            if k.proven == 1 {
                continue; // a proven win for the opponent: never worth entering
            }
            let value = k.tally.uct(parent_visits, self.exploration);
            if value > best_value {
                best_value = value;
                best = c as usize;
            }
        }
        let r = 1.0 - self.iterate(best);
        self.nodes[best].tally.add(r);
        self.nodes[i].tally.visits += 1;
        self.settle(i);
        r
    }
}

/// Solves "value >= threshold" for the side to move at `game` by MCTS-Solver. The
/// verdict is [`crate::Verdict::AtLeast`] with a proving move, [`crate::Verdict::Below`], or
/// [`crate::Verdict::Unknown`] when the budget (tree nodes, time) runs out.
pub fn mcts_solver<G: Game>(game: &G, options: &MctsOptions, budget: Budget) -> SolverAnswer<G::Move> {
    let t = options.threshold;
    let mut m = Mcts {
        nodes: vec![Mcts::new_node(game.clone(), t, None)],
        rng: Rng::new(options.seed),
        limiter: Limiter::new(budget),
        exploration: options.exploration,
        playouts: 0,
        moves: Vec::new(),
    };
    while m.nodes[0].proven == 0 {
        if m.limiter.out(m.nodes.len() as u64) {
            break;
        }
        m.iterate(0);
    }
    let root = &m.nodes[0];
    let proving = root.children.iter().map(|&c| &m.nodes[c as usize]).find(|c| c.proven == -1).and_then(|c| c.mv);
    let (verdict, best_move) = threshold_verdict(root.proven, t, proving);
    let stats = SolverStats {
        nodes: m.nodes.len() as u64,
        time: m.limiter.elapsed(),
        playouts: m.playouts,
        ..SolverStats::default()
    };
    SolverAnswer { verdict, best_move, stats }
}
