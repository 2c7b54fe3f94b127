//! The selective ladder before an exact solve: a Multi-ProbCut search on the
//! evaluation (iterative deepening, aspiration) run almost to the end of the game,
//! whose table then hands the exact solver a first move at every position it stored
//! (`solvo_endgame::hints`). The strongest engines climb selectivity levels inside the
//! endgame search itself; here the climb is the midgame search's own iterative
//! deepening at one chosen level, and only the moves cross over: the exact pass never
//! reads a selective bound, so its value cannot depend on the ladder (ordering only; a
//! test checks equal values with and without).

use crate::driver::{MidgameSearch, SearchError, SearchLimits};
use crate::mpc::Selectivity;
use crate::tt::{position_hash, TranspositionTable, NO_MOVE};
use solvo_endgame::hints::MoveHints;
use solvo_eval::Weights;
use solvo_othello::Position;
use std::sync::Arc;
use std::time::Duration;

/// Move hints read from a midgame table: the best move stored for a position, whatever
/// the depth or selectivity of the search that stored it.
pub struct TableHints(pub Arc<TranspositionTable>);

impl MoveHints for TableHints {
    #[inline]
    fn best_move(&self, p: u64, o: u64) -> Option<u8> {
        self.0.probe(position_hash(p, o)).map(|e| e.best).filter(|&b| b != NO_MOVE)
    }
}

/// How to climb the ladder.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LadderOptions {
    /// Selectivity of the search (e.g. 73%).
    pub selectivity: Selectivity,
    /// The search goes to `empties - depth_cut` plies (at least 1): its leaves are the
    /// evaluation of nearly finished positions, never an exact solve.
    pub depth_cut: u32,
    /// Table size, MiB.
    pub hash_mb: usize,
    /// Search threads.
    pub threads: usize,
}

impl Default for LadderOptions {
    /// 73% selectivity to 2 empties before the end, 256 MiB, 1 thread.
    fn default() -> LadderOptions {
        LadderOptions {
            selectivity: Selectivity::from_percent(73).expect("73 is a level"),
            depth_cut: 2,
            hash_mb: 256,
            threads: 1,
        }
    }
}

/// What the ladder found: the hints for the exact solve and its estimate.
pub struct LadderResult {
    /// The table's best moves, for `SolveOptions::hints`.
    pub hints: Arc<dyn MoveHints>,
    /// The selective search's value of the position, discs (an estimate only).
    pub estimate: f64,
    /// Depth searched.
    pub depth: u32,
    /// Nodes of the selective search.
    pub nodes: u64,
    /// Its wall time.
    pub time: Duration,
}

/// Runs the selective search of `pos` with `weights` (their Multi-ProbCut statistics
/// decide the cuts; without any the search is unselective). Errors as
/// [`MidgameSearch::search`] (a board that is not 8x8, another variant).
pub fn climb(weights: Arc<Weights>, pos: &Position, options: &LadderOptions) -> Result<LadderResult, SearchError> {
    let mut search = MidgameSearch::new(weights, options.hash_mb);
    let depth = pos.empties().saturating_sub(options.depth_cut).max(1);
    let limits =
        SearchLimits { depth, selectivity: options.selectivity, threads: options.threads, ..SearchLimits::default() };
    let r = search.search(pos, &limits)?;
    Ok(LadderResult { hints: search.move_hints(), estimate: r.score, depth: r.depth, nodes: r.nodes, time: r.time })
}
