//! The pipeline as separate processes against a real PostgreSQL server (started by the
//! test): three `solvo worker` processes, one killed with SIGKILL every couple of
//! seconds and started again, the database restarted once mid-run. The proof must be
//! complete and verified with the value of a direct exact solve, with every solve job
//! done exactly once in the store and no lease left behind.

#[path = "../../solvo-pipeline/tests/common/pg.rs"]
mod pg;

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

fn solvo(args: &[&str]) -> (bool, String, String) {
    let o = Command::new(env!("CARGO_BIN_EXE_solvo")).args(args).stdin(Stdio::null()).output().unwrap();
    (
        o.status.success(),
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
    )
}

/// `solvo pipeline init` of a 6x6 pipeline from `root` (a transcript), every leaf its own
/// solve job (`--batch-leaves 0`: the queue at its finest grain, the most jobs to kill).
fn init_6x6(db: &str, root: &str, task_empties: &str, leaf_empties: &str) {
    let (ok, out, err) = solvo(&[
        "--size",
        "6",
        "pipeline",
        "init",
        "--db",
        db,
        "--root",
        root,
        "--task-empties",
        task_empties,
        "--leaf-empties",
        leaf_empties,
        "--hash-mb",
        "16",
        "--batch-leaves",
        "0",
    ]);
    assert!(ok, "init: {out}{err}");
}

fn spawn_worker(url: &str, i: usize, generation: usize) -> Child {
    Command::new(env!("CARGO_BIN_EXE_solvo"))
        .args(["worker", "--db", url, "--lease", "2", "--max-attempts", "20", "--name"])
        .arg(format!("w{i}-{generation}"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

/// The 6x6 position after 12 plies of the published optimal line (20 empties, value -4).
const ROOT: &str = "f5d6c5f4d3e3g4g5g6c4b4d2";

/// One ply earlier on the same line (21 empties): enough work that the faults below
/// (a database restart and at least three kills, 1.5 s apart) fall inside the run; from
/// [`ROOT`] the run once ended within 4.5 s on an idle machine, before the restart.
const FAULT_ROOT: &str = "f5d6c5f4d3e3g4g5g6c4b4";

/// Workers killed by [`workers_killed_and_database_restarted_still_prove_the_value`].
const MAX_KILLS: usize = 6;

#[test]
fn workers_killed_and_database_restarted_still_prove_the_value() {
    let server = pg::PgServer::start();
    let url = server.url();
    init_6x6(&url, FAULT_ROOT, "19", "14");
    let mut workers: Vec<Child> = (0..3).map(|i| spawn_worker(&url, i, 0)).collect();
    let start = Instant::now();
    let (mut kills, mut generation, mut restarted) = (0, 1, false);
    loop {
        std::thread::sleep(Duration::from_millis(1500));
        // Workers that ended (done, or the database was away too long) are counted.
        let finished = workers.iter_mut().map(|w| w.try_wait().unwrap().is_some()).filter(|&f| f).count();
        let (_, status, _) = solvo(&["pipeline", "status", "--db", &url, "--json"]);
        if status.contains("\"phase\":\"done\"") && finished == workers.len() {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(600), "not done after 10 minutes: {status}");
        if !restarted {
            server.restart();
            restarted = true;
        }
        // SIGKILL one worker (in turn) and start a new one in its place, six times in all
        // (more would starve a long job on a loaded machine: a job whose every attempt is
        // killed is parked after 20 of them); restart any that exited before the end.
        let victim = kills % workers.len();
        if kills < MAX_KILLS && !status.contains("\"phase\":\"done\"") {
            let _ = workers[victim].kill();
            let _ = workers[victim].wait();
            workers[victim] = spawn_worker(&url, victim, generation);
            kills += 1;
            generation += 1;
        }
        for (i, w) in workers.iter_mut().enumerate() {
            if w.try_wait().unwrap().is_some() && !status.contains("\"phase\":\"done\"") {
                *w = spawn_worker(&url, i, generation);
                generation += 1;
            }
        }
    }
    for w in &mut workers {
        let _ = w.kill();
        let _ = w.wait();
    }
    assert!(restarted && kills >= 3, "kills {kills}, database restarted {restarted}");
    // The verified value is the direct exact solve's.
    let (ok, out, err) = solvo(&["pipeline", "verify", "--db", &url, "--json"]);
    assert!(ok, "verify: {out}{err}");
    let (ok, solved, err) = solvo(&["--size", "6", "solve", FAULT_ROOT, "--json", "--hash-mb", "64"]);
    assert!(ok, "{err}");
    let v: serde_json::Value = serde_json::from_str(out.trim()).unwrap();
    let s: serde_json::Value = serde_json::from_str(solved.lines().next().unwrap()).unwrap();
    assert_eq!(v["root_value"], s["score"], "verify {out} vs solve {solved}");
    // Nothing lost, nothing twice, no lease left.
    let mut db = postgres::Client::connect(&url, postgres::NoTls).unwrap();
    let open: i64 = db.query_one("SELECT count(*) FROM jobs WHERE status <> 'done'", &[]).unwrap().get(0);
    assert_eq!(open, 0, "jobs not done (leased, ready or parked)");
    let leases: i64 = db.query_one("SELECT count(*) FROM jobs WHERE owner IS NOT NULL", &[]).unwrap().get(0);
    assert_eq!(leases, 0);
    let leaves: i64 = db.query_one("SELECT count(DISTINCT (a, b)) FROM jobs WHERE kind = 'solve'", &[]).unwrap().get(0);
    let rows: i64 = db.query_one("SELECT count(*) FROM knowledge", &[]).unwrap().get(0);
    assert_eq!(leaves, rows, "every solved leaf has exactly one knowledge row");
    let retried: i64 = db.query_one("SELECT count(*) FROM jobs WHERE attempts > 1", &[]).unwrap().get(0);
    eprintln!("{kills} kills, {retried} jobs claimed more than once, {rows} leaves, verify {out}");
}

/// SIGTERM stops a worker gracefully: the running solve stops, its lease is given back
/// at once (the job is ready again, no lease left to expire), and the worker exits 0.
#[test]
fn sigterm_gives_the_lease_back() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p.sqlite").display().to_string();
    // Leaves of 22 empties on 6x6: each solve takes long enough to be caught running.
    init_6x6(&db, "f5d6c5f4d3e3", "24", "22");
    let mut worker = Command::new(env!("CARGO_BIN_EXE_solvo"))
        .args(["worker", "--db", &db, "--lease", "600"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let start = Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(200));
        let (_, status, _) = solvo(&["pipeline", "status", "--db", &db, "--json"]);
        let s: serde_json::Value = serde_json::from_str(status.trim()).unwrap_or_default();
        if s["jobs_leased"] == 1 && s["knowledge_rows"].as_i64().unwrap_or(0) >= 1 {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(120), "no solve running: {status}");
    }
    // SAFETY: kill(2) on our own child's pid.
    unsafe { libc::kill(worker.id() as i32, libc::SIGTERM) };
    let stopped = Instant::now();
    let status = worker.wait().unwrap();
    assert!(status.success(), "worker exit {status:?}");
    assert!(stopped.elapsed() < Duration::from_secs(10), "slow stop: {:?}", stopped.elapsed());
    let out = std::io::read_to_string(worker.stdout.take().unwrap()).unwrap();
    assert!(out.contains("stopped"), "{out}");
    let (_, status, _) = solvo(&["pipeline", "status", "--db", &db, "--json"]);
    let s: serde_json::Value = serde_json::from_str(status.trim()).unwrap();
    assert_eq!(s["jobs_leased"], 0, "{status}");
    assert_eq!(s["jobs_expired"], 0, "{status}");
}

/// `pipeline check-table`: the table of a finished 20-empty run agrees with the exact
/// solver and with a record holding the root's true value; a record row contradicting
/// it (value -2 where the table proves -4) is reported with exit code 1, and a malformed
/// record is refused naming its line.
#[test]
fn check_table_agrees_with_the_solver_and_reports_a_false_record() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p.sqlite").display().to_string();
    let (ok, out, err) = solvo(&[
        "--size",
        "6",
        "pipeline",
        "run",
        "--db",
        &db,
        "--root",
        ROOT,
        "--task-empties",
        "18",
        "--leaf-empties",
        "14",
        "--hash-mb",
        "16",
    ]);
    assert!(ok && out.contains("verified root value: -4"), "run: {out}{err}");
    // The root as a record row: 64 squares, the side to move written X.
    let mut pos = solvo_othello::Position::start(solvo_othello::BoardSize::Six, solvo_othello::Variant::Normal);
    for i in (0..ROOT.len()).step_by(2) {
        pos = pos.play_with_implicit_pass(solvo_othello::Square::parse(&ROOT[i..i + 2]).unwrap()).unwrap();
    }
    let obf: String = (0..64)
        .map(|sq| match (pos.board.player >> sq & 1, pos.board.opponent >> sq & 1) {
            (1, _) => 'X',
            (_, 1) => 'O',
            _ => '-',
        })
        .collect();
    let discs = (pos.board.player | pos.board.opponent).count_ones();
    let record = |value: i32| {
        let path = dir.path().join(format!("r{value}.csv"));
        let text = format!("obf,disccount,nodekindcode,lowerbound,upperbound\n{obf} X;,{discs},1,{value},{value}\n");
        std::fs::write(&path, text).unwrap();
        path.display().to_string()
    };
    let (ok, out, err) = solvo(&["pipeline", "check-table", "--db", &db, "--semi-strong", &record(-4)]);
    assert!(ok, "{out}{err}");
    assert!(out.contains("1 rows, 1 in the table (1 exact on one side), 0 disagree"), "{out}");
    assert!(out.contains(", 0 disagreements"), "{out}");
    let (ok, out, err) =
        solvo(&["pipeline", "check-table", "--db", &db, "--semi-strong", &record(-2), "--per-empties", "1"]);
    assert!(!ok && err.contains("DISAGREEMENT (record)") && err.contains("1 table positions disagree"), "{out}{err}");
    let bad = dir.path().join("bad.csv");
    std::fs::write(&bad, format!("obf,disccount,nodekindcode,lowerbound,upperbound\n{obf} X;,{discs},1,x,0\n"))
        .unwrap();
    let (ok, out, err) = solvo(&["pipeline", "check-table", "--db", &db, "--semi-strong", &bad.display().to_string()]);
    assert!(!ok && err.contains("line 2: lower bound \"x\" is not a number"), "{out}{err}");
}
