//! A trained weight set: one table of `i16` weights per game stage, and the static
//! evaluation that sums them.

use crate::features::{feature_sum, STAGE_LEN};
use solvo_othello::{Board, BoardSize, Variant};

/// Number of game stages: stage `s` holds the positions with `4 + 2s` or `5 + 2s`
/// discs (the last stage also 64).
pub const NUM_STAGES: usize = 30;

/// Weight units per disc: an evaluation of `SCALE` means "one disc ahead at the end".
pub const SCALE: i32 = 128;

/// Largest magnitude of an evaluation in weight units (64 discs).
pub const MAX_EVAL: i32 = 64 * SCALE;

/// The stage of a position with `discs` discs on the board.
#[inline(always)]
pub const fn stage_of(discs: u32) -> usize {
    let s = (discs.saturating_sub(4) / 2) as usize;
    if s < NUM_STAGES {
        s
    } else {
        NUM_STAGES - 1
    }
}

/// Multi-ProbCut statistics for one stage and one pair of search depths: the deep
/// search's score is modelled as `shallow score + mean + N(0, sigma)` (discs).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MpcStat {
    /// Number of empty squares of the positions measured.
    pub empties: u8,
    /// Depth of the shallow search.
    pub shallow: u8,
    /// Depth of the deep search it predicts.
    pub deep: u8,
    /// Mean of `deep - shallow` (discs).
    pub mean: f32,
    /// Standard deviation of `deep - shallow` (discs).
    pub sigma: f32,
}

/// A complete evaluation: for each stage, one weight per feature (see
/// [`crate::features`]), in units of `1 / SCALE` disc, predicting the final disc
/// difference for the side to move under `variant`.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// Board size the features are defined on (8x8 only in this version).
    pub size: BoardSize,
    /// The scoring rule the weights predict.
    pub variant: Variant,
    /// How the weights were made (free text: commands, data, date).
    pub description: String,
    /// Multi-ProbCut statistics measured with these weights (may be empty).
    pub mpc: Vec<MpcStat>,
    table: Vec<i16>,
}

impl Weights {
    /// All-zero weights (every position evaluates to 0).
    pub fn zeros(variant: Variant) -> Weights {
        Weights {
            size: BoardSize::Eight,
            variant,
            description: String::new(),
            mpc: Vec::new(),
            table: vec![0; NUM_STAGES * STAGE_LEN],
        }
    }

    /// Builds weights from a flat table of `NUM_STAGES * STAGE_LEN` entries (stage-major).
    /// `None` if the length is wrong.
    pub fn from_table(variant: Variant, table: Vec<i16>) -> Option<Weights> {
        (table.len() == NUM_STAGES * STAGE_LEN).then(|| Weights { table, ..Weights::zeros(variant) })
    }

    /// The weights of stage `s` (`s < NUM_STAGES`).
    pub fn stage(&self, s: usize) -> &[i16] {
        &self.table[s * STAGE_LEN..(s + 1) * STAGE_LEN]
    }

    /// The weights of stage `s`, writable.
    pub fn stage_mut(&mut self, s: usize) -> &mut [i16] {
        &mut self.table[s * STAGE_LEN..(s + 1) * STAGE_LEN]
    }

    /// The flat table, stage-major.
    pub fn table(&self) -> &[i16] {
        &self.table
    }

    /// The static evaluation of `player` to move against `opponent`, in units of
    /// `1 / SCALE` disc, clamped to `[-MAX_EVAL, MAX_EVAL]`. Equal for the 8
    /// symmetric images of a position (the weights of symmetric pattern contents are
    /// tied in training). The position need not have a legal move.
    #[inline]
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        let stage = stage_of((player | opponent).count_ones());
        let w = &self.table[stage * STAGE_LEN..(stage + 1) * STAGE_LEN];
        feature_sum(player, opponent, w).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The static evaluation of `board` in discs (final disc difference for the side to
    /// move), rounded to the weights' resolution.
    pub fn evaluate_discs(&self, board: &Board) -> f64 {
        f64::from(self.evaluate(board.player, board.opponent)) / f64::from(SCALE)
    }

    /// The Multi-ProbCut statistic for positions with `empties` empty squares and a
    /// (shallow, deep) depth pair, if measured: the entry with the nearest `empties`.
    pub fn mpc_stat(&self, empties: u32, shallow: u32, deep: u32) -> Option<MpcStat> {
        self.mpc
            .iter()
            .filter(|m| u32::from(m.shallow) == shallow && u32::from(m.deep) == deep)
            .min_by_key(|m| (i64::from(m.empties) - i64::from(empties)).abs())
            .copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_cover_every_disc_count() {
        assert_eq!(stage_of(4), 0);
        assert_eq!(stage_of(5), 0);
        assert_eq!(stage_of(6), 1);
        assert_eq!(stage_of(63), NUM_STAGES - 1);
        assert_eq!(stage_of(64), NUM_STAGES - 1);
        assert_eq!(stage_of(0), 0);
    }
}
