//! The residual network: file round trip, damage refused, symmetry, range, and the
//! quantized correction against the float network it came from. The network is the lab's
//! experiment, behind the cargo feature `residual` (on in a workspace test run: the lab's
//! crates turn it on).

#![cfg(feature = "residual")]

mod common;

use common::resealed;
use solvo_core::rng::Rng;
use solvo_eval::features::{feature_indices, STAGE_LEN};
use solvo_eval::residual::{FloatNet, ResidualNet, NET_DISC_ROWS, NET_HIDDEN, NET_HIDDEN2};
use solvo_eval::tying::tied_parameters_for;
use solvo_eval::{embedded, Weights, SCALE};
use solvo_othello::{BoardSize, Variant};

fn random_float_net(seed: u64) -> FloatNet {
    let mut rng = Rng::new(seed);
    let mut u = |scale: f64| ((rng.next_f64() * 2.0 - 1.0) * scale) as f32;
    FloatNet {
        rows: (0..STAGE_LEN * NET_HIDDEN).map(|_| u(0.3)).collect(),
        disc_rows: (0..NET_DISC_ROWS * NET_HIDDEN).map(|_| u(1.0)).collect(),
        w2: (0..NET_HIDDEN2 * NET_HIDDEN).map(|_| u(0.5)).collect(),
        b2: (0..NET_HIDDEN2).map(|_| u(0.5)).collect(),
        w3: (0..NET_HIDDEN2).map(|_| u(0.5)).collect(),
        b3: u(1.0),
    }
}

/// The float network's output in discs, as the trainer computes it (rows read at the
/// representative of each feature).
#[allow(clippy::needless_range_loop)] // the textbook form of the network, index by index
fn float_correction(net: &FloatNet, tie: &[u32], player: u64, opponent: u64) -> f32 {
    let discs = (player | opponent).count_ones() as usize;
    let mut h1: Vec<f32> = net.disc_rows[discs * NET_HIDDEN..][..NET_HIDDEN].to_vec();
    for f in feature_indices(player, opponent) {
        let r = tie[f as usize] as usize;
        for k in 0..NET_HIDDEN {
            h1[k] += net.rows[r * NET_HIDDEN + k];
        }
    }
    let mut out = net.b3;
    for j in 0..NET_HIDDEN2 {
        let mut s = net.b2[j];
        for k in 0..NET_HIDDEN {
            s += net.w2[j * NET_HIDDEN + k] * h1[k].max(0.0);
        }
        out += net.w3[j] * s.max(0.0);
    }
    out
}

fn weights_with_net(seed: u64) -> (Weights, FloatNet) {
    let float = random_float_net(seed);
    let mut w = embedded(Variant::Normal).unwrap().clone();
    w.set_residual(Some(ResidualNet::quantize(&float).unwrap())).unwrap();
    w.description = "with a network".into();
    (w, float)
}

#[test]
fn files_without_a_network_are_still_version_one_byte_for_byte() {
    let w = embedded(Variant::Normal).unwrap();
    assert!(w.residual().is_none());
    let bytes = w.to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), solvo_eval::format::VERSION);
    assert_eq!(Weights::from_bytes(&bytes).unwrap(), *w);
}

#[test]
fn a_network_round_trips_and_is_version_two() {
    let (w, _) = weights_with_net(3);
    let bytes = w.to_bytes();
    assert_eq!(u16::from_le_bytes([bytes[8], bytes[9]]), solvo_eval::format::VERSION_WITH_NET);
    let back = Weights::from_bytes(&bytes).unwrap();
    assert_eq!(back, w);
    for b in solvo_othello::random_games::random_game_boards(200, 4) {
        assert_eq!(back.evaluate(b.player, b.opponent), w.evaluate(b.player, b.opponent));
    }
}

#[test]
fn the_correction_is_added_symmetric_in_range_and_close_to_the_float_network() {
    let (w, float) = weights_with_net(5);
    let linear = embedded(Variant::Normal).unwrap();
    let mut differs = 0;
    let tie = tied_parameters_for(BoardSize::Eight).unwrap();
    for b in solvo_othello::random_games::random_game_boards(2000, 6) {
        let v = w.evaluate(b.player, b.opponent);
        for k in 1..8 {
            let img = b.transformed(k);
            assert_eq!(w.evaluate(img.player, img.opponent), v, "{b:?} symmetry {k}");
        }
        let lin = linear.evaluate(b.player, b.opponent);
        assert_eq!(w.evaluate_linear(b.player, b.opponent), lin, "the linear part alone");
        assert_eq!(linear.evaluate_linear(b.player, b.opponent), lin, "without a network: the evaluation");
        let expected =
            f64::from(lin) + f64::from(float_correction(&float, &tie, b.player, b.opponent)) * f64::from(SCALE);
        if expected.abs() > f64::from(solvo_eval::MAX_EVAL - SCALE) {
            // Near the bounds the correction's own clamp and the total's may differ.
            continue;
        }
        // Quantization of the embedding rows (units of 2^-shift) moves the result by a
        // small fraction of a disc.
        assert!((f64::from(v) - expected).abs() <= f64::from(SCALE) / 4.0, "{v} vs {expected}");
        differs += usize::from(v != lin);
    }
    assert!(differs > 1900, "the network changes the evaluation");
    let mut rng = Rng::new(9);
    for _ in 0..20_000 {
        let a = rng.next_u64();
        let b = rng.next_u64() & !a;
        assert!((-solvo_eval::MAX_EVAL..=solvo_eval::MAX_EVAL).contains(&w.evaluate(a, b)));
    }
}

#[test]
fn damaged_or_foreign_networks_are_refused_with_a_message() {
    let (w, _) = weights_with_net(7);
    let bytes = w.to_bytes();
    let refuse = |b: &[u8], what: &str| Weights::from_bytes(b).expect_err(what).message;
    // The network section sits at the end: flips and cuts there are caught.
    for back in [9, 10, 20, 100, 1000, 10_000, 100_000] {
        let mut b = bytes.clone();
        let at = b.len() - back;
        b[at] ^= 0x04;
        refuse(&b, &format!("byte {at} flipped"));
        refuse(&bytes[..bytes.len() - back], "truncated");
    }
    // Resealed (checksum right) but wrong content. The section starts after the
    // weights' payload: find it from the end (its fixed-size tail).
    let tail = NET_DISC_ROWS * NET_HIDDEN * 4 + (NET_HIDDEN * NET_HIDDEN2 + 2 * NET_HIDDEN2 + 1) * 4 + 8;
    // The output bias (the last f32 before the checksum) set to NaN.
    let mut b = bytes.clone();
    let at = b.len() - 12;
    b[at..at + 4].copy_from_slice(&f32::NAN.to_le_bytes());
    assert!(refuse(&resealed(b), "NaN").contains("not finite"));
    // A disc-count row far out of range.
    let mut b = bytes.clone();
    let at = b.len() - tail;
    b[at..at + 4].copy_from_slice(&i32::MAX.to_le_bytes());
    assert!(refuse(&resealed(b), "disc row").contains("out of range"));
    // The same file claimed as version 1: the network bytes are then unexpected.
    let mut b = bytes.clone();
    b[8] = 1;
    assert!(refuse(&resealed(b), "v1").contains("unexpected bytes"));
    // A network for another size is refused when set.
    let mut six = Weights::zeros_for(BoardSize::Six, Variant::Normal).unwrap();
    let net = w.residual().unwrap().clone();
    assert!(six.set_residual(Some(net)).unwrap_err().message.contains("8x8"));
}

#[test]
fn quantize_refuses_bad_shapes_and_values() {
    let mut f = random_float_net(1);
    f.w3[0] = f32::INFINITY;
    assert!(ResidualNet::quantize(&f).unwrap_err().message.contains("not finite"));
    let mut f = random_float_net(1);
    f.b2.pop();
    assert!(ResidualNet::quantize(&f).unwrap_err().message.contains("shapes"));
    let mut f = random_float_net(1);
    f.rows[0] = 1e9;
    assert!(ResidualNet::quantize(&f).unwrap_err().message.contains("16 bits"));
}
