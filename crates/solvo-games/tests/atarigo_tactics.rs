//! Atarigo tactics (`tactics=on`, the default) never change a value: every position of
//! small boards, and random positions of 4x4 and 4x5, are worth the same with and
//! without them (the plain-rules value by the memoized solver).

mod common;

use common::{check_invariants, Memo};
use solvo_core::{Game, Status};
use solvo_games::{Atarigo, AtarigoOptions, NoMoveRule};

fn opts(tactics: bool, no_move: NoMoveRule) -> AtarigoOptions {
    AtarigoOptions { no_move, tactics }
}

/// Compares, for every position reachable under the plain rules within `depth` plies,
/// the value with tactics against the plain value.
fn compare_tree(plain: &Atarigo, depth: u32, no_move: NoMoveRule, memos: &mut (Memo, Memo), count: &mut u32) {
    if plain.status() != Status::ToMove {
        return;
    }
    let g = plain.grid();
    let tactic =
        Atarigo::from_stones(g.rows(), g.cols(), opts(true, no_move), plain.stones(), plain.player_to_move()).unwrap();
    assert_eq!(memos.0.value(plain), memos.1.value(&tactic), "tactics change the value of\n{plain}");
    *count += 1;
    if depth == 0 {
        return;
    }
    let mut moves = Vec::new();
    plain.generate_moves(&mut moves);
    for m in moves {
        compare_tree(&plain.play(m), depth - 1, no_move, memos, count);
    }
}

#[test]
fn tactics_keep_every_value_on_small_boards() {
    for (r, c, depth) in [(2, 3, 99), (3, 3, 99), (2, 4, 99), (3, 4, 5), (4, 3, 4)] {
        for no_move in [NoMoveRule::Lose, NoMoveRule::Win] {
            let plain = Atarigo::new(r, c, opts(false, no_move)).unwrap();
            let mut memos = (Memo::new(), Memo::new());
            let mut count = 0;
            compare_tree(&plain, depth, no_move, &mut memos, &mut count);
            assert!(count > 20, "{r}x{c}: only {count} positions compared");
        }
    }
}

#[test]
fn tactics_keep_values_of_random_positions() {
    let mut seed: u64 = 0x1234_5678;
    let mut next = move || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 33) as usize
    };
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
            let tactic =
                Atarigo::from_stones(r, c, opts(true, NoMoveRule::Lose), plain.stones(), plain.player_to_move())
                    .unwrap();
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
