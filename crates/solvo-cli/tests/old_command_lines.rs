//! The commands are grouped by what they front (`solvo position show`, `solvo solution
//! weak`, `solvo engine gtp`, ...): `solvo --help` stays short, and every command line
//! that worked before the grouping still works (the older flat names are hidden aliases
//! of the same code), because users' scripts hold them. The lines checked are those of
//! the README before the documentation moved to docs/ (`fixtures/readme-command-lines.txt`).

use std::process::Output;

mod common;
use common::solvo;

/// The commands that moved to the lab: given to `solvo`, they end with exit code 2
/// naming their `solvo-lab` command line.
const LAB: [&[&str]; 4] = [&["train"], &["study"], &["bench", "games"], &["pipeline", "published"]];

/// The entries of the `Commands:` section of a help text.
fn commands_listed(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        .filter(|l| l.starts_with("  ") && !l.starts_with("    "))
        .filter_map(|l| l.split_whitespace().next().map(String::from))
        .collect()
}

#[test]
fn help_lists_at_most_twelve_commands_and_shows_the_groups() {
    let o = solvo(&["--help"]);
    assert_eq!(o.status.code(), Some(0));
    let help = String::from_utf8_lossy(&o.stdout);
    let listed = commands_listed(&help);
    assert!(listed.len() <= 12, "{} entries in `solvo --help`:\n{help}", listed.len());
    for group in
        ["solve", "analyze", "play", "serve", "position", "solution", "engine", "pipeline", "game", "bench", "help"]
    {
        assert!(listed.iter().any(|c| c == group), "`{group}` not listed:\n{help}");
    }
    // The groups list their commands.
    for (group, subs) in [
        ("position", &["show", "convert", "eval", "perft", "wthor"][..]),
        ("solution", &["enumerate", "weak", "strong", "semi-strong", "query", "verify", "salvage"]),
        ("engine", &["gtp", "nboard", "match", "book"]),
        ("pipeline", &["run", "worker"]),
    ] {
        let help = String::from_utf8_lossy(&solvo(&[group, "--help"]).stdout).into_owned();
        let listed = commands_listed(&help);
        for sub in subs {
            assert!(listed.iter().any(|c| c == sub), "`{group} {sub}` not listed:\n{help}");
        }
    }
}

/// Splits a shell command line into words: double and single quotes group, an unquoted
/// `#` after a space starts a comment, a trailing `\` (continued line) is dropped.
fn words(line: &str) -> Vec<String> {
    let (mut out, mut word, mut quote, mut started) = (Vec::new(), String::new(), None, false);
    let mut prev_space = true;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                started = true;
            }
            (None, '#') if prev_space => break,
            (None, c) if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (None, c) => {
                word.push(c);
                started = true;
            }
        }
        prev_space = quote.is_none() && c.is_whitespace();
    }
    if started {
        out.push(word);
    }
    if out.last().is_some_and(|w| w == "\\") {
        out.pop();
    }
    out
}

/// The command lines of the fixture, without the leading `solvo` and the README's `...`
/// (standing for other options); a word `a|b|c` (the README's way of naming several
/// commands on one line) gives one line per choice.
fn old_lines() -> Vec<Vec<String>> {
    let text = include_str!("fixtures/readme-command-lines.txt");
    let mut lines = Vec::new();
    for line in text.lines().filter(|l| l.starts_with("solvo ")) {
        let w = words(line);
        assert_eq!(w[0], "solvo");
        let w: Vec<String> = w[1..].iter().filter(|x| *x != "...").cloned().collect();
        match w.iter().position(|x| x.contains('|')) {
            Some(i) => {
                for choice in w[i].split('|') {
                    let mut v = w.clone();
                    v[i] = choice.to_string();
                    lines.push(v);
                }
            }
            None => lines.push(w),
        }
    }
    lines
}

/// The commands that have subcommands (their help is named by two words).
const GROUPS: [&str; 8] = ["position", "solution", "engine", "pipeline", "game", "bench", "train", "study"];

/// The command's words (`["pipeline", "run"]`, `["solve"]`), the options every command
/// shares skipped.
fn command_path(args: &[String]) -> Vec<&str> {
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--json" => i += 1,
            "--size" | "--variant" => i += 2,
            _ => break,
        }
    }
    let mut path = vec![args[i].as_str()];
    if GROUPS.contains(&path[0]) {
        path.push(args[i + 1].as_str());
    }
    path
}

#[test]
fn every_command_line_of_the_old_readme_still_runs() {
    let lines = old_lines();
    assert!(lines.len() >= 100, "{} command lines in the fixture", lines.len());
    let mut failures = Vec::new();
    let (mut product, mut lab) = (0, 0);
    for line in &lines {
        let mut args: Vec<&str> = line.iter().map(String::as_str).collect();
        args.push("--help");
        let o = solvo(&args);
        let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        let path = command_path(line);
        let moved = LAB.iter().any(|l| path.starts_with(l));
        if moved {
            lab += 1;
            if o.status.code() != Some(2) || !err.contains("moved to the lab: run `solvo-lab ") {
                failures.push(format!(
                    "solvo {}: {:?} (want 2 naming solvo-lab)\n  {}",
                    args.join(" "),
                    o.status,
                    err.trim()
                ));
            }
        } else {
            product += 1;
            // The help shown is the command's own (its usage line names it).
            let usage = format!("Usage: solvo {}", path.join(" "));
            if o.status.code() != Some(0) || !out.contains(&usage) {
                failures.push(format!(
                    "solvo {}: {:?} (want 0 and `{usage}`)\n  {}",
                    args.join(" "),
                    o.status,
                    err.trim()
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{} of {} lines fail:\n{}", failures.len(), lines.len(), failures.join("\n"));
    assert!(product >= 80 && lab >= 20, "{product} product lines, {lab} lab lines");
}

/// A command's output with what differs between runs (times, rates) taken out: JSON
/// objects lose their keys naming a time or a rate.
fn steady_output(o: &Output) -> Vec<String> {
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .map(|l| match serde_json::from_str::<serde_json::Value>(l) {
            Ok(serde_json::Value::Object(mut m)) => {
                m.retain(|k, _| !["second", "time", "_ms"].iter().any(|t| k.contains(t)));
                serde_json::Value::Object(m).to_string()
            }
            _ => l.to_string(),
        })
        .collect()
}

#[test]
fn old_names_and_grouped_names_run_the_same_command() {
    let pairs: [(&[&str], &[&str]); 5] = [
        (&["show", "f5d6c3d3", "--json"], &["position", "show", "f5d6c3d3", "--json"]),
        (&["convert", "f5d6c3d3c4", "--to", "ggf"], &["position", "convert", "f5d6c3d3c4", "--to", "ggf"]),
        (&["eval", "f5d6c3d3", "--json"], &["position", "eval", "f5d6c3d3", "--json"]),
        (&["perft", "5", "--mode", "c", "--json"], &["position", "perft", "5", "--mode", "c", "--json"]),
        (&["strong-solve", "--size", "4", "--json"], &["solution", "strong", "--size", "4", "--json"]),
    ];
    for (old, new) in pairs {
        let (a, b) = (solvo(old), solvo(new));
        assert_eq!(a.status.code(), Some(0), "solvo {old:?}: {}", String::from_utf8_lossy(&a.stderr));
        assert_eq!(b.status.code(), Some(0), "solvo {new:?}: {}", String::from_utf8_lossy(&b.stderr));
        assert!(!a.stdout.is_empty());
        assert_eq!(steady_output(&a), steady_output(&b), "solvo {old:?} and solvo {new:?} differ");
    }
}
