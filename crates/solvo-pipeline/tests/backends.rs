//! The same suite against both backends: SQLite in a temporary file, and a real
//! PostgreSQL server started by the test itself (see `common/pg.rs`).

mod common;

use common::pg::PgServer;
use solvo_othello::{Board, BoardSize, Color, Position, Variant};
use solvo_othello_search::{solve, SolveOptions};
use solvo_pipeline::goal::Bounds;
use solvo_pipeline::player::{ChoiceSource, TablePlayer};
use solvo_pipeline::store::{JobKind, NewJob, Outcome};
use solvo_pipeline::verify::{verify, verify_with_table};
use solvo_pipeline::worker::{init, run_local, WorkerOptions};
use solvo_pipeline::{open_store, Config};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

/// A store location for one test and what keeps it alive.
enum Backend {
    Sqlite(tempfile::TempDir),
    Postgres(PgServer),
}

impl Backend {
    fn db(&self) -> String {
        match self {
            Backend::Sqlite(d) => d.path().join("pipe.sqlite").display().to_string(),
            Backend::Postgres(s) => s.url(),
        }
    }

    /// Runs raw SQL against the store (to damage rows on purpose).
    fn execute(&self, sql: &str) -> u64 {
        match self {
            Backend::Sqlite(_) => rusqlite::Connection::open(self.db()).unwrap().execute(sql, []).unwrap() as u64,
            Backend::Postgres(_) => {
                postgres::Client::connect(&self.db(), postgres::NoTls).unwrap().execute(sql, &[]).unwrap()
            }
        }
    }
}

fn sqlite() -> Backend {
    Backend::Sqlite(tempfile::tempdir().unwrap())
}

fn pg() -> Backend {
    Backend::Postgres(PgServer::start())
}

fn exact(b: &Board, size: BoardSize) -> i32 {
    let pos = Position { board: *b, side: Color::Black, size, variant: Variant::Normal };
    solve(&pos, &SolveOptions::new(16)).score().unwrap()
}

/// The player over a proof, as either colour from `start`, against every reply: each of
/// its moves keeps the exact value of the game for it (compared with the exact solver),
/// a move from the proof guarantees no more than the exact value, and the proof answers
/// at least one move. Returns how many moves came from the proof.
fn assert_player_keeps_value(player: &mut TablePlayer, start: Board) -> u64 {
    fn walk(player: &mut TablePlayer, b: Board, engine_to_move: bool, v: i32, from_proof: &mut u64) {
        let size = player.size();
        if b.is_game_over(size) {
            let score = b.final_score(size);
            assert!((if engine_to_move { score } else { -score }) >= v);
            return;
        }
        if b.moves(size) == 0 {
            return walk(player, b.pass(), !engine_to_move, v, from_proof);
        }
        if engine_to_move {
            let c = player.choose(&b).unwrap();
            let here = exact(&b, size);
            assert!(here >= v, "the engine's position dropped to {here} < {v}");
            let child = b.play(c.mv.unwrap(), size).unwrap();
            let kept = -exact(&child, size);
            assert!(kept >= v, "{b:?}: move {:?} drops to {kept} < {v} ({c:?})", c.mv);
            if c.source == ChoiceSource::Proof {
                *from_proof += 1;
                assert!(c.guaranteed <= kept && c.guaranteed >= v, "{b:?}: guaranteed {c:?}, exact {kept}, start {v}");
            } else {
                assert_eq!(c.guaranteed, kept);
            }
            walk(player, child, false, v, from_proof);
        } else {
            for sq in solvo_othello::Square::iter(b.moves(size)) {
                walk(player, b.play(sq, size).unwrap(), true, v, from_proof);
            }
        }
    }
    let size = player.size();
    let v = exact(&start, size);
    let mut from_proof = 0;
    walk(player, start, true, v, &mut from_proof);
    walk(player, start, false, -v, &mut from_proof);
    assert!(from_proof > 0, "the proof answered no move");
    from_proof
}

/// 4x4 from the start, tasks at 10 empties, leaves at 6, two worker threads: the
/// verified value is -10 (known), and every table position's bounds hold its exact value.
fn end_to_end_4x4(backend: Backend) {
    let db = backend.db();
    let cfg = Config::new(BoardSize::Four, Board::start());
    init(&db, &cfg).unwrap();
    let stop = AtomicBool::new(false);
    let reports = run_local(&db, 2, &WorkerOptions::named("t".into()), &stop).unwrap();
    assert!(reports.iter().all(|r| r.end == "done"), "{reports:?}");
    let store = open_store(&db).unwrap();
    let (r, table) = verify_with_table(&*store, &cfg).unwrap();
    assert_eq!(r.root_value, Some(-10), "{r:?}");
    assert_eq!(r.tasks_proven, r.tasks);
    assert!(r.bad_rows.is_empty());
    assert!(!table.is_empty());
    assert!(r.is_complete());
    for (b, k) in &table {
        let v = exact(b, BoardSize::Four);
        assert!(k.lower <= v && v <= k.upper, "table {b:?} {k:?} vs exact {v}");
    }
    // Every knowledge row agrees with an exact solve of its leaf.
    for row in store.knowledge_rows().unwrap() {
        let (b, k) = row.check(BoardSize::Four.mask(), cfg.leaf_empties).unwrap();
        let v = exact(&b, BoardSize::Four);
        assert!(k.lower <= v && v <= k.upper, "knowledge {b:?} {k:?} vs exact {v}");
    }
    // The player over the proof (knowledge rows, then the table file) never drops value.
    let (mut player, bad) = TablePlayer::from_store(&*store, &cfg, SolveOptions::new(16)).unwrap();
    assert!(bad.is_empty());
    assert_player_keeps_value(&mut player, Board::start());
    let mut written = Vec::new();
    solvo_pipeline::verify::write_table(&table, &mut written).unwrap();
    let text = String::from_utf8(written).unwrap();
    let mut from_file = TablePlayer::from_table_text(BoardSize::Four, &text, SolveOptions::new(16)).unwrap();
    assert_player_keeps_value(&mut from_file, Board::start());
    // Opened by what it is: the store (its header or URL), the table file (text).
    let head = if db.contains("://") { Vec::new() } else { std::fs::read(&db).unwrap() };
    let (mut opened, bad) = TablePlayer::open_proof(&db, &head, Some(BoardSize::Four), SolveOptions::new(16)).unwrap();
    assert!(bad.is_empty());
    assert_player_keeps_value(&mut opened, Board::start());
    let (mut opened, _) =
        TablePlayer::open_proof("t.txt", text.as_bytes(), Some(BoardSize::Four), SolveOptions::new(16)).unwrap();
    assert_player_keeps_value(&mut opened, Board::start());
    let refused =
        |source: &str, bytes: &[u8], size| match TablePlayer::open_proof(source, bytes, size, SolveOptions::new(16)) {
            Ok(_) => panic!("{source}: opened"),
            Err(e) => e,
        };
    assert!(refused(&db, &head, Some(BoardSize::Six)).contains("not 6x6"));
    assert!(refused("t.txt", text.as_bytes(), None).contains("needs a board size"));
    assert!(refused("t.txt", &[0xff, 0xfe, 0], Some(BoardSize::Four)).contains("not a text table file"));
    // A second run finds everything done and changes nothing.
    let before = store.job_counts().unwrap();
    run_local(&db, 1, &WorkerOptions::named("again".into()), &stop).unwrap();
    assert_eq!(store.job_counts().unwrap(), before);
}

/// Claims are exclusive; an expired lease is claimable again and the old holder's
/// completion is refused; completing twice writes once; failures are retried then parked
/// with their error; a released job is claimable at once without counting the attempt.
fn queue_semantics(backend: Backend) {
    let db = backend.db();
    let cfg = Config::new(BoardSize::Four, Board::start());
    init(&db, &cfg).unwrap();
    let store = open_store(&db).unwrap();
    let leaf = solvo_pipeline::stages::enumerate_positions(BoardSize::Four, &Board::start(), 6)[0];
    let jobs: Vec<NewJob> = (0..3)
        .map(|i| NewJob {
            kind: JobKind::Solve,
            a: leaf.player as i64,
            b: leaf.opponent as i64,
            lo: -2 * i,
            hi: -2 * i,
            round: 0,
            priority: i,
        })
        .collect();
    store.add_jobs(&jobs).unwrap();
    store.add_jobs(&jobs).unwrap(); // the same jobs again: ignored
    assert_eq!(store.job_counts().unwrap().ready, 3);
    // Highest priority first, each job to one worker.
    let a = store.claim("a", 60_000, 3, None).unwrap().unwrap();
    let b = store.claim("b", 60_000, 3, None).unwrap().unwrap();
    assert_eq!(a.job.priority, 2);
    assert_ne!(a.id, b.id);
    // Release: back at once, the attempt not counted.
    store.release(b.id, "b").unwrap();
    let b2 = store.claim("b2", 60_000, 3, None).unwrap().unwrap();
    assert_eq!((b2.id, b2.attempts), (b.id, 1));
    // A short lease expires; another worker takes the job; the first is refused.
    let c = store.claim("c", 1, 3, None).unwrap().unwrap();
    std::thread::sleep(Duration::from_millis(50));
    let d = store.claim("d", 60_000, 3, None).unwrap().unwrap();
    assert_eq!((d.id, d.attempts), (c.id, 2));
    assert!(!store.heartbeat(c.id, "c", 60_000).unwrap());
    assert!(store.heartbeat(d.id, "d", 60_000).unwrap());
    let outcome = Outcome::Solved { board: leaf, bounds: Bounds { lower: -16, upper: 16 }, nodes: 7 };
    assert!(!store.complete(&c, "c", &outcome).unwrap());
    assert!(store.complete(&d, "d", &outcome).unwrap());
    assert!(!store.complete(&d, "d", &outcome).unwrap(), "completed twice");
    assert_eq!(store.knowledge_nodes().unwrap(), 7);
    // Failures: retried until the attempts run out, then parked with the error.
    store.fail(a.id, "a", "boom 1", 2).unwrap();
    let a2 = store.claim("a", 60_000, 2, None).unwrap().unwrap();
    assert_eq!((a2.id, a2.attempts), (a.id, 2));
    store.fail(a2.id, "a", "boom 2", 2).unwrap();
    let parked = store.parked().unwrap();
    assert_eq!(parked.len(), 1);
    assert!(parked[0].2.contains("boom 2"));
    // An expired lease at the last attempt is parked, not handed out again.
    store.release(b2.id, "b2").unwrap();
    let e = store.claim("e", 1, 1, None).unwrap().unwrap();
    assert_eq!((e.id, e.attempts), (b2.id, 1));
    std::thread::sleep(Duration::from_millis(50));
    assert!(store.claim("f", 60_000, 1, None).unwrap().is_none());
    assert_eq!(store.parked().unwrap().len(), 2, "{:?}", e);
    let counts = store.job_counts().unwrap();
    assert_eq!((counts.ready, counts.leased, counts.expired, counts.done, counts.parked), (0, 0, 0, 1, 2));
}

/// A damaged row (checksum) or a foreign one (a valid checksum on a board that is no
/// leaf) is reported by verify and never used as proof.
fn corrupt_rows_are_reported(backend: Backend) {
    let db = backend.db();
    let cfg = Config::new(BoardSize::Four, Board::start());
    init(&db, &cfg).unwrap();
    let stop = AtomicBool::new(false);
    run_local(&db, 1, &WorkerOptions::named("t".into()), &stop).unwrap();
    let store = open_store(&db).unwrap();
    let rows = store.knowledge_rows().unwrap().len();
    assert_eq!(verify(&*store, &cfg).unwrap().root_value, Some(-10));
    // Every row now claims the side to move wins by 16: the checksums no longer match.
    assert_eq!(backend.execute("UPDATE knowledge SET lower = 16, upper = 16") as usize, rows);
    let r = verify(&*store, &cfg).unwrap();
    assert_eq!(r.bad_rows.len(), rows);
    assert!(r.bad_rows[0].contains("checksum"), "{:?}", r.bad_rows[0]);
    assert_eq!(r.knowledge_rows, 0);
    assert_eq!(r.root_value, None);
    // A well-formed row for a board that is not a leaf of this pipeline.
    let foreign =
        solvo_pipeline::store::KnowledgeRow::new(&Board::start().canonical(), Bounds { lower: -10, upper: -10 });
    backend.execute(&format!(
        "INSERT INTO knowledge (player, opponent, lower, upper, nodes, checksum) VALUES ({}, {}, -10, -10, 0, {})",
        foreign.player, foreign.opponent, foreign.checksum
    ));
    let r = verify(&*store, &cfg).unwrap();
    assert!(r.bad_rows.iter().any(|e| e.contains("leaf depth")), "{:?}", r.bad_rows);
    assert_eq!(r.root_value, None);
}

macro_rules! both {
    ($($name:ident),*) => {
        mod sqlite_backend {
            $(#[test] fn $name() { super::$name(super::sqlite()); })*
        }
        mod postgres_backend {
            $(#[test] fn $name() { super::$name(super::pg()); })*
        }
    };
}

both!(end_to_end_4x4, queue_semantics, corrupt_rows_are_reported);

/// The pipeline run by two worker threads on SQLite from the 6x6 position after 12 plies
/// of the published optimal line (20 empties), tasks at 18 empties, leaves at 14, first
/// hypothesis `hypothesis` (None: the estimates'), children chosen exactly up to
/// `choice_empties` empties: the store (kept alive by the backend), the position and the
/// settings.
fn six_by_six_run(
    hypothesis: Option<i32>,
    choice_empties: u32,
) -> (Backend, Position, Config, Box<dyn solvo_pipeline::PipelineStore>) {
    let backend = sqlite();
    let db = backend.db();
    let mut pos = Position::start(BoardSize::Six, Variant::Normal);
    for m in ["f5", "d6", "c5", "f4", "d3", "e3", "g4", "g5", "g6", "c4", "b4", "d2"] {
        pos = pos.play_with_implicit_pass(solvo_othello::Square::parse(m).unwrap()).unwrap();
    }
    let mut cfg = Config::new(BoardSize::Six, pos.board);
    cfg.task_empties = 18;
    cfg.leaf_empties = 14;
    cfg.hash_mb = 16;
    cfg.hypothesis = hypothesis;
    cfg.choice_empties = choice_empties;
    init(&db, &cfg).unwrap();
    let stop = AtomicBool::new(false);
    run_local(&db, 2, &WorkerOptions::named("t".into()), &stop).unwrap();
    let store = open_store(&db).unwrap();
    (backend, pos, cfg, store)
}

/// A wrong first hypothesis (-2 where the value is -4) from the 20-empty 6x6 position of
/// [`six_by_six_run`] is refuted and replaced by re-selection: the verified value is
/// still -4, with children chosen by estimate only and with exact choices.
#[test]
fn six_by_six_wrong_hypothesis_is_replaced() {
    for choice in [0, 60] {
        let (_backend, _, cfg, store) = six_by_six_run(Some(-2), choice);
        let r = verify(&*store, &cfg).unwrap();
        assert_eq!(r.root_value, Some(-4), "choice empties {choice}: {r:?}");
        assert_eq!(r.hypothesis, Some(-4));
    }
}

/// 6x6 from the position after 12 plies of the published optimal line (20 empties),
/// tasks at 18 empties, leaves at 14: the verified value is -4 (the exact solve's), and
/// every table position's proven bounds hold its exact value.
#[test]
fn six_by_six_table_agrees_with_exact_solves() {
    let (_backend, pos, cfg, store) = six_by_six_run(None, Config::default_choice_empties(BoardSize::Six));
    let (r, table) = verify_with_table(&*store, &cfg).unwrap();
    assert_eq!(r.root_value, Some(exact(&pos.board, BoardSize::Six)));
    assert_eq!(r.root_value, Some(-4));
    let mut opts = SolveOptions::new(64);
    for (b, k) in &table {
        let p = Position { board: *b, side: Color::Black, size: BoardSize::Six, variant: Variant::Normal };
        let (v, _, _) = solvo_solve::exact::exact_value(&p, &mut opts);
        assert!(k.lower <= v && v <= k.upper, "table {b:?} {k:?} vs exact {v}");
    }
}

/// Queue throughput with tiny jobs (claim + complete, nothing computed): prints jobs per
/// second for 2 and 8 workers on SQLite and on a local PostgreSQL. A figure, not a check
/// (`cargo test --release -p solvo-pipeline --test backends -- --ignored --nocapture`).
#[test]
#[ignore = "a figure: prints queue jobs per second, SQLite and PostgreSQL, 2 and 8 workers (seconds; needs PostgreSQL)"]
fn queue_throughput() {
    for (name, backend) in [("sqlite", sqlite()), ("postgres", pg())] {
        let db = backend.db();
        init(&db, &Config::new(BoardSize::Four, Board::start())).unwrap();
        let store = open_store(&db).unwrap();
        for workers in [2usize, 8] {
            let n = 4000i64;
            let base = workers as i64 * 1_000_000;
            let jobs: Vec<NewJob> = (0..n)
                .map(|i| NewJob {
                    kind: JobKind::Estimate,
                    a: base + i,
                    b: base + i,
                    lo: 0,
                    hi: 0,
                    round: 0,
                    priority: 0,
                })
                .collect();
            store.add_jobs(&jobs).unwrap();
            let start = std::time::Instant::now();
            std::thread::scope(|s| {
                for w in 0..workers {
                    let db = db.clone();
                    s.spawn(move || {
                        let store = open_store(&db).unwrap();
                        let me = format!("w{w}");
                        while let Some(job) = store.claim(&me, 60_000, 3, None).unwrap() {
                            assert!(store.complete(&job, &me, &Outcome::Estimates(vec![])).unwrap());
                        }
                    });
                }
            });
            let secs = start.elapsed().as_secs_f64();
            eprintln!(
                "{name}: {workers} workers, {n} jobs, {secs:.2} s, {:.0} claims+results per second",
                n as f64 / secs
            );
        }
    }
}

/// 8x8 scaled down (a figure, `--ignored`): the first `N8` (default 10) positions of
/// one of Edax's hard sets, `H8_EMPTIES` (20 or 25, default 20) empties, or of the OBF
/// file `H8_FILE` (each line listing its value, e.g. `tests/data/wthor-34.obf`); tasks
/// `H8_TASK_PLIES` (default 2) plies deeper, leaves at `H8_LEAF` (default 14) empties.
/// The verified value must equal the direct exact solve (and the value the file lists).
/// `H8_SMALL_BOARD_WAY=1`: batched expansions (20,000 leaves), every child chosen by an
/// exact null-window solve, first hypothesis the file's listed value (as the 6x6 run
/// starts from the published -4); otherwise the 8x8 defaults (one job per leaf, children
/// by estimate, hypothesis by estimate). `H8_SELECT_CHOICE=N`: the selection chooses by
/// exact solves at positions with at most N empties (`select_choice_empties`, default 0).
/// Prints per position: the pipeline's tasks,
/// leaves, leaf and choice nodes and seconds, and the direct solve's nodes and seconds
/// (`cargo test --release -p solvo-pipeline --test backends -- --ignored --nocapture
/// eight_by_eight`).
#[test]
#[ignore = "prints the 8x8 pipeline scaled down against direct exact solves, per position (minutes; N8 positions)"]
fn eight_by_eight_scaled_down_agrees_with_exact_solves() {
    let var = |k: &str, d: u32| std::env::var(k).ok().and_then(|s| s.parse::<u32>().ok()).unwrap_or(d);
    let n = var("N8", 10) as usize;
    let (empties, plies, leaf) = (var("H8_EMPTIES", 20), var("H8_TASK_PLIES", 2), var("H8_LEAF", 14));
    let small_board_way = var("H8_SMALL_BOARD_WAY", 0) == 1;
    let select_choice = var("H8_SELECT_CHOICE", 0);
    // A relative `H8_FILE` is read from the crate's directory (where cargo runs tests)
    // or, failing that, from the workspace's root.
    let path = match std::env::var("H8_FILE") {
        Ok(p) if !std::path::Path::new(&p).exists() => format!("{}/../../{p}", env!("CARGO_MANIFEST_DIR")),
        Ok(p) => p,
        Err(_) => format!("{}/../../../shared/data/edax-hard/hard-{empties}.obf", env!("CARGO_MANIFEST_DIR")),
    };
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let problems = solvo_othello::formats::obf::parse_obf(&text, Some(BoardSize::Eight), Variant::Normal).unwrap();
    let (mut pipeline_nodes, mut direct_nodes, mut pipeline_s, mut direct_s) = (0u64, 0u64, 0f64, 0f64);
    for (line, p) in problems.iter().take(n) {
        let listed = p.best_score().expect("the file lists the value");
        let start = std::time::Instant::now();
        let backend = sqlite();
        let db = backend.db();
        let mut cfg = Config::new(BoardSize::Eight, p.position.board);
        cfg.task_empties = p.position.empties() - plies;
        cfg.leaf_empties = leaf;
        cfg.select_choice_empties = select_choice;
        if small_board_way {
            cfg.batch_leaves = 20_000;
            cfg.choice_empties = 60;
            cfg.hypothesis = Some(listed);
        }
        init(&db, &cfg).unwrap();
        let stop = AtomicBool::new(false);
        run_local(&db, 1, &WorkerOptions::named("t".into()), &stop).unwrap();
        let secs = start.elapsed().as_secs_f64();
        let store = open_store(&db).unwrap();
        let r = verify(&*store, &cfg).unwrap();
        let (leaves, leaf_nodes) = (store.knowledge_rows().unwrap().len(), store.knowledge_nodes().unwrap());
        let selection_nodes: i64 =
            store.meta(solvo_pipeline::stages::SELECTION_NODES).unwrap().map_or(0, |n| n.parse().unwrap());
        let choice_nodes = store.choice_nodes().unwrap() + selection_nodes;
        let t = std::time::Instant::now();
        let d = solve(&p.position, &SolveOptions::new(64));
        let dsecs = t.elapsed().as_secs_f64();
        pipeline_nodes += (leaf_nodes + choice_nodes) as u64;
        direct_nodes += d.nodes;
        pipeline_s += secs;
        direct_s += dsecs;
        eprintln!(
            "line {line}: listed {listed}, exact {:?}, pipeline {:?}; {} tasks, {leaves} leaves, {leaf_nodes} + {choice_nodes} nodes, {secs:.1} s; direct solve {} nodes, {dsecs:.1} s",
            d.score(),
            r.root_value,
            r.tasks,
            d.nodes
        );
        assert_eq!(r.root_value, d.score(), "line {line}");
        assert_eq!(r.root_value, Some(listed), "line {line}");
    }
    eprintln!(
        "{n} positions: pipeline {pipeline_nodes} nodes, {pipeline_s:.1} s; direct solves {direct_nodes} nodes, {direct_s:.1} s"
    );
}

/// `pipeline select --wthor`: the frequency of WTHOR games breaks ties between equally
/// predicted children. From the 8x8 position after f5 (white to move; its replies in
/// square order: f4, d6, f6), every task predicted 0, the main line follows the reply
/// the one-game WTHOR file plays (d6), not the first in square order; a 6x6 pipeline
/// or a directory without game files is refused with what is wrong.
#[test]
fn wthor_frequency_breaks_selection_ties() {
    use solvo_othello::formats::wthor::{write_wtb, WthorFile, WthorGame, WthorHeader};
    use solvo_othello::Square;
    use solvo_pipeline::select::Selector;
    use solvo_pipeline::stages::{enumerate_positions, wthor_frequency_for};
    use std::collections::HashMap;
    let dir = tempfile::tempdir().unwrap();
    let moves: Vec<Square> = ["f5", "d6", "c3"].iter().map(|m| Square::parse(m).unwrap()).collect();
    let file = WthorFile {
        header: WthorHeader {
            created: (2026, 1, 1),
            games: 1,
            records: 0,
            year: 2026,
            board_size: 8,
            kind: 0,
            depth: 22,
        },
        games: vec![WthorGame {
            tournament: 0,
            black_player: 0,
            white_player: 0,
            black_discs: 32,
            theoretical_black_discs: 32,
            moves: moves.clone(),
        }],
        damaged: vec![],
    };
    std::fs::write(dir.path().join("one.wtb"), write_wtb(&file)).unwrap();
    let start = Position::start(BoardSize::Eight, Variant::Normal);
    let root = start.play_with_implicit_pass(moves[0]).unwrap();
    let after = |m: &str| root.play_with_implicit_pass(Square::parse(m).unwrap()).unwrap().board.canonical();
    let mut cfg = Config::new(BoardSize::Eight, root.board);
    cfg.task_empties = 58;
    cfg.leaf_empties = 56;
    let frequency = wthor_frequency_for(&cfg, dir.path()).unwrap();
    assert_eq!(frequency.get(&after("d6")), Some(&1));
    assert_eq!(frequency.get(&after("f4")), None);
    let predictions: HashMap<Board, i32> =
        enumerate_positions(BoardSize::Eight, &root.board, 58).into_iter().map(|b| (b, 0)).collect();
    let main_line = |f: &HashMap<Board, u64>| {
        let (_, tasks, _) = Selector::new(BoardSize::Eight, 58, &predictions, f).select(&root.board, Some(0));
        tasks.iter().find(|(_, g)| g.lo == g.hi).map(|(b, _)| *b)
    };
    assert_eq!(main_line(&frequency), Some(after("d6")));
    assert_eq!(main_line(&HashMap::new()), Some(after("f4")));
    let empty = tempfile::tempdir().unwrap();
    assert!(wthor_frequency_for(&cfg, empty.path()).unwrap_err().contains("no readable .wtb"));
    let six = Config::new(BoardSize::Six, Position::start(BoardSize::Six, Variant::Normal).board);
    assert!(wthor_frequency_for(&six, dir.path()).unwrap_err().contains("8x8"));
}
