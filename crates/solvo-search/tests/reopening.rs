//! The generic reopening alpha-beta: values agree with negamax, every store it builds
//! verifies with 0 violations and passes the self-check, it resumes after a stop, and
//! reopening visits more positions than plain alpha-beta but fewer than exist.

mod common;

use common::Domineering;
use solvo_core::Game;
use solvo_othello::{BoardSize, Position, Variant};
use solvo_search::reopening::count::{count_exhaustive, count_visited, Learned};
use solvo_search::reopening::selfcheck::self_check;
use solvo_search::reopening::verify::{
    verify_resumable, FileCheckpoint, LayerReport, VerifyCheckpoint, VerifyProgress,
};
use solvo_search::reopening::{
    kind, semi_strong, semi_strong_lanes, verify, MemoryStore, SemiConfig, SemiError, SemiRecord, SolutionStore,
    SolverOracle,
};
use solvo_search::{negamax, Budget};

fn oracle() -> SolverOracle {
    SolverOracle::new(16, 1, Budget::UNLIMITED)
}

fn build<G: Game>(root: &G) -> (MemoryStore, i32) {
    let mut store = MemoryStore::new();
    let out = semi_strong(root, &mut store, &mut oracle(), &SemiConfig::default(), &mut |_| {}).unwrap();
    (store, out.value)
}

/// Verifies the store and self-checks it; returns the mistakes the self-check punished.
fn check_store<G: Game>(root: &G, store: &mut MemoryStore, value: i32) -> u64 {
    let mut o = oracle();
    let report = verify(root, store, Some(&mut o), 10, &mut |_, _| {}).unwrap();
    assert_eq!(report.violations(), 0, "{:?}", report.first);
    assert_eq!(report.value, Some(value));
    assert!(report.checked() > 0 && report.reproved > 0);
    let check = self_check(root, store, 40, 7, 2000).unwrap();
    assert!(check.failures.is_empty(), "{:?}", check.failures);
    assert!(check.games > 0, "{check:?}");
    check.mistakes
}

#[test]
fn othello_4x4_semi_strong_store_is_right_and_verified() {
    let root = Position::start(BoardSize::Four, Variant::Normal);
    let (mut store, value) = build(&root);
    assert_eq!(value, -10);
    assert_eq!(value, negamax(&root));
    assert!(check_store(&root, &mut store, value) > 0);
}

#[test]
fn domineering_semi_strong_values_match_negamax() {
    for (r, c, misere) in [(3, 3, false), (3, 4, false), (4, 3, true), (4, 4, false)] {
        let root = Domineering::new(r, c, misere);
        let (mut store, value) = build(&root);
        assert_eq!(value, negamax(&root), "{r}x{c} misere {misere}");
        check_store(&root, &mut store, value);
    }
}

/// On a game a few plies long every sample of the self-check is a position its game
/// reaches before the end, so each plays at least one game (a stopping ply drawn
/// beyond the end would leave the sample, and the check, with nothing to play).
#[test]
fn self_check_samples_plies_the_game_reaches() {
    for (r, c) in [(3, 3), (2, 4)] {
        let root = Domineering::new(r, c, false);
        let (mut store, _) = build(&root);
        let check = self_check(&root, &mut store, 50, 3, 2000).unwrap();
        assert!(check.failures.is_empty(), "{:?}", check.failures);
        assert_eq!(check.samples, 50);
        assert!(check.games >= check.samples, "{r}x{c}: {check:?}");
    }
}

/// A store whose designated move at the root is changed to a losing one is caught.
#[test]
fn verify_catches_a_wrong_designated_move() {
    let root = Domineering::new(4, 4, false);
    let (mut store, value) = build(&root);
    let key = solvo_search::reopening::canonical_key(&root).unwrap();
    let rec = store.get(&key).unwrap().unwrap();
    let moves = solvo_search::reopening::moves_of(&root);
    // A move whose child is worth less than the value, moved into the record.
    let bad = (0..moves.len() as u16)
        .find(|&i| {
            let child = root.play(moves[i as usize]);
            -negamax(&child) < value
        })
        .expect("a losing move exists");
    let mut tampered = MemoryStore::new();
    for (k, r) in store.iter() {
        let r = if k == key.as_slice() { SemiRecord { best: Some(bad), ..*r } } else { *r };
        tampered.put(k, r).unwrap();
    }
    assert_eq!(rec.kinds & kind::P, kind::P);
    let report = verify(&root, &mut tampered, None, 10, &mut |_, _| {}).unwrap();
    assert!(report.violations() > 0);
}

/// A run stopped after some commits, then rerun, ends with the same store as an
/// uninterrupted run.
#[test]
fn a_stopped_run_resumes_to_the_same_store() {
    let root = Position::start(BoardSize::Four, Variant::Normal);
    let (whole, _) = build(&root);
    let mut store = MemoryStore::new();
    let mut stops = 0;
    for n in 1.. {
        let config = SemiConfig {
            commit_every: std::time::Duration::ZERO,
            stop_after_commits: Some(25),
            ..SemiConfig::default()
        };
        match semi_strong(&root, &mut store, &mut oracle(), &config, &mut |_| {}) {
            Err(SemiError::Stopped) => stops += 1,
            Ok(out) => {
                assert_eq!(out.value, -10);
                break;
            }
            Err(e) => panic!("{e}"),
        }
        assert!(n < 10_000);
    }
    assert!(stops > 3);
    let exact = |s: &MemoryStore| {
        let mut v: Vec<(Vec<u8>, i32, u8, Option<u16>)> = s
            .iter()
            .filter(|(_, r)| r.kinds & kind::EXACT != 0)
            .map(|(k, r)| (k.to_vec(), r.lower, r.kinds & kind::EXACT, r.best))
            .collect();
        v.sort();
        v
    };
    assert_eq!(exact(&store), exact(&whole));
}

/// A walk on two lanes over one table: every exact record it shares with the one-lane
/// store has the same value, and the store verifies; stopped every few commits and
/// rerun (on one lane or two), it still ends verified.
#[test]
fn two_lanes_build_the_same_values_and_resume() {
    fn lanes<G: Game>(root: &G, store: &mut MemoryStore, config: &SemiConfig) -> Result<i32, SemiError> {
        let mut a = oracle();
        let mut b = a.sibling();
        let mut oracles: [&mut (dyn solvo_search::reopening::Oracle<G> + Send); 2] = [&mut a, &mut b];
        semi_strong_lanes(root, store, &mut oracles, config, &mut |_| {}).map(|o| o.value)
    }
    let othello = Position::start(BoardSize::Four, Variant::Normal);
    let domineering = Domineering::new(4, 4, false);
    let exact = |s: &MemoryStore| {
        let mut v: Vec<(Vec<u8>, i32)> =
            s.iter().filter(|(_, r)| r.kinds & kind::EXACT != 0).map(|(k, r)| (k.to_vec(), r.lower)).collect();
        v.sort();
        v
    };
    let (one, _) = build(&othello);
    let mut two = MemoryStore::new();
    assert_eq!(lanes(&othello, &mut two, &SemiConfig::default()), Ok(-10));
    let two_exact = exact(&two);
    // Where the perfect player has several best moves the lanes may designate another
    // (whichever lane proves a move first), and the positions below the other move are
    // then not in the solution: so every exact record the two stores share has the same
    // value, and the 2-lane store verifies on its own.
    let one_exact = exact(&one);
    let shared: Vec<_> = two_exact
        .iter()
        .filter_map(|(k, v)| one_exact.binary_search_by(|(k1, _)| k1.cmp(k)).ok().map(|i| (v, one_exact[i].1)))
        .collect();
    assert!(!shared.is_empty());
    for (two_value, one_value) in shared {
        assert_eq!(*two_value, one_value);
    }
    check_store(&othello, &mut two, -10);
    let (_, dv) = build(&domineering);
    let mut d = MemoryStore::new();
    assert_eq!(lanes(&domineering, &mut d, &SemiConfig::default()), Ok(dv));
    check_store(&domineering, &mut d, dv);
    // Stopped after every few commits of a lane, rerun alternately on two lanes and one.
    let mut store = MemoryStore::new();
    let mut stops = 0;
    for n in 1.. {
        let config = SemiConfig {
            commit_every: std::time::Duration::ZERO,
            stop_after_commits: Some(40),
            ..SemiConfig::default()
        };
        let r = if n % 2 == 1 {
            lanes(&othello, &mut store, &config)
        } else {
            semi_strong(&othello, &mut store, &mut oracle(), &config, &mut |_| {}).map(|o| o.value)
        };
        match r {
            Err(SemiError::Stopped) => stops += 1,
            Ok(v) => {
                assert_eq!(v, -10);
                break;
            }
            Err(e) => panic!("{e}"),
        }
        assert!(n < 10_000);
    }
    assert!(stops > 3, "{stops}");
    check_store(&othello, &mut store, -10);
}

#[test]
fn counts_order_plain_reopening_exhaustive() {
    let root = Position::start(BoardSize::Four, Variant::Normal);
    let mut o = oracle();
    let mut learned = Learned::default();
    let (plain, v) = count_visited(&root, false, &mut o, &mut learned).unwrap();
    let (reop, v2) = count_visited(&root, true, &mut o, &mut learned).unwrap();
    let (all, complete) = count_exhaustive(&root, 10_000_000).unwrap();
    assert!(complete);
    assert_eq!((v, v2), (-10, -10));
    let sum = |c: &[u64]| c.iter().sum::<u64>();
    assert!(sum(&plain) < sum(&reop) && sum(&reop) < sum(&all), "{plain:?} {reop:?} {all:?}");
    assert_eq!((plain[0], reop[0], all[0]), (1, 1, 1));
    // The Othello counts of the same searches (solvo-solve's count.rs): 4x4, threshold 0.
    assert_eq!(all[1], 1, "the four first moves of Othello are symmetric");
}

#[test]
fn a_game_without_encoding_is_refused() {
    let root = common::Nim { heaps: vec![2, 3], side: 0 };
    let mut store = MemoryStore::new();
    let r = semi_strong(&root, &mut store, &mut oracle(), &SemiConfig::default(), &mut |_| {});
    assert_eq!(r.err(), Some(SemiError::NoEncoding));
}

/// A checkpoint that stops the verify (an error, as a kill would) after `left` saves.
struct Stopping<'a> {
    inner: &'a mut FileCheckpoint,
    left: usize,
}

impl VerifyCheckpoint for Stopping<'_> {
    fn resume(&mut self) -> Result<Option<(VerifyProgress, Vec<(Vec<u8>, u8)>)>, SemiError> {
        self.inner.resume()
    }
    fn save(&mut self, finished: &[(Vec<u8>, u8)], progress: &VerifyProgress) -> Result<(), SemiError> {
        if self.left == 0 {
            return Err(SemiError::Stopped);
        }
        self.left -= 1;
        self.inner.save(finished, progress)
    }
}

#[test]
fn a_stopped_verify_resumes_to_the_same_report() {
    let root = Domineering::new(4, 4, false);
    let (mut store, _) = build(&root);
    let whole = verify(&root, &mut store, Some(&mut oracle()), 10, &mut |_, _| {}).unwrap();
    assert!(whole.layers.len() > 4);
    let dir = std::env::temp_dir().join(format!("solvo-verify-resume-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("d44.verify");
    let mut cp = FileCheckpoint::new(&path, "domineering 4x4");
    cp.remove().unwrap();
    // Stopped after 2 layers, then after 1 more, then to the end: the layers before a
    // stop are not checked again, and the report is the uninterrupted one.
    let mut plies = Vec::new();
    for left in [2, 1, usize::MAX] {
        let mut stopping = Stopping { inner: &mut cp, left };
        let mut seen = |ply: usize, _: &LayerReport| plies.push(ply);
        let r = verify_resumable(&root, &mut store, Some(&mut oracle()), 10, &mut seen, Some(&mut stopping));
        if left == usize::MAX {
            assert_eq!(r.unwrap(), whole);
        } else {
            assert!(matches!(r, Err(SemiError::Stopped)));
        }
    }
    // Each stop loses the layer it was saving, checked again on resume.
    let mut expected: Vec<usize> = vec![0, 1, 2, 2, 3];
    expected.extend(3..whole.layers.len());
    assert_eq!(plies, expected);
    // Another identity is refused, not resumed.
    let mut stopping = Stopping { inner: &mut cp, left: 0 };
    let _ = verify_resumable(&root, &mut store, None, 10, &mut |_, _| {}, Some(&mut stopping));
    let mut other = FileCheckpoint::new(&path, "domineering 4x4 misere");
    let r = verify_resumable(&root, &mut store, None, 10, &mut |_, _| {}, Some(&mut other));
    assert!(matches!(r, Err(SemiError::Store(ref m)) if m.contains("made for")), "{r:?}");
    cp.remove().unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
}

/// The walk's solver with ETC and a Monte Carlo ordering (the `ab-tt-mc --etc` of
/// `solvo game semi-strong build --etc --playouts N`) on two lanes: the same values, a
/// store that verifies.
#[test]
fn an_ordered_solver_builds_a_store_that_verifies() {
    use solvo_search::grave::GraveParams;
    use solvo_search::McOrdering;
    use std::sync::Arc;
    for (r, c, misere) in [(4, 4, false), (4, 3, true)] {
        let root = Domineering::new(r, c, misere);
        let ordering =
            McOrdering::learn(&root, &GraveParams { playouts: 2_000, ..GraveParams::default() }, Budget::UNLIMITED);
        let mut first = oracle().with_etc(true).with_ordering(Arc::new(ordering));
        let mut second = first.sibling();
        let mut store = MemoryStore::new();
        let out = {
            let mut lanes: Vec<&mut (dyn solvo_search::reopening::Oracle<Domineering> + Send)> =
                vec![&mut first, &mut second];
            semi_strong_lanes(&root, &mut store, &mut lanes, &SemiConfig::default(), &mut |_| {}).unwrap()
        };
        assert_eq!(out.value, negamax(&root), "{r}x{c} misere {misere}");
        check_store(&root, &mut store, out.value);
    }
}
