//! Midgame-search options shared by `solvo analyze`, `solvo bench hard` and the Python
//! package's `analyze`.

use crate::error::CliError;
use crate::shared::weights::load_weights;
use crate::Common;
use solvo_othello_search::{pv_extension_for, SearchLimits, SearchResult, SelectiveSearch, Selectivity};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Search options shared by `solvo analyze` and `solvo bench hard`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search depth in plies (at or beyond the empties: exact solve).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Multi-ProbCut selectivity in percent: 73, 87, 95, 98, 99 or 100 (no cuts).
    #[arg(long, default_value_t = 100, value_parser = crate::option_ranges::selectivity)]
    pub selectivity: u32,
    /// Time limit per position in seconds (the last completed iteration is reported).
    #[arg(long, value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// Node limit per position (search and ordering nodes, checked every few thousand
    /// nodes; the last completed iteration is reported): on one thread the same limit
    /// gives the same search on any machine, so settings compare at equal nodes.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
    pub nodes: Option<u64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
    /// Transposition table size in MiB (one table, which the selective search and its
    /// exact solves share; it must fit in the machine's memory).
    #[arg(long, default_value_t = 64, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
    /// Solve exactly from this many empties (0: only when the depth reaches the end).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub exact_from: u32,
    /// Prove win, draw or loss from this many empties, above --exact-from (0: never):
    /// a won or drawn position plays a proven move.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub wld_from: u32,
    /// Solve principal-variation nodes with at most this many empties exactly (the PV
    /// extension; 0: off). Default: chosen by the depth (6-14 empties from depth 6 on).
    #[arg(long, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub pv_extension: Option<u32>,
    /// Value positions with at most this many empties exactly wherever the search meets
    /// them, instead of searching on or evaluating (0: off, the plain depth-limited
    /// value; the engine's levels use 8). With --time, a search whose depth reaches them
    /// at every leaf spends the time left on that depth at the next selectivity levels.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=10))]
    pub solve_empties: u32,
    /// Iterate every depth instead of two plies at a time (the default iterates only the
    /// depths of the target depth's parity).
    #[arg(long)]
    pub every_depth: bool,
    /// Weight file to use instead of the embedded weights of the variant.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t > 0.0 && *t <= 1e7)
        .ok_or_else(|| format!("{s}: expected a number of seconds greater than 0"))
}

impl SearchArgs {
    /// The searcher (weights of `--eval-file` or embedded) and the limits.
    pub fn searcher(&self, common: Common, all_moves: bool) -> Result<(SelectiveSearch, SearchLimits), CliError> {
        let weights = load_weights(self.eval_file.as_deref(), common)?;
        let selectivity = Selectivity::from_percent(self.selectivity)
            .ok_or_else(|| CliError(format!("--selectivity {}: not a level", self.selectivity)))?;
        crate::option_ranges::check_searcher_tables(self.hash_mb)?;
        let search = SelectiveSearch::try_new(Arc::new(weights), self.hash_mb)?;
        if self.selectivity < 100 && !search.has_mpc() {
            eprintln!("note: the weights carry no Multi-ProbCut statistics: searching without selectivity");
        }
        let limits = SearchLimits {
            depth: self.depth,
            selectivity,
            time: self.time.map(Duration::from_secs_f64),
            aim: None,
            threads: self.threads as usize,
            all_moves,
            exact_from: self.exact_from,
            wld_from: self.wld_from,
            nodes: self.nodes,
            pv_extension: self.pv_extension.unwrap_or_else(|| pv_extension_for(self.depth)),
            solve_empties: self.solve_empties,
            aspiration: true,
            every_depth: self.every_depth,
        };
        Ok((search, limits))
    }
}

/// Nodes per second of a result.
pub fn nps(r: &SearchResult) -> f64 {
    r.nodes as f64 / r.time.as_secs_f64().max(1e-9)
}
