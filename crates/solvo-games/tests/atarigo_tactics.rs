//! Atarigo tactics and symmetric keys (`tactics=on`, `symmetry=on`, the defaults) never
//! change a value: every position of small boards, and random positions of 4x4 and 4x5,
//! are worth the same with and without them (the plain-rules value by the memoized
//! solver, whose memo is keyed by `hash_key`).

mod common;

use common::{check_invariants, compare_tree, Memo};
use solvo_core::rng::Rng;
use solvo_core::{Game, Status};
use solvo_games::{Atarigo, AtarigoOptions, NoMoveRule};
use std::collections::HashSet;

fn opts(tactics: bool, no_move: NoMoveRule) -> AtarigoOptions {
    AtarigoOptions {
        no_move,
        tactics,
        lookahead: tactics,
        symmetry: tactics,
        liberty_ordering: tactics,
        study_ordering: None,
    }
}

/// The plain position rebuilt with the options `with`.
fn rebuilt(plain: &Atarigo, with: AtarigoOptions) -> Atarigo {
    let g = plain.grid();
    Atarigo::from_stones(g.rows(), g.cols(), with, plain.stones(), plain.player_to_move()).unwrap()
}

#[test]
fn tactics_keep_every_value_on_small_boards() {
    for (r, c, depth) in [(2, 3, 99), (3, 3, 99), (2, 4, 99), (3, 4, 5), (4, 3, 4)] {
        for no_move in [NoMoveRule::Lose, NoMoveRule::Win] {
            let plain = Atarigo::new(r, c, opts(false, no_move)).unwrap();
            // Each tactic alone, then all of them.
            let tactics_only = AtarigoOptions { lookahead: false, symmetry: false, ..opts(true, no_move) };
            let symmetry_only = AtarigoOptions { symmetry: true, ..opts(false, no_move) };
            for with in [tactics_only, symmetry_only, opts(true, no_move)] {
                let mut memos = (Memo::new(), Memo::new());
                let convert = |p: &Atarigo| rebuilt(p, with);
                let count = compare_tree(&plain, depth, &convert, &mut memos, &mut HashSet::new());
                assert!(count > 20, "{r}x{c}: only {count} positions compared");
            }
        }
    }
}

#[test]
fn tactics_keep_values_of_random_positions() {
    let mut rng = Rng::new(0x1234_5678);
    let mut next = move || rng.next_u64() as usize;
    let mut compared = 0;
    for (r, c) in [(4, 4), (4, 5), (5, 4)] {
        for _ in 0..40 {
            let mut plain = Atarigo::new(r, c, opts(false, NoMoveRule::Lose)).unwrap();
            let plies = 4 + next() % 8;
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
            let tactic = rebuilt(&plain, opts(true, NoMoveRule::Lose));
            assert_eq!(Memo::new().value(&plain), Memo::new().value(&tactic), "position\n{plain}");
            compared += 1;
        }
    }
    assert!(compared > 60);
}

#[test]
fn tactics_decide_forced_positions() {
    let g0 = Atarigo::new(3, 3, AtarigoOptions::default()).unwrap();
    let grid = *g0.grid();
    let bb = |names: &[&str]| names.iter().map(|n| 1u64 << grid.parse_cell(n).unwrap()).fold(0, |a, b| a | b);
    // X to move can capture O's a1 (b1 is its last liberty): decided, a win.
    let g = Atarigo::from_stones(3, 3, AtarigoOptions::default(), [bb(&["a2"]), bb(&["a1"])], 0).unwrap();
    assert_eq!(g.status(), Status::Over(1));
    // Off: the same position is played on.
    let plain = Atarigo::from_stones(3, 3, opts(false, NoMoveRule::Lose), [bb(&["a2"]), bb(&["a1"])], 0).unwrap();
    assert_eq!(plain.status(), Status::ToMove);
    // O to move, its a1 in atari at b1 only: b1 is the one move searched.
    let g = Atarigo::from_stones(3, 3, AtarigoOptions::default(), [bb(&["a2", "c3"]), bb(&["a1"])], 1).unwrap();
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    assert_eq!(moves.len(), 1);
    assert_eq!(moves[0].to_string(), "b1");
    // O to move with two blocks in atari on different points (a1 at b1, c3 at b3): O loses.
    let g = Atarigo::from_stones(3, 3, AtarigoOptions::default(), [bb(&["a2", "c2", "b2"]), bb(&["a1", "c3"])], 1);
    let g = g.unwrap();
    assert_eq!(g.status(), Status::Over(-1));
    check_invariants(&Atarigo::new(3, 3, AtarigoOptions::default()).unwrap(), 4);
}

#[test]
fn symmetric_images_list_corresponding_moves_in_the_same_order() {
    let start = Atarigo::new(4, 4, AtarigoOptions::default()).unwrap();
    let mut positions = vec![start.clone()];
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    for &m in moves.iter().take(3) {
        let child = start.play(m);
        let mut more = Vec::new();
        child.generate_moves(&mut more);
        positions.extend(more.iter().take(4).map(|&n| child.play(n)));
    }
    for g in &positions {
        common::check_images_list_corresponding_moves(g);
    }
}

#[test]
fn lookahead_finds_an_atari_that_cannot_be_escaped() {
    let g0 = Atarigo::new(4, 4, AtarigoOptions::default()).unwrap();
    let grid = *g0.grid();
    let bb = |names: &[&str]| names.iter().map(|n| 1u64 << grid.parse_cell(n).unwrap()).fold(0, |a, b| a | b);
    // O a1 has liberties a2 and b1; X b2 and c1 make b1 a dead end: X a2 is atari and O's
    // escape at b1 leaves one liberty. X to move wins at once by the look-ahead only.
    let stones = [bb(&["b2", "c1"]), bb(&["a1", "d4"])];
    let with = Atarigo::from_stones(4, 4, AtarigoOptions::default(), stones, 0).unwrap();
    assert_eq!(with.status(), Status::Over(1));
    let without = AtarigoOptions { lookahead: false, ..AtarigoOptions::default() };
    let without = Atarigo::from_stones(4, 4, without, stones, 0).unwrap();
    assert_eq!(without.status(), Status::ToMove);
    assert_eq!(Memo::new().value(&without), 1);
}
