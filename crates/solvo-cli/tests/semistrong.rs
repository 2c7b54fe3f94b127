//! `solvo semi-strong`, `query` and `verify-store` end to end, including a run killed
//! with SIGKILL at several moments and resumed.

use solvo_othello::{Board, BoardSize, Variant};
use solvo_solve::Store;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

mod common;
use common::solvo;

fn text(o: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr))
}

fn exact_records(path: &Path) -> Vec<(Board, i8)> {
    let store = Store::open(path, BoardSize::Four, Variant::Normal).unwrap();
    let mut v = Vec::new();
    store
        .for_each(|b, r| {
            if let Some(x) = r.value() {
                v.push((b, x));
            }
            Ok(())
        })
        .unwrap();
    v
}

#[test]
fn semi_strong_query_and_verify_on_4x4() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    let s = store.to_str().unwrap();
    let o = solvo(&["semi-strong", "--size", "4", "--store", s, "--min-empties", "3"]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("value -10 for the first player"), "{}", text(&o));
    let o = solvo(&["verify-store", "--store", s]);
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains(" 0 violations"), "{}", text(&o));
    let o = solvo(&["query", "--size", "4", "start", "--store", s, "--json"]);
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], -10);
    assert!(v["source"].as_str().unwrap().starts_with("store"), "{v}");
    // A position with 3 empties is below the threshold: solved on demand.
    let o = solvo(&["query", "--size", "4", "c4c3c2", "--store", s]);
    assert!(!o.status.success() || text(&o).contains("value"), "{}", text(&o));
    let o = solvo(&["query", "--size", "4", "d3c5e6f5f6c3f4c6b6", "--store", s]);
    let _ = o;
    // Another threshold, a wrong size and a missing store are clear errors.
    let o = solvo(&["semi-strong", "--size", "4", "--store", s, "--min-empties", "5"]);
    assert!(!o.status.success() && text(&o).contains("--min-empties 3"), "{}", text(&o));
    let o = solvo(&["semi-strong", "--size", "6", "--store", s]);
    assert!(!o.status.success() && text(&o).contains("4x4"), "{}", text(&o));
    let o = solvo(&["verify-store", "--store", dir.path().join("none.redb").to_str().unwrap()]);
    assert!(!o.status.success() && text(&o).contains("no such file"), "{}", text(&o));
    // A store with a violation exits with 1.
    let bad = dir.path().join("bad.redb");
    {
        let st = Store::open(&bad, BoardSize::Four, Variant::Normal).unwrap();
        let m = solvo_othello::Square::parse("d3");
        st.put_batch(&[(Board::start(), solvo_solve::Record::exact(-10, solvo_solve::kind::P, m))]).unwrap();
    }
    let o = solvo(&["verify-store", "--store", bad.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1), "{}", text(&o));
    assert!(text(&o).contains("violation:"), "{}", text(&o));
}

#[test]
fn killed_runs_resume_to_a_correct_store() {
    let dir = tempfile::tempdir().unwrap();
    let full = dir.path().join("full.redb");
    let o = solvo(&["semi-strong", "--size", "4", "--store", full.to_str().unwrap(), "--commit-ms", "0"]);
    assert!(o.status.success(), "{}", text(&o));
    let killed = dir.path().join("killed.redb");
    let k = killed.to_str().unwrap();
    let mut kills = 0;
    for round in 0..200u64 {
        let mut child = Command::new(env!("CARGO_BIN_EXE_solvo"))
            .args(["semi-strong", "--size", "4", "--store", k, "--commit-ms", "0"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let wait = Duration::from_millis(40 + 37 * (round % 7));
        let t = Instant::now();
        let mut done = None;
        while t.elapsed() < wait {
            if let Some(status) = child.try_wait().unwrap() {
                done = Some(status);
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        match done {
            Some(status) => {
                assert!(status.success());
                break;
            }
            None => {
                child.kill().unwrap(); // SIGKILL
                child.wait().unwrap();
                kills += 1;
            }
        }
    }
    assert!(kills >= 2, "the run was too fast to be killed ({kills} kills)");
    let o = solvo(&["semi-strong", "--size", "4", "--store", k]);
    assert!(o.status.success() && text(&o).contains("value -10"), "{}", text(&o));
    let o = solvo(&["verify-store", "--store", k]);
    assert!(o.status.success(), "{}", text(&o));
    // Every exact value agrees with the uninterrupted run's.
    let a: std::collections::HashMap<Board, i8> = exact_records(&full).into_iter().collect();
    let b = exact_records(&killed);
    let shared = b.iter().filter(|(bd, v)| a.get(bd).is_some_and(|x| x == v)).count();
    assert!(b.iter().all(|(bd, v)| !matches!(a.get(bd), Some(x) if x != v)));
    assert!(shared * 10 >= a.len() * 9, "{shared} of {}", a.len());
}

/// `--count` with a store takes the oracle's best moves from its exact records (no
/// exact solve needed on 4x4 with a strong store) and gives the same value; a missing
/// store or one of another size is an error.
#[test]
fn count_with_a_store_as_oracle() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("strong.redb");
    let s = store.to_str().unwrap();
    assert!(solvo(&["strong-solve", "--size", "4", "--store", s]).status.success());
    let o = solvo(&["semi-strong", "--size", "4", "--count", "--store", s, "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], -10);
    assert_eq!(v["oracle_solves"], 0, "{v}");
    let plain: u64 = v["plain"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum();
    let reop: u64 = v["reopening"].as_array().unwrap().iter().map(|x| x.as_u64().unwrap()).sum();
    assert!(plain < reop, "{v}");
    let o = solvo(&["semi-strong", "--size", "6", "--count", "--store", s]);
    assert!(!o.status.success() && text(&o).contains("4x4"), "{}", text(&o));
    let missing = dir.path().join("none.redb");
    let o = solvo(&["semi-strong", "--size", "4", "--count", "--store", missing.to_str().unwrap()]);
    assert!(!o.status.success() && text(&o).contains("no such store"), "{}", text(&o));
}

#[test]
fn count_journal_makes_a_rerun_free() {
    let dir = tempfile::tempdir().unwrap();
    let journal = dir.path().join("oracle.txt");
    let j = journal.to_str().unwrap();
    let run = || {
        let o = solvo(&["semi-strong", "--size", "4", "--count", "--min-empties", "5", "--journal", j, "--json"]);
        assert!(o.status.success(), "{}", text(&o));
        serde_json::from_slice::<serde_json::Value>(&o.stdout).unwrap()
    };
    let first = run();
    let solves = |v: &serde_json::Value| {
        v["oracle_solves"].as_u64().unwrap() + v["cut_solves"].as_u64().unwrap() + v["leaf_solves"].as_u64().unwrap()
    };
    assert!(solves(&first) > 0, "{first}");
    let second = run();
    assert_eq!(solves(&second), 0, "{second}");
    assert_eq!(first["plain"], second["plain"]);
    assert_eq!(first["reopening"], second["reopening"]);
    assert_eq!(second["value"], -10);
    // A journal of another board is refused with its line named.
    let o = solvo(&["semi-strong", "--size", "6", "--count", "--journal", j]);
    assert!(!o.status.success() && text(&o).contains("line 1"), "{}", text(&o));
}

#[test]
fn a_damaged_store_is_salvaged_and_a_semi_strong_rerun_completes_it() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("s.redb");
    let s = store.to_str().unwrap();
    let o = solvo(&["semi-strong", "--size", "4", "--store", s, "--min-empties", "3"]);
    assert!(o.status.success(), "{}", text(&o));
    let bytes = std::fs::read(&store).unwrap();
    let good = exact_records(&store);
    // A flipped bit in a record: reported as damage by the commands that read it.
    let flipped = dir.path().join("flipped.redb");
    let mut damaged_at = None;
    for page in (1..bytes.len() / 4096).rev().filter(|p| bytes[p * 4096..(p + 1) * 4096].iter().any(|&x| x != 0)) {
        let mut b = bytes.clone();
        b[page * 4096 + 40] ^= 0x01;
        std::fs::write(&flipped, &b).unwrap();
        let o = solvo(&["verify-store", "--store", flipped.to_str().unwrap()]);
        if !o.status.success() && text(&o).contains("damaged") {
            assert!(!text(&o).contains("panicked"), "{}", text(&o));
            damaged_at = Some(page);
            break;
        }
    }
    assert!(damaged_at.is_some(), "no flipped bit was reported as damage");
    // Salvaged: the intact records, then a rerun completes the store and it verifies.
    let out = dir.path().join("salvaged.redb");
    let o = solvo(&["salvage-store", "--store", flipped.to_str().unwrap(), "--out", out.to_str().unwrap(), "--json"]);
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(v["records"].as_u64().unwrap() > 0, "{v}");
    let o = solvo(&["salvage-store", "--store", flipped.to_str().unwrap(), "--out", out.to_str().unwrap()]);
    assert!(!o.status.success() && text(&o).contains("already exists"), "{}", text(&o));
    let o = solvo(&["semi-strong", "--size", "4", "--store", out.to_str().unwrap(), "--min-empties", "3"]);
    assert!(o.status.success() && text(&o).contains("value -10"), "{}", text(&o));
    let o = solvo(&["verify-store", "--store", out.to_str().unwrap()]);
    assert!(o.status.success() && text(&o).contains(" 0 violations"), "{}", text(&o));
    let mut again = exact_records(&out);
    let mut good = good;
    again.sort();
    good.sort();
    assert_eq!(again, good);
}

/// `--count --rules published`: the reopening column's rows 4-10 (the published first
/// stage's table) beside the paper's Table 3, and clear errors for another board, a
/// damaged table and the options without the rules. (The plain column runs the published
/// first stage whole, far too long for a test.)
#[test]
fn count_under_the_published_rules_prints_the_papers_rows_beside() {
    let table = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../../shared/data/takizawa/",
        "optimal_reopening_ab_transposition_table---------------------------OX------XO---------------------------.csv"
    );
    let args = ["semi-strong", "--size", "6", "--count", "--rules", "published", "--restarts", table];
    let o = solvo(&[&args[..], &["--min-empties", "25", "--columns", "reopening", "--json"]].concat());
    assert!(o.status.success(), "{}", text(&o));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["value"], -4);
    assert_eq!(v["rows"].as_array().unwrap().len(), 7);
    for row in v["rows"].as_array().unwrap() {
        assert_eq!(row["reopening"], row["paper_reopening"], "{row}");
    }
    let o = solvo(&[&args[..], &["--min-empties", "28", "--columns", "reopening"]].concat());
    assert!(o.status.success(), "{}", text(&o));
    assert!(text(&o).contains("14             14     equal"), "{}", text(&o));
    let o = solvo(&["semi-strong", "--size", "4", "--count", "--rules", "published"]);
    assert!(!o.status.success() && text(&o).contains("6x6"), "{}", text(&o));
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("t.csv");
    std::fs::write(&bad, "obf,disccount,nodekindcode,lowerbound,upperbound\nnot a row\n").unwrap();
    let b = bad.to_str().unwrap();
    let o = solvo(&["semi-strong", "--size", "6", "--count", "--rules", "published", "--restarts", b]);
    assert!(!o.status.success() && text(&o).contains("line 2"), "{}", text(&o));
    let o = solvo(&["semi-strong", "--size", "6", "--count", "--restarts", b]);
    assert!(!o.status.success() && text(&o).contains("--rules published"), "{}", text(&o));
}
