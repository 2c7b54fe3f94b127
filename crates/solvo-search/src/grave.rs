//! GRAVE (Generalized Rapid Action Value Estimation, Cazenave 2015) with PPAF playouts:
//! the Monte Carlo search run before a solve to learn a move ordering.
//!
//! Choices (documented as the design notes ask):
//! - the tree is a hash table keyed by `hash_key` (transpositions share a node, and so
//!   do symmetric positions of games whose keys are symmetric: a tree move is played by
//!   its index in the position's own move list);
//! - selection has no exploration term: `(1-b)·Q + b·AMAF` with
//!   `b = p~ / (p~ + n + bias·p~·n)`, AMAF taken from the reference node (the deepest
//!   node on the path with more than `ref_visits` visits); a move with no AMAF data
//!   is tried first;
//! - AMAF statistics of a node are updated with the moves played *from that node on*
//!   (textbook RAVE), first occurrence of each code only;
//! - the PPAF policy adapts after every playout on the whole game from the root
//!   (tree moves and playout moves) for the winner; a draw adapts nothing;
//! - a value `v` at the end of a game counts as a win for the side to move when
//!   `v > 0` (for win/loss games: the ±1 result).

use crate::budget::{Budget, Limiter};
use crate::keyhash::KeyHasher;
use crate::keyhash::KeyMap;
use crate::policy::{Policy, Step};
use crate::rng::Rng;
use solvo_core::{Game, Status};
use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::time::Duration;

/// Parameters of the GRAVE + PPAF search.
#[derive(Clone, Copy, Debug)]
pub struct GraveParams {
    /// Number of playouts.
    pub playouts: u32,
    /// A node becomes the AMAF reference once it has more than this many visits.
    pub ref_visits: u32,
    /// The bias of the GRAVE β formula.
    pub bias: f64,
    /// The PPAF learning rate.
    pub alpha: f64,
    /// The random seed (same seed, same ordering, same node counts).
    pub seed: u64,
}

impl Default for GraveParams {
    /// 10,000 playouts, ref 50, bias 1e-5, alpha 0.32 (Cazenave's slides).
    fn default() -> Self {
        GraveParams { playouts: 10_000, ref_visits: 50, bias: 1e-5, alpha: 0.32, seed: 1 }
    }
}

/// One node of the GRAVE tree.
#[derive(Clone, Debug)]
pub struct GraveNode<M> {
    /// Playouts through this node.
    pub visits: u32,
    /// Its legal moves, in generation order.
    pub moves: Vec<M>,
    /// Their move codes.
    pub codes: Vec<u32>,
    /// Playouts through each move.
    pub n: Vec<u32>,
    /// Wins of the side to move here, through each move.
    pub w: Vec<f32>,
    /// AMAF statistics by move code: (playouts, wins of the player of that move).
    pub amaf: HashMap<u32, (u32, f32), BuildHasherDefault<KeyHasher>>,
}

/// What the GRAVE search learned: the tree and the final PPAF policy.
pub struct GraveResult<M> {
    /// The tree nodes by hash key.
    pub tree: KeyMap<GraveNode<M>>,
    /// The learned policy.
    pub policy: Policy,
    /// Playouts run (fewer than asked if the time ran out).
    pub playouts: u64,
    /// Time taken.
    pub time: Duration,
}

/// Runs GRAVE with PPAF playouts from `root` for `params.playouts` playouts (or until
/// the budget's time runs out; its node limit is not used).
pub fn grave<G: Game>(root: &G, params: &GraveParams, budget: Budget) -> GraveResult<G::Move> {
    let mut limiter = Limiter::new(Budget { max_nodes: None, ..budget });
    let mut policy = Policy::new(root.move_code_count(), params.alpha);
    let mut tree: KeyMap<GraveNode<G::Move>> = KeyMap::default();
    let mut rng = Rng::new(params.seed);
    let mut codes: Vec<u32> = Vec::new();
    let mut steps: Vec<Step> = Vec::new();
    let mut path: Vec<(u64, usize, u8, usize)> = Vec::new();
    let mut moves = Vec::new();
    let mut stamp: Vec<u32> = vec![0; root.move_code_count().max(1) as usize];
    let mut stamp_now = 0u32;
    let mut done = 0u64;
    for _ in 0..params.playouts {
        if limiter.out(0) {
            break;
        }
        codes.clear();
        steps.clear();
        path.clear();
        let mut state = root.clone();
        let mut side = 0u8;
        let mut tref = root.hash_key();
        let mut in_tree = true;
        let winner: Option<u8> = loop {
            match state.status() {
                Status::Over(v) => {
                    break if v > 0 {
                        Some(side)
                    } else if v < 0 {
                        Some(side ^ 1)
                    } else {
                        None
                    };
                }
                Status::MustPass => {
                    state = state.pass().expect("MustPass has a pass");
                    side ^= 1;
                    continue;
                }
                Status::ToMove => {}
            }
            let start = codes.len() as u32;
            let chosen;
            let mv;
            if in_tree {
                let key = state.hash_key();
                if let Some(node) = tree.get(&key) {
                    if node.visits > params.ref_visits {
                        tref = key;
                    }
                    let i = select(node, tree.get(&tref).unwrap_or(node), params.bias);
                    // The move by its index in this position's own list: a game whose key
                    // is shared by symmetric positions lists corresponding moves in the
                    // same order, so the stored move itself may belong to another image.
                    // The codes stay the node's own (its AMAF statistics use them).
                    codes.extend_from_slice(&node.codes);
                    moves.clear();
                    state.generate_moves(&mut moves);
                    // A list of another length is a hash collision: the stored move then.
                    mv = if moves.len() == node.moves.len() { moves[i] } else { node.moves[i] };
                    chosen = i;
                } else {
                    moves.clear();
                    state.generate_moves(&mut moves);
                    let node_codes: Vec<u32> = moves.iter().map(|&m| state.move_code(m)).collect();
                    codes.extend_from_slice(&node_codes);
                    chosen = policy.sample(&node_codes, &mut rng);
                    mv = moves[chosen];
                    let k = moves.len();
                    tree.insert(
                        key,
                        GraveNode {
                            visits: 0,
                            moves: moves.clone(),
                            codes: node_codes,
                            n: vec![0; k],
                            w: vec![0.0; k],
                            amaf: HashMap::default(),
                        },
                    );
                    in_tree = false;
                }
                path.push((key, chosen, side, steps.len()));
            } else {
                moves.clear();
                state.generate_moves(&mut moves);
                codes.extend(moves.iter().map(|&m| state.move_code(m)));
                chosen = policy.sample(&codes[start as usize..], &mut rng);
                mv = moves[chosen];
            }
            steps.push(Step { side, start, end: codes.len() as u32, chosen: chosen as u32 });
            state = state.play(mv);
            side ^= 1;
        };
        let reward = |s: u8| -> f32 {
            match winner {
                Some(w) if w == s => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            }
        };
        for &(key, i, node_side, first_step) in &path {
            let node = tree.get_mut(&key).expect("path nodes are in the tree");
            if i >= node.n.len() {
                continue; // a hash collision gave this key another move list
            }
            node.visits += 1;
            node.n[i] += 1;
            node.w[i] += reward(node_side);
            stamp_now = stamp_now.wrapping_add(1);
            if stamp_now == 0 {
                stamp.iter_mut().for_each(|s| *s = 0);
                stamp_now = 1;
            }
            for s in &steps[first_step..] {
                let c = codes[(s.start + s.chosen) as usize];
                if let Some(slot) = stamp.get_mut(c as usize) {
                    if *slot == stamp_now {
                        continue;
                    }
                    *slot = stamp_now;
                }
                let e = node.amaf.entry(c).or_insert((0, 0.0));
                e.0 += 1;
                e.1 += reward(s.side);
            }
        }
        if let Some(w) = winner {
            policy.adapt(&codes, &steps, w);
        }
        done += 1;
    }
    GraveResult { tree, policy, playouts: done, time: limiter.elapsed() }
}

/// The GRAVE choice at `node` with AMAF statistics from `tref`.
fn select<M>(node: &GraveNode<M>, tref: &GraveNode<M>, bias: f64) -> usize {
    let mut best = 0;
    let mut best_value = f64::NEG_INFINITY;
    for (i, &c) in node.codes.iter().enumerate() {
        let value = match tref.amaf.get(&c) {
            None => f64::INFINITY,
            Some(&(p, w)) => {
                let p = f64::from(p);
                let n = f64::from(node.n[i]);
                let beta = p / (p + n + bias * p * n);
                let amaf = f64::from(w) / p;
                let q = if node.n[i] > 0 { f64::from(node.w[i]) / n } else { 0.0 };
                (1.0 - beta) * q + beta * amaf
            }
        };
        if value > best_value {
            best_value = value;
            best = i;
        }
    }
    best
}
