//! Measuring Multi-ProbCut statistics: search sample positions without selectivity
//! to every depth up to a maximum, then for each (empties, probe depth, deep depth)
//! the mean and the standard deviation of `deep - shallow` (discs). Depth pairs deeper
//! than measured get a fitted value: the spread follows a linear model in (empties,
//! shallow depth, deep depth, parity of their difference) fitted on the measured cells
//! (least squares, weighted by sample count) plus the mean residual of the measured
//! cells of the same empties (the level of a stage), the mean that of the deepest
//! measured pair of the same parity.

use solvo_eval::{MpcStat, SCALE};
use solvo_othello::Position;
use solvo_othello_search::internals::{probe_depth, MPC_MIN_DEPTH};
use solvo_othello_search::Selectivity;
use solvo_othello_search::{SearchError, SearchLimits, SelectiveSearch};

/// One cell of measured statistics.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct MeasuredCell {
    /// The statistic (discs).
    pub stat: MpcStat,
    /// Number of positions it was measured on (0 for a fitted cell).
    pub samples: usize,
}

/// The value (search units) of `pos` at every depth `0..=max_depth` (depth 0: the
/// static evaluation), searched without selectivity on `threads` threads (the values
/// are the depth-limited negamax values whatever the threads). `max_depth` is
/// lowered to `empties - 1` so that no depth reaches the exact solver. Errors as
/// [`SelectiveSearch::search`] (e.g. a position of another variant than the weights,
/// or threads out of range).
pub fn depth_values(
    search: &mut SelectiveSearch,
    pos: &Position,
    max_depth: u32,
    threads: usize,
) -> Result<Vec<i32>, SearchError> {
    let max_depth = max_depth.min(pos.empties().saturating_sub(1)).max(1);
    let mut values = vec![search.weights().evaluate(pos.board.player, pos.board.opponent)];
    let limits = SearchLimits {
        depth: max_depth,
        selectivity: Selectivity::EXACT,
        every_depth: true,
        threads,
        ..SearchLimits::default()
    };
    search.search_with(pos, &limits, &mut |r| {
        if r.depth as usize == values.len() && !r.exact {
            values.push(r.score_units);
        }
    })?;
    Ok(values)
}

/// The statistics of positions with `empties` empties whose depth values
/// ([`depth_values`]) are `values`: one cell per deep depth from [`MPC_MIN_DEPTH`] to
/// the deepest depth every position reached (positions reaching less are ignored for
/// deeper cells).
pub fn measure_cells(empties: u32, values: &[Vec<i32>]) -> Vec<MeasuredCell> {
    let deepest = values.iter().map(|v| v.len().saturating_sub(1)).max().unwrap_or(0) as u32;
    let mut cells = Vec::new();
    for deep in MPC_MIN_DEPTH..=deepest {
        let shallow = probe_depth(deep);
        let diffs: Vec<f64> = values
            .iter()
            .filter(|v| v.len() > deep as usize)
            .map(|v| f64::from(v[deep as usize] - v[shallow as usize]) / f64::from(SCALE))
            .collect();
        if diffs.len() < 2 {
            continue;
        }
        let n = diffs.len() as f64;
        let mean = diffs.iter().sum::<f64>() / n;
        let var = diffs.iter().map(|d| (d - mean) * (d - mean)).sum::<f64>() / (n - 1.0);
        cells.push(MeasuredCell {
            stat: MpcStat {
                empties: empties as u8,
                shallow: shallow as u8,
                deep: deep as u8,
                mean: mean as f32,
                sigma: var.sqrt() as f32,
            },
            samples: diffs.len(),
        });
    }
    cells
}

/// Number of terms of the spread model.
pub const MODEL_TERMS: usize = 5;

/// Solves the system `a x = b` by Gauss-Jordan elimination with partial pivoting
/// (`None` if singular).
fn solve_linear(mut a: [[f64; MODEL_TERMS]; MODEL_TERMS], mut b: [f64; MODEL_TERMS]) -> Option<[f64; MODEL_TERMS]> {
    for col in 0..MODEL_TERMS {
        let pivot = (col..MODEL_TERMS).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        for row in 0..MODEL_TERMS {
            if row != col {
                let f = a[row][col] / a[col][col];
                let pivot_row = a[col];
                for (x, p) in a[row].iter_mut().zip(pivot_row).skip(col) {
                    *x -= f * p;
                }
                b[row] -= f * b[col];
            }
        }
    }
    Some(std::array::from_fn(|i| b[i] / a[i][i]))
}

/// The terms of the spread model for a cell.
fn model_terms(empties: u32, shallow: u32, deep: u32) -> [f64; MODEL_TERMS] {
    [1.0, f64::from(empties), f64::from(shallow), f64::from(deep), f64::from((deep - shallow) % 2)]
}

/// The spread model `sigma = c0 + c1 * empties + c2 * shallow + c3 * deep + c4 *
/// ((deep - shallow) mod 2)` fitted on `cells` (weighted least squares), if the cells
/// determine it.
pub fn fit_sigma_model(cells: &[MeasuredCell]) -> Option<[f64; MODEL_TERMS]> {
    let mut a = [[0.0; MODEL_TERMS]; MODEL_TERMS];
    let mut b = [0.0; MODEL_TERMS];
    for c in cells {
        let x = model_terms(u32::from(c.stat.empties), u32::from(c.stat.shallow), u32::from(c.stat.deep));
        let w = c.samples as f64;
        for i in 0..MODEL_TERMS {
            for j in 0..MODEL_TERMS {
                a[i][j] += w * x[i] * x[j];
            }
            b[i] += w * x[i] * f64::from(c.stat.sigma);
        }
    }
    solve_linear(a, b)
}

/// The measured cells plus fitted ones for every deep depth up to `max_fit_depth` (and
/// below the empties) that was not measured, for every empties count measured: the
/// model's spread shifted by the stage's mean residual, never below the smallest
/// measured spread of the stage.
pub fn complete(cells: &[MeasuredCell], max_fit_depth: u32) -> Vec<MeasuredCell> {
    let mut out = cells.to_vec();
    let Some(model) = fit_sigma_model(cells) else {
        return out;
    };
    let mut stages: Vec<u8> = cells.iter().map(|c| c.stat.empties).collect();
    stages.sort_unstable();
    stages.dedup();
    for e in stages {
        let here: Vec<&MeasuredCell> = cells.iter().filter(|c| c.stat.empties == e).collect();
        let floor = here.iter().map(|c| c.stat.sigma).fold(f32::INFINITY, f32::min);
        let deepest = here.iter().map(|c| c.stat.deep).max().unwrap_or(0);
        let predict = |shallow: u32, deep: u32| -> f64 {
            model.iter().zip(model_terms(u32::from(e), shallow, deep)).map(|(m, x)| m * x).sum()
        };
        let weight: f64 = here.iter().map(|c| c.samples as f64).sum();
        let residual = here
            .iter()
            .map(|c| {
                c.samples as f64
                    * (f64::from(c.stat.sigma) - predict(u32::from(c.stat.shallow), u32::from(c.stat.deep)))
            })
            .sum::<f64>()
            / weight.max(1.0);
        for deep in u32::from(deepest) + 1..=max_fit_depth.min(u32::from(e).saturating_sub(1)) {
            let shallow = probe_depth(deep);
            // Mean: the deepest measured cell of the same depth parity.
            let mean = here
                .iter()
                .filter(|c| c.stat.deep % 2 == (deep % 2) as u8)
                .max_by_key(|c| c.stat.deep)
                .map_or(0.0, |c| c.stat.mean);
            let sigma = predict(shallow, deep) + residual;
            out.push(MeasuredCell {
                stat: MpcStat {
                    empties: e,
                    shallow: shallow as u8,
                    deep: deep as u8,
                    mean,
                    sigma: (sigma as f32).max(floor),
                },
                samples: 0,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_measure_mean_and_spread_of_deep_minus_shallow() {
        // Positions with values at depths 0..=4: deep 3 pairs with 1, deep 4 with 2.
        let s = SCALE;
        let values = vec![vec![0, 0, 0, 2 * s, 4 * s], vec![0, 0, 0, 0, 0], vec![0, s, 0, 0, 2 * s]];
        let cells = measure_cells(30, &values);
        assert_eq!(cells.len(), 2);
        assert_eq!((cells[0].stat.shallow, cells[0].stat.deep), (1, 3));
        assert!((cells[0].stat.mean - 1.0 / 3.0).abs() < 1e-6);
        assert!((cells[1].stat.mean - 2.0).abs() < 1e-6);
        assert!((cells[1].stat.sigma - 2.0).abs() < 1e-6);
    }

    #[test]
    fn the_sigma_model_recovers_a_linear_law_and_fills_deeper_pairs() {
        let mut cells = Vec::new();
        for e in [20u8, 30, 40] {
            for deep in 3u32..=8 {
                let shallow = probe_depth(deep);
                let sigma = 1.0 + 0.05 * f64::from(e) - 0.2 * f64::from(shallow)
                    + 0.1 * f64::from(deep)
                    + 0.7 * f64::from((deep - shallow) % 2);
                cells.push(MeasuredCell {
                    stat: MpcStat {
                        empties: e,
                        shallow: shallow as u8,
                        deep: deep as u8,
                        mean: 0.0,
                        sigma: sigma as f32,
                    },
                    samples: 10,
                });
            }
        }
        let m = fit_sigma_model(&cells).unwrap();
        for (got, want) in m.iter().zip([1.0, 0.05, -0.2, 0.1, 0.7]) {
            assert!((got - want).abs() < 1e-3, "{m:?}");
        }
        let all = complete(&cells, 12);
        assert_eq!(all.len(), cells.len() + 3 * 4);
        assert!(all.iter().any(|c| c.samples == 0 && c.stat.deep == 12 && c.stat.shallow == 6));
    }
}
