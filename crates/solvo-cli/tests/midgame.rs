//! `solvo analyze` and `solvo bench hard` end to end, on a weight
//! file written by the test (independent of the embedded weights).

use solvo_eval::features::STAGE_LEN;
use solvo_eval::{Weights, NUM_STAGES};
use solvo_othello::Variant;
use std::path::{Path, PathBuf};

mod common;
use common::{solvo, stderr, stdout};

/// A weight file with small pseudo-random weights in `dir`.
fn weight_file(dir: &Path) -> PathBuf {
    let mut x = 1u64;
    let table = (0..NUM_STAGES * STAGE_LEN)
        .map(|_| {
            x = x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((x >> 33) % 201) as i16 - 100
        })
        .collect();
    let path = dir.join("w.sew");
    std::fs::write(&path, Weights::from_table(Variant::Normal, table).unwrap().to_bytes()).unwrap();
    path
}

const HARD_LINES: &str = "\
-OOO------OOOO--XXXOOXXX-XOOOXX-XXXXOOOOOXXOOOO---OXOO---OOOO--- X; E1:+0; F8:-2; H6:-6; F1:-6; G8:-6; A7:-6; G1:-8; B7:-10; G7:-20; --:-127;
---OX--O----OXOO--XXXOOO--XXXOOX-XXXOOXX--XOXXXX--OOOXXX--XXXXXX X; D2:+2; G1:+0; C1:-2; B7:-4; B6:-6; F1:-12; --:-127;
";

#[test]
fn analyze_reports_move_score_depth_and_every_move() {
    let dir = tempfile::tempdir().unwrap();
    let w = weight_file(dir.path());
    let w = w.to_str().unwrap();
    let o = solvo(&["analyze", "f5d6c3", "--depth", "5", "--eval-file", w, "--all-moves", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(v["depth"], 5);
    assert_eq!(v["selectivity"], 100);
    let start = solvo_othello::Position::start(solvo_othello::BoardSize::Eight, Variant::Normal);
    let pos = solvo_othello::formats::transcript::parse_transcript("f5d6c3", &start).unwrap().end();
    assert_eq!(v["moves"].as_array().unwrap().len(), pos.moves().count_ones() as usize);
    assert_eq!(v["moves"][0]["score"], v["score"]);
    assert_eq!(v["pv"][0], v["best_move"]);
    // Depth at the end of the game: exact.
    let line = HARD_LINES.lines().nth(1).unwrap().replace(" --:-127;", "");
    let o = solvo(&["analyze", &line, "--depth", "30", "--eval-file", w, "--json"]);
    let v: serde_json::Value = serde_json::from_str(stdout(&o).trim()).unwrap();
    assert_eq!(
        (v["exact"].clone(), v["score"].clone(), v["best_move"].clone()),
        (true.into(), 2.0.into(), "d2".into())
    );
}

#[test]
fn analyze_rejects_bad_input_with_a_message() {
    let dir = tempfile::tempdir().unwrap();
    let w = weight_file(dir.path());
    let w = w.to_str().unwrap();
    for args in [
        vec!["analyze", "f5d6z9", "--eval-file", w],
        vec!["analyze", "f5", "--depth", "0", "--eval-file", w],
        vec!["analyze", "f5", "--selectivity", "80", "--eval-file", w],
        vec!["analyze", "f5", "--time", "-1", "--eval-file", w],
        vec!["analyze", "f5", "--threads", "0", "--eval-file", w],
        vec!["analyze", "f5", "--eval-file", "/nonexistent/w.sew"],
        vec!["analyze", "f5", "--size", "6", "--eval-file", w],
    ] {
        let o = solvo(&args);
        assert!(!o.status.success(), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains("error") && !err.contains("panicked"), "{args:?}: {err}");
    }
}

#[test]
fn bench_hard_prints_best_rate_loss_and_error() {
    let dir = tempfile::tempdir().unwrap();
    let w = weight_file(dir.path());
    let obf = dir.path().join("hard.obf");
    std::fs::write(&obf, HARD_LINES).unwrap();
    let (w, obf) = (w.to_str().unwrap(), obf.to_str().unwrap());
    let o = solvo(&["bench", "hard", obf, "--depth", "4", "--eval-file", w]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("best_rate"), "{}", stdout(&o));
    let o = solvo(&["bench", "hard", obf, "--depth", "30", "--eval-file", w, "--json"]);
    let total: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!((total["best_rate"].as_f64(), total["mae"].as_f64()), (Some(1.0), Some(0.0)), "exact depth");
    // A node limit on one thread: the same search on every run, stopped near the limit.
    let limited = || {
        let o = solvo(&["bench", "hard", obf, "--depth", "20", "--nodes", "20000", "--eval-file", w, "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let lines: Vec<serde_json::Value> = stdout(&o).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
        lines.iter().map(|l| (l["move"].clone(), l["nodes"].as_u64().unwrap())).collect::<Vec<_>>()
    };
    let first = limited();
    assert_eq!(first, limited(), "a node-limited search repeats itself");
    let (per_position, total) = first.split_at(first.len() - 1);
    assert!(per_position.iter().all(|(_, n)| *n < 20000 + 20000), "{first:?}");
    assert_eq!(total[0].1, per_position.iter().map(|(_, n)| n).sum::<u64>());
    // A line that does not score every legal move is an error naming the line.
    std::fs::write(
        dir.path().join("bad.obf"),
        "---OX--O----OXOO--XXXOOO--XXXOOX-XXXOOXX--XOXXXX--OOOXXX--XXXXXX X; D2:+2;\n",
    )
    .unwrap();
    let o = solvo(&["bench", "hard", dir.path().join("bad.obf").to_str().unwrap(), "--eval-file", w]);
    assert!(!o.status.success());
    assert!(stderr(&o).contains("line 1"), "{}", stderr(&o));
}

/// `bench every-move`: every move exact through the engine, checked against the file;
/// a wrong value in the file is a mismatch naming the move, a position beyond the
/// level's exact solves an error naming the level to use.
#[test]
fn bench_every_move_checks_every_value_through_the_engine() {
    let dir = tempfile::tempdir().unwrap();
    let obf = dir.path().join("hard.obf");
    std::fs::write(&obf, HARD_LINES).unwrap();
    let o = solvo(&["bench", "every-move", obf.to_str().unwrap(), "--threads", "2", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let total: serde_json::Value = serde_json::from_str(stdout(&o).lines().last().unwrap()).unwrap();
    assert_eq!((total["positions"].as_u64(), total["wrong"].as_u64()), (Some(2), Some(0)), "{total}");
    let wrong = dir.path().join("wrong.obf");
    std::fs::write(&wrong, HARD_LINES.replace("F8:-2;", "F8:-4;")).unwrap();
    let o = solvo(&["bench", "every-move", wrong.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).contains("MISMATCH: f8 -2 (file -4)"), "{}", stdout(&o));
    let o = solvo(&["bench", "every-move", obf.to_str().unwrap(), "--level", "5"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("use --level 10 or more"), "{}", stderr(&o));
}
