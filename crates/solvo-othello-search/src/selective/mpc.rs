//! Multi-ProbCut: selectivity levels, the depth of the shallow probe for each deep
//! search, and the table of measured statistics the search reads.
//!
//! At a node of depth `d >= MPC_MIN_DEPTH`, the value `deep` of a depth-`d` search is
//! modelled as `shallow + mean + N(0, sigma)`, where `shallow` is the value of a
//! depth-[`probe_depth`]`(d)` search. If the shallow search shows `shallow >= beta -
//! mean + t * sigma`, the node is cut as `>= beta` (likewise below alpha); `t` comes
//! from the selectivity level (a cut is wrong with probability about `1 - Phi(t)`).

use solvo_eval::{Weights, SCALE};

/// Selectivity levels, Edax style: (percent, `t`). The last is exact (no cuts).
pub const LEVELS: [(u32, f64); 6] = [(73, 1.1), (87, 1.5), (95, 2.0), (98, 2.6), (99, 3.3), (100, f64::INFINITY)];

/// Smallest depth at which a node tries a probe.
pub const MPC_MIN_DEPTH: u32 = 3;

/// Largest search depth the table covers (deeper nodes use this depth's statistics).
pub const MAX_TABLE_DEPTH: u32 = 60;

/// How far (in empties) a measured statistic may be from the node's empties and still
/// be used; beyond, MPC is off at that node.
pub const EMPTIES_REACH: u32 = 4;

/// A selectivity level: an index into [`LEVELS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Selectivity(u8);

impl Selectivity {
    /// No Multi-ProbCut: the search is a plain depth-limited alpha-beta search.
    pub const EXACT: Selectivity = Selectivity(LEVELS.len() as u8 - 1);

    /// The level of a percentage (73, 87, 95, 98, 99 or 100); `None` for any other.
    pub fn from_percent(percent: u32) -> Option<Selectivity> {
        LEVELS.iter().position(|&(p, _)| p == percent).map(|i| Selectivity(i as u8))
    }

    /// The percentage of this level.
    pub fn percent(self) -> u32 {
        LEVELS[self.0 as usize].0
    }

    /// The index of this level (0 = most selective); larger is more exact.
    pub fn index(self) -> u8 {
        self.0
    }

    /// The next level towards exact (73% -> 87% -> ... -> 100%); `None` from exact.
    pub fn next(self) -> Option<Selectivity> {
        (self < Selectivity::EXACT).then(|| Selectivity(self.0 + 1))
    }

    /// The cut threshold `t` in standard deviations (`None` when exact).
    pub fn t(self) -> Option<f64> {
        let t = LEVELS[self.0 as usize].1;
        t.is_finite().then_some(t)
    }
}

/// The depth of the shallow search that predicts a depth-`depth` search: `2 *
/// floor(depth / 4)`, or `depth - 2` when that is 0 (so 3 -> 1, 4..7 -> 2, 8..11 -> 4,
/// 12..15 -> 6, ...), always less than `depth` for `depth >= 3`.
pub const fn probe_depth(depth: u32) -> u32 {
    let d = 2 * (depth / 4);
    if d == 0 {
        depth.saturating_sub(2)
    } else {
        d
    }
}

/// The statistics in search units (`1 / SCALE` disc), by empties and deep depth, for
/// the probe depth [`probe_depth`] of that deep depth.
#[derive(Clone, Debug)]
pub struct MpcTable {
    /// `(mean, sigma)` at `empties * (MAX_TABLE_DEPTH + 1) + depth`; sigma 0 = none.
    cells: Vec<(i32, i32)>,
}

impl MpcTable {
    /// The table of `weights.mpc`: for each (empties, depth), the statistic of the pair
    /// `(probe_depth(depth), depth)` measured at the nearest empties within
    /// [`EMPTIES_REACH`]; none (MPC off there) when no such statistic exists.
    pub fn new(weights: &Weights) -> MpcTable {
        let width = MAX_TABLE_DEPTH as usize + 1;
        let mut cells = vec![(0, 0); 61 * width];
        for empties in 0..=60u32 {
            for depth in MPC_MIN_DEPTH..=MAX_TABLE_DEPTH {
                let shallow = probe_depth(depth);
                let stat = weights
                    .mpc
                    .iter()
                    .filter(|m| u32::from(m.shallow) == shallow && u32::from(m.deep) == depth)
                    .filter(|m| u32::from(m.empties).abs_diff(empties) <= EMPTIES_REACH)
                    .filter(|m| m.sigma.is_finite() && m.sigma > 0.0 && m.mean.is_finite())
                    .min_by_key(|m| u32::from(m.empties).abs_diff(empties));
                if let Some(m) = stat {
                    let to_units = |x: f32| (f64::from(x) * f64::from(SCALE)).round() as i32;
                    cells[empties as usize * width + depth as usize] = (to_units(m.mean), to_units(m.sigma).max(1));
                }
            }
        }
        MpcTable { cells }
    }

    /// `(mean, sigma)` in search units for a node of `empties` empties searched to
    /// `depth`, if measured.
    #[inline(always)]
    pub fn get(&self, empties: u32, depth: u32) -> Option<(i32, i32)> {
        let width = MAX_TABLE_DEPTH as usize + 1;
        let cell = self.cells[empties.min(60) as usize * width + depth.min(MAX_TABLE_DEPTH) as usize];
        (cell.1 > 0).then_some(cell)
    }

    /// True when no statistic at all is present (selective search is then exact).
    pub fn is_empty(&self) -> bool {
        self.cells.iter().all(|c| c.1 == 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_eval::MpcStat;
    use solvo_othello::Variant;

    #[test]
    fn levels_and_probe_depths() {
        assert_eq!(Selectivity::from_percent(73).unwrap().t(), Some(1.1));
        assert_eq!(Selectivity::from_percent(100), Some(Selectivity::EXACT));
        assert_eq!(Selectivity::EXACT.t(), None);
        assert_eq!(Selectivity::from_percent(87).unwrap().next(), Selectivity::from_percent(95));
        assert_eq!(Selectivity::from_percent(99).unwrap().next(), Some(Selectivity::EXACT));
        assert_eq!(Selectivity::EXACT.next(), None);
        assert!(Selectivity::from_percent(80).is_none());
        assert_eq!([3, 4, 7, 8, 12, 15].map(probe_depth), [1, 2, 2, 4, 6, 6]);
        for d in MPC_MIN_DEPTH..40 {
            assert!(probe_depth(d) < d);
        }
    }

    #[test]
    fn table_uses_the_nearest_stage_within_reach() {
        let mut w = Weights::zeros(Variant::Normal);
        w.mpc.push(MpcStat { empties: 30, shallow: 2, deep: 6, mean: 0.5, sigma: 3.0 });
        let t = MpcTable::new(&w);
        assert_eq!(t.get(30, 6), Some((64, 384)));
        assert_eq!(t.get(34, 6), Some((64, 384)));
        assert_eq!(t.get(35, 6), None);
        assert_eq!(t.get(30, 8), None);
        assert!(MpcTable::new(&Weights::zeros(Variant::Normal)).is_empty());
    }
}
