//! Training the residual network ([`solvo_eval::residual`]) on the errors of a linear
//! weight set: stochastic gradient descent with Adam on a Huber loss.
//!
//! Each training sample's target is its label; the model's prediction is the linear
//! evaluation (fixed) plus the network's output. The embedding rows are indexed by
//! the representative of each feature's symmetry class, so the trained network is
//! symmetric. Adam updates the embedding rows a sample touches at once (lazy, per
//! sample) and the dense layers once per mini-batch. Everything runs on one thread in
//! a fixed order from a seed: the same samples, options and seed give the same
//! network, bit for bit.

use crate::sample::Sample;
use solvo_core::rng::Rng;
use solvo_eval::features::{feature_indices, ACTIVE_FEATURES, STAGE_LEN};
use solvo_eval::residual::{FloatNet, NET_DISC_ROWS, NET_HIDDEN, NET_HIDDEN2};
use solvo_eval::tying::tied_parameters_for;
use solvo_eval::{Weights, SCALE};
use solvo_othello::BoardSize;

/// Settings of a network fit.
#[derive(Clone, Debug)]
pub struct NetFitOptions {
    /// Passes over the training samples.
    pub epochs: usize,
    /// Adam's learning rate for the first two epochs; halved every two epochs after.
    pub learning_rate: f32,
    /// Residual (discs) beyond which the loss grows linearly (Huber).
    pub delta: f32,
    /// Samples per update of the dense layers.
    pub batch: usize,
    /// Seed of the initial weights and the sample order.
    pub seed: u64,
}

impl Default for NetFitOptions {
    fn default() -> Self {
        NetFitOptions { epochs: 4, learning_rate: 1e-3, delta: 4.0, batch: 256, seed: 1 }
    }
}

/// What one epoch achieved.
#[derive(Clone, Debug)]
pub struct EpochReport {
    /// Epoch number, from 0.
    pub epoch: usize,
    /// Mean Huber loss over the epoch's training samples (while training).
    pub train_loss: f64,
    /// Mean absolute error (discs) on the held-out exact samples: linear alone.
    pub held_linear_mae: f64,
    /// The same with the network after the epoch.
    pub held_net_mae: f64,
    /// Held-out exact samples measured.
    pub held_samples: usize,
    /// Seconds the epoch took.
    pub seconds: f64,
}

struct Row {
    features: [u32; ACTIVE_FEATURES],
    discs: u8,
    base: f32,
    label: f32,
}

struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam { m: vec![0.0; n], v: vec![0.0; n] }
    }

    /// One Adam step (no bias correction: the moments start at 0 and the rates are
    /// small) on `w[off..off + g.len()]`.
    #[inline]
    fn step(&mut self, w: &mut [f32], g: &[f32], off: usize, lr: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        for (i, &gi) in g.iter().enumerate() {
            let m = &mut self.m[off + i];
            let v = &mut self.v[off + i];
            *m = B1 * *m + (1.0 - B1) * gi;
            *v = B2 * *v + (1.0 - B2) * gi * gi;
            w[off + i] -= lr * *m / (v.sqrt() + 1e-8);
        }
    }
}

/// The float network and its forward pass (the same computation as
/// [`solvo_eval::residual::ResidualNet::correction`], before quantization).
struct Model {
    net: FloatNet,
}

const H: usize = NET_HIDDEN;

impl Model {
    fn forward(&self, r: &Row, h1: &mut [f32; H], h2: &mut [f32; NET_HIDDEN2]) -> f32 {
        h1.copy_from_slice(&self.net.disc_rows[r.discs as usize * H..][..H]);
        for &f in &r.features {
            for (h, x) in h1.iter_mut().zip(&self.net.rows[f as usize * H..][..H]) {
                *h += x;
            }
        }
        for x in h1.iter_mut() {
            *x = x.max(0.0);
        }
        let mut out = self.net.b3;
        for (j, h) in h2.iter_mut().enumerate() {
            let w = &self.net.w2[j * H..][..H];
            let mut s = self.net.b2[j];
            for (wk, x) in w.iter().zip(h1.iter()) {
                s += wk * x;
            }
            *h = s.max(0.0);
            out += self.net.w3[j] * *h;
        }
        out
    }

    fn mae(&self, rows: &[Row], with_net: bool) -> f64 {
        let (mut h1, mut h2) = ([0.0; H], [0.0; NET_HIDDEN2]);
        let sum: f64 = rows
            .iter()
            .map(|r| {
                let p = r.base + if with_net { self.forward(r, &mut h1, &mut h2) } else { 0.0 };
                f64::from((p - r.label).abs())
            })
            .sum();
        sum / rows.len().max(1) as f64
    }
}

/// Fits a residual network for the 8x8 linear weights `base` on `samples` (those
/// flagged for validation are held out; the exact ones among them are measured after
/// every epoch). `progress` is called after each epoch. An error if `base` is not an
/// 8x8 set or there is nothing to train on.
pub fn fit_net(
    base: &Weights,
    samples: &[Sample],
    options: &NetFitOptions,
    mut progress: impl FnMut(&EpochReport),
) -> Result<FloatNet, String> {
    if base.size() != BoardSize::Eight {
        return Err(format!("a residual network is fitted on 8x8 weights, not {}", base.size()));
    }
    if options.epochs == 0
        || options.batch == 0
        || options.learning_rate.is_nan()
        || options.learning_rate <= 0.0
        || options.delta.is_nan()
        || options.delta <= 0.0
    {
        return Err("epochs, batch, learning rate and delta must be positive".into());
    }
    let mut linear = base.clone();
    linear.set_residual(None).expect("removing is always possible");
    let tie = tied_parameters_for(BoardSize::Eight).expect("8x8 has a layout");
    let to_row = |s: &Sample| {
        let mut features = feature_indices(s.player, s.opponent & !s.player);
        for f in features.iter_mut() {
            *f = tie[*f as usize];
        }
        Row {
            features,
            discs: s.discs().min(64) as u8,
            base: linear.evaluate(s.player, s.opponent) as f32 / SCALE as f32,
            label: f32::from(s.label),
        }
    };
    let usable = |s: &&Sample| s.discs() <= 64;
    let train: Vec<Row> = samples.iter().filter(usable).filter(|s| !s.is_validation()).map(to_row).collect();
    let held: Vec<Row> =
        samples.iter().filter(usable).filter(|s| s.is_validation() && s.is_exact()).map(to_row).collect();
    if train.is_empty() {
        return Err("no training samples (all are held out or empty input)".into());
    }

    let mut rng = Rng::new(options.seed);
    let mut model = Model {
        net: FloatNet {
            rows: vec![0.0; STAGE_LEN * H],
            disc_rows: (0..NET_DISC_ROWS * H).map(|_| rng.next_f64() as f32 * 0.5).collect(),
            w2: (0..NET_HIDDEN2 * H).map(|_| (rng.next_f64() as f32 * 2.0 - 1.0) * (6.0 / H as f32).sqrt()).collect(),
            b2: vec![0.1; NET_HIDDEN2],
            w3: vec![0.0; NET_HIDDEN2],
            b3: 0.0,
        },
    };
    let mut a_rows = Adam::new(STAGE_LEN * H);
    let mut a_disc = Adam::new(NET_DISC_ROWS * H);
    let mut a_w2 = Adam::new(NET_HIDDEN2 * H);
    let mut a_b2 = Adam::new(NET_HIDDEN2);
    let mut a_w3 = Adam::new(NET_HIDDEN2);
    let mut a_b3 = Adam::new(1);
    let held_linear_mae = model.mae(&held, false);

    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let (mut h1, mut h2) = ([0.0f32; H], [0.0f32; NET_HIDDEN2]);
    let mut g_h1 = [0.0f32; H];
    let mut g_w2 = vec![0.0f32; NET_HIDDEN2 * H];
    let mut g_disc = vec![0.0f32; NET_DISC_ROWS * H];
    let mut disc_touched = [false; NET_DISC_ROWS];
    let delta = options.delta;
    for epoch in 0..options.epochs {
        let started = std::time::Instant::now();
        let lr = options.learning_rate * 0.5f32.powi((epoch / 2) as i32);
        for i in (1..order.len()).rev() {
            order.swap(i, rng.below(i + 1));
        }
        let mut loss = 0.0f64;
        for chunk in order.chunks(options.batch) {
            g_w2.fill(0.0);
            let mut g_b2 = [0.0f32; NET_HIDDEN2];
            let mut g_w3 = [0.0f32; NET_HIDDEN2];
            let mut g_b3 = 0.0f32;
            for &i in chunk {
                let r = &train[i as usize];
                let out = model.forward(r, &mut h1, &mut h2);
                let e = r.base + out - r.label;
                loss += f64::from(if e.abs() <= delta { 0.5 * e * e } else { delta * (e.abs() - 0.5 * delta) });
                let d = e.clamp(-delta, delta);
                g_b3 += d;
                g_h1.fill(0.0);
                for j in 0..NET_HIDDEN2 {
                    g_w3[j] += d * h2[j];
                    if h2[j] > 0.0 {
                        let dj = d * model.net.w3[j];
                        g_b2[j] += dj;
                        let w = &model.net.w2[j * H..][..H];
                        let gw = &mut g_w2[j * H..][..H];
                        for k in 0..H {
                            gw[k] += dj * h1[k];
                            g_h1[k] += dj * w[k];
                        }
                    }
                }
                for k in 0..H {
                    if h1[k] <= 0.0 {
                        g_h1[k] = 0.0;
                    }
                }
                let dr = r.discs as usize;
                for k in 0..H {
                    g_disc[dr * H + k] += g_h1[k];
                }
                disc_touched[dr] = true;
                for &f in &r.features {
                    a_rows.step(&mut model.net.rows, &g_h1, f as usize * H, lr);
                }
            }
            let n = chunk.len() as f32;
            g_w2.iter_mut().for_each(|x| *x /= n);
            a_w2.step(&mut model.net.w2, &g_w2, 0, lr);
            a_b2.step(&mut model.net.b2, &g_b2.map(|x| x / n), 0, lr);
            a_w3.step(&mut model.net.w3, &g_w3.map(|x| x / n), 0, lr);
            let mut b3 = [model.net.b3];
            a_b3.step(&mut b3, &[g_b3 / n], 0, lr);
            model.net.b3 = b3[0];
            for (dr, touched) in disc_touched.iter_mut().enumerate() {
                if *touched {
                    let g: [f32; H] = std::array::from_fn(|k| g_disc[dr * H + k] / n);
                    a_disc.step(&mut model.net.disc_rows, &g, dr * H, lr);
                    g_disc[dr * H..(dr + 1) * H].fill(0.0);
                    *touched = false;
                }
            }
        }
        progress(&EpochReport {
            epoch,
            train_loss: loss / train.len() as f64,
            held_linear_mae,
            held_net_mae: model.mae(&held, true),
            held_samples: held.len(),
            seconds: started.elapsed().as_secs_f64(),
        });
    }
    Ok(model.net)
}
