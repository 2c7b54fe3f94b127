//! The `solvo` binary end to end: outputs, JSON, exit codes on bad input.

use std::process::Output;

mod common;
use common::{solvo, stdout};

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    stdout(o).lines().map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}"))).collect()
}

#[test]
fn perft_counts_in_every_mode() {
    for (mode, leaves) in [("a", 3_005_288u64), ("b", 3_005_288), ("c", 3_005_320)] {
        let o = solvo(&["perft", "9", "--mode", mode, "--json"]);
        assert!(o.status.success());
        assert_eq!(json_lines(&o)[0]["leaves"], leaves, "mode {mode}");
    }
    let o = solvo(&["perft", "10", "--mode", "b", "--json", "--threads", "2"]);
    assert_eq!(json_lines(&o)[0]["leaves"], 24_571_056u64);
    let o = solvo(&["perft", "8", "--size", "6", "--json"]);
    assert_eq!(json_lines(&o)[0]["leaves"], 308_716u64);
    let o = solvo(&["perft", "2", "--divide", "--json"]);
    let v = &json_lines(&o)[0];
    assert_eq!(v["divide"].as_array().unwrap().len(), 4);
    assert_eq!(v["leaves"], 12);
}

#[test]
fn show_reports_moves_and_board() {
    let o = solvo(&["show", "f5d6c3d3", "--json"]);
    let v = &json_lines(&o)[0];
    assert_eq!(v["side_to_move"], "black");
    assert_eq!(v["moves"].as_array().unwrap().len(), 6);
    let o = solvo(&["show", "f5d6c3d3"]);
    let text = stdout(&o);
    assert!(text.contains("a b c d e f g h") && text.contains("legal moves: c2 e3 c4 c5 c6 c7"), "{text}");
}

#[test]
fn convert_round_trips() {
    let o = solvo(&["convert", "f5d6c3d3c4", "--to", "ggf"]);
    let ggf = stdout(&o);
    assert!(ggf.starts_with("(;GM[Othello]"), "{ggf}");
    let o = solvo(&["convert", ggf.trim(), "--to", "transcript"]);
    assert_eq!(stdout(&o).trim(), "f5d6c3d3c4");
    let o = solvo(&["convert", "f5d6c3d3c4", "--to", "board"]);
    let board = stdout(&o);
    let o = solvo(&["convert", "--to", "obf", "--", board.trim()]);
    assert!(stdout(&o).trim().ends_with("O;"), "{}", stdout(&o));
}

#[test]
fn bad_input_fails_with_a_located_message() {
    for (args, needle) in [
        (vec!["show", "f5f5"], "illegal move f5"),
        (vec!["show", "xxxx"], "column"),
        (vec!["perft", "3", "--from", "zz9"], "not a move"),
        (vec!["convert", "--to", "board", "--", "----"], "board string"),
        (vec!["wthor", "/nonexistent.wtb"], "nonexistent"),
        (vec!["convert", "(;GM[Othello]B[a1];)", "--to", "transcript"], "a1"),
    ] {
        let o = solvo(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{args:?}: {err}");
    }
    assert_eq!(solvo(&["perft"]).status.code(), Some(2));
}

#[test]
fn wthor_lists_and_replays() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/wthor/WTH_1977.wtb");
    if !std::path::Path::new(file).exists() {
        panic!("WTHOR data missing at {file}");
    }
    let o = solvo(&["wthor", file, "--json"]);
    let games = json_lines(&o);
    assert_eq!(games.len(), 12);
    assert!(games[0]["transcript"].as_str().unwrap().starts_with("f5"));
    let o = solvo(&["wthor", file, "--game", "13"]);
    assert_eq!(o.status.code(), Some(1));
}

/// Board strings and OBF lines usually start with `-`: they must work as plain
/// arguments (no `--` needed), while a mistyped option is still reported as one.
#[test]
fn inputs_starting_with_a_hyphen_need_no_separator() {
    let board = "--XXXXX---XXXX---OOOXX---OOXOX---OXXXXX-OOOOOXO----OXX---------- O";
    let o = solvo(&["show", board, "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ffo1 = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12;";
    let o = solvo(&["solve", "--json", ffo1, "--threads", "2"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(json_lines(&o)[0]["score"], 18);
    let o = solvo(&["solve", "--bogus"]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown option --bogus"));
}

/// `bench wthor` checks each game's theoretical score: a database whose score is right
/// passes, one whose score is off by one disc fails and names the game.
#[test]
fn bench_wthor_checks_theoretical_scores() {
    use solvo_othello::formats::wthor::{parse_wtb, write_wtb};
    let shared = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/wthor/WTH_2024.wtb");
    let mut db = parse_wtb(&std::fs::read(shared).unwrap()).unwrap();
    db.header.depth = 14; // quick solves
    db.games.truncate(2);
    db.header.games = 2;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("WTH_test.wtb");
    let path_str = path.to_str().unwrap();
    std::fs::write(&path, write_wtb(&db)).unwrap();
    let o = solvo(&["bench", "wthor", path_str, "--json"]);
    let rows = json_lines(&o);
    assert_eq!(rows.len(), 3, "two rows and the totals");
    // Put solvo's values into the database: now everything must agree.
    for (g, row) in db.games.iter_mut().zip(&rows) {
        let black = row["black"].as_i64().unwrap();
        g.theoretical_black_discs = ((black + 64) / 2) as u8;
    }
    std::fs::write(&path, write_wtb(&db)).unwrap();
    let o = solvo(&["bench", "wthor", path_str]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(stdout(&o).contains("2 positions, 0 disagree"), "{}", stdout(&o));
    db.games[1].theoretical_black_discs += 1;
    std::fs::write(&path, write_wtb(&db)).unwrap();
    let o = solvo(&["bench", "wthor", path_str]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("WTH_test:2"), "{}", String::from_utf8_lossy(&o.stderr));
}

/// Issue 16 items 2, 3 and 7: out-of-range numbers are refused by name and range (exit
/// 2), and a file that is missing, a directory or empty is reported as such (exit 1).
#[test]
fn bad_numbers_and_bad_files_are_named() {
    let dir = tempfile::tempdir().unwrap();
    let empty = dir.path().join("empty.obf");
    std::fs::write(&empty, b"").unwrap();
    let (missing, d, e) = (
        dir.path().join("missing.obf").display().to_string(),
        dir.path().display().to_string(),
        empty.display().to_string(),
    );
    let cases: Vec<(Vec<&str>, i32, &str)> = vec![
        (vec!["solve", "f5d6", "--threads", "18446744073709551615"], 2, "--threads"),
        (vec!["perft", "3", "--threads", "100000"], 2, "--threads"),
        (vec!["solve", "f5d6", "--hash-mb", "18446744073709551615"], 2, "--hash-mb"),
        (vec!["enumerate", "--discs", "6", "--memory-mb", "18446744073709551615"], 2, "--memory-mb"),
        (vec!["solve", "f5d6", "--time-limit", "-5"], 2, "--time-limit"),
        (vec!["solve", "f5d6", "--time-limit", "nan"], 2, "--time-limit"),
        (vec!["solve", "f5d6", "--time-limit", "1e300"], 2, "--time-limit"),
        (vec!["solve", &missing], 1, "no such file"),
        (vec!["solve", &d], 1, "is a directory"),
        (vec!["solve", &e], 1, "empty file"),
        (vec!["show", &missing], 1, "no such file"),
        (vec!["convert", &d, "--to", "board"], 1, "is a directory"),
    ];
    for (args, code, needle) in cases {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_solvo")).args(&args).output().unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(code), "{args:?}: {err}");
        assert!(err.contains(needle) && !err.contains("panicked"), "{args:?}: {err}");
    }
}

/// Issue 16 item 4: one damaged game in a WTHOR file is reported and skipped; the
/// other games stay usable (listing, `--game 1`).
#[test]
fn a_damaged_wthor_game_does_not_block_the_file() {
    let good = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/wthor/WTH_1977.wtb")).unwrap();
    let mut bad = good.clone();
    bad[16 + 68 * 3 + 8 + 5] = 99; // game 4, move 6: not a square
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bad.wtb");
    std::fs::write(&path, bad).unwrap();
    let p = path.to_str().unwrap();
    let list = solvo(&["wthor", p, "--json"]);
    assert!(list.status.success(), "{}", String::from_utf8_lossy(&list.stderr));
    assert_eq!(String::from_utf8_lossy(&list.stdout).lines().count(), 11);
    assert!(String::from_utf8_lossy(&list.stderr).contains("game 4 skipped: damaged record"));
    assert!(solvo(&["wthor", p, "--game", "1"]).status.success());
    let four = solvo(&["wthor", p, "--game", "4"]);
    assert_eq!(four.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&four.stderr).contains("not a square"));
}

/// Issue 16 item 7: verify-store counts the exact records of a strong-solve store (all
/// of them), and refuses a threshold that would report false violations.
#[test]
fn verify_store_counts_exact_records_and_refuses_a_wrong_threshold() {
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("strong.redb");
    let s = store.to_str().unwrap();
    assert!(solvo(&["strong-solve", "--store", s]).status.success());
    let o = solvo(&["verify-store", "--store", s, "--hash-mb", "16", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["exact"], v["records"], "{v}");
    assert!(v["records"].as_array().unwrap().iter().any(|n| n.as_u64() > Some(0)));
    let o = solvo(&["verify-store", "--store", s, "--min-empties", "99"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("must be below 12"));
}

/// Issue 16 item 5: with the least memory budget, level 14 of 8x8 spills 77 sorted runs;
/// under an open-file limit of 40 they are merged in passes instead of failing with
/// "Too many open files", and the counts are those of the in-memory enumeration.
#[test]
fn enumeration_merges_within_the_open_file_limit() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("levels");
    let script = format!(
        "ulimit -n 40 && exec '{}' enumerate --discs 14 --memory-mb 1 --data-dir '{}' --json",
        env!("CARGO_BIN_EXE_solvo"),
        data.display()
    );
    let o = std::process::Command::new("sh").args(["-c", &script]).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows: Vec<serde_json::Value> =
        String::from_utf8_lossy(&o.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let last = rows.last().unwrap();
    assert!(last["runs"].as_u64().unwrap() > 40, "{last}");
    let memory = solvo(&["enumerate", "--discs", "14", "--json"]);
    let expected: Vec<serde_json::Value> =
        String::from_utf8_lossy(&memory.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let counts = |rows: &[serde_json::Value]| rows.iter().map(|r| r["positions"].clone()).collect::<Vec<_>>();
    assert_eq!(counts(&rows), counts(&expected));
}

/// Issue 16 item 10: without --hash-mb, the table is sized by the problem (16 MiB for
/// 20 empties, not 256 MiB); --hash-mb still sets it.
#[test]
fn the_default_table_is_sized_by_the_problem() {
    let hard =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/edax-hard/hard-20.obf"))
            .unwrap();
    let line = hard.lines().next().unwrap();
    let bytes = |extra: &[&str]| {
        let mut args = vec!["solve", line, "--json"];
        args.extend_from_slice(extra);
        let o = solvo(&args);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!(v["score"], 0);
        v["tt"]["bytes"].as_u64().unwrap()
    };
    // 20 empties: 32 MiB (8 MiB to 18 empties, doubling per empty), the one table
    // the solve and its ladder's climb share.
    assert_eq!(bytes(&[]), 32 << 20);
    assert_eq!(bytes(&["--hash-mb", "64"]), 64 << 20);
}

/// With `--json`, a command-line error is one JSON line on stderr naming the option and
/// the range (exit 2), like every other error; without it, clap's usual text.
#[test]
fn command_line_errors_are_json_with_json() {
    let o = solvo(&["perft", "5", "--threads", "-1", "--json"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    let v: serde_json::Value = serde_json::from_str(err.trim()).unwrap_or_else(|e| panic!("not JSON: {err}: {e}"));
    let text = v["error"].as_str().unwrap();
    assert!(text.contains("--threads") && text.contains("0 to 256"), "{text}");
    assert_eq!(v["usage"], true);
    let o = solvo(&["perft", "129"]);
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.starts_with("error: invalid value '129'") && err.contains("0 to 128"), "{err}");
    let o = solvo(&["perft", "--help", "--json"]);
    assert!(o.status.success(), "help is not an error");
}

/// The selective ladder (default `auto`) and its absence give the file's score and a
/// listed best move on FFO #40 (20 empties); its nodes count as ordering nodes.
#[test]
fn solve_with_and_without_the_ladder_agree_with_ffo() {
    let line =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/ffo/fforum-40-59.obf"))
            .expect("FFO file")
            .lines()
            .next()
            .expect("FFO #40")
            .to_string();
    for ladder in ["auto", "off", "95"] {
        let o = solvo(&["solve", &line, "--json", "--ladder", ladder, "--hash-mb", "64"]);
        assert!(o.status.success(), "--ladder {ladder}: {}", String::from_utf8_lossy(&o.stderr));
        let v = &json_lines(&o)[0];
        assert_eq!(v["score"], 38, "--ladder {ladder}");
        assert_eq!(v["ok"], true, "--ladder {ladder}");
    }
}
