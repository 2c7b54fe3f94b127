//! The weight file and the evaluation: round trip, every kind of damage refused,
//! symmetry of the embedded weights.

mod common;

use common::resealed;
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

/// Random 6x6 weights: every weight a small number, so every table is read, with the
/// contents a symmetry maps onto each other tied (as the fit ties them).
fn random_six_weights(seed: u64) -> Weights {
    use solvo_eval::features6::PATTERN_OFFSETS6;
    use solvo_eval::pattern::PATTERNS6;
    use solvo_othello::BoardSize;
    let (stages, len) = solvo_eval::layout_of(BoardSize::Six).unwrap();
    let mut rng = Rng::new(seed);
    let mut table: Vec<i16> = (0..stages * len).map(|_| rng.below(401) as i16 - 200).collect();
    for (p, &off) in PATTERNS6.iter().zip(&PATTERN_OFFSETS6) {
        let reps = p.representatives();
        for stage in table.chunks_mut(len) {
            for (i, &r) in reps.iter().enumerate() {
                stage[off + i] = stage[off + r as usize];
            }
        }
    }
    Weights::from_table_for(BoardSize::Six, Variant::Normal, table).unwrap()
}

#[test]
fn six_by_six_files_round_trip_and_foreign_sizes_are_refused() {
    use solvo_othello::BoardSize;
    let mut w = random_six_weights(3);
    w.description = "6x6 test".into();
    let bytes = w.to_bytes();
    let back = Weights::from_bytes(&bytes).unwrap();
    assert_eq!(back, w);
    assert_eq!(back.size(), BoardSize::Six);
    assert_eq!(back.stages(), solvo_eval::NUM_STAGES6);
    // A 6x6 set is refused for 8x8 positions and an 8x8 set for 6x6 ones, by name.
    let e = back.check_for(BoardSize::Eight, Variant::Normal).unwrap_err().message;
    assert!(e.contains("6x6") && e.contains("8x8"), "{e}");
    let eight = embedded(Variant::Normal).unwrap();
    let e = eight.check_for(BoardSize::Six, Variant::Normal).unwrap_err().message;
    assert!(e.contains("8x8") && e.contains("6x6"), "{e}");
    assert!(back.check_for(BoardSize::Six, Variant::Reversed).unwrap_err().message.contains("variant"));
    assert!(back.check_for(BoardSize::Six, Variant::Normal).is_ok());
    // A file whose size byte lies (checksum rewritten to match) is refused by its shape.
    let size_at = MAGIC.len() + 2;
    assert_eq!(bytes[size_at], 6);
    let mut lying = bytes.clone();
    lying[size_at] = 8;
    let e = Weights::from_bytes(&resealed(lying)).unwrap_err().message;
    assert!(e.contains("stages"), "{e}");
    let mut lying = eight.to_bytes();
    lying[size_at] = 6;
    let e = Weights::from_bytes(&resealed(lying)).unwrap_err().message;
    assert!(e.contains("stages"), "{e}");
    let mut four = bytes.clone();
    four[size_at] = 4;
    let e = Weights::from_bytes(&resealed(four)).unwrap_err().message;
    assert!(e.contains("board size 4"), "{e}");
    // 4x4 has no features: no zero set, no embedded set, a message either way.
    assert!(Weights::zeros_for(BoardSize::Four, Variant::Normal).is_err());
    assert!(solvo_eval::embedded_for(BoardSize::Four, Variant::Normal).is_err());
    assert!(solvo_eval::embedded_for(BoardSize::Six, Variant::Reversed).is_err());
}

#[test]
fn six_by_six_evaluation_is_symmetric_and_in_range() {
    use solvo_othello::{BoardSize, Position};
    let w = random_six_weights(5);
    let mut rng = Rng::new(9);
    for _ in 0..400 {
        // A random 6x6 game, stopped at a random ply.
        let mut pos = Position::start(BoardSize::Six, Variant::Normal);
        let plies = rng.below(33);
        for _ in 0..plies {
            let moves = pos.moves();
            if pos.is_game_over() {
                break;
            }
            if moves == 0 {
                pos = pos.passed();
                continue;
            }
            let k = rng.below(moves.count_ones() as usize);
            let sq = solvo_othello::Square::iter(moves).nth(k).unwrap();
            pos = pos.play(sq).unwrap();
        }
        let b = pos.board;
        let v = w.evaluate(b.player, b.opponent);
        assert!((-solvo_eval::MAX_EVAL..=solvo_eval::MAX_EVAL).contains(&v));
        for k in 1..8 {
            let img = b.transformed(k);
            assert_eq!(w.evaluate(img.player, img.opponent), v, "{b:?} symmetry {k}");
        }
    }
    // Any bits at all (off the board, overlapping) evaluate without a panic.
    for _ in 0..10_000 {
        let v = w.evaluate(rng.next_u64(), rng.next_u64());
        assert!((-solvo_eval::MAX_EVAL..=solvo_eval::MAX_EVAL).contains(&v));
    }
}

#[test]
fn the_embedded_six_by_six_set_loads_for_six_by_six_only() {
    use solvo_othello::{BoardSize, Position};
    let w = solvo_eval::embedded_for(BoardSize::Six, Variant::Normal).expect("embedded 6x6 weights parse");
    assert_eq!((w.size(), w.variant), (BoardSize::Six, Variant::Normal));
    assert!(w.table().iter().filter(|&&v| v != 0).count() > 50_000, "the embedded 6x6 weights look untrained");
    assert!(w.check_for(BoardSize::Eight, Variant::Normal).is_err());
    assert!(solvo_eval::embedded_shared_for(BoardSize::Six, Variant::Normal).is_ok());
    // Trained and symmetric: the 6x6 start is even (Black's first moves are all alike).
    let start = Position::start(BoardSize::Six, Variant::Normal).board;
    let v = w.evaluate(start.player, start.opponent);
    for sq in solvo_othello::Square::iter(start.moves(BoardSize::Six)) {
        let c = start.play(sq, BoardSize::Six).unwrap();
        let first = solvo_othello::Square::iter(start.moves(BoardSize::Six)).next().unwrap();
        let d = start.play(first, BoardSize::Six).unwrap();
        assert_eq!(w.evaluate(c.player, c.opponent), w.evaluate(d.player, d.opponent));
    }
    assert!(v.abs() < 8 * solvo_eval::SCALE, "start {v}");
}
