//! The 4x4 strong solution against a brute-force minimax written here, and its store.

use solvo_othello::{Board, BoardSize, Square, Variant};
use solvo_solve::enumerate::{enumerate, EnumerateOptions};
use solvo_solve::store::{kind, Store};
use solvo_solve::strong::{strong_solve, write_to_store};

const SIZE: BoardSize = BoardSize::Four;

/// Plain negamax over every move sequence: final disc difference, empties to the winner.
fn minimax(b: Board, variant: Variant) -> i32 {
    let moves = b.moves(SIZE);
    if moves == 0 {
        if b.pass().moves(SIZE) == 0 {
            return variant.apply(b.final_score(SIZE));
        }
        return -minimax(b.pass(), variant);
    }
    Square::iter(moves).map(|sq| -minimax(b.play(sq, SIZE).unwrap(), variant)).max().unwrap()
}

#[test]
fn every_value_equals_brute_force_minimax_and_the_count_equals_the_enumeration() {
    for variant in [Variant::Normal, Variant::Reversed] {
        let sol = strong_solve(SIZE, variant).unwrap();
        let mut n = 0;
        for level in &sol.levels {
            for s in level {
                assert_eq!(s.value as i32, minimax(s.board, variant), "{:?} {variant}", s.board);
                let child = s.board.play(s.best_move, SIZE).expect("best move is legal");
                // The best move reaches the value.
                let v = if child.moves(SIZE) == 0 && child.pass().moves(SIZE) != 0 {
                    minimax(child.pass(), variant)
                } else {
                    -minimax(child, variant)
                };
                assert_eq!(v, s.value as i32);
                n += 1;
            }
        }
        let opts =
            EnumerateOptions { size: SIZE, max_discs: 16, data_dir: None, memory_bytes: 1 << 26, progress: false };
        let counted: u64 = enumerate(&opts, |_| {}).unwrap().iter().map(|r| r.count).sum();
        assert_eq!(n as u64, counted);
        assert_eq!(
            sol.value(&Board::start()),
            Some(if variant == Variant::Normal { -10 } else { minimax(Board::start(), variant) as i8 })
        );
    }
}

#[test]
fn the_store_holds_every_position_exactly_with_a_legal_best_move() {
    let sol = strong_solve(SIZE, Variant::Normal).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb"), SIZE, Variant::Normal).unwrap();
    write_to_store(&sol, &store).unwrap();
    assert_eq!(store.len().unwrap(), sol.len() as u64);
    store
        .for_each(|b, r| {
            let (v, m) = sol.lookup(&b).expect("stored position is reachable");
            assert_eq!(r.value(), Some(v));
            assert_eq!(r.kinds, kind::STRONG);
            assert_eq!(r.best_move, Some(m));
            Ok(())
        })
        .unwrap();
    // Looked up in another orientation, the best move comes back in that orientation.
    let b = Board::start().play(Square::parse("d3").unwrap(), SIZE).unwrap();
    let r = store.get(&b).unwrap().unwrap();
    assert!(b.play(r.best_move.unwrap(), SIZE).is_some());
    assert_eq!(r.value(), Some(10));
}
