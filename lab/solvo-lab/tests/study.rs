//! `solvo-lab study` and `solvo-lab match` end to end: the Reversed Reversi study's
//! players play the product's match (openings twice, colours swapped, a record file),
//! and the tuning writes its log.

mod common;
use common::lab;

#[test]
fn the_study_players_play_a_match_with_a_record() {
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("m.ggf");
    let o = lab(&[
        "match",
        "--engine",
        "ab:depth=2",
        "--engine",
        "mcts:playouts=200",
        "--random-openings",
        "2",
        "--parallel",
        "1",
        "--json",
        "--record",
        record.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 4);
    assert_eq!(v["first"], "ab:depth=2");
    assert_eq!(std::fs::read_to_string(&record).unwrap().lines().count(), 4);
    // A bad setting is named, with the kinds the lab's match takes.
    let o = lab(&["match", "--engine", "ab:depth=2", "--engine", "minimax:3"]);
    assert_eq!(o.status.code(), Some(1));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("ab:depth=N, mcts:playouts=N"), "{err}");
}

#[test]
fn study_tune_logs_a_line_per_round() {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("tune.log");
    let o = lab(&[
        "study",
        "tune",
        "--method",
        "sa",
        "--rounds",
        "2",
        "--openings",
        "1",
        "--depth",
        "1",
        "--log",
        log.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["method"], "sa");
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
}
