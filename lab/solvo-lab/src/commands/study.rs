//! `solvo-lab study tune`: the Reversed Reversi study's weight tuning (genetic algorithm or
//! simulated annealing, fitness from self-play matches against the hand-set weights),
//! with a log of the best individual per generation; a rerun with the same log starts
//! from its last logged weights.

use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_othello::BoardSize;
use solvo_study::features::{FeatureWeights, WEIGHTS};
use solvo_study::tune::{annealing, genetic, RoundBest, TuneSettings};
use std::io::Write;
use std::path::PathBuf;

/// Arguments of `solvo-lab study`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

/// What to do.
#[derive(clap::Subcommand, Debug)]
pub enum What {
    /// Tune the feature weights (genetic algorithm or simulated annealing).
    Tune(TuneArgs),
}

/// Arguments of `solvo-lab study tune`.
#[derive(clap::Args, Debug)]
pub struct TuneArgs {
    /// `ga` (genetic algorithm) or `sa` (simulated annealing).
    #[arg(long, default_value = "ga", value_parser = ["ga", "sa"])]
    pub method: String,
    /// Generations (ga) or steps (sa).
    #[arg(long, default_value_t = 10, value_parser = crate::option_ranges::rounds, allow_negative_numbers = true)]
    pub rounds: u32,
    /// Population of the genetic algorithm.
    #[arg(long, default_value_t = 12, value_parser = crate::option_ranges::population, allow_negative_numbers = true)]
    pub population: usize,
    /// Random openings of each fitness match (each played twice).
    #[arg(long, default_value_t = 10, value_parser = crate::option_ranges::openings, allow_negative_numbers = true)]
    pub openings: usize,
    /// Search depth of the fitness games.
    #[arg(long, default_value_t = 2, value_parser = crate::option_ranges::plies, allow_negative_numbers = true)]
    pub depth: u32,
    /// Seed of openings, mutations and selection.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Log file: one line per generation/step (`round fitness weights...`), appended;
    /// a rerun starts from its last line's weights.
    #[arg(long)]
    pub log: Option<PathBuf>,
}

/// Runs `solvo-lab study`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let What::Tune(a) = args.what;
    if common.size.is_some_and(|s| s != BoardSize::Eight) {
        return Err(CliError("study: the feature evaluation is for 8x8".into()));
    }
    let mut initial = FeatureWeights::hand_set(common.variant);
    let mut first_round = 0;
    if let Some(path) = a.log.as_ref().filter(|p| p.exists()) {
        let text = crate::input_file::read_text(path)?;
        if let Some(line) = text.lines().rev().find(|l| !l.trim().is_empty()) {
            let words: Vec<&str> = line.split_whitespace().collect();
            if words.len() != WEIGHTS + 2 {
                return Err(CliError(format!("{}: the last line is not `round fitness weights...`", path.display())));
            }
            first_round = words[0].parse().map_err(|_| CliError(format!("{}: bad round number", path.display())))?;
            initial = words[2..].join(" ").parse().map_err(CliError)?;
            eprintln!("resuming after round {first_round} of {}", path.display());
        }
    }
    let settings = TuneSettings {
        variant: common.variant,
        openings: a.openings,
        depth: a.depth.max(1),
        rounds: a.rounds,
        population: a.population,
        seed: a.seed.wrapping_add(u64::from(first_round)),
    };
    let mut log = match &a.log {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| CliError(format!("{}: {e}", p.display())))?,
        ),
        None => None,
    };
    let mut write_error = None;
    let mut on_round = |r: &RoundBest| {
        let round = first_round + r.round;
        if let Some(f) = &mut log {
            if let Err(e) = writeln!(f, "{round} {:.4} {}", r.fitness, r.weights) {
                write_error.get_or_insert(e.to_string());
            }
        }
        eprintln!("round {round}: best fitness {:.3}", r.fitness);
    };
    let best = if a.method == "ga" {
        genetic(&settings, &initial, &mut on_round)
    } else {
        annealing(&settings, &initial, &mut on_round)
    };
    if let Some(e) = write_error {
        return Err(CliError(format!("writing the log: {e}")));
    }
    if common.json {
        out!("{}", json!({"method": a.method, "fitness": best.fitness, "weights": best.weights.to_string()}));
    } else {
        out!("{} best: fitness {:.3} (score rate against the hand-set weights)", a.method, best.fitness);
        out!("{}", best.weights);
    }
    Ok(())
}
