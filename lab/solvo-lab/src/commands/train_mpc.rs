//! `solvo-lab train mpc`: measures the Multi-ProbCut statistics of a weight set on
//! positions of WTHOR games and writes a copy of the weights carrying them.
//!
//! For each number of empties asked, positions of games spread evenly over the files
//! are searched without selectivity to every depth up to `--max-depth`; for each deep
//! depth the mean and spread of `deep - shallow` (discs) are measured, and deeper
//! pairs get fitted values (see `solvo_train::mpc_stats`).

use crate::error::{context, CliError};
use crate::shared::{load_weights, read_wthor};
use crate::Common;
use serde_json::json;
use solvo_othello::formats::wthor::WthorGame;
use solvo_othello::{Position, Variant};
use solvo_othello_search::SelectiveSearch;
use solvo_train::mpc_stats::{complete, depth_values, fit_sigma_model, measure_cells, MeasuredCell};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `solvo-lab train mpc`.
#[derive(clap::Args, Debug)]
pub struct MpcArgs {
    /// WTHOR game files (`.wtb`) the positions are taken from.
    #[arg(required = true)]
    pub wthor: Vec<PathBuf>,
    /// The weight file to measure (default: the embedded weights of the variant).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// Where the copy of the weights with the statistics goes.
    #[arg(long)]
    pub out: PathBuf,
    /// Empties counts to measure (comma separated).
    #[arg(long, value_delimiter = ',', default_value = "14,18,22,26,30,34,38,42,46,50,54",
          value_parser = clap::value_parser!(u32).range(4..=59))]
    pub empties: Vec<u32>,
    /// Positions per empties count.
    #[arg(long, default_value_t = 24, value_parser = clap::value_parser!(u64).range(2..=100_000))]
    pub positions: u64,
    /// Deepest search measured.
    #[arg(long, default_value_t = 9, value_parser = clap::value_parser!(u32).range(3..=30))]
    pub max_depth: u32,
    /// Deepest depth given fitted statistics.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(3..=60))]
    pub fit_depth: u32,
    /// Search threads (the measured values do not depend on them).
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Transposition table size in MiB (the exact solver may get another of this size;
    /// both must fit in the machine's memory).
    #[arg(long, default_value_t = 32, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
}

/// `count` positions with `empties` empties from games spread evenly over `games`
/// (starting at an offset that depends on `empties`, so stages use other games).
fn sample_positions(games: &[WthorGame], empties: u32, count: usize, variant: Variant) -> Vec<Position> {
    let mut out = Vec::with_capacity(count);
    let n = games.len();
    let stride = (n / count.max(1)).max(1);
    let mut k = empties as usize * 7919 % n.max(1);
    for _ in 0..n {
        if out.len() == count {
            break;
        }
        if let Some(p) = games[k].position_at_empties(empties) {
            // The boards of (normal-rule) games, scored under the weights' variant.
            out.push(Position { variant, ..p });
        }
        k = (k + stride) % n;
    }
    out
}

/// Runs `solvo-lab train mpc`.
pub fn run(args: MpcArgs, common: Common) -> Result<(), CliError> {
    let start = Instant::now();
    let mut weights = load_weights(args.eval_file.as_deref(), common)?;
    let mut games = Vec::new();
    for f in &args.wthor {
        let db = read_wthor(f)?;
        games.extend(db.whole_games().map(|(_, g)| g.clone()));
    }
    if games.is_empty() {
        return Err(CliError("no games in the WTHOR files".into()));
    }
    crate::option_ranges::check_searcher_tables(args.hash_mb)?;
    let mut search = SelectiveSearch::try_new(Arc::new(weights.clone()), args.hash_mb)?;
    let mut measured: Vec<MeasuredCell> = Vec::new();
    for &e in &args.empties {
        let t = Instant::now();
        let positions = sample_positions(&games, e, args.positions as usize, weights.variant);
        let values = positions
            .iter()
            .map(|p| depth_values(&mut search, p, args.max_depth, args.threads))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|err| CliError(format!("measuring the positions with {e} empties: {err}")))?;
        let cells = measure_cells(e, &values);
        eprintln!(
            "{e} empties: {} positions, {} cells, {:.1} s",
            positions.len(),
            cells.len(),
            t.elapsed().as_secs_f64()
        );
        measured.extend(cells);
    }
    if measured.is_empty() {
        return Err(CliError("no statistics measured (too few positions or depths)".into()));
    }
    let all = complete(&measured, args.fit_depth);
    if let Some(m) = fit_sigma_model(&measured) {
        eprintln!(
            "spread model: sigma = {:.3} {:+.4} * empties {:+.3} * shallow {:+.3} * deep {:+.3} * odd (plus each stage's mean residual)",
            m[0], m[1], m[2], m[3], m[4]
        );
    }
    for c in &all {
        let s = c.stat;
        if common.json {
            out!(
                "{}",
                json!({"empties": s.empties, "shallow": s.shallow, "deep": s.deep, "mean": s.mean, "sigma": s.sigma,
                       "samples": c.samples, "fitted": c.samples == 0})
            );
        } else if c.samples > 0 || s.deep % 4 == 0 {
            out!(
                "empties {:>2}  depth {:>2} <- {:>2}  mean {:+6.2}  sigma {:5.2}  {}",
                s.empties,
                s.deep,
                s.shallow,
                s.mean,
                s.sigma,
                if c.samples > 0 { format!("{} positions", c.samples) } else { "fitted".to_string() }
            );
        }
    }
    weights.mpc = all.iter().map(|c| c.stat).collect();
    let note = format!(
        "MPC: {} cells measured ({} positions per stage, depths to {}, empties {:?}), fitted to depth {}",
        measured.len(),
        args.positions,
        args.max_depth,
        args.empties,
        args.fit_depth
    );
    weights.description =
        if weights.description.is_empty() { note } else { format!("{}; {note}", weights.description) };
    std::fs::write(&args.out, weights.to_bytes()).map_err(context(args.out.display()))?;
    if !common.json {
        out!("wrote {} ({} statistics) in {:.1} s", args.out.display(), all.len(), start.elapsed().as_secs_f64());
    }
    Ok(())
}
