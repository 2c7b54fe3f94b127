//! `solvo-lab bench games` end to end: rows per cell, the Monte Carlo Game Solver
//! study's tables with its figures beside ours, the Markdown written between a file's
//! markers, the Nogo grid, the replacement schemes.

use std::process::Output;

mod common;
use common::lab;

fn json(o: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON: {l}: {e}")))
        .collect()
}

#[test]
fn bench_games_prints_a_row_per_cell() {
    let o = lab(&[
        "bench",
        "games",
        "--games",
        "domineering:4x4,nogo:3x3",
        "--algos",
        "ab-tt,dfpn",
        "--json",
        "--playouts",
        "100",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = json(&o);
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r["result"]["winner"] == "first" && r["result"]["result"] == "first_player_win"));
}

/// `--table N --games g:RxC` runs one row of a table with the study's figures beside,
/// and a row that reads the study's size the other way says so.
#[test]
fn bench_games_runs_chosen_rows_of_a_study_table() {
    let dir = tempfile::tempdir().expect("temp dir");
    let md = dir.path().join("t6.md");
    let o = lab(&[
        "bench",
        "games",
        "--table",
        "6",
        "--games",
        "misere-breakthrough:5x4",
        "--algos",
        "ab-tt-mc",
        "--playouts",
        "100",
        "--cell-nodes",
        "20000",
        "--markdown",
        md.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("447,879,697 / 1055.32 s"), "{text}");
    let md = std::fs::read_to_string(&md).unwrap();
    assert!(md.contains("the study's 4x5 read as 5 rows along the movement, 4 columns"), "{md}");
}

/// `bench games --table N` prints the study's figures beside ours and rewrites the
/// Markdown file's table between its markers (`--rewrite-tables`); table 3 is the Nogo
/// grid; `--schemes` compares the replacement schemes.
#[test]
fn bench_games_regenerates_study_tables() {
    let dir = tempfile::tempdir().expect("temp dir");
    let readme = dir.path().join("README.md");
    std::fs::write(&readme, "intro\n<!-- bench games table 4 -->\nold\n<!-- end bench games table 4 -->\nrest\n")
        .unwrap();
    let md = dir.path().join("t4.md");
    let o = lab(&[
        "bench",
        "games",
        "--table",
        "4",
        "--algos",
        "ab-tt,ab-tt-mc",
        "--playouts",
        "1000",
        "--cell-time",
        "30",
        "--markdown",
        md.to_str().unwrap(),
        "--rewrite-tables",
        readme.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("6,104 / 0.16 s") && text.contains("4,296,893 / 96.63 s"), "{text}");
    let readme = std::fs::read_to_string(&readme).unwrap();
    assert!(
        readme.starts_with("intro\n<!-- bench games table 4 -->\n")
            && readme.ends_with("<!-- end bench games table 4 -->\nrest\n")
    );
    assert!(readme.contains("| go 4x3 | ab-tt | Won |") && !readme.contains("old"), "{readme}");
    assert!(readme.contains(&std::fs::read_to_string(&md).unwrap()));
    // Table 3: the small Nogo boards agree with the study's grid.
    let o = lab(&["bench", "games", "--table", "3", "--algos", "ab-tt", "--grid-max-cells", "8", "--cell-time", "30"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(text.contains("nogo 2x4: ours 2, study 2") && text.contains("Every size solved agrees"), "{text}");
    // The schemes: four rows with their table statistics.
    let o = lab(&["bench", "games", "--schemes", "--games", "domineering:5x5", "--algos", "id-ab-tt", "--json"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let rows = json(&o);
    assert_eq!(rows.len(), 4);
    for r in &rows {
        assert_eq!(r["result"]["result"], "second_player_win");
        assert!(r["result"]["tt_cutoffs"].as_u64().unwrap() > 0);
    }
}

/// `--rewrite-tables` rewrites only the marked table of a Markdown file; the old
/// spelling `--update-readme` is still accepted (hidden from the help); without
/// `--table` either is refused with a message naming the option.
#[test]
fn rewrite_tables_keeps_the_old_spelling_and_the_rest_of_the_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let page = dir.path().join("page.md");
    let before = "# Results\n<!-- bench games table 5 -->\nold\n<!-- end bench games table 5 -->\nafter\n";
    for spelling in ["--rewrite-tables", "--update-readme"] {
        std::fs::write(&page, before).unwrap();
        let o = lab(&[
            "bench",
            "games",
            "--table",
            "5",
            "--games",
            "domineering:4x4",
            "--algos",
            "ab-tt",
            "--cell-nodes",
            "100000",
            spelling,
            page.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{spelling}: {}", String::from_utf8_lossy(&o.stderr));
        let text = std::fs::read_to_string(&page).unwrap();
        assert!(text.starts_with("# Results\n<!-- bench games table 5 -->\n"), "{spelling}: {text}");
        assert!(text.ends_with("<!-- end bench games table 5 -->\nafter\n"), "{spelling}: {text}");
        assert!(text.contains("| domineering 4x4 | ab-tt |") && !text.contains("old"), "{spelling}: {text}");
    }
    let o = lab(&["bench", "games", "--games", "domineering:2x2", "--algos", "ab-tt", "--rewrite-tables", "x.md"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--rewrite-tables needs --table"));
    assert!(o.stdout.is_empty(), "refused before any cell runs");
    let help = lab(&["bench", "games", "--help"]);
    let help = String::from_utf8_lossy(&help.stdout);
    assert!(help.contains("--rewrite-tables") && !help.contains("--update-readme"), "{help}");
}
