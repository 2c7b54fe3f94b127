//! `solvo-lab pipeline published` on a tiny task list (the first three rows of the published
//! one): every section runs and reports, the three tasks alone do not prove the draw,
//! and a malformed list is an error naming the line, not a panic.

use std::process::{Command, Stdio};

const TINY: &str = "obf,count,score,alpha,beta
------------O------OOX-----XOX----XXOO----XO-O------------------ X;,6397,0,-64,64
------------------OOXX-----OXX----XXOO----XO-O------------------ X;,96,4,-64,0
--------------------XX----OXXO----XXO----OOOOO------------------ X;,14,4,-64,0
";

fn solvo(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_solvo-lab")).args(args).stdin(Stdio::null()).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn every_section_reports_on_a_tiny_task_list() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("tasks.csv");
    std::fs::write(&path, TINY).unwrap();
    let p = path.to_str().unwrap();
    // Expansions cut at 46 empties (two cuts: a growth), leaves played down to 14 and 16
    // empties and solved at both windows, a projection from them.
    let args = [
        "pipeline",
        "published",
        "--tasks",
        p,
        "--compare-depths",
        "0,1",
        "--sample",
        "2",
        "--leaf-empties",
        "46",
        "--solve-empties",
        "16,14",
        "--per-empties",
        "1",
        "--hash-mb",
        "8",
        "--workers",
        "1,10",
    ];
    let (ok, out, err) = solvo(&args);
    assert!(ok, "{out}{err}");
    assert!(out.contains("draw: false"), "three tasks do not prove the draw: {out}");
    assert!(out.contains("E depth 1 vs published Edax scores: 3 positions"), "{out}");
    assert!(out.contains("46e: "), "{out}");
    assert!(out.contains("leaves per task at 46 empties"), "{out}");
    assert!(out.contains("14 empties, window [-3,3]"), "{out}");
    assert!(out.contains("node rate:"), "{out}");
    assert!(out.contains("10 workers:"), "{out}");
    let (ok, json, err) = solvo(&[&["--json"], &args[..]].concat());
    assert!(ok, "{json}{err}");
    let v: serde_json::Value = serde_json::from_str(json.trim()).expect("one JSON object");
    assert_eq!(v["invariant"]["tasks"], 3);
    assert!(!(v["invariant"]["ge0"].as_bool().unwrap() && v["invariant"]["le0"].as_bool().unwrap()));
    assert_eq!(v["expansion"]["tasks"].as_array().unwrap().len(), 2);
    assert!(!v["projection"].as_array().unwrap().is_empty());
}

#[test]
fn a_malformed_task_list_is_an_error_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.csv");
    std::fs::write(&path, TINY.replace(",96,4,", ",96,four,")).unwrap();
    let (ok, out, err) = solvo(&["pipeline", "published", "--tasks", path.to_str().unwrap()]);
    assert!(!ok, "{out}");
    assert!(err.contains("line 3") && err.contains("four"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let (ok, _, err) = solvo(&["pipeline", "published", "--tasks", "/nonexistent/tasks.csv"]);
    assert!(!ok && err.contains("/nonexistent/tasks.csv"), "{err}");
    let (ok, _, err) =
        solvo(&["pipeline", "published", "--tasks", path.to_str().unwrap(), "--wthor-years", "2020-2001"]);
    assert!(!ok && err.contains("after the last"), "{err}");
}
