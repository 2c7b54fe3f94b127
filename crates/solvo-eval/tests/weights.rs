//! The weight file and the evaluation: round trip, every kind of damage refused,
//! symmetry of the embedded weights.

use solvo_core::rng::Rng;
use solvo_eval::format::MAGIC;
use solvo_eval::{embedded, Weights};
use solvo_othello::{Board, Variant};

fn random_positions(n: usize, seed: u64) -> Vec<Board> {
    solvo_othello::random_games::random_game_boards(n, seed)
}

fn sample_weights() -> Weights {
    let mut w = embedded(Variant::Normal).expect("embedded weights parse").clone();
    w.description = "test".into();
    w.mpc = vec![solvo_eval::MpcStat { empties: 30, shallow: 2, deep: 6, mean: 0.5, sigma: 3.25 }];
    w
}

#[test]
fn embedded_weights_parse_and_are_trained() {
    let w = embedded(Variant::Normal).unwrap();
    assert_eq!(w.variant, Variant::Normal);
    assert!(w.table().iter().filter(|&&v| v != 0).count() > 100_000, "the embedded weights look untrained");
}

#[test]
fn round_trip_keeps_everything() {
    let w = sample_weights();
    let bytes = w.to_bytes();
    assert_eq!(Weights::from_bytes(&bytes).unwrap(), w);
}

#[test]
fn every_damage_is_refused_with_a_message() {
    let bytes = sample_weights().to_bytes();
    let refuse = |b: &[u8], what: &str| {
        let e = Weights::from_bytes(b).expect_err(what);
        assert!(!e.message.is_empty(), "{what}");
        e.message
    };
    assert!(refuse(&[], "empty").contains("not a solvo weight file"));
    assert!(refuse(b"hello world, not weights", "foreign").contains("not a solvo weight file"));
    assert!(refuse(&bytes[..MAGIC.len() + 3], "header only").contains("truncated"));
    for cut in [bytes.len() / 2, bytes.len() - 1, bytes.len() - 9, 40] {
        refuse(&bytes[..cut], "truncated");
    }
    // Every single flipped byte is caught (a sample of positions across the file).
    for at in (8..bytes.len()).step_by(bytes.len() / 97 + 1).chain([8, 9, 10, 11, bytes.len() - 1]) {
        let mut b = bytes.clone();
        b[at] ^= 0x20;
        refuse(&b, &format!("byte {at} flipped"));
    }
    // A newer version is named as such (checked before the checksum).
    let mut b = bytes.clone();
    b[8] = 9;
    assert!(refuse(&b, "version").contains("version 9"));
    // Extra bytes after a valid file.
    let mut b = bytes.clone();
    b.push(0);
    refuse(&b, "trailing byte");
}

#[test]
fn symmetric_positions_evaluate_equally() {
    let w = embedded(Variant::Normal).unwrap();
    for b in random_positions(3000, 11) {
        let v = w.evaluate(b.player, b.opponent);
        for k in 1..8 {
            let img = b.transformed(k);
            assert_eq!(w.evaluate(img.player, img.opponent), v, "{b:?} symmetry {k}");
        }
    }
}

#[test]
fn evaluation_stays_in_range_on_random_boards() {
    let w = embedded(Variant::Normal).unwrap();
    let mut rng = Rng::new(5);
    for _ in 0..20_000 {
        let a = rng.next_u64();
        let b = rng.next_u64() & !a;
        let v = w.evaluate(a, b);
        assert!((-solvo_eval::MAX_EVAL..=solvo_eval::MAX_EVAL).contains(&v));
    }
}

#[test]
fn reversed_weights_are_embedded_and_symmetric() {
    let w = embedded(Variant::Reversed).unwrap();
    assert_eq!(w.variant, Variant::Reversed);
    for b in random_positions(500, 3) {
        let v = w.evaluate(b.player, b.opponent);
        for k in 1..8 {
            let img = b.transformed(k);
            assert_eq!(w.evaluate(img.player, img.opponent), v);
        }
    }
}
