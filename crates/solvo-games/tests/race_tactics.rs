//! Race-game tactics (`tactics=on`, the default in normal play) never change a value:
//! every position of small boards, and random positions of larger ones, are worth the
//! same with and without them (by the memoized solver).

mod common;

use common::{check_invariants, compare_tree, Memo};
use solvo_core::{Game, Status};
use solvo_games::{NoMoveRule, Race, RaceKind, RaceOptions};
use std::collections::HashSet;

fn opts(tactics: bool) -> RaceOptions {
    RaceOptions {
        misere: false,
        misere_no_move: NoMoveRule::Lose,
        tactics,
        symmetry: tactics,
        safety_ordering: tactics,
        threat_guard: tactics,
        threat_ordering: false,
        study_ordering: false,
    }
}

fn with_tactics(plain: &Race) -> Race {
    let g = plain.grid();
    Race::from_pieces(
        plain.kind(),
        g.rows(),
        g.cols(),
        opts(true),
        plain.pieces(0),
        plain.pieces(1),
        plain.player_to_move(),
    )
    .unwrap()
}

#[test]
fn tactics_keep_every_value_on_small_boards() {
    for (kind, r, c, depth) in [
        (RaceKind::Pawn, 4, 3, 99),
        (RaceKind::Pawn, 4, 4, 7),
        (RaceKind::Pawn, 5, 3, 6),
        (RaceKind::Pawn, 6, 1, 99),
        (RaceKind::Pawn, 5, 2, 99),
        (RaceKind::Knight, 4, 4, 8),
        (RaceKind::Knight, 5, 4, 4),
        (RaceKind::Knight, 5, 3, 8),
        (RaceKind::Knight, 7, 3, 5),
    ] {
        let plain = Race::new(kind, r, c, opts(false)).unwrap();
        let mut memos = (Memo::new(), Memo::new());
        let count = compare_tree(&plain, depth, &with_tactics, &mut memos, &mut HashSet::new());
        assert!(count > 0, "{kind:?} {r}x{c}: no position compared");
    }
}

#[test]
fn tactics_keep_values_of_random_positions() {
    let mut seed: u64 = 0x5EED;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
    let mut compared = 0;
    for (kind, r, c, min_plies) in [
        (RaceKind::Pawn, 5, 5, 12),
        (RaceKind::Pawn, 6, 4, 12),
        (RaceKind::Knight, 6, 6, 10),
        (RaceKind::Knight, 7, 4, 12),
    ] {
        for _ in 0..20 {
            let mut plain = Race::new(kind, r, c, opts(false)).unwrap();
            let plies = min_plies + next() % 8;
            for _ in 0..plies {
                if plain.status() != Status::ToMove {
                    break;
                }
                let mut moves = Vec::new();
                plain.generate_moves(&mut moves);
                plain = plain.play(moves[next() % moves.len()]);
            }
            if plain.status() != Status::ToMove {
                continue;
            }
            let mut budget = Memo::new();
            let v = budget.value(&plain);
            assert_eq!(v, Memo::new().value(&with_tactics(&plain)), "position\n{plain}");
            compared += 1;
        }
    }
    assert!(compared > 30, "{compared}");
}

#[test]
fn tactics_decide_arrivals_and_threats() {
    let g = Race::new(RaceKind::Pawn, 5, 5, opts(true)).unwrap();
    let cells = |names: &[&str]| names.iter().map(|n| 1u64 << g.grid().parse_cell(n).unwrap()).fold(0, |a, b| a | b);
    // W to move with a pawn on row 4: it arrives next move, decided.
    let w = Race::from_pieces(RaceKind::Pawn, 5, 5, opts(true), cells(&["a4", "e1"]), cells(&["e5"]), 0).unwrap();
    assert_eq!(w.status(), Status::Over(1));
    let plain = Race::from_pieces(RaceKind::Pawn, 5, 5, opts(false), cells(&["a4", "e1"]), cells(&["e5"]), 0).unwrap();
    assert_eq!(plain.status(), Status::ToMove);
    // B threatens from b2 (row 2, arrives on row 1); W must capture it: a1xb2 or c1xb2.
    let b = Race::from_pieces(RaceKind::Pawn, 5, 5, opts(true), cells(&["a1", "c1", "e3"]), cells(&["b2", "e5"]), 0)
        .unwrap();
    let mut moves = Vec::new();
    b.generate_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    assert!(names.iter().all(|n| n.ends_with("xb2")), "{names:?}");
    // Two threatening pawns: W cannot capture both and loses.
    let two = Race::from_pieces(RaceKind::Pawn, 5, 5, opts(true), cells(&["a1", "e3"]), cells(&["b2", "d2", "e5"]), 0)
        .unwrap();
    assert_eq!(two.status(), Status::Over(-1));
    // Misère play never uses the tactics.
    let misere = RaceOptions { misere: true, ..opts(true) };
    let m = Race::from_pieces(RaceKind::Pawn, 5, 5, misere, cells(&["a4", "e1"]), cells(&["e5"]), 0).unwrap();
    assert_eq!(m.status(), Status::ToMove);
    check_invariants(&Race::new(RaceKind::Knight, 5, 5, opts(true)).unwrap(), 3);
    check_invariants(&Race::new(RaceKind::Pawn, 5, 4, opts(true)).unwrap(), 3);
}

#[test]
fn mirrored_positions_share_keys_and_list_corresponding_moves() {
    for (kind, misere) in [(RaceKind::Pawn, false), (RaceKind::Knight, false), (RaceKind::Pawn, true)] {
        let options = RaceOptions { misere, ..RaceOptions::default() };
        let g = Race::new(kind, 6, 5, options).unwrap();
        let mut firsts = Vec::new();
        g.generate_moves(&mut firsts);
        for &m in &firsts {
            common::check_images_list_corresponding_moves(&g.play(m));
        }
    }
    // Values do not depend on the option (misère 4x4 and 5x4, both no-move rules).
    for (r, c) in [(4, 4), (5, 3)] {
        for no_move in [NoMoveRule::Lose, NoMoveRule::Win] {
            let on = RaceOptions { misere: true, misere_no_move: no_move, ..RaceOptions::default() };
            let off = RaceOptions { symmetry: false, ..on };
            let a = Memo::new().value(&Race::new(RaceKind::Pawn, r, c, on).unwrap());
            assert_eq!(a, Memo::new().value(&Race::new(RaceKind::Pawn, r, c, off).unwrap()));
        }
    }
}
