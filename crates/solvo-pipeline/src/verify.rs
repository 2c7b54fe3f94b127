//! Verification: the proof rebuilt bottom-up from the knowledge alone. Every knowledge
//! row is checked (checksum, canonical board at the leaf depth, possible bounds); damaged
//! rows are reported and left out. Then each selected task's goal and the root's value
//! are re-proven through the tree down to the leaves, trusting no task status, no job,
//! and no estimate.

use crate::config::Config;
use crate::goal::{Bounds, Goal};
use crate::node::normalized;
use crate::proof::Prover;
use crate::store::{PipelineStore, PipelineStoreResult};
use solvo_othello::Board;
use std::collections::HashMap;

/// What verification found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PipelineVerifyReport {
    /// The value the pipeline set out to prove (meta `hypothesis`).
    pub hypothesis: Option<i32>,
    /// The root's value, when the knowledge proves it exactly.
    pub root_value: Option<i32>,
    /// The root's proven bounds (at the hypothesis' edges).
    pub root_bounds: Bounds,
    /// Selected tasks whose goal the knowledge proves / all selected tasks.
    pub tasks_proven: usize,
    /// Selected tasks.
    pub tasks: usize,
    /// Knowledge rows read and accepted.
    pub knowledge_rows: usize,
    /// Damaged or foreign rows (left out), with what is wrong.
    pub bad_rows: Vec<String>,
    /// Proof-tree positions examined.
    pub nodes: u64,
}

impl PipelineVerifyReport {
    /// The proof is complete: the knowledge proves the root's value exactly, every
    /// selected task's goal is proven, and no knowledge row was left out as damaged.
    pub fn is_complete(&self) -> bool {
        self.root_value.is_some() && self.bad_rows.is_empty() && self.tasks_proven == self.tasks
    }
}

/// Writes `table` (as [`verify_with_table`] returns it) in the table file's format: one
/// position a line, `player opponent` in hexadecimal, the proven `lower upper` and the
/// class digit (`-` when the bounds straddle a draw); what
/// [`crate::player::TablePlayer::from_table_text`] reads.
pub fn write_table(table: &[(Board, Bounds)], out: &mut dyn std::io::Write) -> std::io::Result<()> {
    for (b, k) in table {
        let c = class(*k).map_or("-".to_string(), |c| c.to_string());
        writeln!(out, "{:016x} {:016x} {} {} {}", b.player, b.opponent, k.lower, k.upper, c)?;
    }
    Ok(())
}

/// Every valid knowledge row of `store`, and the reasons the others were refused.
pub fn load_knowledge(
    store: &dyn PipelineStore,
    cfg: &Config,
) -> PipelineStoreResult<(HashMap<Board, Bounds>, Vec<String>)> {
    let mut good = HashMap::new();
    let mut bad = Vec::new();
    for row in store.knowledge_rows()? {
        match row.check(cfg.size.mask(), cfg.leaf_empties) {
            Ok((b, k)) => {
                good.insert(b, k);
            }
            Err(e) => bad.push(e),
        }
    }
    Ok((good, bad))
}

/// Rebuilds the proof from the knowledge of `store` alone.
pub fn verify(store: &dyn PipelineStore, cfg: &Config) -> PipelineStoreResult<PipelineVerifyReport> {
    verify_with_table(store, cfg).map(|(r, _)| r)
}

/// The class of proven bounds in the published table's digits (4 win, 3 win or draw,
/// 2 draw, 1 draw or loss, 0 loss, for the side to move); `None` when the bounds
/// straddle a draw.
pub fn class(b: Bounds) -> Option<u8> {
    match (b.lower, b.upper) {
        (l, _) if l > 0 => Some(4),
        (_, u) if u < 0 => Some(0),
        (0, 0) => Some(2),
        (0, _) => Some(3),
        (_, 0) => Some(1),
        _ => None,
    }
}

/// [`verify`], and the table: every position above the leaf depth that the proof
/// established something about, with its proven bounds (canonical, sorted).
pub fn verify_with_table(
    store: &dyn PipelineStore,
    cfg: &Config,
) -> PipelineStoreResult<(PipelineVerifyReport, Vec<(Board, Bounds)>)> {
    let (knowledge, bad_rows) = load_knowledge(store, cfg)?;
    let knowledge_rows = knowledge.len();
    let hypothesis = store.meta("hypothesis")?.and_then(|h| h.parse::<i32>().ok());
    let mut prover = Prover::new(cfg.size, cfg.leaf_empties, knowledge);
    let tasks: Vec<_> = store.tasks()?.into_iter().filter(|t| t.selected).collect();
    let tasks_proven = tasks.iter().filter(|t| prover.proves(&t.board, t.goal)).count();
    let root = normalized(cfg.root, cfg.size);
    let (root_value, root_bounds) = match hypothesis {
        Some(h) => {
            let bounds = prover.bounds_for(&root, Goal::exact(h));
            ((bounds.lower == h && bounds.upper == h).then_some(h), bounds)
        }
        None => (None, Bounds::unknown(cfg.size.squares() as i32)),
    };
    let table = prover.facts();
    let report = PipelineVerifyReport {
        hypothesis,
        root_value,
        root_bounds,
        tasks_proven,
        tasks: tasks.len(),
        knowledge_rows,
        bad_rows,
        nodes: prover.nodes,
    };
    Ok((report, table))
}
