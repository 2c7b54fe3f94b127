//! `solvo-lab bench`: the studies' benchmarks that print figures (never pass/fail).

use crate::error::CliError;
use crate::Common;

/// Arguments of `solvo-lab bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

/// The benchmarks.
#[derive(clap::Subcommand, Debug)]
pub enum What {
    /// The Monte Carlo Game Solver study's tables (--table N) with its figures beside
    /// ours, or any game x algorithm cells, each under a time limit; --schemes compares
    /// the table replacement schemes.
    Games(crate::commands::bench_games::BenchArgs),
}

/// Runs `solvo-lab bench`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    match args.what {
        What::Games(a) => crate::commands::bench_games::run(a, common),
    }
}
