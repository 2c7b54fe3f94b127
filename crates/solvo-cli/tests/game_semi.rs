//! `solvo game semi-strong` end to end: a store built from the command line verifies
//! with 0 violations and passes the self-check, a build killed with SIGKILL resumes to
//! the same store, queries answer from it, the counts order plain < reopening <
//! exhaustive, the perfect player plays through the terminal, and bad input fails with
//! a clear message.

use std::io::{BufRead, Write};
use std::process::{Command, Output, Stdio};

mod common;
use common::solvo;

fn json(o: &Output) -> serde_json::Value {
    let text = String::from_utf8_lossy(&o.stdout);
    serde_json::from_str(text.lines().last().unwrap()).unwrap_or_else(|e| panic!("not JSON: {text}: {e}"))
}

/// `build --threads 2 --proofs F`: two walk lanes, the solver's proofs kept in F; the
/// store verifies and F is the proof store `game solve --store F` reads (on 5x5 every
/// solve is below the recording threshold, so it may hold nothing).
#[test]
fn two_lanes_with_a_proof_store_build_a_verified_store() {
    let dir = tempfile::tempdir().unwrap();
    let (store, proofs) = (dir.path().join("d55.redb"), dir.path().join("d55.proofs"));
    let (s, p) = (store.to_str().unwrap(), proofs.to_str().unwrap());
    let game = ["domineering", "5x5", "--option", "bounds=off", "--store", s, "--json"];
    let mut build = vec!["game", "semi-strong", "build"];
    build.extend_from_slice(&game);
    build.extend_from_slice(&["--threads", "2", "--proofs", p]);
    let b = solvo(&build);
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let b = json(&b);
    assert_eq!((b["value_first_player"].as_i64(), b["threads"].as_u64()), (Some(-1), Some(2)), "{b}");
    let mut verify = vec!["game", "semi-strong", "verify"];
    verify.extend_from_slice(&game);
    verify.extend_from_slice(&["--self-check", "20"]);
    let v = json(&solvo(&verify));
    assert_eq!((v["violations"].as_u64(), v["value"].as_i64()), (Some(0), Some(-1)), "{v}");
    let again = solvo(&["game", "solve", "domineering", "5x5", "--option", "bounds=off", "--store", p]);
    assert!(again.status.success());
    let text = String::from_utf8_lossy(&again.stderr);
    assert!(text.lines().any(|l| l.starts_with(&format!("proof store {p}: "))), "{text}");
}

/// `build` killed with SIGKILL once its progress says records were committed (commits
/// every 20 ms here), then rerun with the same command: the rerun starts from the
/// records the killed run committed and ends with the store an uninterrupted build
/// makes (the same value and exact records), which verifies with 0 violations.
#[test]
fn a_killed_build_resumes_to_the_same_store() {
    let dir = tempfile::tempdir().unwrap();
    let build = |store: &std::path::Path| -> Vec<String> {
        let s = store.to_str().unwrap().to_string();
        ["game", "semi-strong", "build", "domineering", "5x5", "--option", "bounds=off", "--store", &s]
            .iter()
            .map(|a| a.to_string())
            .chain(["--commit-every", "0.02"].map(String::from))
            .collect()
    };
    let run_json = |args: &[String]| {
        let mut a: Vec<&str> = args.iter().map(String::as_str).collect();
        a.push("--json");
        let o = solvo(&a);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        json(&o)
    };
    let whole = run_json(&build(&dir.path().join("whole.redb")));

    let killed = dir.path().join("killed.redb");
    let mut child = Command::new(env!("CARGO_BIN_EXE_solvo"))
        .args(build(&killed))
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The progress line follows the first commit; the kill comes as soon as it is read
    // (or the build ended first: then the rerun finds the store complete).
    let mut lines = std::io::BufReader::new(child.stderr.take().unwrap()).lines();
    let committed = lines.any(|l| l.is_ok_and(|l| l.contains(" exact and ")));
    child.kill().unwrap();
    let killed_by_us = {
        use std::os::unix::process::ExitStatusExt;
        child.wait().unwrap().signal().is_some()
    };
    assert!(committed, "no progress line");
    let resumed = run_json(&build(&killed));
    let before = resumed["records_before"].as_u64().unwrap();
    assert!(before > 0, "{resumed}");
    if killed_by_us {
        assert!(before < whole["records"].as_u64().unwrap(), "killed at the end? {resumed}");
        assert!(resumed["solves"].as_u64().unwrap() > 0, "{resumed}");
    } else {
        assert_eq!(before, resumed["records"].as_u64().unwrap(), "{resumed}");
    }
    for field in ["value_first_player", "best_move", "p", "a_prime", "p_prime"] {
        assert_eq!(resumed[field], whole[field], "{field}: resumed {resumed}, whole {whole}");
    }
    let verify = ["game", "semi-strong", "verify", "domineering", "5x5", "--option", "bounds=off"];
    let v = solvo(&[&verify[..], &["--store", killed.to_str().unwrap(), "--self-check", "20", "--json"]].concat());
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
    assert_eq!((json(&v)["violations"].as_u64(), json(&v)["value"].as_i64()), (Some(0), Some(-1)));
}

#[test]
fn build_verify_query_count_play() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("d44.redb");
    let s = store.to_str().unwrap();
    let game = ["domineering", "4x4", "--option", "bounds=off", "--store", s, "--json"];
    let with = |cmd: &str, extra: &[&str]| {
        let mut a = vec!["game", "semi-strong", cmd];
        a.extend_from_slice(&game);
        a.extend_from_slice(extra);
        solvo(&a)
    };
    let b = with("build", &[]);
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    let b = json(&b);
    assert_eq!(b["value_first_player"], 1, "Domineering 4x4 is a first-player win");
    assert!(b["records"].as_u64().unwrap() > 50);
    // A second build finds everything in the store.
    let again = json(&with("build", &[]));
    assert_eq!(again["records"], b["records"]);
    assert_eq!(again["solves"], 0);

    let v = with("verify", &["--self-check", "50"]);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
    let v = json(&v);
    assert_eq!(v["violations"], 0);
    assert_eq!(v["value"], 1);
    assert!(v["self_check"]["games"].as_u64().unwrap() > 0);
    assert_eq!(v["self_check"]["failures"].as_array().unwrap().len(), 0);

    let q = json(&with("query", &["--moves", "a1v"]));
    assert!(q["source"].as_str().unwrap().starts_with("store"), "{q}");
    // a1v is a mistake (the first player's winning moves are elsewhere): an A' record.
    assert_eq!(q["value"], 1, "{q}");
    assert!(q["source"].as_str().unwrap().contains("A'"), "{q}");

    // The web board opens the store for its game (`--check`: nothing served); a file
    // that is no game store is refused.
    let o = solvo(&["serve", "--port", "0", "--check", "--game-store", s]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(String::from_utf8_lossy(&o.stdout).contains("1 game stores"), "{}", String::from_utf8_lossy(&o.stdout));
    let o = solvo(&["serve", "--port", "0", "--check", "--game-store", dir.path().to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--game-store: "), "{}", String::from_utf8_lossy(&o.stderr));

    let c = json(&with("count", &[]));
    let (p, r) = (c["total_plain"].as_u64().unwrap(), c["total_reopening"].as_u64().unwrap());
    let e = c["total_exhaustive"].as_u64().unwrap();
    assert!(p < r && r < e, "{c}");

    // Play the second player's side: the perfect player (first) wins whatever we do.
    let mut args = vec!["game", "semi-strong", "play"];
    args.extend_from_slice(&game[..game.len() - 1]);
    args.extend_from_slice(&["--human", "second"]);
    let mut child = Command::new(env!("CARGO_BIN_EXE_solvo"))
        .args(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    // Always the first legal move: the answers name the legal moves when one is not.
    let mut input = child.stdin.take().unwrap();
    for m in ["x9", "a1h", "b1h", "c1h", "a2h", "b2h", "c2h", "a3h", "b3h", "c3h", "a4h", "b4h", "c4h"] {
        writeln!(input, "{m}").unwrap();
    }
    drop(input);
    let out = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("bad move 'x9': move 1 is not legal there (legal: "), "{text}");
    assert!(!text.contains("--moves"), "{text}");
    assert!(text.contains("game over: you lose"), "{text}");
}

#[test]
fn bad_input_is_refused_clearly() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("none.redb");
    let o = solvo(&["game", "semi-strong", "verify", "nogo", "3x3", "--store", missing.to_str().unwrap()]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("no such file"));
    let o = solvo(&["game", "semi-strong", "build", "chess", "8x8"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("chess"));
    // A store of one game is not read as another's.
    let store = dir.path().join("n.redb");
    let s = store.to_str().unwrap();
    assert!(solvo(&["game", "semi-strong", "build", "nogo", "2x3", "--store", s]).status.success());
    let o = solvo(&["game", "semi-strong", "query", "nogo", "3x2", "--store", s]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("nogo 2x3"), "{}", String::from_utf8_lossy(&o.stderr));
    // A self-check that plays no game (Domineering 1x2 is over at the start) fails.
    let store = dir.path().join("d12.redb");
    let game = ["domineering", "1x2", "--option", "bounds=off", "--store", store.to_str().unwrap()];
    assert!(solvo(&[&["game", "semi-strong", "build"][..], &game].concat()).status.success());
    let o = solvo(&[&["game", "semi-strong", "verify"][..], &game, &["--self-check", "5"]].concat());
    assert!(!o.status.success());
    let text = String::from_utf8_lossy(&o.stderr);
    assert!(text.contains("--self-check 5: 5 positions drawn but 0 games played"), "{text}");
}

/// `build --etc --playouts N` (the walk's solver as `ab-tt-mc --etc`) builds a store
/// that verifies; the verify's checkpoint (`<store>.verify`) is gone once it finished,
/// and a checkpoint of another verify is refused with its file named.
#[test]
fn an_ordered_build_verifies_and_the_checkpoint_is_removed() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("d55.redb");
    let s = store.to_str().unwrap();
    let game = ["domineering", "5x5", "--option", "bounds=off", "--store", s, "--json"];
    let run = |cmd: &str, extra: &[&str]| {
        let mut a = vec!["game", "semi-strong", cmd];
        a.extend_from_slice(&game);
        a.extend_from_slice(extra);
        solvo(&a)
    };
    let b = run("build", &["--etc", "--playouts", "2000"]);
    assert!(b.status.success(), "{}", String::from_utf8_lossy(&b.stderr));
    assert_eq!(json(&b)["value_first_player"], -1);
    let v = run("verify", &["--self-check", "10"]);
    assert!(v.status.success(), "{}", String::from_utf8_lossy(&v.stdout));
    assert_eq!(json(&v)["violations"], 0);
    let checkpoint = dir.path().join("d55.redb.verify");
    assert!(!checkpoint.exists());
    std::fs::write(&checkpoint, b"solvo-verify-checkpoint-1\n\x05\0\0\0\0\0\0\0other").unwrap();
    let v = run("verify", &["--self-check", "0"]);
    assert!(!v.status.success());
    let text = format!("{}{}", String::from_utf8_lossy(&v.stdout), String::from_utf8_lossy(&v.stderr));
    assert!(text.contains("d55.redb.verify") && text.contains("made for"), "{text}");
}
