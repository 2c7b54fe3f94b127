use super::*;
use crate::verify::verify_store;
use std::collections::{HashMap, HashSet};

const SIZE: BoardSize = BoardSize::Four;

/// Plain minimax of a board whose side to move can move (passes folded), memoised.
fn minimax(b: Board, memo: &mut HashMap<Board, i32>) -> i32 {
    if let Some(&v) = memo.get(&b) {
        return v;
    }
    let mut best = i32::MIN;
    for sq in Square::iter(b.moves(SIZE)) {
        let next = b.play(sq, SIZE).unwrap();
        let v = if next.moves(SIZE) != 0 {
            -minimax(next, memo)
        } else if next.pass().moves(SIZE) != 0 {
            minimax(next.pass(), memo)
        } else {
            -next.final_score(SIZE)
        };
        best = best.max(v);
    }
    memo.insert(b, best);
    best
}

/// Positions (canonical) reachable from the start when `designated` (0 = first player)
/// always plays the stored designated move and the other side plays anything.
fn required(store: &Store, designated: u8, min_empties: u32) -> HashSet<Board> {
    let mut seen = HashSet::new();
    let mut stack = vec![(Board::start(), 0u8)];
    let mut visited = HashSet::new();
    while let Some((b, side)) = stack.pop() {
        if !visited.insert((b, side)) {
            continue;
        }
        if b.empties(SIZE) <= min_empties {
            continue;
        }
        seen.insert(b.canonical());
        let moves: Vec<Square> = if side == designated {
            let r = store.get(&b).unwrap().unwrap_or_else(|| panic!("required {b:?} missing"));
            vec![r.best_move.expect("designated move")]
        } else {
            Square::iter(b.moves(SIZE)).collect()
        };
        for sq in moves {
            let next = b.play(sq, SIZE).unwrap();
            if next.moves(SIZE) != 0 {
                stack.push((next, 1 - side));
            } else if next.pass().moves(SIZE) != 0 {
                stack.push((next.pass(), side));
            }
        }
    }
    seen
}

fn run_4x4(path: &std::path::Path, min_empties: u32) -> (Store, SemiOutcome) {
    let store = Store::open(path, SIZE, Variant::Normal).unwrap();
    let mut opts = SemiOptions::new(min_empties);
    opts.hash_mb = 16;
    let out = semi_strong(&store, &opts, &mut |_| {}).unwrap();
    (store, out)
}

fn check_store(store: &Store, min_empties: u32) {
    let mut memo = HashMap::new();
    let mut exact = 0;
    store
        .for_each(|b, r| {
            let v = minimax(b, &mut memo);
            assert!(r.lower as i32 <= v && v <= r.upper as i32, "{b:?} {r} minimax {v}");
            assert!(b.empties(SIZE) > min_empties);
            if r.kinds & (kind::P | kind::A_PRIME | kind::P_PRIME) != 0 {
                assert_eq!(r.value(), Some(v as i8), "{b:?}");
                exact += 1;
            }
            Ok(())
        })
        .unwrap();
    assert!(exact > 0);
    for side in 0..2 {
        for b in required(store, side, min_empties) {
            let r = store.get(&b).unwrap().unwrap();
            assert!(r.is_exact() && r.kinds & (kind::P | kind::A_PRIME | kind::P_PRIME) != 0, "{b:?} {r}");
        }
    }
    let report = verify_store(store, min_empties, 10).unwrap();
    assert_eq!(report.total_violations(), 0, "{:?}", report.first);
}

#[test]
fn four_by_four_store_is_exact_complete_and_verified() {
    let dir = tempfile::tempdir().unwrap();
    for e in [0, 3, 6] {
        let (store, out) = run_4x4(&dir.path().join(format!("s{e}.redb")), e);
        assert_eq!(out.value, -10);
        check_store(&store, e);
        // A second run finds everything stored.
        let mut opts = SemiOptions::new(e);
        opts.hash_mb = 16;
        let len = store.len().unwrap();
        let again = semi_strong(&store, &opts, &mut |_| {}).unwrap();
        assert_eq!(again.value, -10);
        assert_eq!(again.stats.expanded, 0);
        assert_eq!(store.len().unwrap(), len);
    }
}

#[test]
fn another_threshold_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (store, _) = run_4x4(&dir.path().join("s.redb"), 4);
    let err = semi_strong(&store, &SemiOptions::new(5), &mut |_| {}).unwrap_err();
    assert!(matches!(err, SemiError::Parameters(_)), "{err}");
}

/// Issue 16 item 6: the first thing a run persists is the oracle's solve of the
/// start's (one, up to symmetry) child, before any subtree of the walk is finished, so a
/// run killed during the long first solves keeps it, and a rerun does not solve it
/// again.
#[test]
fn the_first_commit_keeps_the_oracle_solve_of_the_start() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("early.redb"), SIZE, Variant::Normal).unwrap();
    let mut opts = SemiOptions::new(0);
    opts.hash_mb = 16;
    opts.commit_every = Duration::ZERO;
    opts.stop_after_commits = Some(1);
    assert!(matches!(semi_strong(&store, &opts, &mut |_| {}), Err(SemiError::Stopped)));
    let start = Board::start();
    let first = Square::iter(start.moves(SIZE)).next().unwrap();
    let child = start.play(first, SIZE).unwrap();
    let value = |b: &Board| minimax(*b, &mut HashMap::new());
    let stored = store.get(&child).unwrap().expect("the child's solve is kept");
    assert_eq!(stored.value().map(i32::from), Some(value(&child)));
}

#[test]
fn interrupted_runs_resume_to_the_same_solution() {
    let dir = tempfile::tempdir().unwrap();
    let (full, out) = run_4x4(&dir.path().join("full.redb"), 2);
    let path = dir.path().join("resumed.redb");
    let mut stops = 0;
    for round in 1.. {
        let store = Store::open(&path, SIZE, Variant::Normal).unwrap();
        let mut opts = SemiOptions::new(2);
        opts.hash_mb = 16;
        opts.commit_every = Duration::ZERO;
        opts.stop_after_commits = Some(25);
        match semi_strong(&store, &opts, &mut |_| {}) {
            Err(SemiError::Stopped) => stops += 1,
            Ok(o) => {
                assert_eq!(o.value, out.value);
                break;
            }
            Err(e) => panic!("{e}"),
        }
        assert!(round < 10_000);
    }
    assert!(stops > 3, "{stops}");
    let store = Store::open(&path, SIZE, Variant::Normal).unwrap();
    check_store(&store, 2);
    // Values agree with the uninterrupted run wherever both know them.
    store
        .for_each(|b, r| {
            if let Some(f) = full.get(&b)? {
                assert!(f.merged(&r).is_some(), "{b:?}: {f} vs {r}");
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn verify_reports_missing_children() {
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("bad.redb"), SIZE, Variant::Normal).unwrap();
    let m = Square::parse("d3").unwrap();
    store.put_batch(&[(Board::start(), Record::exact(-10, kind::P, Some(m)))]).unwrap();
    let report = verify_store(&store, 0, 10).unwrap();
    assert!(report.total_violations() >= 4, "{report:?}");
    assert!(report.first[0].contains("missing"), "{:?}", report.first);
    // A wrong value.
    let store = Store::open(&dir.path().join("bad2.redb"), SIZE, Variant::Normal).unwrap();
    store.put_batch(&[(Board::start(), Record::exact(-8, kind::P_PRIME, Some(m)))]).unwrap();
    let report = verify_store(&store, 12, 10).unwrap();
    assert!(report.total_violations() >= 1, "{report:?}");
    // A value too low: the other children (below the threshold, checked by one narrow
    // solve each) are better than it.
    let store = Store::open(&dir.path().join("bad3.redb"), SIZE, Variant::Normal).unwrap();
    store.put_batch(&[(Board::start(), Record::exact(-12, kind::P, Some(m)))]).unwrap();
    let report = verify_store(&store, 11, 10).unwrap();
    assert_eq!(report.total_violations(), 4, "{report:?}");
    assert!(report.first.iter().any(|v| v.contains("better than the value")), "{:?}", report.first);
}
