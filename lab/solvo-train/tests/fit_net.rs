//! A tiny residual-network fit: it lowers the training error of the linear weights it
//! corrects, repeats bit for bit, and keeps the evaluation symmetric.

use solvo_eval::residual::ResidualNet;
use solvo_eval::{Weights, SCALE};
use solvo_othello::Variant;
use solvo_train::fit_net::{fit_net, NetFitOptions};
use solvo_train::games::{extract_file, ExtractOptions};
use solvo_train::sample::Sample;

fn wthor_samples() -> Vec<Sample> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wthor/WTH_1980.wtb");
    let options =
        ExtractOptions { exact_empties: 8, validation_every: 5, hash_mb: 1, exact_only: false, siblings: None };
    extract_file(&path, &options, &|_, _| {}).expect("WTHOR 1980 reads").0
}

fn mae(w: &Weights, samples: &[Sample]) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| (f64::from(w.evaluate(s.player, s.opponent)) / f64::from(SCALE) - f64::from(s.label)).abs())
        .sum();
    sum / samples.len() as f64
}

#[test]
fn a_small_network_fit_lowers_the_error_and_repeats_exactly() {
    let samples = wthor_samples();
    let train: Vec<Sample> = samples.iter().copied().filter(|s| !s.is_validation()).collect();
    // A deliberately poor linear base (all zero) leaves the network much to learn.
    let base = Weights::zeros(Variant::Normal);
    let options = NetFitOptions { epochs: 6, learning_rate: 3e-3, ..NetFitOptions::default() };
    let mut losses = Vec::new();
    let net = fit_net(&base, &samples, &options, |r| losses.push(r.train_loss)).unwrap();
    assert_eq!(losses.len(), 6);
    assert!(losses[5] < losses[0], "training loss {losses:?}");
    let mut with_net = base.clone();
    with_net.set_residual(Some(ResidualNet::quantize(&net).unwrap())).unwrap();
    let (before, after) = (mae(&base, &train), mae(&with_net, &train));
    assert!(after < before * 0.8, "training error {before:.2} -> {after:.2}");
    let again = fit_net(&base, &samples, &options, |_| {}).unwrap();
    assert_eq!(ResidualNet::quantize(&again).unwrap(), ResidualNet::quantize(&net).unwrap());
    assert_eq!(again.rows, net.rows, "the same samples, options and seed give the same network");
    for s in samples.iter().take(300) {
        let b = solvo_othello::Board { player: s.player, opponent: s.opponent };
        let v = with_net.evaluate(b.player, b.opponent);
        for k in 1..8 {
            let img = b.transformed(k);
            assert_eq!(with_net.evaluate(img.player, img.opponent), v);
        }
    }
}

#[test]
fn bad_settings_and_inputs_are_errors() {
    let samples = wthor_samples();
    let base = Weights::zeros(Variant::Normal);
    let zero_epochs = NetFitOptions { epochs: 0, ..NetFitOptions::default() };
    assert!(fit_net(&base, &samples, &zero_epochs, |_| {}).is_err());
    assert!(fit_net(&base, &[], &NetFitOptions::default(), |_| {}).unwrap_err().contains("no training samples"));
    let six = Weights::zeros_for(solvo_othello::BoardSize::Six, Variant::Normal).unwrap();
    assert!(fit_net(&six, &samples, &NetFitOptions::default(), |_| {}).unwrap_err().contains("8x8"));
}
