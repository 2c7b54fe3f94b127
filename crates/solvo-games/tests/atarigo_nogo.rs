//! Atarigo and Nogo: rules (captures, suicide, no-move), minimax agreement, known values.

mod common;

use common::{check_invariants, check_symmetries, play_all, solve, Memo};
use solvo_core::{Game, Status};
use solvo_games::{Atarigo, AtarigoOptions, NoMoveRule, Nogo, NogoOptions};
use solvo_search::negamax;

fn ata(rows: usize, cols: usize) -> Atarigo {
    Atarigo::new(rows, cols, AtarigoOptions::default()).unwrap()
}

fn nogo(rows: usize, cols: usize) -> Nogo {
    Nogo::new(rows, cols, NogoOptions::default()).unwrap()
}

fn bb(g: &solvo_games::grid::Grid, names: &[&str]) -> u64 {
    names.iter().map(|n| 1u64 << g.parse_cell(n).unwrap()).fold(0, |a, b| a | b)
}

#[test]
fn atarigo_first_capture_wins() {
    let g = ata(3, 3);
    // X a2, O a1, X b1 captures a1.
    let g = play_all(&g, |g, t| g.parse_move(t).unwrap(), &["a2", "a1"]);
    let mv = g.parse_move("b1").unwrap();
    // The capture comes before every other move.
    let mut others = Vec::new();
    g.generate_moves(&mut others);
    assert!(others.iter().filter(|&&m| m != mv).all(|&m| g.move_priority(m) < g.move_priority(mv)));
    let after = g.play(mv);
    assert_eq!(after.status(), Status::Over(-1));
    let mut moves = Vec::new();
    after.generate_moves(&mut moves);
    assert!(moves.is_empty());
}

#[test]
fn atarigo_suicide_illegal_unless_capturing() {
    let g0 = ata(3, 3);
    let grid = *g0.grid();
    // O stones on a2 and b1: a1 is suicide for X.
    let g = Atarigo::from_stones(3, 3, AtarigoOptions::default(), [bb(&grid, &["c3"]), bb(&grid, &["a2", "b1"])], 0)
        .unwrap();
    assert!(g.parse_move("a1").is_err());
    // Now O's a2 block has one liberty left (a1) because X holds a3 and b2: a1 captures.
    let g = Atarigo::from_stones(
        3,
        3,
        AtarigoOptions::default(),
        [bb(&grid, &["a3", "b2", "c1"]), bb(&grid, &["a2", "b1"])],
        0,
    )
    .unwrap();
    let mv = g.parse_move("a1").unwrap();
    assert_eq!(g.play(mv).status(), Status::Over(-1));
}

#[test]
fn atarigo_no_move_rule() {
    // 1x3: X b1 ... O can play a1 or c1? a1: O block a1 has no liberty (b1 is X) and
    // captures nothing (X b1 still has c1) => suicide. So O has no legal move.
    let g = ata(1, 3);
    let after = g.play(g.parse_move("b1").unwrap());
    assert_eq!(after.status(), Status::Over(-1));
    let win = Atarigo::new(1, 3, AtarigoOptions { no_move: NoMoveRule::Win, ..Default::default() }).unwrap();
    let after = win.play(win.parse_move("b1").unwrap());
    assert_eq!(after.status(), Status::Over(1));
}

#[test]
fn nogo_capture_and_suicide_illegal() {
    let g0 = nogo(3, 3);
    let grid = *g0.grid();
    // X a2 with O a1: X b1 would capture a1 — illegal.
    let g = Nogo::from_stones(3, 3, NogoOptions::default(), [bb(&grid, &["a2"]), bb(&grid, &["a1"])], 0).unwrap();
    assert!(g.parse_move("b1").is_err());
    // O a2, b1: a1 is suicide for X — illegal; for O it is fine.
    let g = Nogo::from_stones(3, 3, NogoOptions::default(), [bb(&grid, &["c3"]), bb(&grid, &["a2", "b1"])], 0).unwrap();
    assert!(g.parse_move("a1").is_err());
    assert!(g.parse_move("b2").is_ok());
    // Cazenave's variant: the capture is legal and loses at once.
    let o = NogoOptions { capture_loses: true, ..Default::default() };
    let g = Nogo::from_stones(3, 3, o, [bb(&grid, &["a2"]), bb(&grid, &["a1"])], 0).unwrap();
    let mv = g.parse_move("b1").unwrap();
    assert!(g.move_priority(mv) < 0);
    assert_eq!(g.play(mv).status(), Status::Over(1));
    // A block without liberty is refused as a starting position.
    assert!(Nogo::from_stones(3, 3, NogoOptions::default(), [bb(&grid, &["a2", "b1"]), bb(&grid, &["a1"])], 0).is_err());
}

#[test]
fn nogo_no_move_loses() {
    // 1x2: X a1; O cannot play b1 (it would capture a1, and be suicide).
    let g = nogo(1, 2);
    let after = g.play(g.parse_move("a1").unwrap());
    assert_eq!(after.status(), Status::Over(-1));
    assert_eq!(negamax(&g), 1);
}

#[test]
fn invariants_small_boards() {
    check_invariants(&ata(2, 3), 10);
    check_invariants(&nogo(2, 3), 10);
    check_invariants(&Nogo::new(2, 3, NogoOptions { capture_loses: true, ..Default::default() }).unwrap(), 10);
    check_invariants(&ata(3, 3), 3);
    check_invariants(&nogo(3, 3), 3);
}

#[test]
fn memo_solver_agrees_with_plain_negamax() {
    for (r, c) in [(1, 4), (2, 2), (2, 3), (3, 2), (1, 6)] {
        for rule in [NoMoveRule::Lose, NoMoveRule::Win] {
            let a = Atarigo::new(r, c, AtarigoOptions { no_move: rule, ..Default::default() }).unwrap();
            assert_eq!(solve(&a), negamax(&a), "atarigo {r}x{c} {rule}");
        }
        for capture_loses in [false, true] {
            let n = Nogo::new(r, c, NogoOptions { capture_loses, ..Default::default() }).unwrap();
            assert_eq!(solve(&n), negamax(&n), "nogo {r}x{c} capture_loses={capture_loses}");
        }
    }
    let n = nogo(3, 3);
    assert_eq!(negamax(&n), 1);
}

#[test]
fn nogo_known_values() {
    // Müller: 3x3 first player wins; 4x4 second player wins. Brute force (design notes):
    // 2x2 W, 2x3 L, 2x4 L, 2x5 W, 3x4 L, 3x5 W.
    for (r, c, v) in [(2, 2, 1), (3, 3, 1), (2, 3, -1), (2, 4, -1), (2, 5, 1), (3, 4, -1), (3, 5, 1)] {
        assert_eq!(solve(&nogo(r, c)), v, "nogo {r}x{c}");
    }
    // Both capture rules give the same value.
    assert_eq!(solve(&Nogo::new(3, 4, NogoOptions { capture_loses: true, ..Default::default() }).unwrap()), -1);
}

#[test]
fn nogo_4x4_second_player_wins() {
    let mut memo = Memo::new();
    assert_eq!(memo.value(&nogo(4, 4)), -1);
}

#[test]
fn atarigo_brute_force_values() {
    // Design notes: 3x3, 2x5, 3x4 W; 4x4 L (also with no-move=win).
    for (r, c, v) in [(3, 3, 1), (2, 5, 1), (3, 4, 1), (4, 3, 1), (4, 4, -1)] {
        assert_eq!(solve(&ata(r, c)), v, "atarigo {r}x{c}");
    }
    assert_eq!(
        solve(&Atarigo::new(4, 4, AtarigoOptions { no_move: NoMoveRule::Win, ..Default::default() }).unwrap()),
        -1
    );
}

#[test]
fn hash_is_independent_of_move_order() {
    let g = nogo(3, 3);
    let p = |g: &Nogo, m: &[&str]| play_all(g, |g, t| g.parse_move(t).unwrap(), m);
    assert_eq!(p(&g, &["a1", "c3", "b2"]).hash_key(), p(&g, &["b2", "c3", "a1"]).hash_key());
    assert_ne!(p(&g, &["a1", "c3", "b2"]).hash_key(), p(&g, &["a1", "b2", "c3"]).hash_key());
    let g = ata(3, 3);
    let p = |g: &Atarigo, m: &[&str]| play_all(g, |g, t| g.parse_move(t).unwrap(), m);
    assert_eq!(p(&g, &["a1", "c3", "b2"]).hash_key(), p(&g, &["b2", "c3", "a1"]).hash_key());
}

#[test]
fn symmetric_images_have_equal_values() {
    assert_eq!(nogo(3, 3).symmetric_images().len(), 8);
    assert_eq!(nogo(2, 3).symmetric_images().len(), 4);
    let mut memo = Memo::new();
    check_symmetries(&nogo(3, 3), 2, &mut memo);
    let mut memo = Memo::new();
    check_symmetries(&ata(3, 3), 2, &mut memo);
    let mut memo = Memo::new();
    check_symmetries(&ata(2, 4), 3, &mut memo);
}

#[test]
fn display_and_codes() {
    let g = play_all(&ata(3, 3), |g, t| g.parse_move(t).unwrap(), &["b2"]);
    let text = g.to_string();
    assert!(text.contains('X') && text.contains("O (second player) to move"), "{text}");
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    let codes: std::collections::HashSet<u32> = moves.iter().map(|&m| g.move_code(m)).collect();
    assert_eq!(codes.len(), moves.len());
    assert_eq!(moves[0].to_string(), "a1");
}

#[test]
fn nogo_symmetric_keys_keep_values_and_list_corresponding_moves() {
    for (r, c) in [(3, 3), (2, 4), (3, 4)] {
        let off = Nogo::new(r, c, NogoOptions { symmetry: false, ..Default::default() }).unwrap();
        assert_eq!(solve(&nogo(r, c)), solve(&off), "nogo {r}x{c}");
    }
    let g = nogo(3, 4);
    let mut firsts = Vec::new();
    g.generate_moves(&mut firsts);
    for &m in &firsts {
        common::check_images_list_corresponding_moves(&g.play(m));
    }
}

/// The Monte Carlo Game Solver study's Table 3 (winner of Nogo by rows x columns; 1: the
/// first player, 2: the second), every size of at most 15 cells, solved here (about a
/// second in all; `solvo-lab bench games --table 3` runs the sizes to 20 cells).
#[test]
fn nogo_winner_grid_of_the_study_to_15_cells() {
    const STUDY: [&[u8]; 10] = [
        &[2, 1, 1, 2, 1, 1, 1, 1, 1, 1],
        &[1, 1, 2, 2, 1, 1, 1, 1, 2, 2],
        &[1, 2, 1, 2, 1, 1, 1, 1],
        &[2, 2, 2, 2, 1, 1],
        &[1, 1, 1, 1, 1],
        &[1, 1, 1, 1],
        &[1, 1, 1],
        &[1, 1, 1],
        &[1, 2],
        &[1, 2],
    ];
    let mut checked = 0;
    for (r, row) in STUDY.iter().enumerate() {
        for (c, &winner) in row.iter().enumerate() {
            let (rows, cols) = (r + 1, c + 1);
            if rows * cols > 15 {
                continue;
            }
            let expected = if winner == 1 { 1 } else { -1 };
            assert_eq!(solve(&nogo(rows, cols)), expected, "nogo {rows}x{cols}: the study's winner {winner}");
            checked += 1;
        }
    }
    assert_eq!(checked, 35);
}
