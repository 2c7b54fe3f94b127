//! Property tests: symmetries, canonical forms, hashing, the Game trait's promises,
//! both move-generation paths, and parsers that never panic.

use proptest::prelude::*;
use solvo_core::rng::Rng;
use solvo_core::{Game, Status};
use solvo_othello::flips::{flips, flips_portable};
use solvo_othello::formats::board_string::{format_position, parse_position};
use solvo_othello::moves::{candidate_moves_portable, legal_moves};
use solvo_othello::symmetry::transform;
use solvo_othello::{BoardSize, Position, Square, Variant};

/// A position reached by `plies` random legal moves (passing when forced) from the start.
fn random_position(size: BoardSize, variant: Variant, plies: usize, seed: u64) -> Position {
    let mut rng = Rng::new(seed);
    let mut pos = Position::start(size, variant);
    for _ in 0..plies {
        match pos.status() {
            Status::Over(_) => break,
            Status::MustPass => pos = pos.pass().unwrap(),
            Status::ToMove => {
                let mut moves = Vec::new();
                pos.generate_moves(&mut moves);
                pos = Game::play(&pos, rng.pick(&moves));
            }
        }
    }
    pos
}

fn size_strategy() -> impl Strategy<Value = BoardSize> {
    prop_oneof![Just(BoardSize::Four), Just(BoardSize::Six), Just(BoardSize::Eight)]
}

fn variant_strategy() -> impl Strategy<Value = Variant> {
    prop_oneof![Just(Variant::Normal), Just(Variant::Reversed)]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn moves_and_flips_commute_with_the_8_symmetries(size in size_strategy(), plies in 0usize..60, seed in any::<u64>()) {
        let pos = random_position(size, Variant::Normal, plies, seed);
        let (p, o) = (pos.board.player, pos.board.opponent);
        let moves = legal_moves(p, o, size.mask());
        for k in 0..8 {
            let (tp, to) = (transform(p, k), transform(o, k));
            prop_assert_eq!(legal_moves(tp, to, size.mask()), transform(moves, k));
            for sq in Square::iter(moves) {
                let tsq = transform(sq.bit(), k).trailing_zeros() as usize;
                prop_assert_eq!(flips(tsq, tp, to), transform(flips(sq.index(), p, o), k));
            }
        }
    }

    #[test]
    fn canonical_form_is_shared_by_all_images_and_minimal(size in size_strategy(), plies in 0usize..60, seed in any::<u64>()) {
        let pos = random_position(size, Variant::Normal, plies, seed);
        let images = pos.board.images();
        let canon = pos.board.canonical();
        prop_assert!(images.contains(&canon));
        for img in images {
            prop_assert_eq!(img.canonical(), canon);
            prop_assert!(canon <= img);
        }
    }

    #[test]
    fn game_value_is_invariant_under_symmetries(size in size_strategy(), variant in variant_strategy(), seed in any::<u64>()) {
        // Near the end, so plain negamax is quick: 4x4 from anywhere, else <= 8 empties.
        let plies = match size { BoardSize::Four => 3, BoardSize::Six => 28, BoardSize::Eight => 56 };
        let pos = random_position(size, variant, plies, seed);
        prop_assume!(pos.empties() <= 13);
        let value = solvo_search::negamax(&pos);
        for img in pos.symmetric_images() {
            prop_assert_eq!(solvo_search::negamax(&img), value);
        }
        let mirrored = Position { variant: match variant { Variant::Normal => Variant::Reversed, Variant::Reversed => Variant::Normal }, ..pos };
        if let Status::Over(v) = pos.status() {
            prop_assert_eq!(mirrored.status(), Status::Over(-v));
        }
    }

    #[test]
    fn hash_depends_on_the_position_only(size in size_strategy(), plies in 1usize..60, seed in any::<u64>()) {
        let pos = random_position(size, Variant::Normal, plies, seed);
        let copy = pos;
        prop_assert_eq!(pos.hash_key(), copy.hash_key());
        prop_assert_ne!(pos.hash_key(), pos.passed().hash_key());
    }

    #[test]
    fn game_trait_status_agrees_with_moves_and_scores(size in size_strategy(), variant in variant_strategy(), plies in 0usize..64, seed in any::<u64>()) {
        let pos = random_position(size, variant, plies, seed);
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        match pos.status() {
            Status::ToMove => prop_assert!(!moves.is_empty()),
            Status::MustPass => {
                prop_assert!(moves.is_empty());
                prop_assert!(pos.pass().is_some());
            }
            Status::Over(v) => {
                prop_assert!(moves.is_empty() && pos.pass().is_none());
                prop_assert_eq!(v, pos.final_score());
                prop_assert!(v.abs() <= pos.max_value());
                let normal = pos.board.final_score(size);
                prop_assert_eq!(v, if variant == Variant::Normal { normal } else { -normal });
            }
        }
        if !matches!(pos.status(), Status::MustPass) {
            prop_assert!(pos.pass().is_none());
        }
    }

    #[test]
    fn portable_and_simd_kernels_agree(a in any::<u64>(), b in any::<u64>(), sq in 0usize..64) {
        let (p, o) = (a & !b, b & !a);
        let empty = !(p | o);
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        prop_assert_eq!(solvo_othello::moves::candidate_moves_avx2(p, o) & empty, candidate_moves_portable(p, o) & empty);
        prop_assert_eq!(legal_moves(p, o, u64::MAX), candidate_moves_portable(p, o) & empty);
        if empty >> sq & 1 == 1 {
            prop_assert_eq!(flips(sq, p, o), flips_portable(sq, p, o));
            let (f, replies) = solvo_othello::moves::play_and_reply_moves(sq, p, o, empty & !(1 << sq));
            prop_assert_eq!(f, flips_portable(sq, p, o));
            if f != 0 {
                prop_assert_eq!(replies, legal_moves(o ^ f, p ^ f ^ (1 << sq), u64::MAX));
            }
        }
    }

    #[test]
    fn board_strings_round_trip(size in size_strategy(), variant in variant_strategy(), plies in 0usize..64, seed in any::<u64>()) {
        let pos = random_position(size, variant, plies, seed);
        prop_assert_eq!(parse_position(&format_position(&pos), None, variant).unwrap(), pos);
    }

    #[test]
    fn board_string_parser_never_panics(s in ".{0,80}", bytes in proptest::collection::vec(any::<u8>(), 0..80)) {
        let _ = parse_position(&s, None, Variant::Normal);
        let _ = parse_position(&String::from_utf8_lossy(&bytes), Some(BoardSize::Six), Variant::Normal);
        let chars: String = s.chars().map(|c| match (c as u32) % 5 { 0 => 'X', 1 => 'O', 2 => '-', 3 => ' ', _ => c }).collect();
        let _ = parse_position(&chars, None, Variant::Normal);
    }
}
