//! `solvo enumerate`, `weak-solve`, `strong-solve` and `play` end to end.

use std::process::Output;

mod common;
use common::{solvo, solvo_with_stdin};

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).expect("JSON line")).collect()
}

#[test]
fn enumerate_prints_one_count_per_level() {
    let o = solvo(&["enumerate", "--size", "8", "--discs", "10", "--json"]);
    assert!(o.status.success());
    let counts: Vec<u64> = json_lines(&o).iter().map(|v| v["positions"].as_u64().unwrap()).collect();
    assert_eq!(counts, [1, 1, 3, 14, 60, 322, 1773]);
    let o = solvo(&["enumerate", "--size", "4", "--discs", "20"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--discs 20"));
}

#[test]
fn weak_and_strong_solve_4x4() {
    let o = solvo(&["weak-solve", "--size", "4", "--json", "--hash-mb", "4"]);
    assert!(o.status.success());
    let v = &json_lines(&o)[0];
    assert_eq!(v["value"], -10);
    assert_eq!(v["final_discs"], serde_json::json!([3, 11]));
    let dir = std::env::temp_dir().join(format!("solvo-cli-wholeboard-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let store = dir.join("s4.redb");
    let o = solvo(&["strong-solve", "--size", "4", "--json", "--store", store.to_str().unwrap()]);
    assert!(o.status.success());
    let v = &json_lines(&o)[0];
    assert_eq!(v["start_value"], -10);
    assert_eq!(v["positions"], v["store_records"]);
    let o = solvo(&["play", "--size", "4", "--self-check", "--json", "--store", store.to_str().unwrap()]);
    assert!(o.status.success());
    assert!(json_lines(&o).iter().all(|v| v["ok"] == true));
    // The player also keeps its value with a semi-strong store (moves designated there).
    let semi = dir.join("ss4.redb");
    let o = solvo(&["semi-strong", "--size", "4", "--json", "--store", semi.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let o = solvo(&["play", "--size", "4", "--self-check", "--json", "--store", semi.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(json_lines(&o).iter().all(|v| v["ok"] == true));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn play_explains_bad_input_and_quits() {
    let o = solvo_with_stdin(&["play", "--size", "4"], "zz\nc3\npass\nd3\nquit\n");
    assert!(o.status.success());
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("\"zz\" is not a square"), "{out}");
    assert!(out.contains("c3 is not a legal move"), "{out}");
    assert!(out.contains("you cannot pass"), "{out}");
    assert!(out.contains("solvo (white) plays"), "{out}");
    assert!(out.contains("game abandoned"), "{out}");
    let o = solvo(&["play", "--size", "4", "--store", "/nonexistent/x.redb"]);
    assert!(!o.status.success());
}

#[test]
fn play_self_check_on_6x6_random_games() {
    let o = solvo(&["play", "--size", "6", "--self-check", "--games", "3", "--from-empties", "12", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(json_lines(&o)[0]["games"], 3);
}
