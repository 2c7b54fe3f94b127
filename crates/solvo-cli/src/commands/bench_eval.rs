//! `solvo bench eval`: static evaluations per second on positions of random games.

use crate::error::CliError;
use crate::shared::load_weights;
use crate::Common;
use serde_json::json;
use std::time::Instant;

/// Arguments of `solvo bench eval`.
#[derive(clap::Args, Debug)]
pub struct EvalArgs {
    /// Positions to sample (from random games).
    #[arg(long, default_value_t = 100_000, value_parser = clap::value_parser!(u64).range(1..=10_000_000))]
    pub positions: u64,
    /// Passes over the positions.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub passes: u64,
    /// Weight file instead of the embedded weights.
    #[arg(long)]
    pub eval_file: Option<std::path::PathBuf>,
}

/// Runs `solvo bench eval`.
pub fn run(args: EvalArgs, common: Common) -> Result<(), CliError> {
    let weights = load_weights(args.eval_file.as_deref(), common)?;
    let boards = solvo_othello::random_games::random_game_boards(args.positions as usize, 1);
    let start = Instant::now();
    let mut checksum = 0i64;
    for _ in 0..args.passes {
        for b in &boards {
            checksum += i64::from(weights.evaluate(std::hint::black_box(b.player), b.opponent));
        }
    }
    let secs = start.elapsed().as_secs_f64();
    let evals = args.positions * args.passes;
    let rate = evals as f64 / secs.max(1e-9);
    if common.json {
        out!(
            "{}",
            json!({"bench": "eval", "evaluations": evals, "seconds": secs, "evaluations_per_second": rate,
                          "ns_per_evaluation": 1e9 / rate, "checksum": checksum})
        );
    } else {
        out!(
            "{evals} evaluations in {secs:.3} s: {:.2} M/s ({:.1} ns each; checksum {checksum})",
            rate / 1e6,
            1e9 / rate
        );
    }
    Ok(())
}
