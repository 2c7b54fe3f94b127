//! Fitting the weights: ridge regression per stage, solved by preconditioned
//! conjugate gradients.
//!
//! For stage `s` the training rows are the samples of stages `s - window ..= s +
//! window` (neighbouring stages share their data, which smooths the tables where
//! data is thin). Each row activates [`ACTIVE_FEATURES`] weights; contents that a
//! symmetry of the board maps onto each other share one parameter (so the evaluation
//! is symmetric). The problem `min |X w - y|^2 + lambda |w|^2` is solved with
//! conjugate gradients preconditioned by the diagonal of `X^T X + lambda I` (the
//! feature counts), a fixed number of iterations: deterministic for given samples.
//! Stages are fitted from the last to the first, each starting from the next
//! stage's solution.

use crate::sample::Sample;
use rayon::prelude::*;
use solvo_eval::features::feature_indices;
use solvo_eval::features6::feature_indices6;
use solvo_eval::{Weights, MAX_EVAL, NUM_STAGES, SCALE};
use solvo_othello::rules::Rules;
use solvo_othello::BoardSize;
use solvo_othello::Variant;
use solvo_othello_search::eval_search;

/// Settings of a fit.
#[derive(Clone, Debug)]
pub struct FitOptions {
    /// Conjugate-gradient iterations per stage.
    pub iterations: usize,
    /// Ridge penalty (in squared discs per unit of weight).
    pub lambda: f64,
    /// Stages on each side whose samples also train a stage.
    pub window: usize,
    /// Only these stages are fitted (the others stay zero): for experiments. Stages
    /// beyond the board size's last one are ignored.
    pub stages: std::ops::RangeInclusive<usize>,
    /// When positive, samples without an exact label are labelled during the fit:
    /// before stage `s` is fitted, each of its unlabelled samples gets the value of an
    /// alpha-beta search of this depth on the weights fitted so far (whose leaves lie
    /// in later stages), and stage `s` trains on stages `s ..= s + window` only.
    pub bootstrap_depth: u32,
    /// Weight of a sample with an exact label in the least squares, against 1 for the
    /// others (game results, search scores): above 1, the solved positions count more
    /// than the noisy labels around them.
    pub exact_weight: f64,
    /// Rounds of iteratively reweighted least squares after the plain fit: each row's
    /// weight is multiplied by `robust_delta / max(|residual|, robust_delta)`, which
    /// turns the squared loss into a Huber loss (linear beyond `robust_delta` discs),
    /// so labels far off (a won game's result, where the winner did not play for
    /// discs) pull less. 0: plain least squares.
    pub robust_rounds: usize,
    /// The residual, in discs, beyond which a row's loss grows linearly.
    pub robust_delta: f64,
}

impl Default for FitOptions {
    fn default() -> Self {
        FitOptions {
            iterations: 40,
            lambda: 4.0,
            window: 1,
            stages: 0..=NUM_STAGES - 1,
            bootstrap_depth: 0,
            exact_weight: 1.0,
            robust_rounds: 0,
            robust_delta: 4.0,
        }
    }
}

/// Accuracy of one fitted stage.
#[derive(Clone, Debug, Default)]
pub struct StageReport {
    /// Stage number.
    pub stage: usize,
    /// Training rows (window included).
    pub train_rows: usize,
    /// Root mean squared error on the training rows after the fit, discs.
    pub train_rmse: f64,
    /// Held-out samples of this stage only.
    pub validation: usize,
    /// Mean absolute error of the (rounded) evaluation on them, discs.
    pub validation_mae: f64,
    /// Held-out samples with exact labels.
    pub validation_exact: usize,
    /// Mean absolute error on those, discs.
    pub validation_exact_mae: f64,
}

/// For every 8x8 weight, the parameter it shares with its symmetric contents.
pub fn tied_parameters() -> Vec<u32> {
    tied_parameters_for(BoardSize::Eight).expect("8x8 has a layout")
}

pub use solvo_eval::tying::tied_parameters_for;

/// Training rows: each row's active (tied) weights, its label and its weight.
struct Rows<const N: usize> {
    idx: Vec<[u32; N]>,
    y: Vec<f64>,
    wt: Vec<f64>,
}

/// `out = X^T D (X p) + lambda p` (`D`: the rows' weights), with per-thread partial
/// sums (deterministic order).
fn normal_product<const N: usize>(rows: &Rows<N>, p: &[f64], lambda: f64, out: &mut [f64]) {
    let stage_len = p.len();
    // A fixed chunk size (not one per thread) keeps the floating-point sums, and so the
    // weights, identical whatever the number of threads.
    let chunk = 1 << 16;
    let partials: Vec<Vec<f64>> = rows
        .idx
        .par_chunks(chunk)
        .zip(rows.wt.par_chunks(chunk))
        .map(|(part, weights)| {
            let mut acc = vec![0.0f64; stage_len];
            for (r, &wt) in part.iter().zip(weights) {
                let xp: f64 = wt * r.iter().map(|&i| p[i as usize]).sum::<f64>();
                for &i in r {
                    acc[i as usize] += xp;
                }
            }
            acc
        })
        .collect();
    for (k, o) in out.iter_mut().enumerate() {
        *o = lambda * p[k] + partials.iter().map(|a| a[k]).sum::<f64>();
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Fits stage weights by PCG from `start` (one value per weight of a stage); returns
/// the solution and the training RMSE.
fn fit_stage<const N: usize>(rows: &Rows<N>, start: &[f64], options: &FitOptions) -> (Vec<f64>, f64) {
    let stage_len = start.len();
    let mut counts = vec![0.0f64; stage_len];
    let mut b = vec![0.0f64; stage_len];
    for ((r, &y), &wt) in rows.idx.iter().zip(&rows.y).zip(&rows.wt) {
        for &i in r {
            counts[i as usize] += wt;
            b[i as usize] += wt * y;
        }
    }
    let precond: Vec<f64> = counts.iter().map(|&c| 1.0 / (c + options.lambda)).collect();
    let mut w = start.to_vec();
    let mut aw = vec![0.0; stage_len];
    normal_product(rows, &w, options.lambda, &mut aw);
    let mut r: Vec<f64> = b.iter().zip(&aw).map(|(b, a)| b - a).collect();
    let mut z: Vec<f64> = r.iter().zip(&precond).map(|(r, m)| r * m).collect();
    let mut p = z.clone();
    let mut rz = dot(&r, &z);
    let mut ap = vec![0.0; stage_len];
    for _ in 0..options.iterations {
        if rz <= 1e-12 {
            break;
        }
        normal_product(rows, &p, options.lambda, &mut ap);
        let pap = dot(&p, &ap);
        if pap <= 0.0 {
            break;
        }
        let alpha = rz / pap;
        for k in 0..stage_len {
            w[k] += alpha * p[k];
            r[k] -= alpha * ap[k];
            z[k] = r[k] * precond[k];
        }
        let rz_new = dot(&r, &z);
        let beta = rz_new / rz;
        rz = rz_new;
        for k in 0..stage_len {
            p[k] = z[k] + beta * p[k];
        }
    }
    let sse: f64 = rows
        .idx
        .par_iter()
        .zip(&rows.y)
        .map(|(r, &y)| {
            let e = r.iter().map(|&i| w[i as usize]).sum::<f64>() - y;
            e * e
        })
        .sum();
    let rmse = (sse / rows.y.len().max(1) as f64).sqrt();
    (w, rmse)
}

/// Fits a complete 8x8 weight set on the non-validation `samples` and reports each
/// stage's accuracy on the validation ones. `progress` is called after each stage.
pub fn fit(
    samples: &[Sample],
    variant: Variant,
    options: &FitOptions,
    progress: &dyn Fn(&StageReport),
) -> (Weights, Vec<StageReport>) {
    fit_size(samples, BoardSize::Eight, variant, options, progress).expect("8x8 samples always fit")
}

/// Fits a complete weight set for positions of `size` (8x8 or 6x6) on the
/// non-validation `samples` and reports each stage's accuracy on the validation ones.
/// `progress` is called after each stage. An error (naming the first offending
/// sample) when a sample has discs outside the board of `size`, or when the size has
/// no evaluation features (4x4).
pub fn fit_size(
    samples: &[Sample],
    size: BoardSize,
    variant: Variant,
    options: &FitOptions,
    progress: &dyn Fn(&StageReport),
) -> Result<(Weights, Vec<StageReport>), String> {
    crate::sample::check_size(samples, size)?;
    let weights = Weights::zeros_for(size, variant).map_err(|e| e.message)?;
    Ok(match size {
        BoardSize::Six => fit_layout(samples, weights, feature_indices6, options, progress),
        _ => fit_layout(samples, weights, feature_indices, options, progress),
    })
}

/// The fit over the layout whose feature list `indices` gives, into `weights` (zeros
/// of the right size and variant).
fn fit_layout<const N: usize>(
    samples: &[Sample],
    mut weights: Weights,
    indices: fn(u64, u64) -> [u32; N],
    options: &FitOptions,
    progress: &dyn Fn(&StageReport),
) -> (Weights, Vec<StageReport>) {
    let size = weights.size();
    let variant = weights.variant;
    let num_stages = weights.stages();
    let tie = tied_parameters_for(size).expect("a size with weights has a layout");
    let mut by_stage: Vec<Vec<Sample>> = vec![Vec::new(); num_stages];
    for s in samples {
        by_stage[weights.stage_index(s.discs())].push(*s);
    }
    let rules = Rules::new(size, variant);
    let max_label = size.squares() as f64;
    let mut reports = Vec::new();
    let mut previous = vec![0.0f64; weights.stage_len()];
    for stage in (0..num_stages).rev().filter(|s| options.stages.contains(s)) {
        if options.bootstrap_depth > 0 {
            let w = &weights;
            by_stage[stage].par_iter_mut().filter(|s| !s.is_exact()).for_each(|s| {
                let mut nodes = 0;
                let v = eval_search(
                    s.player,
                    s.opponent,
                    w,
                    &rules,
                    options.bootstrap_depth,
                    -MAX_EVAL - 1,
                    MAX_EVAL + 1,
                    &mut nodes,
                );
                s.label = (f64::from(v) / f64::from(SCALE)).round().clamp(-max_label, max_label) as i8;
            });
        }
        let lo = if options.bootstrap_depth > 0 { stage } else { stage.saturating_sub(options.window) };
        let hi = (stage + options.window).min(num_stages - 1);
        let train: Vec<&Sample> = (lo..=hi).flat_map(|s| by_stage[s].iter()).filter(|s| !s.is_validation()).collect();
        let idx: Vec<[u32; N]> =
            train.par_iter().map(|s| indices(s.player, s.opponent).map(|i| tie[i as usize])).collect();
        let base: Vec<f64> = train.iter().map(|s| if s.is_exact() { options.exact_weight } else { 1.0 }).collect();
        let mut rows = Rows { idx, y: train.iter().map(|s| f64::from(s.label)).collect(), wt: base.clone() };
        let (mut w, mut rmse) = fit_stage(&rows, &previous, options);
        for _ in 0..options.robust_rounds {
            let delta = options.robust_delta;
            rows.wt = rows
                .idx
                .par_iter()
                .zip(&rows.y)
                .zip(&base)
                .map(|((r, &y), &b)| {
                    let e = (r.iter().map(|&i| w[i as usize]).sum::<f64>() - y).abs();
                    b * delta / e.max(delta)
                })
                .collect();
            (w, rmse) = fit_stage(&rows, &w, options);
        }
        for (k, dst) in weights.stage_mut(stage).iter_mut().enumerate() {
            let v = (w[tie[k] as usize] * f64::from(SCALE)).round();
            *dst = v.clamp(f64::from(i16::MIN), f64::from(i16::MAX)) as i16;
        }
        previous = w;
        let mut report = StageReport { stage, train_rows: rows.y.len(), train_rmse: rmse, ..Default::default() };
        let (mut sum, mut sum_exact) = (0.0, 0.0);
        for s in by_stage[stage].iter().filter(|s| s.is_validation()) {
            let e = (f64::from(weights.evaluate(s.player, s.opponent)) / f64::from(SCALE) - f64::from(s.label)).abs();
            report.validation += 1;
            sum += e;
            if s.is_exact() {
                report.validation_exact += 1;
                sum_exact += e;
            }
        }
        report.validation_mae = sum / report.validation.max(1) as f64;
        report.validation_exact_mae = sum_exact / report.validation_exact.max(1) as f64;
        progress(&report);
        reports.push(report);
    }
    reports.reverse();
    (weights, reports)
}
