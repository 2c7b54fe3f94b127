use solvo_othello::{Board, BoardSize};
use solvo_pipeline::worker::{init, run_local, WorkerOptions};
use solvo_pipeline::{open_store, Config};
use std::sync::atomic::AtomicBool;

#[test]
fn four_by_four_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p4.sqlite");
    let db = db.to_str().unwrap();
    let cfg = Config::new(BoardSize::Four, Board::start());
    init(db, &cfg).unwrap();
    let stop = AtomicBool::new(false);
    let reports = run_local(db, 2, &WorkerOptions::named("t".into()), &stop).unwrap();
    eprintln!("{reports:?}");
    let store = open_store(db).unwrap();
    let r = solvo_pipeline::verify::verify(&*store, &cfg).unwrap();
    eprintln!("{r:?}");
    assert_eq!(r.root_value, Some(-10));
}

#[test]
#[ignore]
fn six_by_six_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("p6.sqlite");
    let db = db.to_str().unwrap();
    let mut cfg = Config::new(BoardSize::Six, Board::start());
    cfg.task_empties = std::env::var("T").ok().and_then(|s| s.parse().ok()).unwrap_or(26);
    cfg.leaf_empties = std::env::var("L").ok().and_then(|s| s.parse().ok()).unwrap_or(16);
    init(db, &cfg).unwrap();
    let stop = AtomicBool::new(false);
    let t = std::time::Instant::now();
    let reports = run_local(db, 2, &WorkerOptions::named("t".into()), &stop).unwrap();
    eprintln!("{reports:?} {:?}", t.elapsed());
    let store = open_store(db).unwrap();
    let r = solvo_pipeline::verify::verify(&*store, &cfg).unwrap();
    eprintln!("{r:?}");
    assert_eq!(r.root_value, Some(-4));
}
