//! What the tree solvers (MCTS-Solver, score-bounded MCTS, product propagation) share:
//! a node's children, a random playout, the UCT score and a threshold verdict.

use crate::outcome::Verdict;
use crate::rng::Rng;
use solvo_core::{Game, Status};

/// The children of `state` with the move to each: the pass when it must pass, else one
/// per legal move in generation order (`moves` is scratch space).
pub(crate) fn children<G: Game>(state: &G, moves: &mut Vec<G::Move>) -> Vec<(G, Option<G::Move>)> {
    if state.status() == Status::MustPass {
        return vec![(state.pass().expect("MustPass has a pass"), None)];
    }
    moves.clear();
    state.generate_moves(moves);
    moves.iter().map(|&m| (state.play(m), Some(m))).collect()
}

/// Appends `kids` to the tree `nodes`: their indices.
pub(crate) fn append<N>(nodes: &mut Vec<N>, kids: Vec<N>) -> Vec<u32> {
    let first = nodes.len() as u32;
    let n = kids.len() as u32;
    nodes.extend(kids);
    (first..first + n).collect()
}

/// Plays uniformly random moves from `state` to the end: the final value for the side
/// to move at `state`.
pub(crate) fn random_playout<G: Game>(state: &G, rng: &mut Rng, moves: &mut Vec<G::Move>) -> i32 {
    let mut s = state.clone();
    let mut flip = false;
    loop {
        match s.status() {
            Status::Over(v) => return if flip { -v } else { v },
            Status::MustPass => s = s.pass().expect("MustPass has a pass"),
            Status::ToMove => {
                moves.clear();
                s.generate_moves(moves);
                s = s.play(moves[rng.below(moves.len())]);
            }
        }
        flip = !flip;
    }
}

/// A tree node's visits and the rewards they brought the side that moved into it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Tally {
    /// Visits so far.
    pub(crate) visits: u32,
    /// Rewards in all (1 a win, 0 a loss, for the side that moved into the node).
    pub(crate) reward: f64,
}

impl Tally {
    /// One more visit, bringing `reward`.
    pub(crate) fn add(&mut self, reward: f64) {
        self.visits += 1;
        self.reward += reward;
    }

    /// The UCT score under a parent with `parent_visits`: infinite when never visited.
    pub(crate) fn uct(&self, parent_visits: u32, exploration: f64) -> f64 {
        if self.visits == 0 {
            return f64::INFINITY;
        }
        let n = f64::from(self.visits);
        self.reward / n + exploration * (f64::from(parent_visits.max(1)).ln() / n).sqrt()
    }
}

/// The verdict of a threshold solver whose root is `proven` (1: reaches `threshold`,
/// -1: does not, 0: open), with the proving move only for a proof.
pub(crate) fn threshold_verdict<M>(proven: i8, threshold: i32, proving_move: Option<M>) -> (Verdict, Option<M>) {
    match proven {
        1 => (Verdict::AtLeast(threshold), proving_move),
        -1 => (Verdict::Below(threshold), None),
        _ => (Verdict::Unknown, None),
    }
}
