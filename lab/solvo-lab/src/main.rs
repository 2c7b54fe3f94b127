//! `solvo-lab`: the lab wing's command line — the studies, the reproduction of the
//! published 8x8 run, weight-making — over the shell the product's `solvo` uses
//! (`solvo-shell`: the same common options, errors, exit codes and output).

#[macro_use]
extern crate solvo_shell;

/// The memory allocator: mimalloc, as the product's binary (the generic game solvers of
/// `bench games` allocate move lists at every node).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod commands;

use clap::{Parser, Subcommand};
use error::CliError;
pub use solvo_shell::{error, input_file, option_ranges, shared, Common};

/// solvo-lab — the studies, reproductions and weight-making of solvo.
#[derive(Parser, Debug)]
#[command(name = "solvo-lab", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    common: solvo_shell::CommonArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// The Reversed Reversi study: tune its feature weights (`tune --method ga|sa`).
    Study(commands::study::Args),
    /// The study's players (`ab:...`, `mcts:...`) against each other, the engine or
    /// external programs: every opening twice, colours swapped: wins, draws, losses,
    /// score rate, Elo with its interval.
    #[command(name = "match")]
    Match(commands::match_play::Args),
    /// Make evaluation weights: labelled samples from game files (`data`) or self-play
    /// (`selfplay`), a fit (`fit`), a residual network (`fit-net`), Multi-ProbCut
    /// statistics (`mpc`), accuracy against exact values (`check`).
    Train(commands::train::Args),
    /// The studies' benchmarks: `games`, the Monte Carlo Game Solver study's tables.
    Bench(commands::bench::Args),
    /// The reproduction of the published 8x8 run: `published`, `figures`.
    Pipeline(commands::pipeline::Args),
    /// The command line's definition as JSON (for the option-walking test).
    #[command(hide = true)]
    InternalOptions,
}

fn run(cli: Cli) -> Result<(), CliError> {
    let common = Common::from(cli.common);
    match cli.command {
        Command::Study(args) => commands::study::run(args, common),
        Command::Match(args) => commands::match_play::run(args, common),
        Command::Train(args) => commands::train::run(args, common),
        Command::Bench(args) => commands::bench::run(args, common),
        Command::Pipeline(args) => commands::pipeline::run(args, common),
        Command::InternalOptions => {
            solvo_shell::option_dump::run::<Cli>();
            Ok(())
        }
    }
}

fn main() {
    solvo_shell::main_with(run);
}
