//! `solvo-lab train` end to end: self-play with the search, Multi-ProbCut statistics
//! (`train mpc`) on a weight file written by the test.

use solvo_eval::features::STAGE_LEN;
use solvo_eval::{Weights, NUM_STAGES};
use solvo_othello::Variant;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

mod common;
use common::{lab, stderr};

fn json_lines(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

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

/// `train mpc` writes a copy of the weights with the measured and fitted statistics,
/// which `solvo analyze` uses for its selective search.
#[test]
fn train_mpc_writes_statistics_into_a_copy_of_the_weights() {
    let dir = tempfile::tempdir().unwrap();
    let w = weight_file(dir.path());
    let wthor = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/wthor/WTH_2024.wtb");
    // Measures into `name` on `threads` threads; the statistics written.
    let measure = |name: &str, threads: &str| {
        let out = dir.path().join(name);
        let o = lab(&[
            "train",
            "mpc",
            wthor,
            "--eval-file",
            w.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--empties",
            "30,40",
            "--positions",
            "4",
            "--max-depth",
            "7",
            "--fit-depth",
            "12",
            "--threads",
            threads,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        (solvo_eval::read_file(&out).unwrap(), out)
    };
    let (weights, out) = measure("mpc.sew", "1");
    assert!(weights.mpc.iter().any(|m| m.empties == 30 && m.deep == 7 && m.shallow == 2));
    assert!(weights.mpc.iter().any(|m| m.empties == 40 && m.deep == 12 && m.shallow == 6));
    // The values searched without selectivity are the same on two threads: so are the
    // statistics.
    assert_eq!(measure("mpc2.sew", "2").0.mpc, weights.mpc);
    // The product's `solvo analyze` searches selectively with them. Its binary is built
    // beside this one by a workspace test run (`cargo test --workspace`, as CI runs);
    // a run of this package alone has only the statistics above to check.
    let product = Path::new(env!("CARGO_BIN_EXE_solvo-lab")).with_file_name("solvo");
    if product.exists() {
        let o = Command::new(&product)
            .args(["analyze", "f5d6c3d3c4", "--depth", "8", "--selectivity", "73", "--eval-file"])
            .arg(&out)
            .output()
            .expect("run solvo");
        assert!(o.status.success(), "{}", stderr(&o));
        let text = String::from_utf8_lossy(&o.stdout);
        assert!(text.contains("depth 8@73%"), "{text}");
    } else {
        eprintln!("{} not built: the analyze half of this test did not run", product.display());
    }
}

#[test]
fn train_selfplay_plays_with_the_search_and_refuses_what_it_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("sp.samples");
    let o = lab(&[
        "train",
        "selfplay",
        "--search-depth",
        "2",
        "--exact-empties",
        "8",
        "--games",
        "2",
        "--label",
        "search",
        "--out",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let v = &json_lines(&o)[0];
    assert_eq!(v["games"], 2);
    assert!(v["exact"].as_u64().unwrap() >= 2 * 8, "{v}");
    assert!(v["samples"].as_u64().unwrap() >= 2 * 50, "{v}");
    // What the search cannot do, said plainly.
    let six = lab(&["--size", "6", "train", "selfplay", "--search-depth", "2", "--out", "x.samples"]);
    assert_eq!(six.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&six.stderr).contains("8x8 only"));
    let eval =
        lab(&["train", "selfplay", "--eval-file", "w.sew", "--out", dir.path().join("y.samples").to_str().unwrap()]);
    assert_eq!(eval.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&eval.stderr).contains("needs --search-depth"));
    let label = lab(&["train", "selfplay", "--search-depth", "2", "--label", "guess", "--out", "z.samples"]);
    assert_eq!(label.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&label.stderr).contains("expected result or search"));
}

/// A copy of the first `games` games of WTHOR 1980 in `dir`, the second game's 30th
/// move byte not a square (a damaged record cut there).
fn damaged_wthor(dir: &Path, games: usize) -> PathBuf {
    use solvo_othello::formats::wthor::{parse_wtb, write_wtb, GAME_LEN, HEADER_LEN};
    let wthor = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/wthor/WTH_1980.wtb");
    let mut db = parse_wtb(&std::fs::read(wthor).unwrap()).unwrap();
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
    let out = dir.path().join("samples");
    let o = lab(&["train", "data", &name, "--out-dir", out.to_str().unwrap(), "--exact-empties", "0", "--json"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let first = String::from_utf8_lossy(&o.stdout).lines().next().unwrap_or_default().to_string();
    let v: serde_json::Value = serde_json::from_str(&first).unwrap_or_else(|e| panic!("not JSON: {first}: {e}"));
    assert_eq!((v["games"].as_u64(), v["bad_games"].as_u64()), (Some(3), Some(1)), "{v}");
    let e = stderr(&o);
    assert!(e.contains(&name) && e.contains("game 2") && e.contains("not a square"), "{e}");
}
