//! The endgame solver's bounds kept in a store while it solves: values never change,
//! and a solve stopped halfway (a kill) resumes with fewer nodes than starting over.

use solvo_othello::{Board, BoardSize, Color, Position, Square, Variant};
use solvo_othello_search::Knowledge;
use solvo_othello_search::{solve, SolveOptions};
use solvo_solve::solve_knowledge::StoreKnowledge;
use solvo_solve::store::Store;
use std::sync::Arc;
use std::time::Duration;

/// 6x6 positions with `empties` empties: the first legal move, then varied by `seed`.
fn positions(count: u64, empties: u32) -> Vec<Board> {
    let size = BoardSize::Six;
    (0..count)
        .map(|seed| {
            let mut b = Board::start();
            let mut k = seed;
            while b.empties(size) > empties {
                let moves: Vec<Square> = Square::iter(b.moves(size)).collect();
                if moves.is_empty() {
                    b = b.pass();
                    continue;
                }
                b = b.play(moves[(k % moves.len() as u64) as usize], size).unwrap();
                k = k.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407) >> 7;
            }
            b
        })
        .filter(|b| !b.is_game_over(size) && b.moves(size) != 0)
        .collect()
}

fn position(b: Board) -> Position {
    Position { board: b, side: Color::Black, size: BoardSize::Six, variant: Variant::Normal }
}

fn options(knowledge: Option<Arc<StoreKnowledge>>) -> SolveOptions {
    let mut o = SolveOptions::new(8);
    o.knowledge = knowledge.map(|k| k as Arc<dyn Knowledge>);
    o
}

#[test]
fn bounds_kept_in_a_store_never_change_a_value_and_a_stopped_solve_resumes_cheaper() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("k.redb"), BoardSize::Six, Variant::Normal).unwrap();
    for (i, b) in positions(3, 21).into_iter().enumerate() {
        let pos = position(b);
        let plain = solve(&pos, &options(None));
        assert!(!plain.stopped);
        // A first run stopped at half its nodes (as a kill would), its bounds flushed.
        let first = Arc::new(StoreKnowledge::new(store.share(), 14, 500, Duration::ZERO));
        let mut stopped = options(Some(first.clone()));
        stopped.node_budget = plain.nodes / 2;
        let part = solve(&pos, &stopped);
        first.flush();
        assert!(first.take_error().is_none());
        assert!(part.lower <= plain.lower && plain.upper <= part.upper, "position {i}: stopped bounds must hold");
        // The resumed run, a new table and a new knowledge over the same store.
        let again = Arc::new(StoreKnowledge::new(store.share(), 14, 500, Duration::from_secs(3600)));
        let resumed = solve(&pos, &options(Some(again.clone())));
        assert_eq!((resumed.lower, resumed.upper), (plain.lower, plain.upper), "position {i}");
        assert!(again.used() > 0, "position {i}: the resumed solve read no bound");
        assert!(
            resumed.nodes < plain.nodes,
            "position {i}: resumed {} nodes, not fewer than a solve from nothing ({})",
            resumed.nodes,
            plain.nodes
        );
        // Solved again with every bound in the store: the same value, few nodes.
        again.flush();
        let third = solve(&pos, &options(Some(Arc::new(StoreKnowledge::new(store.share(), 14, 500, Duration::ZERO)))));
        assert_eq!(third.score(), plain.score(), "position {i}");
        eprintln!(
            "position {i}: value {:?}, {} nodes from nothing, {} stopped + {} resumed, then {} with every bound",
            plain.score(),
            plain.nodes,
            part.nodes,
            resumed.nodes,
            third.nodes
        );
    }
    assert!(store.len().unwrap() > 0);
}

#[test]
fn bounds_of_cheap_or_shallow_positions_are_not_written() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("k.redb"), BoardSize::Six, Variant::Normal).unwrap();
    let pos = position(positions(1, 20)[0]);
    // Nothing costs this much here, and no position has this many empties.
    for (min_empties, min_nodes) in [(14, u64::MAX), (30, 1)] {
        let k = Arc::new(StoreKnowledge::new(store.share(), min_empties, min_nodes, Duration::ZERO));
        let r = solve(&pos, &options(Some(k.clone())));
        k.flush();
        assert!(r.score().is_some());
        assert_eq!(k.written(), 0);
    }
    assert_eq!(store.len().unwrap(), 0);
}

/// The cost of keeping bounds on the way (prints; run by hand on a quiet machine):
/// 6x6 positions of 26 empties solved with and without a store, as the semi-strong run
/// sets it up (from 20 empties, proofs of 4 M nodes and more).
#[test]
#[ignore = "a figure: prints the time and nodes of 26-empty 6x6 solves with and without a store (a minute or more; quiet machine)"]
fn cost_of_keeping_bounds() {
    let dir = tempfile::tempdir().unwrap();
    for (i, b) in positions(3, 26).into_iter().enumerate() {
        let pos = position(b);
        let plain = solve(&pos, &options(None));
        let store = Store::open(&dir.path().join(format!("c{i}.redb")), BoardSize::Six, Variant::Normal).unwrap();
        let k = Arc::new(StoreKnowledge::new(store.share(), 20, 1 << 22, Duration::from_secs(3)));
        let kept = solve(&pos, &options(Some(k.clone())));
        k.flush();
        assert_eq!(kept.score(), plain.score());
        eprintln!(
            "position {i}: {} nodes {:.2} s without; {} nodes {:.2} s with ({} bounds kept)",
            plain.nodes,
            plain.time.as_secs_f64(),
            kept.nodes,
            kept.time.as_secs_f64(),
            k.written()
        );
    }
}
