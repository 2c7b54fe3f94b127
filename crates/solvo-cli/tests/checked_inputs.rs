//! Inputs checked wherever they enter: weight files for another board, damaged WTHOR
//! records, byte-order marks, GGF game types, stores that are not there, data
//! directories in use; and results said in a user's words.

use std::process::{Command, Stdio};

mod common;
use common::{solvo, solvo_with_stdin, stderr, stdout};

const SIX_WEIGHTS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../solvo-eval/weights/normal6.sew");
const WTHOR_1980: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/wthor/WTH_1980.wtb");

/// FFO #40 (20 empties), its best move a2 scoring +38.
const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36; D8:+34;";

/// A position 6 empties from the end, solved in milliseconds.
const SHORT: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXXO--OOOOXOOOOOOOXXXXXXOO- X";

/// [`SHORT`] with every legal move's exact score (as `bench hard` wants).
const SHORT_SCORED: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXXO--OOOOXOOOOOOOXXXXXXOO- X; C1:+44; H8:+44; B1:+36; A2:+36; C6:+32; B6:+20;";

#[test]
fn a_weight_file_for_another_board_is_refused_by_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let obf = dir.path().join("one.obf");
    std::fs::write(&obf, format!("{SHORT_SCORED}\n")).unwrap();
    let obf = obf.to_str().unwrap();
    let eval_spec = format!("solvo:level=1,eval={SIX_WEIGHTS}");
    let cases: Vec<Vec<&str>> = vec![
        vec!["eval", "f5d6", "--eval-file", SIX_WEIGHTS],
        vec!["analyze", "f5d6", "--depth", "2", "--eval-file", SIX_WEIGHTS],
        vec!["bench", "hard", obf, "--depth", "2", "--eval-file", SIX_WEIGHTS],
        vec!["solve", SHORT, "--eval-file", SIX_WEIGHTS],
        vec!["bench", "ffo", obf, "--eval-file", SIX_WEIGHTS],
        vec!["gtp", "--eval-file", SIX_WEIGHTS],
        vec!["nboard", "--eval-file", SIX_WEIGHTS],
        vec!["match", "--engine", &eval_spec, "--engine", "solvo:level=1", "--games", "1"],
    ];
    for args in cases {
        let o = solvo_with_stdin(&args, "quit\n");
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(1), "{args:?} ran with 6x6 weights on 8x8: {}{e}", stdout(&o));
        assert!(e.contains("6x6") && e.contains("8x8") && e.contains("--size 6"), "{args:?}: {e}");
    }
    // With --size 6 the same file is used.
    let o = solvo(&["--size", "6", "eval", "start", "--eval-file", SIX_WEIGHTS]);
    assert!(o.status.success(), "{}", stderr(&o));
}

/// A copy of the first `games` games of WTHOR 1980 in `dir`, the second game's 30th
/// move byte not a square (a damaged record cut there).
fn damaged_wthor(dir: &std::path::Path, games: usize) -> std::path::PathBuf {
    use solvo_othello::formats::wthor::{parse_wtb, write_wtb, GAME_LEN, HEADER_LEN};
    let mut db = parse_wtb(&std::fs::read(WTHOR_1980).unwrap()).unwrap();
    db.games.truncate(games);
    let mut bytes = write_wtb(&db);
    bytes[HEADER_LEN + GAME_LEN + 8 + 29] = 99;
    let path = dir.join("WTH_damaged.wtb");
    std::fs::write(&path, bytes).unwrap();
    path
}

#[test]
fn a_damaged_wthor_game_is_named_with_its_file_and_never_learned_from() {
    let dir = tempfile::tempdir().unwrap();
    let wtb = damaged_wthor(dir.path(), 3);
    let name = wtb.display().to_string();
    // (`solvo-lab train data` learns from whole games only: lab/solvo-lab/tests/train.rs.)
    // `wthor --game 2` names the file.
    let o = solvo(&["wthor", &name, "--game", "2"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains(&name) && stderr(&o).contains("damaged record"), "{}", stderr(&o));
    // `book` learns from the whole games only, and says which game it skipped.
    let book = dir.path().join("b.txt");
    let o = solvo(&["book", &name, "--out", book.to_str().unwrap(), "--plies", "2", "--level", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stderr(&o).contains(&name) && stderr(&o).contains("game 2"), "{}", stderr(&o));
}

#[test]
fn serve_names_a_damaged_wthor_game() {
    let dir = tempfile::tempdir().unwrap();
    let wtb = damaged_wthor(dir.path(), 3);
    let name = wtb.display().to_string();
    // --check: load everything, bind, and exit.
    let o = solvo(&["serve", "--check", "--port", "0", "--wthor", &name]);
    assert!(o.status.success(), "{}", stderr(&o));
    let e = stderr(&o);
    assert!(e.contains(&name) && e.contains("game 2") && e.contains("skipped"), "{e}");
}

#[test]
fn an_obf_file_with_a_byte_order_mark_reads_as_without() {
    let dir = tempfile::tempdir().unwrap();
    let plain = dir.path().join("plain.obf");
    let marked = dir.path().join("marked.obf");
    std::fs::write(&plain, format!("{FFO40}\n")).unwrap();
    std::fs::write(&marked, format!("\u{feff}{FFO40}\n")).unwrap();
    let a = solvo(&["eval", plain.to_str().unwrap()]);
    let b = solvo(&["eval", marked.to_str().unwrap()]);
    assert!(b.status.success(), "{}", stderr(&b));
    assert_eq!(stdout(&a), stdout(&b));
}

#[test]
fn a_ggf_game_type_solvo_does_not_play_is_refused_by_record() {
    let dir = tempfile::tempdir().unwrap();
    let record = |ty: &str| format!("(;GM[Othello]TY[{ty}]B[f5]W[d6];)\n");
    let file = dir.path().join("g.ggf");
    for (ty, what) in [("9", "9x9 board"), ("8k", "komi")] {
        std::fs::write(&file, format!("{}{}", record("8"), record(ty))).unwrap();
        let o = solvo(&["convert", file.to_str().unwrap(), "--to", "transcript"]);
        assert_eq!(o.status.code(), Some(1), "TY[{ty}] read: {}", stdout(&o));
        let e = stderr(&o);
        assert!(e.contains(&format!("record 2: TY[{ty}]")) && e.contains(what), "TY[{ty}]: {e}");
    }
    // An anti game is read under reversed rules (and written back as one).
    std::fs::write(&file, record("8a")).unwrap();
    let o = solvo(&["convert", file.to_str().unwrap(), "--to", "ggf"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("TY[8a]"), "{}", stdout(&o));
}

#[test]
fn read_only_commands_create_no_store() {
    let dir = tempfile::tempdir().unwrap();
    let typo = dir.path().join("typo.sqlite");
    let t = typo.to_str().unwrap();
    for stage in ["status", "verify", "table", "check-table", "enumerate", "select"] {
        let mut args = vec!["pipeline", stage, "--db", t];
        if stage == "table" {
            args.extend(["--out", "/dev/null"]);
        }
        let o = solvo(&args);
        assert_eq!(o.status.code(), Some(1), "pipeline {stage}: {}", stdout(&o));
        assert!(stderr(&o).contains("no such file"), "pipeline {stage}: {}", stderr(&o));
        assert!(!typo.exists(), "pipeline {stage} created {t}");
    }
    let o = solvo(&["play", "--table", t]);
    assert!(!typo.exists(), "play --table created {t}: {}", stderr(&o));
    // A directory or an empty file given as a store says so.
    let empty = dir.path().join("empty.redb");
    std::fs::write(&empty, b"").unwrap();
    let d = dir.path().to_str().unwrap();
    let e = empty.to_str().unwrap();
    for (args, what) in [
        (vec!["pipeline", "status", "--db", d], "is a directory"),
        (vec!["pipeline", "status", "--db", e], "empty file"),
        (vec!["query", "--store", d, "start"], "is a directory"),
        (vec!["query", "--store", e, "start"], "empty file"),
        (vec!["verify-store", "--store", d], "is a directory"),
        (vec!["verify-store", "--store", e], "empty file"),
        (vec!["--size", "4", "play", "--self-check", "--store", d], "is a directory"),
    ] {
        let o = solvo(&args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains(what), "{args:?}: {}", stderr(&o));
    }
    assert_eq!(std::fs::metadata(&empty).unwrap().len(), 0);
}

#[test]
fn a_second_enumeration_on_a_data_directory_in_use_names_the_first() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("levels");
    let d = data.to_str().unwrap();
    // A run long enough to be caught: 8x8 to 14 discs in a small budget.
    let mut first = Command::new(env!("CARGO_BIN_EXE_solvo"))
        .args(["enumerate", "--discs", "16", "--data-dir", d, "--memory-mb", "1"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("run solvo enumerate");
    // Until the first run holds its lock (or ends; or, without a lock, a while).
    let lock = data.join("enumerate.lock");
    for _ in 0..500 {
        if lock.exists() || first.try_wait().unwrap().is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let o = solvo(&["enumerate", "--discs", "8", "--data-dir", d]);
    let finished = first.try_wait().unwrap().is_some();
    first.kill().ok();
    first.wait().unwrap();
    if finished {
        return; // the first run ended before the second started: nothing was contended
    }
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    let e = stderr(&o);
    assert!(e.contains("in use by another enumeration") && e.contains(&format!("pid {}", first.id())), "{e}");
}

#[test]
fn results_are_said_in_words() {
    // A finished game has a result, not an estimate.
    let full = "XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX X";
    for cmd in ["eval", "analyze"] {
        let o = solvo(&[cmd, full]);
        assert!(o.status.success(), "{cmd}: {}", stderr(&o));
        assert!(stdout(&o).contains("game over: +64"), "{cmd}: {}", stdout(&o));
    }
    // A window the value is below of: no move is known best.
    let low = solvo(&["solve", FFO40.split(';').next().unwrap(), "--window", "39,40", "--quiet"]);
    let text = stdout(&low);
    assert!(text.contains("score <= +38") && text.contains("best --"), "{text}");
    // Above it: the move found reaches the window.
    let high = solvo(&["solve", FFO40.split(';').next().unwrap(), "--window", "-10,-9", "--quiet"]);
    let text = stdout(&high);
    assert!(text.contains("a move reaching the window") && !text.contains(" best "), "{text}");
    // Lines without scores: nothing to check, said so.
    let dir = tempfile::tempdir().unwrap();
    let obf = dir.path().join("bare.obf");
    std::fs::write(&obf, format!("{SHORT}\n")).unwrap();
    let o = solvo(&["bench", "ffo", obf.to_str().unwrap()]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("nothing to check"), "{}", stdout(&o));
    for o in [&low, &high, &o] {
        let all = format!("{}{}", stdout(o), stderr(o));
        assert!(!all.contains("Some(") && !all.contains("unreachable"), "{all}");
    }
}
