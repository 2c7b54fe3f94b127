//! The option walk of both binaries: `solvo` (this test) and `solvo-lab`
//! (`lab/solvo-lab/tests/option_walk.rs` includes this file; [`BIN`] is then the lab's
//! binary). Walks every subcommand's options, as the command line's own clap definition
//! lists them (`internal-options`), and feeds each numeric option 0,
//! -1, NaN, 1e300 and u64::MAX, and each file or directory argument a missing file, a
//! directory, an empty file and random bytes. Every run must end within [`LIMIT`], with
//! exit code 0 (a value the option accepts: the command then does its small job), 1 or
//! 2, a message on stderr when it fails, and never a panic or an internal error; NaN
//! and 1e300 are valid for no numeric option.
//!
//! Each command runs from a base invocation that keeps its work small (a 4x4 board, a
//! one-game WTHOR file, an FFO position of 14 empties), so that an accepted value ends
//! quickly too: a value that makes a command hang or panic fails the test.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// The binary walked: `solvo-lab` where this file is included by the lab's test (only
/// there is its path set), else `solvo`.
const BIN: &str = match option_env!("CARGO_BIN_EXE_solvo-lab") {
    Some(lab) => lab,
    None => match option_env!("CARGO_BIN_EXE_solvo") {
        Some(product) => product,
        None => panic!("the walk runs in the tests of solvo-cli or solvo-lab"),
    },
};

/// The least number of leaf commands and of runs the walk must find in [`BIN`] (the
/// lab's binary has fewer commands: study tune, match, six train steps, bench games,
/// pipeline published).
const MIN_COMMANDS_AND_CASES: (usize, usize) =
    if option_env!("CARGO_BIN_EXE_solvo-lab").is_some() { (10, 60) } else { (18, 200) };

/// The longest a single run may take.
const LIMIT: Duration = Duration::from_secs(30);

/// The values fed to every numeric option.
const NUMBERS: [&str; 5] = ["0", "-1", "NaN", "1e300", "18446744073709551615"];

/// Files the base invocations use, made once.
struct Fixtures {
    dir: tempfile::TempDir,
    store4: PathBuf,
    /// A semi-strong store of Domineering 3x3.
    dom33: String,
    wthor: PathBuf,
    ffo: String,
    samples: PathBuf,
    hard: String,
    tasks: PathBuf,
}

fn shared(rel: &str) -> String {
    format!("{}/../../../shared/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// The files the commands of `has` (a binary's leaf commands) need.
fn fixtures(has: impl Fn(&[&str]) -> bool) -> Fixtures {
    let dir = tempfile::tempdir().unwrap();
    let store4 = dir.path().join("store4.redb");
    if has(&["solution", "semi-strong"]) {
        let o = solvo(
            &["solution", "semi-strong", "--size", "4", "--hash-mb", "16", "--store", store4.to_str().unwrap()],
            None,
        );
        assert!(o.0 == Some(0), "building the 4x4 store: {}", o.2);
    }
    // One game of WTHOR 1977, its theoretical score declared at 10 empties: a fast solve.
    let mut wtb = std::fs::read(shared("wthor/WTH_1977.wtb")).unwrap();
    wtb.truncate(16 + 68);
    wtb[4..8].copy_from_slice(&1u32.to_le_bytes());
    wtb[14] = 10;
    let wthor = dir.path().join("one.wtb");
    std::fs::write(&wthor, wtb).unwrap();
    let ffo = dir.path().join("ffo1.obf");
    let first = std::fs::read_to_string(shared("ffo/fforum-1-19.obf")).unwrap();
    std::fs::write(&ffo, first.lines().find(|l| l.contains(';')).unwrap()).unwrap();
    let samples_dir = dir.path().join("samples");
    if has(&["train", "data"]) {
        let o = solvo(
            &[
                "train",
                "data",
                wthor.to_str().unwrap(),
                "--out-dir",
                samples_dir.to_str().unwrap(),
                "--exact-empties",
                "8",
            ],
            None,
        );
        assert!(o.0 == Some(0), "making a sample file: {}", o.2);
    }
    let samples = samples_dir.join("one.samples");
    // The first `n` lines of a shared data file, as a new file `name`.
    let head = |rel: &str, n: usize, name: &str| {
        let text: String =
            std::fs::read_to_string(shared(rel)).unwrap().lines().take(n).map(|l| format!("{l}\n")).collect();
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let hard = head("edax-hard/hard-20.obf", 2, "hard2.obf");
    // The published 8x8 task list's header and first 3 tasks.
    let tasks = head("takizawa/empty50_tasklist_edax_knowledge.csv", 4, "tasks3.csv");
    let dom33 = dir.path().join("dom33.redb");
    if has(&["game", "semi-strong", "build"]) {
        let o =
            solvo(&["game", "semi-strong", "build", "domineering", "3x3", "--store", dom33.to_str().unwrap()], None);
        assert!(o.0 == Some(0), "building the Domineering 3x3 store: {}", o.2);
    }
    let dom33 = dom33.display().to_string();
    Fixtures {
        dir,
        store4,
        dom33,
        wthor,
        ffo: ffo.display().to_string(),
        samples,
        hard: hard.display().to_string(),
        tasks,
    }
}

/// A base invocation of `command` that does little work; `scratch` is a fresh
/// directory for files the command may create.
fn base(command: &[String], f: &Fixtures, scratch: &Path) -> Vec<String> {
    let store = f.store4.display().to_string();
    let new_store = scratch.join("new.redb").display().to_string();
    let wthor = f.wthor.display().to_string();
    let samples = f.samples.display().to_string();
    let scratch_dir = scratch.join("out").display().to_string();
    let new_weights = scratch.join("w.sew").display().to_string();
    let new_samples = scratch.join("s.samples").display().to_string();
    let pipe = scratch.join("p4.sqlite").display().to_string();
    let table = scratch.join("table.txt").display().to_string();
    let tasks = f.tasks.display().to_string();
    let args: Vec<&str> = match command.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["position", "show"] => vec!["start"],
        ["position", "perft"] => vec!["1"],
        ["solve"] => vec!["start", "--size", "4", "--hash-mb", "16"],
        ["position", "convert"] => vec!["start", "--to", "board"],
        ["position", "wthor"] => vec![&wthor],
        ["bench", "perft"] => vec!["--depths", "1", "--threads", "1"],
        ["bench", "ffo"] => vec![&f.ffo, "--hash-mb", "16"],
        ["bench", "games"] => vec!["--games", "domineering:2x2", "--algos", "ab-tt", "--playouts", "10"],
        ["bench", "wthor"] => vec![&wthor, "--hash-mb", "16"],
        ["solution", "semi-strong"] => vec!["--size", "4", "--hash-mb", "16", "--store", &new_store],
        ["solution", "query"] => vec!["start", "--size", "4", "--hash-mb", "16", "--store", &store],
        ["solution", "verify"] => vec!["--store", &store, "--hash-mb", "16"],
        ["solution", "salvage"] => vec!["--store", &store, "--out", &new_store],
        ["solution", "enumerate"] => vec!["--discs", "8", "--size", "6", "--memory-mb", "16"],
        ["solution", "weak"] => vec!["--size", "4", "--hash-mb", "16", "--quiet"],
        ["solution", "strong"] => vec![],
        ["play"] => vec!["--self-check", "--size", "4", "--hash-mb", "16"],
        ["game", "list"] => vec![],
        ["game", "semi-strong", "build"] => vec!["domineering", "3x3", "--tt-bits", "10", "--store", &new_store],
        ["game", "semi-strong", "count"] => vec!["domineering", "3x3", "--tt-bits", "10"],
        ["game", "semi-strong", "query" | "verify" | "play"] => {
            vec!["domineering", "3x3", "--tt-bits", "10", "--store", &f.dom33]
        }
        ["game", "solve"] => vec!["domineering", "2x2", "--playouts", "10", "--tt-bits", "10"],
        ["position", "eval"] => vec!["start"],
        ["analyze"] => vec!["start", "--depth", "2"],
        ["bench", "hard"] => vec![&f.hard, "--depth", "1"],
        ["bench", "every-move"] => vec![&f.hard, "--limit", "1", "--hash-mb", "16"],
        ["train", "mpc"] => {
            vec![&wthor, "--out", &new_weights, "--empties", "40", "--positions", "2", "--max-depth", "3"]
        }
        ["bench", "random"] => vec!["--empties", "10", "--count", "2", "--hash-mb", "16"],
        ["bench", "eval"] => vec!["--positions", "100", "--passes", "1"],
        ["train", "data"] => vec![&wthor, "--out-dir", &scratch_dir, "--exact-empties", "8"],
        ["train", "selfplay"] => vec!["--games", "2", "--exact-empties", "8", "--out", &new_samples],
        ["train", "fit"] => vec![&samples, "--out", &new_weights, "--iterations", "1", "--stages", "28..29"],
        ["train", "fit-net"] => vec![&samples, "--out", &new_weights, "--epochs", "1"],
        ["train", "check"] => vec![&f.ffo],
        ["engine", "gtp"] => vec!["--level", "1", "--hash-mb", "16"],
        ["engine", "nboard"] => vec!["--level", "1", "--hash-mb", "16"],
        ["serve"] => vec!["--port", "0", "--check", "--hash-mb", "16"],
        ["engine", "book"] => vec![&wthor, "--out", &new_samples, "--min-games", "1", "--plies", "4", "--level", "1"],
        ["pipeline", "init"] | ["pipeline", "run"] => vec!["--size", "4", "--db", &pipe, "--hash-mb", "16"],
        ["pipeline", "table"] => vec!["--db", &pipe, "--out", &table],
        // Leaves 2 plies below the tasks: an accepted --sample expands in milliseconds.
        ["pipeline", "published"] => vec!["--tasks", &tasks, "--leaf-empties", "48", "--threads", "2"],
        ["pipeline", _] => vec!["--db", &pipe],
        ["study", "tune"] => vec!["--rounds", "1", "--population", "4", "--openings", "1", "--depth", "1"],
        // `match` is the lab binary's; `engine match` the product's.
        ["match"] | ["engine", "match"] => vec![
            "--engine",
            "solvo:level=1",
            "--engine",
            "solvo:level=2",
            "--random-openings",
            "1",
            "--level",
            "1",
            "--hash-mb",
            "16",
            "--parallel",
            "1",
        ],
        other => panic!("no base invocation for {other:?}: add one to this test"),
    };
    command.iter().cloned().chain(args.into_iter().map(String::from)).collect()
}

/// One argument as `solvo internal-options` describes it.
struct Argument {
    long: Option<String>,
    index: Option<usize>,
    number: bool,
}

/// `args` with the argument set to `value`: an option replaces the base's value (or is
/// added), a positional replaces the base's positional at its index.
fn with_value(mut args: Vec<String>, depth: usize, arg: &Argument, value: &str) -> Vec<String> {
    if let Some(long) = &arg.long {
        let flag = format!("--{long}");
        if let Some(i) = args.iter().position(|a| *a == flag) {
            args.drain(i..i + 2);
        }
        args.push(format!("{flag}={value}"));
    } else {
        let at = depth + arg.index.expect("a positional has an index") - 1;
        if at < args.len() && !args[at].starts_with("--") {
            args[at] = value.to_string();
        } else {
            args.insert(at.min(args.len()), value.to_string());
        }
    }
    args
}

/// Runs the binary (stdin empty), killing it after [`LIMIT`]: (exit code, stdout,
/// stderr); the code is `None` when it was killed.
fn solvo(args: &[&str], cwd: Option<&Path>) -> (Option<i32>, String, String) {
    let mut cmd = Command::new(BIN);
    cmd.args(args).stdin(Stdio::null()).stdout(Stdio::piped()).stderr(Stdio::piped());
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let mut child = cmd.spawn().expect("run the binary");
    let (mut out, mut err) = (child.stdout.take().unwrap(), child.stderr.take().unwrap());
    let readers = (
        std::thread::spawn(move || std::io::read_to_string(&mut out).unwrap_or_default()),
        std::thread::spawn(move || std::io::read_to_string(&mut err).unwrap_or_default()),
    );
    let start = Instant::now();
    let code = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status.code();
        }
        if start.elapsed() > LIMIT {
            child.kill().unwrap();
            child.wait().unwrap();
            break None;
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    (code, readers.0.join().unwrap(), readers.1.join().unwrap())
}

/// One run: the command line, the value tried, and a scratch directory (its working
/// directory, where it may create files).
struct Case {
    args: Vec<String>,
    value: String,
    number: bool,
    /// The option's long name (`None` for a positional argument).
    long: Option<String>,
    scratch: tempfile::TempDir,
}

/// The path values: a missing file, a directory, an empty file, random bytes.
fn path_values(scratch: &Path) -> Vec<String> {
    let empty = scratch.join("empty.txt");
    std::fs::write(&empty, b"").unwrap();
    let random = scratch.join("random.bin");
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    let bytes: Vec<u8> = (0..4096)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u8
        })
        .collect();
    std::fs::write(&random, bytes).unwrap();
    let dir = scratch.join("a-directory");
    std::fs::create_dir(&dir).unwrap();
    [scratch.join("missing.obf"), dir, empty, random].iter().map(|p| p.display().to_string()).collect()
}

/// The leaf commands and their numeric and path arguments, from the binary itself.
fn definition() -> Vec<(Vec<String>, Vec<Argument>)> {
    let (code, out, err) = solvo(&["internal-options"], None);
    assert_eq!(code, Some(0), "{err}");
    out.lines()
        .map(|line| {
            let v: serde_json::Value = serde_json::from_str(line).unwrap();
            let command = v["command"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
            let arguments = v["arguments"]
                .as_array()
                .unwrap()
                .iter()
                .map(|a| Argument {
                    long: a["long"].as_str().map(String::from),
                    index: a["index"].as_u64().map(|i| i as usize),
                    number: a["kind"] == "number",
                })
                .collect();
            (command, arguments)
        })
        .collect()
}

#[test]
fn every_option_survives_bad_values() {
    let commands = definition();
    let f = fixtures(|c: &[&str]| {
        commands.iter().any(|(command, _)| command.iter().map(String::as_str).eq(c.iter().copied()))
    });
    assert!(commands.len() >= MIN_COMMANDS_AND_CASES.0, "{} commands", commands.len());
    let mut cases = Vec::new();
    for (command, arguments) in &commands {
        for arg in arguments {
            let count = if arg.number { NUMBERS.len() } else { 4 };
            for i in 0..count {
                let scratch = tempfile::tempdir_in(f.dir.path()).unwrap();
                let values = if arg.number { NUMBERS.map(String::from).to_vec() } else { path_values(scratch.path()) };
                let value = values[i].clone();
                let args = with_value(base(command, &f, scratch.path()), command.len(), arg, &value);
                cases.push(Case { args, value, number: arg.number, long: arg.long.clone(), scratch });
            }
        }
    }
    assert!(cases.len() > MIN_COMMANDS_AND_CASES.1, "{} cases: the walk found too few options", cases.len());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let failures = std::sync::Mutex::new(Vec::new());
    let codes = std::sync::Mutex::new(std::collections::BTreeMap::new());
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(case) = cases.get(i) else { break };
                let args: Vec<&str> = case.args.iter().map(String::as_str).collect();
                let (code, out, err) = solvo(&args, Some(case.scratch.path()));
                *codes.lock().unwrap().entry(code).or_insert(0) += 1;
                if let Some(p) = check(case, code, &out, &err) {
                    let mut err = err.trim().to_string();
                    err.truncate(300);
                    failures.lock().unwrap().push(format!("{} {}: {p}\n  stderr: {err}", BIN, args.join(" ")));
                }
            });
        }
    });
    let failures = failures.into_inner().unwrap();
    eprintln!("{} runs; exit codes (None: killed): {:?}", cases.len(), codes.into_inner().unwrap());
    assert!(failures.is_empty(), "{} of {} runs failed:\n{}", failures.len(), cases.len(), failures.join("\n"));
}

/// What is wrong with a run's outcome, if anything.
fn check(case: &Case, code: Option<i32>, out: &str, err: &str) -> Option<String> {
    let Some(code) = code else { return Some(format!("still running after {LIMIT:?}: killed")) };
    if err.contains("panicked") || err.contains("internal error") || out.contains("panicked") {
        return Some(format!("panic (exit {code})"));
    }
    if !(0..=2).contains(&code) {
        return Some(format!("exit code {code}"));
    }
    if code != 0 && err.trim().is_empty() {
        return Some(format!("exit {code} without a message on stderr"));
    }
    if let (true, 2, Some(long)) = (case.number, code, &case.long) {
        if !err.contains(&format!("--{long}")) {
            return Some(format!("refused {} without naming --{long}", case.value));
        }
    }
    if case.number && (case.value == "NaN" || case.value == "1e300") && code == 0 {
        return Some(format!("accepted {}", case.value));
    }
    None
}
