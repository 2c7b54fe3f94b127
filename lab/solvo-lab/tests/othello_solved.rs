//! "Othello is solved": the 2,587 published tasks prove the draw (Algorithm 1's
//! invariant: with the bounds their hypotheses claim, G50 proves the start >= 0 and
//! <= 0, and without the principal variation's task it does not), the perfect player's
//! opening tree from those claims (Figure 4), and `solvo-lab pipeline figures` writing
//! its SVG files from a small store. The task list is read from `../shared/data/`.

use solvo_lab::othello_solved::{leaf_costs, opening_tree, sorted_profile, top_share, LeafCost, Role};
use solvo_lab::published::{invariant_holds, parse_task_list, PublishedTask};
use solvo_othello::{Board, BoardSize};
use solvo_pipeline::estimate::Estimator;
use std::process::{Command, Stdio};

fn task_list_path() -> std::path::PathBuf {
    std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/data/takizawa/empty50_tasklist_edax_knowledge.csv")
}

fn tasks() -> Vec<PublishedTask> {
    let path = task_list_path();
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    parse_task_list(&text).unwrap()
}

#[test]
fn the_2587_published_tasks_prove_the_draw_and_need_the_pv_task() {
    let tasks = tasks();
    assert_eq!(tasks.len(), 2587);
    let (ge, le, _) = invariant_holds(&tasks);
    assert!(ge && le, "the published tasks prove the draw");
    let (ge, le, _) = invariant_holds(&tasks[1..]);
    assert!(!(ge && le), "without the PV task the draw is not proven");
}

/// The opening tree's size per ply (measured 2026-11-29), its one line of draws (the
/// published record's, plus the one transposition at ply 4), and the roles: the player
/// moves once at its turns, the opponent's every move is answered.
#[test]
fn the_perfect_players_opening_tree_from_the_claims() {
    let tree = opening_tree(&tasks(), 50);
    assert_eq!(tree.proven, [true, true]);
    assert_eq!(tree.per_ply(), [1, 1, 3, 7, 13, 33, 65, 182, 385, 1187, 2456]);
    assert_eq!(tree.draws_per_ply(), [1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1]);
    let line: Vec<_> = tree.nodes.iter().filter(|n| n.on_line).collect();
    assert_eq!(line.len(), 11);
    assert!(line.iter().all(|n| n.draw));
    for n in tree.nodes.iter().filter(|n| n.board.empties(BoardSize::Eight) > 50) {
        let own = n.moves.iter().filter(|m| m.2).count();
        let theirs = n.moves.iter().filter(|m| !m.2).count();
        let players = n.roles.iter().filter(|r| **r == Some(Role::Player)).count();
        assert!(own <= players, "one move per tree where the player moves");
        if n.roles.contains(&Some(Role::Opponent)) {
            assert!(theirs >= 1);
        }
    }
}

#[test]
fn the_sorted_profile_and_the_top_share() {
    let costs: Vec<LeafCost> =
        [5u64, 1, 100, 10].iter().map(|&n| LeafCost { board: Board::start(), nodes: n, estimate: 0 }).collect();
    let p = sorted_profile(&costs, 2);
    assert_eq!(p.iter().map(|q| q.nodes).collect::<Vec<_>>(), [100, 5, 1]);
    assert!((p[0].cumulative - 100.0 / 116.0).abs() < 1e-12 && (p[2].cumulative - 1.0).abs() < 1e-12);
    assert!((top_share(&costs, 0.25) - 100.0 / 116.0).abs() < 1e-12);
    assert!(sorted_profile(&[], 10).is_empty());
}

fn lab(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_solvo-lab")).args(args).stdin(Stdio::null()).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

#[test]
fn figures_are_written_from_a_small_store_and_bad_input_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p.sqlite");
    let conn = rusqlite::Connection::open(&db).unwrap();
    conn.execute_batch(
        "CREATE TABLE knowledge (player INTEGER NOT NULL, opponent INTEGER NOT NULL, lower INTEGER NOT NULL,
         upper INTEGER NOT NULL, nodes INTEGER NOT NULL, checksum INTEGER NOT NULL, PRIMARY KEY (player, opponent));",
    )
    .unwrap();
    let b = Board::start();
    for (i, n) in [(0u64, 700i64), (1, 30), (2, 5)] {
        conn.execute(
            "INSERT INTO knowledge VALUES (?1, ?2, 0, 0, ?3, 0)",
            rusqlite::params![(b.player | (1 << (40 + i))) as i64, b.opponent as i64, n],
        )
        .unwrap();
    }
    drop(conn);
    let costs = leaf_costs(&db, &Estimator::new(BoardSize::Eight, 0)).unwrap();
    assert_eq!(costs.iter().map(|c| c.nodes).sum::<u64>(), 735);
    let out = dir.path().join("svg");
    let tasks = task_list_path();
    let (ok, text, err) = lab(&[
        "pipeline",
        "figures",
        "--db",
        db.to_str().unwrap(),
        "--tasks",
        tasks.to_str().unwrap(),
        "--out-dir",
        out.to_str().unwrap(),
        "--cpu-seconds",
        "2",
        "--ghz",
        "2.5",
    ]);
    assert!(ok, "{text}{err}");
    assert!(text.contains("problems (leaves solved) 3; positions (solver nodes over the leaves) 735"), "{text}");
    assert!(text.contains("1.470e2 nodes per GHz per core per second"), "{text}");
    for f in ["fig2", "fig3", "fig4"] {
        let svg = std::fs::read_to_string(out.join(format!("othello-solved-{f}.svg"))).unwrap();
        assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{f}");
    }
    let (ok, _, err) = lab(&["pipeline", "figures", "--db", "/nonexistent.sqlite", "--out-dir", out.to_str().unwrap()]);
    assert!(!ok && err.contains("/nonexistent.sqlite") && !err.contains("panicked"), "{err}");
    let (ok, _, err) = lab(&["pipeline", "figures", "--out-dir", out.to_str().unwrap()]);
    assert!(!ok && err.contains("--db") && err.contains("--tasks"), "{err}");
    let (ok, _, err) =
        lab(&["pipeline", "figures", "--tasks", db.to_str().unwrap(), "--out-dir", out.to_str().unwrap()]);
    assert!(!ok && !err.contains("panicked"), "{err}");
}
