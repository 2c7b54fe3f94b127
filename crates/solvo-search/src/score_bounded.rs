//! Score-bounded MCTS (Cazenave & Saffidine 2011): an MCTS solver for games with more
//! than two outcomes, finding the exact value.
//!
//! Every tree node keeps a pessimistic and an optimistic bound of its negamax value
//! for its side to move: a finished position has both equal to its value, an
//! unexpanded one the game's whole range (`-max_value`, `max_value`). After an
//! expansion the bounds of each node on the path are recomputed from its children's:
//! `pess(n) = max_c -opt(c)` and `opt(n) = max_c -pess(c)`. A node is solved when its
//! bounds meet. The descent skips solved children and children that cannot raise the
//! node's pessimistic bound (`-pess(c) <= pess(n)`: the published "cuts"); an unsolved
//! node always has a child left (if every child were skipped, its bounds would meet).
//! Among the rest it follows UCT on random-playout rewards (1 a win, 1/2 a draw, 0 a
//! loss for the side that moved). The tree is a tree (no transposition sharing) and
//! counts its nodes against the budget.

use crate::budget::{Budget, Limiter, SolverStats};
use crate::outcome::{SolverAnswer, Verdict};
use crate::rng::Rng;
use crate::search_tree::{append, children, random_playout, Tally};
use solvo_core::{Game, Status};

/// Options of score-bounded MCTS.
#[derive(Clone, Copy, Debug)]
pub struct ScoreBoundedOptions {
    /// The UCT exploration constant.
    pub exploration: f64,
    /// The random seed of the playouts.
    pub seed: u64,
}

impl Default for ScoreBoundedOptions {
    /// Exploration 0.7, seed 1 (those of [`crate::mcts_solver`]).
    fn default() -> Self {
        ScoreBoundedOptions { exploration: 0.7, seed: 1 }
    }
}

struct Node<G: Game> {
    state: G,
    mv: Option<G::Move>,
    children: Vec<u32>,
    expanded: bool,
    /// Visits, and rewards of the side that moved into this node.
    tally: Tally,
    /// Bounds of the value for the side to move here.
    pess: i32,
    opt: i32,
}

impl<G: Game> Node<G> {
    fn new(state: G, mv: Option<G::Move>, range: i32) -> Node<G> {
        let (pess, opt) = match state.status() {
            Status::Over(v) => (v, v),
            _ => (-range, range),
        };
        Node { state, mv, children: Vec::new(), expanded: false, tally: Tally::default(), pess, opt }
    }

    fn solved(&self) -> bool {
        self.pess == self.opt
    }
}

struct Search<G: Game> {
    nodes: Vec<Node<G>>,
    rng: Rng,
    exploration: f64,
    range: i32,
    playouts: u64,
    moves: Vec<G::Move>,
}

/// The reward of a final value `v` for the side to move: 1 a win, 1/2 a draw, 0 a loss.
fn reward(v: i32) -> f64 {
    match v.signum() {
        1 => 1.0,
        0 => 0.5,
        _ => 0.0,
    }
}

impl<G: Game> Search<G> {
    fn expand(&mut self, i: usize) {
        let range = self.range;
        let kids: Vec<Node<G>> = children(&self.nodes[i].state, &mut self.moves)
            .into_iter()
            .map(|(child, mv)| Node::new(child, mv, range))
            .collect();
        self.nodes[i].children = append(&mut self.nodes, kids);
        self.nodes[i].expanded = true;
        self.bound(i);
    }

    /// Recomputes the bounds of node `i` from its children's.
    fn bound(&mut self, i: usize) {
        let (mut pess, mut opt) = (i32::MIN, i32::MIN);
        for &c in &self.nodes[i].children {
            let k = &self.nodes[c as usize];
            pess = pess.max(-k.opt);
            opt = opt.max(-k.pess);
        }
        self.nodes[i].pess = pess;
        self.nodes[i].opt = opt;
    }

    /// A uniformly random playout from `state`: the reward for its side to move.
    fn playout(&mut self, state: &G) -> f64 {
        self.playouts += 1;
        reward(random_playout(state, &mut self.rng, &mut self.moves))
    }

    /// The child of unsolved, expanded node `i` to descend into.
    fn select(&self, i: usize) -> usize {
        let node = &self.nodes[i];
        let mut best = usize::MAX;
        let mut best_value = f64::NEG_INFINITY;
        for &c in &node.children {
            let k = &self.nodes[c as usize];
            if k.solved() || -k.pess <= node.pess {
                continue;
            }
            let value = k.tally.uct(node.tally.visits, self.exploration);
            if value > best_value {
                best_value = value;
                best = c as usize;
            }
        }
        assert!(best != usize::MAX, "an unsolved node has a child worth searching");
        best
    }

    /// One iteration below unsolved node `i`: the reward for its side to move.
    fn iterate(&mut self, i: usize) -> f64 {
        if !self.nodes[i].expanded {
            self.expand(i);
            if self.nodes[i].solved() {
                return reward(self.nodes[i].pess);
            }
            let c = self.select(i);
            let state = self.nodes[c].state.clone();
            let r = if self.nodes[c].solved() { reward(self.nodes[c].pess) } else { self.playout(&state) };
            self.nodes[c].tally.add(1.0 - r);
            self.nodes[i].tally.visits += 1;
            return 1.0 - r;
        }
        let c = self.select(i);
        let r = 1.0 - self.iterate(c);
        self.nodes[c].tally.add(r);
        self.nodes[i].tally.visits += 1;
        self.bound(i);
        r
    }
}

/// Finds the exact value of `game` for its side to move by score-bounded MCTS: the
/// verdict is [`Verdict::Exact`] with a best move (`None` when the side to move must
/// pass), or [`Verdict::Unknown`] when the budget (tree nodes, time) runs out.
pub fn score_bounded_mcts<G: Game>(game: &G, options: &ScoreBoundedOptions, budget: Budget) -> SolverAnswer<G::Move> {
    let range = game.max_value();
    let mut s = Search {
        nodes: vec![Node::new(game.clone(), None, range)],
        rng: Rng::new(options.seed),
        exploration: options.exploration,
        range,
        playouts: 0,
        moves: Vec::new(),
    };
    let mut limiter = Limiter::new(budget);
    while !s.nodes[0].solved() {
        if limiter.out(s.nodes.len() as u64) {
            break;
        }
        s.iterate(0);
    }
    let root = &s.nodes[0];
    let (verdict, best_move) = if root.solved() {
        let v = root.pess;
        let best = root.children.iter().map(|&c| &s.nodes[c as usize]).find(|k| -k.opt == v).and_then(|k| k.mv);
        (Verdict::Exact(v), best)
    } else {
        (Verdict::Unknown, None)
    };
    let stats = SolverStats {
        nodes: s.nodes.len() as u64,
        time: limiter.elapsed(),
        playouts: s.playouts,
        ..SolverStats::default()
    };
    SolverAnswer { verdict, best_move, stats }
}
