//! The figures and Table 1 of the published 8x8 weak solve ("Othello is solved"), as far
//! as one machine reproduces them:
//!
//! - the cost of every leaf a pipeline run solved (its store's knowledge rows: the
//!   solver's nodes) with the position's estimate beside it, sorted (Figure 2: nodes per
//!   problem, largest first, and their running share) and summed by estimate (Figure 3);
//! - Table 1's rows (problems, searched positions, positions per GHz per core per
//!   second) of such a run;
//! - the perfect player's opening tree above the task depth (Figure 4) from the
//!   published tasks' claims alone (G50's proof questions, [`Prover`]): its own moves,
//!   the opponent's replies, and the positions proven draws.

use crate::published::PublishedTask;
use solvo_othello::{Board, BoardSize, Square};
use solvo_pipeline::estimate::Estimator;
use solvo_pipeline::goal::Bounds;
use solvo_pipeline::node::{node, Node};
use solvo_pipeline::proof::Prover;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;

/// One solved leaf of a pipeline run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LeafCost {
    /// The leaf (canonical, as stored).
    pub board: Board,
    /// The solver's nodes for it, as recorded with its knowledge.
    pub nodes: u64,
    /// Its estimate (the pipeline's E, Algorithm 2's rule).
    pub estimate: i32,
}

/// Every leaf solved in the pipeline store at `db` (SQLite), each with its recorded
/// nodes and its estimate by `estimator`, in the store's order. An error names the file
/// when it is not a pipeline store.
pub fn leaf_costs(db: &Path, estimator: &Estimator) -> Result<Vec<LeafCost>, String> {
    let named = |e: &dyn std::fmt::Display| format!("{}: {e}", db.display());
    if !db.is_file() {
        return Err(named(&"no such file (a pipeline store is made by `solvo pipeline run`)"));
    }
    let conn =
        rusqlite::Connection::open_with_flags(db, rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY).map_err(|e| named(&e))?;
    let mut stmt = conn
        .prepare("SELECT player, opponent, nodes FROM knowledge ORDER BY rowid")
        .map_err(|e| named(&format!("not a pipeline store ({e})")))?;
    let rows = stmt
        .query_map([], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?)))
        .map_err(|e| named(&e))?;
    let mut out = Vec::new();
    for row in rows {
        let (p, o, n) = row.map_err(|e| named(&e))?;
        let board = Board { player: p as u64, opponent: o as u64 };
        out.push(LeafCost { board, nodes: n.max(0) as u64, estimate: estimator.estimate(&board) });
    }
    Ok(out)
}

/// One point of Figure 2: the leaf at `rank` (0 = the costliest) of the leaves sorted by
/// nodes, largest first.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SortedPoint {
    /// Its rank as a share of the leaves (0..1).
    pub share: f64,
    /// Its nodes.
    pub nodes: u64,
    /// The nodes of it and every costlier leaf, as a share of all the nodes (0..1).
    pub cumulative: f64,
}

/// Figure 2's two curves at `points` evenly spaced ranks (the paper: every 1/1000 of
/// the leaves), and the last leaf: nodes per leaf sorted largest first, and the running
/// share of all nodes. Empty when there is no leaf.
pub fn sorted_profile(costs: &[LeafCost], points: usize) -> Vec<SortedPoint> {
    let mut nodes: Vec<u64> = costs.iter().map(|c| c.nodes).collect();
    nodes.sort_unstable_by(|a, b| b.cmp(a));
    let total: f64 = nodes.iter().map(|&n| n as f64).sum::<f64>().max(1.0);
    let mut running = Vec::with_capacity(nodes.len());
    let mut sum = 0.0;
    for &n in &nodes {
        sum += n as f64;
        running.push(sum / total);
    }
    let len = nodes.len();
    let mut ranks: Vec<usize> = (0..points.max(1)).map(|i| i * len / points.max(1)).collect();
    ranks.push(len.saturating_sub(1));
    ranks.dedup();
    ranks
        .into_iter()
        .filter(|&r| r < len)
        .map(|r| SortedPoint { share: r as f64 / len as f64, nodes: nodes[r], cumulative: running[r] })
        .collect()
}

/// The share of all nodes the costliest `fraction` of the leaves took (Figure 2 read at
/// one rank).
pub fn top_share(costs: &[LeafCost], fraction: f64) -> f64 {
    let mut nodes: Vec<u64> = costs.iter().map(|c| c.nodes).collect();
    nodes.sort_unstable_by(|a, b| b.cmp(a));
    let total: f64 = nodes.iter().map(|&n| n as f64).sum::<f64>().max(1.0);
    let k = ((nodes.len() as f64 * fraction).ceil() as usize).min(nodes.len());
    nodes[..k].iter().map(|&n| n as f64).sum::<f64>() / total
}

/// Figure 3: leaves and their nodes summed by estimate.
pub fn nodes_by_estimate(costs: &[LeafCost]) -> BTreeMap<i32, (u64, u64)> {
    let mut out: BTreeMap<i32, (u64, u64)> = BTreeMap::new();
    for c in costs {
        let e = out.entry(c.estimate).or_default();
        e.0 += 1;
        e.1 += c.nodes;
    }
    out
}

/// Table 1's rows for a run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TableOne {
    /// Problems: leaves solved.
    pub problems: u64,
    /// Positions: the solver's nodes over every leaf.
    pub positions: u64,
    /// Search capability: nodes per GHz per core per second, when the run's CPU seconds
    /// and clock are given.
    pub per_ghz_core_second: Option<f64>,
}

/// Table 1 for `costs`; `cpu` = (CPU seconds the solves took, clock in GHz) when known
/// (the nodes counted are the leaves' only).
pub fn table_one(costs: &[LeafCost], cpu: Option<(f64, f64)>) -> TableOne {
    let positions: u64 = costs.iter().map(|c| c.nodes).sum();
    TableOne {
        problems: costs.len() as u64,
        positions,
        per_ghz_core_second: cpu.filter(|&(s, g)| s > 0.0 && g > 0.0).map(|(s, g)| positions as f64 / s / g),
    }
}

/// The published optimal record (the paper's Figure 1), its first ten moves: the line
/// down to the task depth.
pub const PUBLISHED_OPENING: [&str; 10] = ["f5", "d6", "c3", "d3", "c4", "f4", "f6", "f3", "e6", "e7"];

/// What the perfect player does at a position of its opening tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The player is to move and plays one move (its choice).
    Player,
    /// The opponent is to move: every move is answered.
    Opponent,
}

/// One position of the opening tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeNode {
    /// The position, in the orientation first reached from the start (the published
    /// line's move walked first: its positions keep the record's orientation, f5 first);
    /// the side to move is the player.
    pub board: Board,
    /// Plies from the start (a forced pass adds none).
    pub ply: u32,
    /// On the published line (the first ten moves of the record).
    pub on_line: bool,
    /// Proven a draw (value >= 0 and <= 0) by the claims alone.
    pub draw: bool,
    /// The roles the position has: when the player is Black (the start's side to move)
    /// and when the player is White; `None` where that player's tree does not reach it.
    pub roles: [Option<Role>; 2],
    /// The moves drawn from it: (square in `board`'s orientation, child index, the
    /// player's choice (true) or an opponent's move (false)).
    pub moves: Vec<(Square, usize, bool)>,
}

/// Figure 4: the perfect player's opening tree above the task depth from the tasks'
/// claims alone: playing Black it proves the start `>= 0`, playing White `<= 0`; at its
/// own turns it plays one move proven to keep its bound (the published line's when that
/// one does, else one proven a draw, else the first in square order), at the
/// opponent's turns every move is answered (each is proven to keep the player's bound).
/// Symmetric positions are merged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OpeningTree {
    /// Breadth first from the start (index 0).
    pub nodes: Vec<TreeNode>,
    /// Positions the proof questions examined.
    pub prover_nodes: u64,
    /// Whether the claims prove the start `>= 0` (Black's tree) and `<= 0` (White's).
    pub proven: [bool; 2],
}

impl OpeningTree {
    /// Positions per ply.
    pub fn per_ply(&self) -> Vec<usize> {
        let mut out = Vec::new();
        for n in &self.nodes {
            if out.len() <= n.ply as usize {
                out.resize(n.ply as usize + 1, 0);
            }
            out[n.ply as usize] += 1;
        }
        out
    }

    /// Positions per ply proven draws.
    pub fn draws_per_ply(&self) -> Vec<usize> {
        let mut out = vec![0; self.per_ply().len()];
        for n in self.nodes.iter().filter(|n| n.draw) {
            out[n.ply as usize] += 1;
        }
        out
    }
}

/// Builds the opening tree of the 8x8 start from `tasks` (positions at `task_empties`
/// empties with the bounds their hypotheses claim), down to the task depth.
pub fn opening_tree(tasks: &[PublishedTask], task_empties: u32) -> OpeningTree {
    let size = BoardSize::Eight;
    let knowledge: HashMap<Board, Bounds> = tasks.iter().map(|t| (t.board.canonical(), t.claimed())).collect();
    let mut prover = Prover::new(size, task_empties, knowledge);
    let line: Vec<Square> = PUBLISHED_OPENING.iter().filter_map(|s| Square::parse(s)).collect();
    let start = Board::start();
    let proven = [prover.proves_ge(&start, 0), prover.proves_le(&start, 0)];
    let draw = proven[0] && proven[1];
    let mut nodes =
        vec![TreeNode { board: start, ply: 0, on_line: true, draw, roles: [None, None], moves: Vec::new() }];
    // Black's tree: Black (the start's mover) is the player; White's: the opponent.
    if proven[0] {
        nodes[0].roles[0] = Some(Role::Player);
    }
    if proven[1] {
        nodes[0].roles[1] = Some(Role::Opponent);
    }
    let mut index: HashMap<Board, usize> = HashMap::from([(start.canonical(), 0)]);
    let mut i = 0;
    while i < nodes.len() {
        let (board, ply, on_line, roles) = (nodes[i].board, nodes[i].ply, nodes[i].on_line, nodes[i].roles);
        i += 1;
        if board.empties(size) <= task_empties {
            continue;
        }
        let next = on_line.then(|| line.get(ply as usize).copied()).flatten();
        // Each legal move: its square, its child (passes folded) and whether the
        // child's mover is the same side as this node's (a forced pass).
        let children: Vec<(Square, Board, bool)> = Square::iter(board.moves(size))
            .map(|sq| {
                let child = board.play_with_flips(sq, board.flips(sq));
                match node(&child, size) {
                    Node::Pass(passed) => (sq, passed, true),
                    _ => (sq, child, false),
                }
            })
            .collect();
        // (square, child, child's roles, the player's choice).
        let mut chosen: Vec<(Square, Board, [Option<Role>; 2], bool)> = Vec::new();
        for tree in 0..2 {
            let Some(role) = roles[tree] else { continue };
            // The child keeps the player's bound when its mover's value is proven <= 0
            // (the opponent moves next) or >= 0 (after a pass the player moves again).
            let flip = |r: Role| if r == Role::Player { Role::Opponent } else { Role::Player };
            let child_role = |same: bool| if same { role } else { flip(role) };
            let keeps = |p: &mut Prover<HashMap<Board, Bounds>>, c: &Board, same: bool| {
                if child_role(same) == Role::Player {
                    p.proves_ge(c, 0)
                } else {
                    p.proves_le(c, 0)
                }
            };
            match role {
                Role::Player => {
                    let ok: Vec<&(Square, Board, bool)> =
                        children.iter().filter(|(_, c, same)| keeps(&mut prover, c, *same)).collect();
                    let is_draw =
                        |p: &mut Prover<HashMap<Board, Bounds>>, c: &Board| p.proves_ge(c, 0) && p.proves_le(c, 0);
                    let pick = ok
                        .iter()
                        .find(|(sq, _, _)| Some(*sq) == next)
                        .or_else(|| ok.iter().find(|(_, c, _)| is_draw(&mut prover, c)))
                        .or_else(|| ok.first())
                        .copied();
                    if let Some(&(sq, c, same)) = pick {
                        let mut r = [None, None];
                        r[tree] = Some(child_role(same));
                        chosen.push((sq, c, r, true));
                    }
                }
                Role::Opponent => {
                    for &(sq, c, same) in &children {
                        let mut r = [None, None];
                        r[tree] = Some(child_role(same));
                        chosen.push((sq, c, r, false));
                    }
                }
            }
        }
        let mut moves = Vec::new();
        for (sq, c, r, by_player) in chosen {
            let key = c.canonical();
            let j = match index.get(&key) {
                Some(&j) => j,
                None => {
                    let draw = prover.proves_ge(&c, 0) && prover.proves_le(&c, 0);
                    nodes.push(TreeNode {
                        board: c,
                        ply: ply + 1,
                        on_line: next == Some(sq),
                        draw,
                        roles: [None, None],
                        moves: Vec::new(),
                    });
                    index.insert(key, nodes.len() - 1);
                    nodes.len() - 1
                }
            };
            for (role, new) in nodes[j].roles.iter_mut().zip(r) {
                if role.is_none() {
                    *role = new;
                }
            }
            if !moves.iter().any(|&(_, k, p)| k == j && p == by_player) {
                moves.push((sq, j, by_player));
            }
        }
        nodes[i - 1].moves = moves;
    }
    OpeningTree { nodes, prover_nodes: prover.nodes, proven }
}
