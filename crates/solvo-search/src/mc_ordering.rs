//! Monte Carlo move ordering ("orderMC"): the knowledge a GRAVE + PPAF search leaves
//! behind, turned into move scores for a solver.
//!
//! At a position the GRAVE tree holds with more than [`TREE_MIN_VISITS`] playouts, moves
//! are ordered by decreasing playout count; elsewhere by decreasing learned policy
//! weight of their move code. The solver puts
//! its TT move and the game's `move_priority` before these scores.

use crate::budget::Budget;
use crate::grave::{grave, GraveParams, GraveResult};
use crate::keyhash::KeyMap;
use solvo_core::Game;
use std::time::Duration;

/// Scores for ordering moves, learned once before the solve (the solver never plays
/// new playouts). Deterministic for a given seed.
pub struct McOrdering<M> {
    tree: KeyMap<Vec<(M, u32)>>,
    weights: Vec<f64>,
    /// Playouts that produced it.
    pub playouts: u64,
    /// GRAVE tree nodes.
    pub tree_nodes: u64,
    /// Time the GRAVE search took.
    pub time: Duration,
}

/// Scores of the policy part fit in this many bits; playout counts sit above them.
const WEIGHT_BITS: u32 = 20;

/// Playout counts are capped here so that a score stays below 2^44 (the solver puts
/// its own tiers above).
const MAX_COUNT: i64 = (1 << 24) - 1;

/// The study's rule: a GRAVE node orders the solver's moves by its playout counts only
/// with more than this many playouts; below, the learned policy orders them.
pub const TREE_MIN_VISITS: u32 = 100;

impl<M: Copy + Eq> McOrdering<M> {
    /// Runs the GRAVE + PPAF search from `root` and keeps what ordering needs: the
    /// counts of the tree nodes with more than [`TREE_MIN_VISITS`] playouts (the
    /// study's rule: fewer say less than the learned policy) and the policy.
    pub fn learn<G: Game<Move = M>>(root: &G, params: &GraveParams, budget: Budget) -> McOrdering<M> {
        Self::learn_with(root, params, budget, TREE_MIN_VISITS)
    }

    /// [`McOrdering::learn`], keeping the tree nodes with more than `min_visits`
    /// playouts (0: every node).
    pub fn learn_with<G: Game<Move = M>>(
        root: &G,
        params: &GraveParams,
        budget: Budget,
        min_visits: u32,
    ) -> McOrdering<M> {
        let GraveResult { tree, policy, playouts, time } = grave(root, params, budget);
        let tree_nodes = tree.len() as u64;
        let tree = tree
            .into_iter()
            .filter(|(_, node)| node.visits > min_visits)
            .map(|(k, node)| (k, node.moves.iter().copied().zip(node.n.iter().copied()).collect()))
            .collect();
        McOrdering { tree, weights: policy.weights, playouts, tree_nodes, time }
    }

    /// The moves of the GRAVE tree's node for the position with key `key`, with their
    /// playout counts, if the tree holds it.
    pub fn node(&self, key: u64) -> Option<&[(M, u32)]> {
        self.tree.get(&key).map(Vec::as_slice)
    }

    /// The learned weight of a move code (0 for codes never seen).
    pub fn weight(&self, code: u32) -> f64 {
        self.weights.get(code as usize).copied().unwrap_or(0.0)
    }

    /// Scores for `moves` at `game` (key `key`), appended to `out`: higher is tried
    /// first. Inside the GRAVE tree the playout count dominates and the policy weight
    /// breaks ties; outside, the weight alone.
    pub fn score_moves<G: Game<Move = M>>(&self, game: &G, key: u64, moves: &[M], out: &mut Vec<i64>) {
        let node = self.tree.get(&key);
        // Counts go by move index when the lists have the same length (a game whose key
        // is shared by symmetric positions lists corresponding moves in the same order),
        // else by equal moves (a hash collision).
        let by_index = node.is_some_and(|n| n.len() == moves.len());
        for (i, &mv) in moves.iter().enumerate() {
            let w = self.weight(game.move_code(mv)).clamp(-500.0, 500.0);
            let weight_score = ((w + 512.0) * 1024.0) as i64;
            let count = match node {
                Some(n) if by_index => i64::from(n[i].1),
                Some(n) => n.iter().find(|(m, _)| *m == mv).map_or(0, |&(_, n)| i64::from(n)),
                None => 0,
            };
            out.push((count.min(MAX_COUNT) << WEIGHT_BITS) + weight_score);
        }
    }
}

/// The legal moves of `game`, best first: by `move_priority`, then by the Monte Carlo
/// scores when an ordering is given (the order the proof-number searches expand in).
pub fn ordered_moves<G: Game>(game: &G, ordering: Option<&McOrdering<G::Move>>) -> Vec<G::Move> {
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    let mut scores = Vec::new();
    match ordering {
        Some(o) => o.score_moves(game, game.hash_key(), &moves, &mut scores),
        None => scores.resize(moves.len(), 0),
    }
    // Each key once (a priority may read the whole position); the sort is stable, so
    // equal keys keep the generation order.
    let mut keyed: Vec<(i64, G::Move)> =
        moves.iter().zip(&scores).map(|(&m, &s)| ((i64::from(game.move_priority(m)) << 40) + s, m)).collect();
    keyed.sort_by_key(|&(k, _)| std::cmp::Reverse(k));
    keyed.into_iter().map(|(_, m)| m).collect()
}
