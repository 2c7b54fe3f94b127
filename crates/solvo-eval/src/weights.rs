//! A trained weight set: one table of `i16` weights per game stage, and the static
//! evaluation that sums them.

#[cfg(feature = "residual")]
use crate::features::feature_list;
use crate::features::{feature_sum, STAGE_LEN};
use crate::features6::{feature_sum6, stage_of6, NUM_STAGES6, STAGE_LEN6};
use crate::format::WeightFileError;
#[cfg(feature = "residual")]
use crate::residual::ResidualNet;
use solvo_othello::{Board, BoardSize, Variant};

/// Number of 8x8 game stages: stage `s` holds the positions with `4 + 2s` or `5 + 2s`
/// discs (the last stage also 64). 6x6 has [`NUM_STAGES6`].
pub const NUM_STAGES: usize = 30;

/// The shape of the weights of one board size: stages and weights per stage; `None`
/// for a board size without evaluation features (4x4).
pub const fn layout_of(size: BoardSize) -> Option<(usize, usize)> {
    match size {
        BoardSize::Eight => Some((NUM_STAGES, STAGE_LEN)),
        BoardSize::Six => Some((NUM_STAGES6, STAGE_LEN6)),
        BoardSize::Four => None,
    }
}

/// The stage of a position with `discs` discs on a board of `size` (8x8: [`stage_of`],
/// 6x6: [`stage_of6`]).
#[inline]
pub const fn stage_of_size(size: BoardSize, discs: u32) -> usize {
    match size {
        BoardSize::Six => stage_of6(discs),
        _ => stage_of(discs),
    }
}

/// How far (search units: 8 discs) the linear sum must lie outside a search's window
/// for [`Weights::evaluate_within`] to leave the residual network out. Edax's hard-25
/// at depth 12@73% with a network (2026-12-01, `docs/results/evaluation.md`): 4 discs
/// lost most of what the network adds to the move choice, 8 discs none of it.
#[cfg(feature = "residual")]
pub const LAZY_MARGIN: i32 = 8 * SCALE;

/// Weight units per disc: an evaluation of `SCALE` means "one disc ahead at the end".
pub const SCALE: i32 = 128;

/// Largest magnitude of an evaluation in weight units (64 discs).
pub const MAX_EVAL: i32 = 64 * SCALE;

/// The stage of a position with `discs` discs on the board.
#[inline(always)]
pub const fn stage_of(discs: u32) -> usize {
    crate::layout::stage_in(discs, NUM_STAGES)
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
    /// Board size the features are defined on (8x8 or 6x6); it fixes the table's
    /// shape ([`layout_of`]), so it is private to the constructors.
    size: BoardSize,
    /// The scoring rule the weights predict.
    pub variant: Variant,
    /// How the weights were made (free text: commands, data, date).
    pub description: String,
    /// Multi-ProbCut statistics measured with these weights (may be empty).
    pub mpc: Vec<MpcStat>,
    table: Vec<i16>,
    /// The residual network added to the linear sum (8x8 only), if any.
    #[cfg(feature = "residual")]
    net: Option<Box<ResidualNet>>,
}

impl Weights {
    /// All-zero 8x8 weights (every position evaluates to 0).
    pub fn zeros(variant: Variant) -> Weights {
        Weights {
            size: BoardSize::Eight,
            variant,
            description: String::new(),
            mpc: Vec::new(),
            table: vec![0; NUM_STAGES * STAGE_LEN],
            #[cfg(feature = "residual")]
            net: None,
        }
    }

    /// All-zero weights for `size` (8x8 or 6x6); an error naming the size for a board
    /// without evaluation features (4x4).
    pub fn zeros_for(size: BoardSize, variant: Variant) -> Result<Weights, WeightFileError> {
        let (stages, len) = layout_of(size).ok_or_else(|| WeightFileError {
            message: format!("there are no evaluation features for {size} boards (only 8x8 and 6x6)"),
        })?;
        Ok(Weights {
            size,
            variant,
            description: String::new(),
            mpc: Vec::new(),
            table: vec![0; stages * len],
            #[cfg(feature = "residual")]
            net: None,
        })
    }

    /// Builds 8x8 weights from a flat table of `NUM_STAGES * STAGE_LEN` entries
    /// (stage-major). `None` if the length is wrong.
    pub fn from_table(variant: Variant, table: Vec<i16>) -> Option<Weights> {
        Weights::from_table_for(BoardSize::Eight, variant, table)
    }

    /// Builds weights for `size` from a flat stage-major table of `stages * stage
    /// length` entries ([`layout_of`]). `None` if the size has no layout or the length
    /// is wrong.
    pub fn from_table_for(size: BoardSize, variant: Variant, table: Vec<i16>) -> Option<Weights> {
        let (stages, len) = layout_of(size)?;
        (table.len() == stages * len).then(|| Weights {
            size,
            variant,
            description: String::new(),
            mpc: Vec::new(),
            table,
            #[cfg(feature = "residual")]
            net: None,
        })
    }

    /// The board size these weights evaluate.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// Number of stages (8x8: [`NUM_STAGES`], 6x6: [`NUM_STAGES6`]).
    pub fn stages(&self) -> usize {
        self.table.len() / self.stage_len()
    }

    /// Number of weights in one stage (8x8: [`STAGE_LEN`], 6x6: [`STAGE_LEN6`]).
    pub fn stage_len(&self) -> usize {
        match self.size {
            BoardSize::Six => STAGE_LEN6,
            _ => STAGE_LEN,
        }
    }

    /// The stage of a position with `discs` discs for these weights.
    pub fn stage_index(&self, discs: u32) -> usize {
        stage_of_size(self.size, discs)
    }

    /// `Ok` if these weights may evaluate positions of `size` under `variant`; else an
    /// error saying what they are for and what was asked (a 6x6 set never evaluates an
    /// 8x8 position, nor the reverse: the features differ).
    pub fn check_for(&self, size: BoardSize, variant: Variant) -> Result<(), WeightFileError> {
        if self.size != size {
            return Err(WeightFileError {
                message: format!(
                    "the weights are for {} boards, not {size}: give a weight file made for {size} (solvo-lab train fit --size {})",
                    self.size,
                    size.side()
                ),
            });
        }
        if self.variant != variant {
            return Err(WeightFileError {
                message: format!("the weights are for the {} variant, not {}", self.variant.name(), variant.name()),
            });
        }
        Ok(())
    }

    /// The weights of stage `s` (`s < self.stages()`).
    pub fn stage(&self, s: usize) -> &[i16] {
        let len = self.stage_len();
        &self.table[s * len..(s + 1) * len]
    }

    /// The weights of stage `s`, writable.
    pub fn stage_mut(&mut self, s: usize) -> &mut [i16] {
        let len = self.stage_len();
        &mut self.table[s * len..(s + 1) * len]
    }

    /// The residual network added to the linear sum, if any.
    #[cfg(feature = "residual")]
    pub fn residual(&self) -> Option<&ResidualNet> {
        self.net.as_deref()
    }

    /// Adds (or with `None` removes) a residual network; an error for weights of a board
    /// size without one (the network reads the 8x8 features).
    #[cfg(feature = "residual")]
    pub fn set_residual(&mut self, net: Option<ResidualNet>) -> Result<(), WeightFileError> {
        if net.is_some() && self.size != BoardSize::Eight {
            return Err(WeightFileError {
                message: format!("a residual network is for 8x8 weights, not {}", self.size),
            });
        }
        self.net = net.map(Box::new);
        Ok(())
    }

    /// The flat table, stage-major.
    pub fn table(&self) -> &[i16] {
        &self.table
    }

    /// The static evaluation of `player` to move against `opponent`, in units of
    /// `1 / SCALE` disc, clamped to `[-MAX_EVAL, MAX_EVAL]`: the linear sum of the
    /// stage's weights plus the residual network's correction when there is one. Equal for the 8
    /// symmetric images of a position (the weights of symmetric pattern contents are
    /// tied in training). The position need not have a legal move. The position is
    /// read on the board size of the weights ([`Weights::check_for`] tells whether a
    /// size fits): 6x6 weights read only the 6x6 squares, and never fail or panic on
    /// other bits.
    #[inline]
    pub fn evaluate(&self, player: u64, opponent: u64) -> i32 {
        let discs = (player | opponent).count_ones();
        let v = match self.size {
            BoardSize::Six => {
                let stage = stage_of6(discs);
                feature_sum6(player, opponent, &self.table[stage * STAGE_LEN6..(stage + 1) * STAGE_LEN6])
            }
            _ => {
                #[cfg(feature = "residual")]
                if let Some(net) = &self.net {
                    return self.with_network(net, player, opponent, (i32::MIN, i32::MAX));
                }
                let stage = stage_of(discs);
                feature_sum(player, opponent, &self.table[stage * STAGE_LEN..(stage + 1) * STAGE_LEN])
            }
        };
        v.clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// [`Weights::evaluate`] for a search that asks only where the value lies against
    /// the window `(lo, hi)`, fail-soft. Equal to `evaluate` without a residual network.
    /// With one, when the linear sum lies at least [`LAZY_MARGIN`] beyond the window
    /// the network is not run and the linear sum moved back by the margin is returned:
    /// a bound on the same side of the window as `evaluate`'s value whenever the
    /// network's correction is smaller than the margin (a test checks), as a lazy
    /// evaluation does in chess engines.
    #[inline]
    pub fn evaluate_within(&self, player: u64, opponent: u64, lo: i32, hi: i32) -> i32 {
        #[cfg(feature = "residual")]
        if let (false, Some(net)) = (matches!(self.size, BoardSize::Six), &self.net) {
            return self.with_network(net, player, opponent, (lo, hi));
        }
        let _ = (lo, hi);
        self.evaluate(player, opponent)
    }

    /// The 8x8 value with the residual network `net` (these weights' own), lazily
    /// as [`Weights::evaluate_within`] describes for the window `(lo, hi)`; the
    /// window `(i32::MIN, i32::MAX)` always runs the network ([`Weights::evaluate`]).
    #[cfg(feature = "residual")]
    #[inline]
    fn with_network(&self, net: &ResidualNet, player: u64, opponent: u64, (lo, hi): (i32, i32)) -> i32 {
        let discs = (player | opponent).count_ones();
        let stage = stage_of(discs);
        let w = &self.table[stage * STAGE_LEN..(stage + 1) * STAGE_LEN];
        let features = feature_list(player, opponent);
        let linear: i32 = features.iter().map(|&f| i32::from(w[f as usize])).sum();
        // The bounds returned stay true while the correction is under the margin.
        if linear + LAZY_MARGIN <= lo {
            return (linear + LAZY_MARGIN).clamp(-MAX_EVAL, MAX_EVAL);
        }
        if linear - LAZY_MARGIN >= hi {
            return (linear - LAZY_MARGIN).clamp(-MAX_EVAL, MAX_EVAL);
        }
        (linear + net.correction(&features, discs)).clamp(-MAX_EVAL, MAX_EVAL)
    }

    /// The linear part of [`Weights::evaluate`] alone (the residual network, if any, left
    /// out): cheaper, for searches that use the network only where it pays. Equal to
    /// `evaluate` for weights without a network.
    #[inline]
    pub fn evaluate_linear(&self, player: u64, opponent: u64) -> i32 {
        match self.size {
            BoardSize::Six => self.evaluate(player, opponent),
            _ => {
                let stage = stage_of((player | opponent).count_ones());
                let w = &self.table[stage * STAGE_LEN..(stage + 1) * STAGE_LEN];
                feature_sum(player, opponent, w).clamp(-MAX_EVAL, MAX_EVAL)
            }
        }
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

    #[cfg(feature = "residual")]
    #[test]
    fn evaluate_within_is_a_bound_on_the_same_side_of_the_window() {
        use crate::features::STAGE_LEN;
        use crate::residual::{NET_DISC_ROWS, NET_HIDDEN, NET_HIDDEN2};
        let mut rng = solvo_core::rng::Rng::new(5);
        let mut small = move |m: u64| (rng.next_u64() % (2 * m + 1)) as i32 - m as i32;
        let table: Vec<i16> = (0..NUM_STAGES * STAGE_LEN).map(|_| small(100) as i16).collect();
        let mut w = Weights::from_table(Variant::Normal, table).unwrap();
        let tie = crate::tying::tied_parameters_for(BoardSize::Eight).unwrap();
        let rows: Vec<i16> = (0..STAGE_LEN * NET_HIDDEN)
            .map(|i| if tie[i / NET_HIDDEN] as usize == i / NET_HIDDEN { small(400) as i16 } else { 0 })
            .collect();
        let disc_rows = (0..NET_DISC_ROWS * NET_HIDDEN).map(|_| small(200)).collect();
        let w2 = (0..NET_HIDDEN * NET_HIDDEN2).map(|_| small(100) as f32 / 1000.0).collect();
        let net = ResidualNet::from_parts(9, rows, disc_rows, w2, [0.1; NET_HIDDEN2], [0.3; NET_HIDDEN2], 0.0).unwrap();
        w.set_residual(Some(net)).unwrap();
        let (mut lazy, mut full, mut nonzero) = (0, 0, 0);
        for b in solvo_othello::random_games::random_game_boards(2000, 3) {
            let (p, o) = (b.player, b.opponent);
            let v = w.evaluate(p, o);
            let correction = v - w.evaluate_linear(p, o);
            assert!(correction.abs() < LAZY_MARGIN, "the test's network stays inside the margin: {correction}");
            nonzero += usize::from(correction != 0);
            for (lo, hi) in [(v - 3000, v - 2000), (v + 2000, v + 3000), (v - 5, v + 5), (v - 1, v), (v, v + 1)] {
                let r = w.evaluate_within(p, o, lo, hi);
                assert_eq!(r <= lo, v <= lo, "{r} {v} ({lo}, {hi})");
                assert_eq!(r >= hi, v >= hi, "{r} {v} ({lo}, {hi})");
                if r <= lo {
                    assert!(r >= v, "an upper bound of the value");
                } else if r >= hi {
                    assert!(r <= v, "a lower bound of the value");
                } else {
                    assert_eq!(r, v);
                }
                if r == v {
                    full += 1
                } else {
                    lazy += 1
                }
            }
        }
        assert!(lazy > 0 && full > 0, "both paths taken: {lazy} lazy, {full} full");
        assert!(nonzero > 1000, "the network corrects most positions: {nonzero}");
    }
}
