//! Domineering and Misère Domineering: rules, plain minimax agreement, known values.

mod common;

use common::{check_invariants, check_symmetries, play_all, solve, Memo};
use solvo_core::{Game, Status};
use solvo_games::{Domineering, DomineeringOptions};
use solvo_search::negamax;

fn dom(rows: usize, cols: usize, misere: bool) -> Domineering {
    Domineering::new(rows, cols, DomineeringOptions { misere, ..Default::default() }).unwrap()
}

/// The plain rules: the game ends only when the side to move has no placement.
fn raw(rows: usize, cols: usize, misere: bool) -> Domineering {
    dom(rows, cols, misere).with_bounds(false)
}

fn play(g: &Domineering, moves: &[&str]) -> Domineering {
    play_all(g, |g, t| g.parse_move(t).unwrap(), moves)
}

#[test]
fn first_moves_and_no_move_end() {
    let g = raw(2, 2, false);
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    let names: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    assert_eq!(names, ["a1v", "b1v"]);
    // Vertical on a1: horizontal has no room left (b1, b2 are in one column).
    let after = play(&g, &["a1v"]);
    assert_eq!(after.status(), Status::Over(-1));
    assert_eq!(play(&raw(2, 2, true), &["a1v"]).status(), Status::Over(1));
    // A 1x2 board: vertical cannot move at all.
    assert_eq!(raw(1, 2, false).status(), Status::Over(-1));
    assert_eq!(raw(1, 2, true).status(), Status::Over(1));
    // Horizontal first on 1x2: it can move.
    let h = Domineering::new(
        1,
        2,
        DomineeringOptions { first_vertical: false, misere: false, bounds: false, ..Default::default() },
    )
    .unwrap();
    assert_eq!(h.status(), Status::ToMove);
    assert_eq!(negamax(&h), 1);
}

#[test]
fn move_text_round_trip_and_errors() {
    let g = raw(3, 3, false);
    let m = g.parse_move("b2v").unwrap();
    assert_eq!(m.to_string(), "b2v");
    assert_eq!(format!("{m:?}"), "b2v");
    assert!(g.parse_move("b2h").is_err(), "vertical to move");
    assert!(g.parse_move("b3v").is_err(), "off the board");
    assert!(g.parse_move("z9").is_err());
    let g = play(&g, &["b2v"]);
    assert!(g.parse_move("a2h").is_err(), "b2 is covered");
    assert!(g.parse_move("a1h").is_ok());
    let shown = g.to_string();
    assert!(shown.contains('|') && shown.contains("horizontal"), "{shown}");
}

#[test]
fn invariants_small_boards() {
    for (r, c) in [(2, 3), (3, 3), (3, 2), (1, 4)] {
        for misere in [false, true] {
            check_invariants(&dom(r, c, misere), 20);
        }
    }
}

#[test]
fn memo_solver_agrees_with_plain_negamax() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4), (4, 3)] {
        for misere in [false, true] {
            let g = dom(r, c, misere);
            assert_eq!(solve(&g), negamax(&g), "{r}x{c} misere={misere}");
        }
    }
}

#[test]
fn known_values_normal() {
    // Breuker, Uiterwijk & van den Herik 2000: first player wins 2x2, 3x3, 4x4 and loses 5x5.
    assert_eq!(solve(&dom(2, 2, false)), 1);
    assert_eq!(solve(&dom(3, 3, false)), 1);
    assert_eq!(solve(&dom(4, 4, false)), 1);
    let mut memo = Memo::new();
    assert_eq!(memo.value(&dom(5, 5, false)), -1);
}

#[test]
fn known_values_misere() {
    // Brute-force values from the design notes: 3x3 L, 4x4 W, 5x5 W.
    assert_eq!(solve(&dom(3, 3, true)), -1);
    assert_eq!(solve(&dom(4, 4, true)), 1);
    assert_eq!(solve(&dom(5, 5, true)), 1);
}

#[test]
fn hash_is_independent_of_move_order() {
    let g = dom(4, 4, false);
    let a = play(&g, &["a1v", "b4h", "d1v"]);
    let b = play(&g, &["d1v", "b4h", "a1v"]);
    assert_eq!(a.hash_key(), b.hash_key());
    let c = play(&g, &["a1v", "c4h", "d1v"]);
    assert_ne!(a.hash_key(), c.hash_key());
    // Side to move is part of the key.
    let d = play(&g, &["a1v"]);
    let e = play(&g, &["a1v", "c4h"]);
    assert_ne!(d.hash_key(), e.hash_key());
}

#[test]
fn symmetric_images_have_equal_values() {
    for (r, c) in [(3, 4), (4, 3), (3, 3)] {
        // One memo per board: keys do not include the board size.
        let mut memo = Memo::new();
        let g = dom(r, c, false);
        assert_eq!(g.symmetric_images().len(), 4);
        check_symmetries(&g, 3, &mut memo);
    }
    let mut memo = Memo::new();
    check_symmetries(&dom(3, 4, true), 3, &mut memo);
}

#[test]
fn symmetric_keys_keep_values_and_list_corresponding_moves() {
    for misere in [false, true] {
        for (r, c) in [(3, 3), (4, 4), (3, 5), (4, 5)] {
            let on = Domineering::new(r, c, DomineeringOptions { misere, ..Default::default() }).unwrap();
            let off =
                Domineering::new(r, c, DomineeringOptions { misere, symmetry: false, ..Default::default() }).unwrap();
            assert_eq!(solve(&on), solve(&off), "{r}x{c} misere={misere}");
        }
    }
    let g = Domineering::new(4, 5, DomineeringOptions::default()).unwrap();
    let mut firsts = Vec::new();
    g.generate_moves(&mut firsts);
    for &m in firsts.iter().take(4) {
        common::check_images_list_corresponding_moves(&g.play(m));
    }
}

/// The move-count bounds never change a value: every position of small boards within a
/// few plies has the same value with them as without (normal and misère), they do decide
/// positions early, and every image of a decided position is decided alike.
#[test]
fn bounds_keep_values() {
    for misere in [false, true] {
        for (r, c, depth) in [(2, 4, 8), (3, 3, 8), (3, 4, 6), (4, 3, 6), (4, 4, 4), (5, 3, 4), (3, 5, 4)] {
            let plain = raw(r, c, misere);
            let convert = |g: &Domineering| g.with_bounds(true);
            let mut memos = (Memo::new(), Memo::new());
            let mut seen = std::collections::HashSet::new();
            let n = common::compare_tree(&plain, depth, &convert, &mut memos, &mut seen);
            assert!(n > 5, "{r}x{c}: {n} positions");
        }
    }
    // A 1x2 board with Horizontal to move: it has exactly one move, Vertical none.
    let h = Domineering::new(1, 2, DomineeringOptions { first_vertical: false, ..Default::default() }).unwrap();
    assert_eq!(h.status(), Status::Over(1));
    let mut moves = Vec::new();
    h.generate_moves(&mut moves);
    assert!(moves.is_empty());
    // Three plies into 4x4, some positions are decided by the bounds only, and symmetric
    // images are decided alike.
    fn walk(g: &Domineering, depth: u32, decided: &mut u32) {
        for image in g.symmetric_images() {
            assert_eq!(image.status(), g.status());
        }
        if g.status() != Status::ToMove {
            *decided += u32::from(g.with_bounds(false).status() == Status::ToMove);
            return;
        }
        if depth > 0 {
            let mut moves = Vec::new();
            g.generate_moves(&mut moves);
            for m in moves {
                walk(&g.play(m), depth - 1, decided);
            }
        }
    }
    let mut decided = 0;
    walk(&dom(4, 4, true), 3, &mut decided);
    walk(&dom(4, 4, false), 3, &mut decided);
    assert!(decided > 0, "the bounds decide nothing three plies into 4x4");
}

/// Region keys never change a value: positions within a few plies of small boards have
/// the same value with region keys on (transposed frames allowed or not) as with plain
/// keys (normal and misère, memos keyed by each), positions sharing a region key have
/// equal values, region keys merge positions that are not board flips of each other (and,
/// transposed, positions with the other side to move), and images list corresponding
/// moves.
#[test]
fn region_keys_keep_values() {
    let plain_of = |r: usize, c: usize, misere: bool| {
        Domineering::new(r, c, DomineeringOptions { misere, symmetry: false, regions: false, ..Default::default() })
            .unwrap()
    };
    for transpose in [false, true] {
        for misere in [false, true] {
            for (r, c, depth) in [(3, 3, 8), (3, 4, 6), (4, 3, 6), (4, 4, 4), (5, 3, 4), (3, 5, 4), (4, 5, 3)] {
                let plain = plain_of(r, c, misere);
                let convert = |g: &Domineering| g.with_regions(true, transpose);
                let mut memos = (Memo::new(), Memo::new());
                let mut seen = std::collections::HashSet::new();
                let n = common::compare_tree(&plain, depth, &convert, &mut memos, &mut seen);
                assert!(n > 5, "{r}x{c}: {n} positions");
            }
            for (r, c) in [(4, 4), (3, 5), (5, 4)] {
                let on =
                    Domineering::new(r, c, DomineeringOptions { misere, transpose, ..Default::default() }).unwrap();
                assert_eq!(solve(&on), solve(&plain_of(r, c, misere)), "{r}x{c} misere={misere}");
            }
        }
        // Every position three plies into 5x5 misère (and normal): equal region keys, equal
        // values by the plain solver; some keys join positions of different flip classes
        // (and, transposed, positions with different sides to move).
        for misere in [false, true] {
            let mut memo = Memo::new();
            let mut by_key: std::collections::HashMap<u64, (i32, u64, u8)> = std::collections::HashMap::new();
            let (mut merged, mut across) = (0, 0);
            let mut stack = vec![(plain_of(5, 5, misere), 0)];
            while let Some((g, d)) = stack.pop() {
                let on = g.with_regions(true, transpose);
                let flips = g.symmetric_images().iter().map(|im| im.occupied()).min().unwrap();
                if g.status() == Status::ToMove {
                    let v = memo.value(&g);
                    let e = by_key.entry(on.hash_key()).or_insert((v, flips, g.player_to_move()));
                    assert_eq!(e.0, v, "a region key joins positions of other values:\n{g}");
                    merged += u32::from(e.1 != flips);
                    across += u32::from(e.2 != g.player_to_move());
                    if d < 3 {
                        common::check_images_list_corresponding_moves(&on);
                        let mut moves = Vec::new();
                        g.generate_moves(&mut moves);
                        stack.extend(moves.into_iter().map(|m| (g.play(m), d + 1)));
                    }
                }
            }
            assert!(merged > 0, "region keys merged no positions beyond flips (misere={misere})");
            assert!(transpose || across == 0, "merges across sides to move without transpose");
        }
    }
}
