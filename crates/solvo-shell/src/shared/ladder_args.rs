//! The selective ladder's options (`--ladder`, `--ladder-depth-cut`, `--aspiration`),
//! shared by every command that solves exactly (`solve`, `bench ffo|wthor|random`).

use crate::error::CliError;
use crate::shared::load_weights;
use crate::Common;
use solvo_othello_search::{Ladder, LadderMode, LadderOptions};

/// Options of the selective ladder before exact solves.
#[derive(clap::Args, Debug, Clone)]
pub struct LadderArgs {
    /// Selective ladder before each exact solve: a Multi-ProbCut search on the
    /// evaluation almost to the end, whose table's moves order the exact search and
    /// whose value centres its first window (values never change). `auto`: at 73% from
    /// 18 empties on 8x8 under normal rules, for windows at least 3 discs wide (where
    /// it was measured to pay), when the weights carry Multi-ProbCut statistics; a
    /// percent (73, 87, 95, 98, 99): at that
    /// level; `off`. Not used with a time or node limit. Its nodes count as ordering
    /// nodes, its time in the solve's.
    #[arg(long, default_value = "auto", value_parser = crate::option_ranges::ladder_mode)]
    pub ladder: LadderMode,
    /// The ladder's search stops this many plies before the end of the game.
    #[arg(long, default_value_t = 2, value_parser = crate::option_ranges::ladder_depth_cut, allow_negative_numbers = true)]
    pub ladder_depth_cut: u32,
    /// Half width in discs of the first window around the ladder's estimate (0: the
    /// whole window at once).
    #[arg(long, default_value_t = solvo_othello_search::ASPIRATION as u32, value_parser = crate::option_ranges::aspiration, allow_negative_numbers = true)]
    pub aspiration: u32,
}

impl LadderArgs {
    /// The ladder these options describe, with the weights of `eval_file` (else the
    /// embedded ones for the variant; none when the variant has no embedded set).
    pub fn ladder(
        &self,
        threads: usize,
        eval_file: Option<&std::path::Path>,
        common: Common,
    ) -> Result<Ladder, CliError> {
        let weights = match (self.ladder, eval_file) {
            (LadderMode::Off, _) => None,
            (_, Some(_)) => Some(std::sync::Arc::new(load_weights(eval_file, common)?)),
            (_, None) => solvo_eval::embedded_shared(common.variant).ok(),
        };
        // The climb searches on the solve's own table: no memory of its own.
        let options = LadderOptions { depth_cut: self.ladder_depth_cut, threads, ..LadderOptions::default() };
        Ok(Ladder::new(self.ladder, weights, options, self.aspiration as i32))
    }
}
