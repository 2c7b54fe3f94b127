//! The lab's commands (studies, reproductions, weight-making) moved to `solvo-lab`:
//! given to `solvo`, each ends with exit code 2 (usage) and a message naming its new
//! command line, in text or JSON; the study's players in `solvo match` are named too.

mod common;
use common::solvo;

#[test]
fn lab_commands_exit_2_naming_their_new_command_line() {
    let cases: [(&[&str], &str); 6] = [
        (&["train", "fit", "a.samples", "--out", "w.sew"], "`train` moved to the lab: run `solvo-lab train fit ...`"),
        (&["train"], "`train` moved to the lab: run `solvo-lab train ...`"),
        (&["study", "tune", "--method", "sa"], "`study` moved to the lab: run `solvo-lab study tune ...`"),
        (&["bench", "games", "--table", "4"], "`bench games` moved to the lab: run `solvo-lab bench games ...`"),
        (
            &["pipeline", "published", "--tasks", "t.csv"],
            "`pipeline published` moved to the lab: run `solvo-lab pipeline published ...`",
        ),
        (&["train", "--help"], "`train` moved to the lab: run `solvo-lab train ...`"),
    ];
    for (args, message) in cases {
        let o = solvo(args);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "solvo {args:?}: {err}");
        assert_eq!(err.trim(), format!("error: {message}"), "solvo {args:?}");
        assert!(o.stdout.is_empty(), "solvo {args:?}");
    }
    let o = solvo(&["--json", "train", "data", "x.wtb"]);
    assert_eq!(o.status.code(), Some(2));
    let v: serde_json::Value = serde_json::from_slice(&o.stderr).expect("a JSON error");
    assert_eq!(v["error"], "`train` moved to the lab: run `solvo-lab train data ...`");
    assert_eq!(v["usage"], true);
}

#[test]
fn lab_commands_are_not_listed_in_the_help() {
    let help = String::from_utf8_lossy(&solvo(&["--help"]).stdout).into_owned();
    for gone in ["  study ", "  train "] {
        assert!(!help.contains(gone), "{help}");
    }
    let help = String::from_utf8_lossy(&solvo(&["bench", "--help"]).stdout).into_owned();
    assert!(!help.contains("  games "), "{help}");
    let help = String::from_utf8_lossy(&solvo(&["pipeline", "--help"]).stdout).into_owned();
    assert!(!help.contains("  published "), "{help}");
}

#[test]
fn the_study_players_in_match_name_the_lab() {
    for engine in ["ab:depth=2", "mcts:playouts=100"] {
        let o = solvo(&["match", "--engine", "solvo:level=1", "--engine", engine, "--random-openings", "1"]);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(1), "{err}");
        assert!(err.contains("moved to the lab: run `solvo-lab match --engine"), "{err}");
    }
}
