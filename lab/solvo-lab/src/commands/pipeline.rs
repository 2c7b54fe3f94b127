//! `solvo-lab pipeline`: the reproduction of the published 8x8 run (the product's
//! pipeline is `solvo pipeline`).

use crate::error::CliError;
use crate::Common;

/// Arguments of `solvo-lab pipeline`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub stage: Stage,
}

/// What to run.
#[derive(clap::Subcommand, Debug)]
pub enum Stage {
    /// What can be reproduced of the published 8x8 run: the task list's invariant, our
    /// estimates against the published Edax scores, our selection against theirs, a
    /// sample of task expansions, the cost per leaf at windows [-1,1] and [-3,3], and the
    /// projected cost of the full re-proof over N workers.
    Published(crate::commands::pipeline_published::Args),
    /// Figures 2, 3 and 4 and Table 1 of the published run, as SVG files: nodes per
    /// solved leaf of a pipeline store (sorted, and by estimate), the positions the
    /// published tasks prove draws above 50 empties.
    Figures(crate::commands::pipeline_figures::Args),
}

/// Runs `solvo-lab pipeline`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    match args.stage {
        Stage::Published(a) => crate::commands::pipeline_published::run(a, common),
        Stage::Figures(a) => crate::commands::pipeline_figures::run(a, common),
    }
}
