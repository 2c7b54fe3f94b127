//! Breakthrough and Knightthrough (normal and misère): rules, minimax agreement, values.

mod common;

use common::{check_invariants, check_symmetries, play_all, solve, Memo};
use solvo_core::{Game, Status};
use solvo_games::{breakthrough, knightthrough, NoMoveRule, Race, RaceKind, RaceOptions};
use solvo_search::negamax;

fn opts(misere: bool, no_move: NoMoveRule) -> RaceOptions {
    RaceOptions { misere, misere_no_move: no_move, ..Default::default() }
}

fn bt(rows: usize, cols: usize, misere: bool) -> Race {
    breakthrough::new(rows, cols, opts(misere, NoMoveRule::Lose)).unwrap()
}

fn kt(rows: usize, cols: usize, misere: bool) -> Race {
    knightthrough::new(rows, cols, opts(misere, NoMoveRule::Lose)).unwrap()
}

fn play(g: &Race, moves: &[&str]) -> Race {
    play_all(g, |g, t| g.parse_move(t).unwrap_or_else(|e| panic!("{e}\n{g}")), moves)
}

fn cell(g: &Race, name: &str) -> u64 {
    1u64 << g.grid().parse_cell(name).unwrap()
}

fn cells(g: &Race, names: &[&str]) -> u64 {
    names.iter().map(|n| cell(g, n)).fold(0, |a, b| a | b)
}

#[test]
fn breakthrough_start_and_moves() {
    let g = bt(5, 5, false);
    assert_eq!(g.pieces(0).count_ones(), 10);
    assert_eq!(g.pieces(1).count_ones(), 10);
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    // Row 2 pawns: 5 straight + 8 diagonal.
    assert_eq!(moves.len(), 13);
    assert!(moves.iter().all(|m| !m.capture));
    assert!(g.parse_move("a2-a3").is_ok());
    assert!(g.parse_move("a2-b3").is_ok());
    assert!(g.parse_move("a1-a2").is_err(), "a2 is occupied by an own pawn");
    assert!(g.parse_move("a2-a4").is_err());
    assert!(g.parse_move("a4-a3").is_err(), "not the side to move");
    assert!(g.parse_move("q2-a3").is_err());
}

#[test]
fn breakthrough_straight_moves_never_capture() {
    // 4x3, armies in contact: row 2 first player, row 3 second player.
    let g = bt(4, 3, false);
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    // Only diagonal captures: a2xb3, b2xa3, b2xc3, c2xb3.
    assert_eq!(moves.len(), 4, "{names:?}");
    assert!(moves.iter().all(|m| m.capture));
    let after = play(&g, &["a2xb3"]);
    assert_eq!(after.pieces(1).count_ones(), 5);
    assert_eq!(after.pieces(0) & cell(&after, "b3"), cell(&after, "b3"));
}

#[test]
fn reaching_the_far_row_ends_the_game() {
    let o = opts(false, NoMoveRule::Lose);
    let g0 = bt(4, 3, false);
    // First player pawn on b3, second player pawns on a4 and c4: b3-b4 wins.
    let g = Race::from_pieces(RaceKind::Pawn, 4, 3, o, cell(&g0, "b3"), cells(&g0, &["a4", "c4"]), 0).unwrap();
    let mv = g.parse_move("b3-b4").unwrap();
    assert_eq!(g.move_priority(mv), 1000);
    let after = g.play(mv);
    assert_eq!(after.status(), Status::Over(-1));
    // Misère: the same move loses.
    let m = opts(true, NoMoveRule::Lose);
    let g = Race::from_pieces(RaceKind::Pawn, 4, 3, m, cell(&g0, "b3"), cells(&g0, &["a4", "c4"]), 0).unwrap();
    let mv = g.parse_move("b3-b4").unwrap();
    assert!(g.move_priority(mv) < 0);
    assert_eq!(g.play(mv).status(), Status::Over(1));
    // Second player reaching row 1.
    let g = Race::from_pieces(RaceKind::Pawn, 4, 3, o, cell(&g0, "c3"), cell(&g0, "a2"), 1).unwrap();
    assert_eq!(g.play(g.parse_move("a2-a1").unwrap()).status(), Status::Over(-1));
}

#[test]
fn no_move_rules() {
    let g0 = bt(4, 3, false);
    // First player has no pawns left.
    for (misere, rule, expected) in [
        (false, NoMoveRule::Lose, -1),
        (false, NoMoveRule::Win, -1),
        (true, NoMoveRule::Lose, -1),
        (true, NoMoveRule::Win, 1),
    ] {
        let g = Race::from_pieces(RaceKind::Pawn, 4, 3, opts(misere, rule), 0, cell(&g0, "b3"), 0).unwrap();
        assert_eq!(g.status(), Status::Over(expected), "misere={misere} rule={rule}");
    }
    // One column: a blocked pawn has no move.
    let g0 = bt(4, 1, false);
    let g = Race::from_pieces(RaceKind::Pawn, 4, 1, opts(false, NoMoveRule::Lose), cell(&g0, "a2"), cell(&g0, "a3"), 0)
        .unwrap();
    assert_eq!(g.status(), Status::Over(-1));
}

#[test]
fn knight_moves() {
    // The plain rules (the tactics decide this start as won: every move is listed here).
    let plain = RaceOptions { tactics: false, ..opts(false, NoMoveRule::Lose) };
    let g = knightthrough::new(5, 5, plain).unwrap();
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    // Row 2 knights leap (+1 row, ±2 cols): 3 + 3; row 1 knights leap (+2 rows, ±1 col) to row 3: 8;
    // row 2 knights leap (+2 rows, ±1 col) to row 4, all occupied by the enemy: captures, 8.
    let captures = moves.iter().filter(|m| m.capture).count();
    assert_eq!(captures, 8);
    assert_eq!(moves.len(), 6 + 8 + 8);
    assert!(g.parse_move("b1-c3").is_ok());
    assert!(g.parse_move("b1-b3").is_err());
    assert!(g.parse_move("b2xc4").is_ok());
    let m = g.parse_move("b2xc4").unwrap();
    assert_eq!(m.to_string(), "b2xc4");
    // Knightthrough 4x4: a leap from row 2 lands on the far row at once.
    let g = kt(4, 4, false);
    let m = g.parse_move("a2xb4").unwrap();
    assert_eq!(g.play(m).status(), Status::Over(-1));
    assert_eq!(solve(&g), 1);
}

#[test]
fn invariants_small_boards() {
    for misere in [false, true] {
        check_invariants(&bt(4, 3, misere), 8);
        check_invariants(&bt(5, 3, misere), 5);
        check_invariants(&kt(4, 3, misere), 8);
        check_invariants(&kt(5, 4, misere), 4);
    }
}

#[test]
fn memo_solver_agrees_with_plain_negamax() {
    for misere in [false, true] {
        for rule in [NoMoveRule::Lose, NoMoveRule::Win] {
            for (r, c) in [(4, 2), (5, 2), (4, 3)] {
                let k = knightthrough::new(r, c, opts(misere, rule)).unwrap();
                assert_eq!(solve(&k), negamax(&k), "knightthrough {r}x{c} misere={misere}");
            }
            let b = breakthrough::new(4, 2, opts(misere, rule)).unwrap();
            assert_eq!(solve(&b), negamax(&b), "breakthrough 4x2 misere={misere} {rule}");
        }
    }
    // Plain negamax on Breakthrough 4x3 takes ~4 s: once normal, once misère (no-move=win).
    for (misere, rule) in [(false, NoMoveRule::Lose), (true, NoMoveRule::Win)] {
        let b = breakthrough::new(4, 3, opts(misere, rule)).unwrap();
        assert_eq!(solve(&b), negamax(&b), "breakthrough 4x3 misere={misere} {rule}");
    }
}

#[test]
fn brute_force_values() {
    // The design notes' brute-force table: Breakthrough 4x4 L; Misère Breakthrough 4x4 L
    // under both no-move rules; Knightthrough 4x4 and 5x5 W; Misère Knightthrough
    // 5 cols x 4 rows L.
    assert_eq!(solve(&bt(4, 4, false)), -1);
    for rule in [NoMoveRule::Lose, NoMoveRule::Win] {
        assert_eq!(solve(&breakthrough::new(4, 4, opts(true, rule)).unwrap()), -1);
    }
    assert_eq!(solve(&kt(4, 4, false)), 1);
    assert_eq!(solve(&kt(5, 5, false)), 1);
    assert_eq!(solve(&kt(4, 5, true)), -1);
}

#[test]
fn hash_is_independent_of_move_order() {
    let g = bt(5, 5, false);
    let a = play(&g, &["a2-a3", "e4-e3", "b2-b3"]);
    let b = play(&g, &["b2-b3", "e4-e3", "a2-a3"]);
    assert_eq!(a.hash_key(), b.hash_key());
    assert_ne!(a.hash_key(), play(&g, &["a2-a3", "d4-d3", "b2-b3"]).hash_key());
}

#[test]
fn symmetric_images_have_equal_values() {
    let mut memo = Memo::new();
    check_symmetries(&bt(4, 3, false), 4, &mut memo);
    let mut memo = Memo::new();
    check_symmetries(&bt(5, 3, true), 3, &mut memo);
    let mut memo = Memo::new();
    check_symmetries(&kt(5, 3, false), 3, &mut memo);
    assert_eq!(bt(4, 3, false).symmetric_images().len(), 2);
}

#[test]
fn move_codes_distinguish_capture_and_player() {
    let g = bt(4, 3, false);
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    let codes: std::collections::HashSet<u32> = moves.iter().map(|&m| g.move_code(m)).collect();
    assert_eq!(codes.len(), moves.len());
    let after = g.play(moves[0]);
    let mut replies = Vec::new();
    after.generate_moves(&mut replies);
    for &r in &replies {
        assert!(!codes.contains(&after.move_code(r)), "second player's codes differ");
    }
}
