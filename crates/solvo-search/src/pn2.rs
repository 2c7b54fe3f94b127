//! PN2: proof-number search with a second-level proof-number search at the leaves
//! (Allis 1994; Breuker, Uiterwijk & van den Herik 2001).
//!
//! The question answered is "does the side to move at the root reach a value of at
//! least `threshold`?" (for win/loss games, threshold 1: "does it win?"; for Othello,
//! threshold 1 asks "value > 0"). A finished position counts as proven when its value,
//! seen from the root's side to move, is at least the threshold.
//!
//! The first-level tree is kept in memory as a tree (transpositions are not merged, so
//! no graph-history problem arises; a repeated position is simply searched again).
//! When it selects a most-proving leaf, a second-level search is run from that leaf
//! with a budget of as many nodes as the first-level tree has (at least 1, at most
//! `second_level_max`); then only the leaf's children, with their proof and disproof
//! numbers, are kept. Solved subtrees are pruned to save memory.

use crate::budget::{Budget, Limiter, SolverStats};
use crate::mc_ordering::{ordered_moves, McOrdering};
use crate::outcome::{SolverAnswer, Verdict};
use solvo_core::{Game, Status};

/// Proof or disproof number of a solved node (infinite).
const INF: u32 = u32::MAX;

/// Options of PN2.
#[derive(Clone, Copy, Debug)]
pub struct PnOptions {
    /// The root question: value >= threshold for the side to move.
    pub threshold: i32,
    /// Largest second-level tree.
    pub second_level_max: u64,
    /// Run the second level at all (false: plain PNS).
    pub two_levels: bool,
}

impl Default for PnOptions {
    /// Threshold 1, second level of at most 2^20 nodes.
    fn default() -> Self {
        PnOptions { threshold: 1, second_level_max: 1 << 20, two_levels: true }
    }
}

struct Node<G: Game> {
    state: G,
    pn: u32,
    dn: u32,
    or: bool,
    expanded: bool,
    mv: Option<G::Move>,
    children: Vec<u32>,
}

struct Run<'a, G: Game> {
    limiter: Limiter,
    nodes: u64,
    threshold: i32,
    ordering: Option<&'a McOrdering<G::Move>>,
}

impl<G: Game> Run<'_, G> {
    /// Initial numbers of a new node: solved if the game is over there, else (1, 1).
    fn evaluate(&self, state: &G, or: bool) -> (u32, u32) {
        match state.status() {
            Status::Over(v) => {
                let for_root = if or { v } else { -v };
                if for_root >= self.threshold {
                    (0, INF)
                } else {
                    (INF, 0)
                }
            }
            _ => (1, 1),
        }
    }

    /// The children of `state` (a pass counts as a child), best-ordered first.
    fn children(&mut self, state: &G, or: bool) -> Vec<Node<G>> {
        let mut out = Vec::new();
        if state.status() == Status::MustPass {
            let p = state.pass().expect("MustPass has a pass");
            let (pn, dn) = self.evaluate(&p, !or);
            self.nodes += 1;
            out.push(Node { state: p, pn, dn, or: !or, expanded: false, mv: None, children: Vec::new() });
            return out;
        }
        for mv in ordered_moves(state, self.ordering) {
            let c = state.play(mv);
            let (pn, dn) = self.evaluate(&c, !or);
            self.nodes += 1;
            out.push(Node { state: c, pn, dn, or: !or, expanded: false, mv: Some(mv), children: Vec::new() });
        }
        out
    }
}

struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
}

impl<G: Game> Tree<G> {
    fn new(root: G, or: bool, run: &Run<'_, G>) -> Self {
        let (pn, dn) = run.evaluate(&root, or);
        Tree { nodes: vec![Node { state: root, pn, dn, or, expanded: false, mv: None, children: Vec::new() }] }
    }

    fn solved(&self) -> bool {
        self.nodes[0].pn == 0 || self.nodes[0].dn == 0
    }

    /// Expands most-proving nodes until the root is solved, the tree reaches
    /// `max_size` nodes, or the budget runs out (then `false`).
    fn grow(&mut self, run: &mut Run<'_, G>, max_size: u64, second: Option<(u64, u64)>) -> bool {
        let mut path = Vec::new();
        while !self.solved() && (self.nodes.len() as u64) < max_size {
            if run.limiter.out(run.nodes) {
                return false;
            }
            path.clear();
            let mut i = 0usize;
            while self.nodes[i].expanded {
                path.push(i);
                let n = &self.nodes[i];
                let pick = |c: &&u32| {
                    let k = &self.nodes[**c as usize];
                    if n.or {
                        k.pn
                    } else {
                        k.dn
                    }
                };
                i = *n.children.iter().min_by_key(pick).expect("an expanded unsolved node has children") as usize;
            }
            path.push(i);
            let kids = match second {
                Some((cap, _)) => {
                    let mut sub = Tree::new(self.nodes[i].state.clone(), self.nodes[i].or, run);
                    let limit = (self.nodes.len() as u64).clamp(1, cap);
                    let ok = sub.grow(run, limit.max(2), None);
                    if !ok {
                        return false;
                    }
                    if sub.nodes[0].expanded {
                        let ids = std::mem::take(&mut sub.nodes[0].children);
                        let mut kids = Vec::with_capacity(ids.len());
                        for id in ids {
                            let n = &mut sub.nodes[id as usize];
                            let state = n.state.clone();
                            kids.push(Node {
                                state,
                                pn: n.pn,
                                dn: n.dn,
                                or: n.or,
                                expanded: false,
                                mv: n.mv,
                                children: Vec::new(),
                            });
                        }
                        kids
                    } else {
                        let (s, or) = (self.nodes[i].state.clone(), self.nodes[i].or);
                        run.children(&s, or)
                    }
                }
                None => {
                    let (s, or) = (self.nodes[i].state.clone(), self.nodes[i].or);
                    run.children(&s, or)
                }
            };
            let first = self.nodes.len() as u32;
            let count = kids.len() as u32;
            self.nodes.extend(kids);
            self.nodes[i].children = (first..first + count).collect();
            self.nodes[i].expanded = true;
            for &j in path.iter().rev() {
                self.update(j, j == 0);
            }
        }
        true
    }

    /// Recomputes a node's numbers from its children; prunes solved subtrees (but
    /// keeps the root's children, which name the proving move).
    fn update(&mut self, j: usize, keep: bool) {
        let n = &self.nodes[j];
        let (mut min_pn, mut sum_pn, mut min_dn, mut sum_dn) = (INF, 0u64, INF, 0u64);
        for &c in &n.children {
            let k = &self.nodes[c as usize];
            min_pn = min_pn.min(k.pn);
            min_dn = min_dn.min(k.dn);
            sum_pn += u64::from(k.pn);
            sum_dn += u64::from(k.dn);
        }
        let sat = |x: u64| if x >= u64::from(INF) { INF } else { x as u32 };
        let (pn, dn) = if n.or { (min_pn, sat(sum_dn)) } else { (sat(sum_pn), min_dn) };
        let n = &mut self.nodes[j];
        n.pn = pn;
        n.dn = dn;
        if (pn == 0 || dn == 0) && !keep {
            n.children = Vec::new();
        }
    }
}

/// Solves "value >= threshold" for the side to move at `game` by PN2 (or plain PNS
/// when `options.two_levels` is false). The verdict is [`Verdict::AtLeast`] with a
/// proving move, [`Verdict::Below`], or [`Verdict::Unknown`] when the budget runs out.
pub fn pn2<G: Game>(
    game: &G,
    options: &PnOptions,
    ordering: Option<&McOrdering<G::Move>>,
    budget: Budget,
) -> SolverAnswer<G::Move> {
    let mut run = Run { limiter: Limiter::new(budget), nodes: 1, threshold: options.threshold, ordering };
    let mut tree = Tree::new(game.clone(), true, &run);
    let second = options.two_levels.then_some((options.second_level_max, 0));
    let done = tree.grow(&mut run, u64::MAX, second);
    let root = &tree.nodes[0];
    let verdict = if !done {
        Verdict::Unknown
    } else if root.pn == 0 {
        Verdict::AtLeast(options.threshold)
    } else {
        Verdict::Below(options.threshold)
    };
    let best_move = if root.pn == 0 && done {
        root.children.iter().map(|&c| &tree.nodes[c as usize]).find(|c| c.pn == 0).and_then(|c| c.mv)
    } else {
        None
    };
    let stats = SolverStats { nodes: run.nodes, time: run.limiter.elapsed(), ..SolverStats::default() };
    SolverAnswer { verdict, best_move, stats }
}
