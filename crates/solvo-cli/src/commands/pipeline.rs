//! `solvo pipeline ...` (`solvo worker` is the older name of `solvo pipeline worker`): the
//! weak-solve pipeline (crate `solvo-pipeline`) over a SQLite file or a PostgreSQL database.
//! Thin: every stage is a library call; this file parses options and prints.

use crate::error::CliError;
use crate::input::parse_input;
use crate::Common;
use serde_json::json;
use solvo_othello::{Board, BoardSize};
use solvo_pipeline::stages::{self, Phase};
use solvo_pipeline::store::{JobKind, TaskStatus};
use solvo_pipeline::verify::{verify, verify_with_table, write_table, PipelineVerifyReport};
use solvo_pipeline::worker::{install_stop_signals, run_local, run_to_end, RunEnd, WorkerOptions, WorkerReport};
use solvo_pipeline::{open_store, Config, PipelineStore};
use std::io::Write;
use std::time::{Duration, Instant};

/// The store every pipeline command works on.
#[derive(clap::Args, Debug, Clone)]
pub struct DbArgs {
    /// The pipeline's store: a SQLite file (created if missing; keep it under data/) or a
    /// postgres://user@host:port/db URL.
    #[arg(long)]
    pub db: String,
}

/// Settings fixed at `init` (also accepted by `run`, which initialises a new store).
#[derive(clap::Args, Debug, Clone)]
pub struct InitArgs {
    /// The position to prove (default: the start of --size).
    #[arg(long, allow_hyphen_values = true)]
    pub root: Option<String>,
    /// Tasks are the positions with this many empties (default 8x8: 50, 6x6: 26, 4x4: 10).
    #[arg(long, value_parser = crate::option_ranges::empties, allow_negative_numbers = true)]
    pub task_empties: Option<u32>,
    /// Leaves solved exactly have this many empties (default 8x8: 36, 6x6: 16, 4x4: 6).
    #[arg(long, value_parser = crate::option_ranges::empties, allow_negative_numbers = true)]
    pub leaf_empties: Option<u32>,
    /// Search depth of the task estimates (E).
    #[arg(long, default_value_t = 4, value_parser = crate::option_ranges::estimate_depth, allow_negative_numbers = true)]
    pub estimate_depth: u32,
    /// Search depth of the estimates ordering moves during expansion.
    #[arg(long, default_value_t = 2, value_parser = crate::option_ranges::estimate_depth, allow_negative_numbers = true)]
    pub expand_depth: u32,
    /// Leaf windows: the goal widened by this many discs each side (published run: 0 or 2).
    #[arg(long, default_value_t = 0, value_parser = crate::option_ranges::window_margin, allow_negative_numbers = true)]
    pub margin: i32,
    /// Transposition table of each leaf solver, MiB.
    #[arg(long, default_value_t = 64, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
    /// Leaves an expansion job may solve itself (expand, solve, expand again until the
    /// task is decided; then its next expansion is queued at once, no round barrier);
    /// 0: every leaf is its own solve job. Default: 8x8 0, 6x6 and 4x4 20000.
    #[arg(long, value_parser = crate::option_ranges::batch_leaves, allow_negative_numbers = true)]
    pub batch_leaves: Option<u64>,
    /// The root value the first selection sets out to prove, or `estimate` (the estimates'
    /// prediction). Default: the published value of the start (8x8: 0, the draw the
    /// published run hypothesised; 6x6: -4, Feinstein 1993) when --root is not given, else
    /// `estimate`. A wrong hypothesis is refuted and replaced; verify never reads it.
    #[arg(long, value_parser = crate::option_ranges::hypothesis, allow_negative_numbers = true)]
    pub hypothesis: Option<crate::option_ranges::Hypothesis>,
    /// Children with at most this many empties are chosen for a `>=` goal by exact
    /// null-window solves (first in the estimates' order that meets the goal) instead of
    /// by estimate alone; 0: never. Ordering only, proofs still come from the leaves.
    /// Default: 8x8 0, 6x6 and 4x4 60 (every choice).
    #[arg(long, value_parser = crate::option_ranges::empties, allow_negative_numbers = true)]
    pub choice_empties: Option<u32>,
    /// The selection chooses the child carrying a `>=` goal, at positions with at most
    /// this many empties, by an exact null-window solve of the position itself instead of
    /// by the estimates; 0 (default): never. For pipelines from positions a direct solve
    /// answers (8x8 from about 34 empties); ordering only, tasks are still proven by
    /// their leaves.
    #[arg(long, default_value_t = 0, value_parser = crate::option_ranges::empties, allow_negative_numbers = true)]
    pub select_choice_empties: u32,
}

/// How workers run.
#[derive(clap::Args, Debug, Clone)]
pub struct WorkArgs {
    /// Worker threads in this process.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Lease of a claimed job, seconds (renewed by a heartbeat every third of it).
    #[arg(long, default_value_t = 30, value_parser = crate::option_ranges::lease_seconds, allow_negative_numbers = true)]
    pub lease: u64,
    /// Claims of a job before it is parked with its error.
    #[arg(long, default_value_t = 3, value_parser = crate::option_ranges::attempts, allow_negative_numbers = true)]
    pub max_attempts: i32,
}

/// `solvo pipeline <stage>`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub stage: Stage,
}

/// The stages.
#[derive(clap::Subcommand, Debug)]
pub enum Stage {
    /// Store the settings (root, depths, windows) in a new store.
    Init {
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        init: InitArgs,
    },
    /// Enumerate the positions at the task depth and queue their estimates.
    Enumerate {
        #[command(flatten)]
        db: DbArgs,
    },
    /// Run the estimate jobs (E) until none is left.
    Estimate {
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        work: WorkArgs,
    },
    /// Select the tasks (Algorithm 1) and queue their first expansion.
    Select {
        #[command(flatten)]
        db: DbArgs,
        /// Break ties between equally predicted children by how often they occur in the
        /// WTHOR games (`.wtb` files) of this directory, as the published run did (8x8
        /// only); remembered for later re-selections.
        #[arg(long)]
        wthor: Option<std::path::PathBuf>,
    },
    /// Run the expansion jobs (G36: to-do lists of leaves with windows) until none is left.
    Expand {
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        work: WorkArgs,
    },
    /// Run the leaf solves (Q: exact solver with the task's window) until none is left.
    Solve {
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        work: WorkArgs,
    },
    /// Counts: phase, round, tasks, jobs, knowledge, nodes, parked jobs and their errors.
    Status {
        #[command(flatten)]
        db: DbArgs,
    },
    /// Rebuild the proof from the knowledge alone; prints the verified root value (exit
    /// code 1 when it is not proven or a row is damaged).
    Verify {
        #[command(flatten)]
        db: DbArgs,
    },
    /// Write the table: every proven position above the leaf depth, its bounds and class.
    Table {
        #[command(flatten)]
        db: DbArgs,
        /// Output file (one line per position: player, opponent (hex), lower, upper, class).
        #[arg(long)]
        out: std::path::PathBuf,
    },
    /// Check the table against results computed another way: the exact solver on every
    /// table position (or an even sample per number of empties), and a semi-strong record
    /// with proven bounds; exit code 1 on any disagreement.
    CheckTable {
        #[command(flatten)]
        db: DbArgs,
        /// Positions checked by the exact solver per number of empties, evenly spaced
        /// (0: every position).
        #[arg(long, default_value_t = 0, value_parser = crate::option_ranges::per_empties, allow_negative_numbers = true)]
        per_empties: usize,
        /// A semi-strong record in the published reopening alpha-beta CSV format
        /// (`obf,disccount,nodekindcode,lowerbound,upperbound`, e.g. the 6x6 file under
        /// ../shared/data/takizawa/): positions in both must have overlapping bounds.
        #[arg(long)]
        semi_strong: Option<std::path::PathBuf>,
        /// Transposition table of the exact solver, MiB.
        #[arg(long, default_value_t = 64, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
        hash_mb: usize,
    },
    /// Moved to the lab: `solvo-lab pipeline published`.
    #[command(hide = true, disable_help_flag = true)]
    Published(crate::commands::moved::Args),
    /// Every stage to the end with local worker threads, then verify.
    Run {
        #[command(flatten)]
        db: DbArgs,
        #[command(flatten)]
        init: InitArgs,
        #[command(flatten)]
        work: WorkArgs,
    },
    /// A worker: claims jobs from a shared store until the pipeline is done (SIGTERM
    /// gives the running job back); run one on any machine that reaches the store.
    Worker(WorkerArgs),
}

/// `solvo pipeline worker`: one worker process (any machine) against a shared store.
#[derive(clap::Args, Debug)]
pub struct WorkerArgs {
    #[command(flatten)]
    db: DbArgs,
    #[command(flatten)]
    work: WorkArgs,
    /// This worker's name in lease rows (default: host and process id).
    #[arg(long)]
    name: Option<String>,
    /// Keep polling after the pipeline is done (a long-running service).
    #[arg(long)]
    keep_polling: bool,
}

fn err(e: impl std::fmt::Display) -> CliError {
    CliError(format!("pipeline: {e}"))
}

fn open(db: &DbArgs) -> Result<Box<dyn PipelineStore>, CliError> {
    open_store(&db.db).map_err(|e| CliError(format!("pipeline store {}: {e}", db.db)))
}

fn load(store: &dyn PipelineStore, db: &DbArgs) -> Result<Config, CliError> {
    Config::load(store)
        .map_err(err)?
        .ok_or_else(|| CliError(format!("pipeline store {}: no settings (run `solvo pipeline init` first)", db.db)))
}

fn config_of(init: &InitArgs, common: Common) -> Result<Config, CliError> {
    if common.variant != solvo_othello::Variant::Normal {
        return Err(CliError("pipeline: only --variant normal is supported".into()));
    }
    let (size, root) = match &init.root {
        Some(text) => {
            let p = parse_input(text, common)?.position;
            (p.size, p.board)
        }
        None => (common.size.unwrap_or(BoardSize::Eight), Board::start()),
    };
    let mut cfg = Config::new(size, root);
    let root_empties = root.empties(size);
    if init.root.is_some() && init.task_empties.is_none() {
        cfg.task_empties = root_empties.saturating_sub(4);
    }
    if init.root.is_some() && init.leaf_empties.is_none() {
        cfg.leaf_empties = cfg.task_empties.saturating_sub(10);
    }
    cfg.task_empties = init.task_empties.unwrap_or(cfg.task_empties);
    cfg.leaf_empties = init.leaf_empties.unwrap_or(cfg.leaf_empties);
    cfg.estimate_depth = init.estimate_depth;
    cfg.expand_depth = init.expand_depth;
    cfg.margin = init.margin;
    cfg.hash_mb = init.hash_mb;
    let published = if init.root.is_some() { None } else { Config::published_start_value(size) };
    cfg.hypothesis = init.hypothesis.map_or(published, |h| h.0);
    cfg.batch_leaves = init.batch_leaves.unwrap_or(cfg.batch_leaves);
    cfg.choice_empties = init.choice_empties.unwrap_or(cfg.choice_empties);
    cfg.select_choice_empties = init.select_choice_empties;
    cfg.validate().map_err(err)?;
    Ok(cfg)
}

fn worker_options(work: &WorkArgs, name: String) -> WorkerOptions {
    let mut o = WorkerOptions::named(name);
    o.lease = Duration::from_secs(work.lease);
    o.max_attempts = work.max_attempts;
    o
}

fn default_name() -> String {
    let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    let host = host.trim();
    format!("{}-{}", if host.is_empty() { "worker" } else { host }, std::process::id())
}

fn run_stage(
    db: &DbArgs,
    work: &WorkArgs,
    only: Option<JobKind>,
    coordinate: bool,
    common: Common,
) -> Result<WorkerReport, CliError> {
    let mut o = worker_options(work, default_name());
    o.only = only;
    o.coordinate = coordinate;
    let stop = install_stop_signals();
    let start = Instant::now();
    let reports = run_local(&db.db, work.threads, &o, stop).map_err(err)?;
    let t = WorkerReport::total(&reports);
    print_report("jobs", &t, start.elapsed().as_secs_f64(), common);
    Ok(t)
}

fn print_report(what: &str, t: &WorkerReport, secs: f64, common: Common) {
    if common.json {
        out!(
            "{}",
            json!({"estimates": t.estimates, "expansions": t.expansions, "solves": t.solves, "nodes": t.nodes,
                   "failures": t.failures, "released": t.released, "lost_leases": t.lost_leases, "seconds": secs,
                   "end": t.end})
        );
    } else {
        out!(
            "{what}: {} estimates, {} expansions, {} solves ({} nodes), {} failed, {} given back; {:.1} s; {}",
            t.estimates,
            t.expansions,
            t.solves,
            t.nodes,
            t.failures,
            t.released,
            secs,
            t.end
        );
    }
}

fn print_verify(store: &dyn PipelineStore, cfg: &Config, common: Common) -> Result<bool, CliError> {
    let start = Instant::now();
    let r = verify(store, cfg).map_err(err)?;
    Ok(print_verify_report(&r, start.elapsed().as_secs_f64(), common))
}

/// Prints the check of a proof; true when the proof is complete.
fn print_verify_report(r: &PipelineVerifyReport, seconds: f64, common: Common) -> bool {
    let ok = r.is_complete();
    if common.json {
        out!(
            "{}",
            json!({"root_value": r.root_value, "hypothesis": r.hypothesis, "root_lower": r.root_bounds.lower,
                   "root_upper": r.root_bounds.upper, "tasks": r.tasks, "tasks_proven": r.tasks_proven,
                   "knowledge_rows": r.knowledge_rows, "bad_rows": r.bad_rows, "proof_nodes": r.nodes,
                   "seconds": seconds, "verified": ok})
        );
    } else {
        for b in r.bad_rows.iter().take(20) {
            eprintln!("damaged row (ignored): {b}");
        }
        out!(
            "tasks proven: {}/{}; knowledge rows: {} ({} damaged, ignored); proof positions: {}",
            r.tasks_proven,
            r.tasks,
            r.knowledge_rows,
            r.bad_rows.len(),
            r.nodes
        );
        match r.root_value {
            Some(v) => out!("verified root value: {v}"),
            None => out!(
                "root value NOT proven (hypothesis {}; proven bounds {}..{})",
                r.hypothesis.map_or_else(|| "none".to_string(), |h| h.to_string()),
                r.root_bounds.lower,
                r.root_bounds.upper
            ),
        }
    }
    ok
}

/// Runs `solvo pipeline <stage>`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    match args.stage {
        Stage::Init { db, init } => {
            let cfg = config_of(&init, common)?;
            solvo_pipeline::worker::init(&db.db, &cfg)
                .map_err(|e| CliError(format!("pipeline store {}: {e}", db.db)))?;
            out!(
                "initialised {}: {}x{}, tasks at {} empties, leaves at {}",
                db.db,
                cfg.size.side(),
                cfg.size.side(),
                cfg.task_empties,
                cfg.leaf_empties
            );
            Ok(())
        }
        Stage::Enumerate { db } => {
            let store = open(&db)?;
            let cfg = load(&*store, &db)?;
            let n = stages::enumerate(&*store, &cfg).map_err(err)?;
            out!("{n} positions with {} empties; estimate jobs queued", cfg.task_empties);
            Ok(())
        }
        Stage::Estimate { db, work } => run_stage(&db, &work, Some(JobKind::Estimate), false, common).map(drop),
        Stage::Select { db, wthor } => {
            let store = open(&db)?;
            let cfg = load(&*store, &db)?;
            let frequency = match &wthor {
                Some(dir) => {
                    let named =
                        |e: &dyn std::fmt::Display| CliError(format!("pipeline select --wthor {}: {e}", dir.display()));
                    let dir = std::fs::canonicalize(dir).map_err(|e| named(&e))?;
                    let f = stages::wthor_frequency_for(&cfg, &dir).map_err(|e| named(&e))?;
                    let text = dir.to_str().ok_or_else(|| named(&"the path is not UTF-8"))?;
                    store.set_meta("wthor_dir", text).map_err(err)?;
                    out!(
                        "WTHOR tie-break: {} positions between {} and {} empties",
                        f.len(),
                        cfg.task_empties,
                        cfg.root.empties(cfg.size)
                    );
                    f
                }
                None => stages::stored_frequency(&*store, &cfg).map_err(err)?,
            };
            let (v, n, q) = stages::select_and_queue(&*store, &cfg, &frequency).map_err(err)?;
            out!("hypothesis: root value {v}; {n} tasks selected; {q:?}");
            Ok(())
        }
        Stage::Expand { db, work } => run_stage(&db, &work, Some(JobKind::Expand), false, common).map(drop),
        Stage::Solve { db, work } => run_stage(&db, &work, Some(JobKind::Solve), false, common).map(drop),
        Stage::Status { db } => status(&db, common),
        Stage::Verify { db } => {
            let store = open(&db)?;
            let cfg = load(&*store, &db)?;
            if print_verify(&*store, &cfg, common)? {
                Ok(())
            } else {
                Err(CliError("pipeline verify: the proof is not complete".into()))
            }
        }
        Stage::Table { db, out } => {
            let store = open(&db)?;
            let cfg = load(&*store, &db)?;
            let (_, table) = verify_with_table(&*store, &cfg).map_err(err)?;
            let mut f = std::io::BufWriter::new(
                std::fs::File::create(&out).map_err(|e| CliError(format!("{}: {e}", out.display())))?,
            );
            write_table(&table, &mut f)
                .and_then(|()| f.flush())
                .map_err(|e| CliError(format!("{}: {e}", out.display())))?;
            out!("{} positions written to {}", table.len(), out.display());
            Ok(())
        }
        Stage::Published(args) => args.moved("pipeline published", common),
        Stage::Worker(args) => run_worker(args, common),
        Stage::CheckTable { db, per_empties, semi_strong, hash_mb } => {
            check_table(&db, per_empties, semi_strong.as_deref(), hash_mb, common)
        }
        Stage::Run { db, init, work } => {
            let cfg = config_of(&init, common)?;
            let start = Instant::now();
            let stop = install_stop_signals();
            let (t, work_seconds, end) =
                run_to_end(&db.db, &cfg, work.threads, &worker_options(&work, default_name()), stop)
                    .map_err(|e| CliError(format!("pipeline store {}: {e}", db.db)))?;
            print_report("jobs", &t, work_seconds, common);
            match end {
                RunEnd::Stalled => {
                    Err(CliError("pipeline run: stalled on parked jobs (see `solvo pipeline status`)".into()))
                }
                RunEnd::Stopped(how) => Err(CliError(format!("pipeline run: stopped ({how}); rerun to resume"))),
                RunEnd::Done { verify, verify_seconds } => {
                    if !common.json {
                        out!("run: {:.1} s", start.elapsed().as_secs_f64() - verify_seconds);
                    }
                    if print_verify_report(&verify, verify_seconds, common) {
                        Ok(())
                    } else {
                        Err(CliError("pipeline run: the proof is not complete".into()))
                    }
                }
            }
        }
    }
}

/// `pipeline check-table`: the record first (cheap), then the solver, one line per number
/// of empties as it finishes.
fn check_table(
    db: &DbArgs,
    per_empties: usize,
    semi_strong: Option<&std::path::Path>,
    hash_mb: usize,
    common: Common,
) -> Result<(), CliError> {
    use solvo_pipeline::table_check::{check_with_solver, compare_with_record, parse_semi_strong_csv, sample};
    let record = match semi_strong {
        Some(path) => {
            let text = std::fs::read_to_string(path).map_err(|e| CliError(format!("{}: {e}", path.display())))?;
            Some(
                parse_semi_strong_csv(&text, BoardSize::Six)
                    .map_err(|e| CliError(format!("{}: {e}", path.display())))?,
            )
        }
        None => None,
    };
    let store = open(db)?;
    let cfg = load(&*store, db)?;
    if record.is_some() && cfg.size != BoardSize::Six {
        return Err(CliError(format!("--semi-strong: the record is a 6x6 one, the pipeline is {}", cfg.size)));
    }
    let mut options = solvo_othello_search::SolveOptions::try_new(hash_mb).map_err(|e| CliError(e.to_string()))?;
    let (_, table) = verify_with_table(&*store, &cfg).map_err(err)?;
    let mut wrong = 0usize;
    let show = |what: &str, d: &solvo_pipeline::table_check::Disagreement| {
        eprintln!(
            "DISAGREEMENT ({what}): {:016x} {:016x}: table {}..{}, {what} {}..{}",
            d.board.player, d.board.opponent, d.table.lower, d.table.upper, d.other.lower, d.other.upper
        )
    };
    if let Some(record) = record {
        let c = compare_with_record(&table, &record);
        c.disagreements.iter().for_each(|d| show("record", d));
        wrong += c.disagreements.len();
        if common.json {
            out!(
                "{}",
                json!({"record_rows": c.rows, "shared": c.shared, "shared_exact": c.shared_exact,
                              "disagreements": c.disagreements.len()})
            );
        } else {
            out!(
                "semi-strong record: {} rows, {} in the table ({} exact on one side), {} disagree",
                c.rows,
                c.shared,
                c.shared_exact,
                c.disagreements.len()
            );
        }
    }
    let chosen = sample(&table, cfg.size, per_empties);
    let empties: std::collections::BTreeSet<u32> = table.iter().map(|(b, _)| b.empties(cfg.size)).collect();
    let (mut checked, mut nodes) = (0usize, 0u64);
    for e in empties {
        let of_e = |v: &[(Board, solvo_pipeline::goal::Bounds)]| -> Vec<_> {
            v.iter().filter(|(b, _)| b.empties(cfg.size) == e).copied().collect()
        };
        let r = check_with_solver(&of_e(&table), &of_e(&chosen), cfg.size, &mut options);
        r.disagreements.iter().for_each(|d| show("solver", d));
        wrong += r.disagreements.len();
        let g = &r.by_empties[&e];
        checked += g.checked;
        nodes += g.nodes;
        if common.json {
            out!(
                "{}",
                json!({"empties": e, "positions": g.positions, "checked": g.checked, "nodes": g.nodes,
                              "seconds": g.seconds_ms as f64 / 1000.0, "disagreements": r.disagreements.len()})
            );
        } else {
            out!(
                "{e} empties: {} positions, {} checked by the exact solver, {} disagree ({} nodes, {:.1} s)",
                g.positions,
                g.checked,
                r.disagreements.len(),
                g.nodes,
                g.seconds_ms as f64 / 1000.0
            );
        }
    }
    if !common.json {
        out!(
            "table: {} positions, {checked} checked by the exact solver ({nodes} nodes), {wrong} disagreements",
            table.len()
        );
    }
    if wrong > 0 {
        return Err(CliError(format!("pipeline check-table: {wrong} table positions disagree")));
    }
    Ok(())
}

/// `status` measures throughput over the jobs completed in this window.
const THROUGHPUT_WINDOW_MS: i64 = 10 * 60 * 1000;

/// `93 s`, `12.5 min`, `3.2 h`, `4.1 days`.
fn human_seconds(s: f64) -> String {
    match s {
        s if s < 120.0 => format!("{s:.0} s"),
        s if s < 7200.0 => format!("{:.1} min", s / 60.0),
        s if s < 172_800.0 => format!("{:.1} h", s / 3600.0),
        s => format!("{:.1} days", s / 86_400.0),
    }
}

fn status(db: &DbArgs, common: Common) -> Result<(), CliError> {
    let store = open(db)?;
    let cfg = load(&*store, db)?;
    let phase = Phase::load(&*store).map_err(err)?;
    let counts = store.job_counts().map_err(err)?;
    let tasks: Vec<_> = store.tasks().map_err(err)?.into_iter().filter(|t| t.selected).collect();
    let by = |s: TaskStatus| tasks.iter().filter(|t| t.status == s).count();
    let leaves: i64 = tasks.iter().map(|t| t.leaves).sum();
    let knowledge = store.knowledge_rows().map_err(err)?.len();
    let nodes = store.knowledge_nodes().map_err(err)?;
    let choice_nodes = store.choice_nodes().map_err(err)?;
    let selection_nodes = stages::selection_choice_nodes(&*store).map_err(err)?;
    let round = store.meta("round").map_err(err)?.unwrap_or_else(|| "0".into());
    let hypothesis = store.meta("hypothesis").map_err(err)?;
    let parked = store.parked().map_err(err)?;
    let recent = store.recent_completions(THROUGHPUT_WINDOW_MS).map_err(err)?;
    let rate = recent.jobs_per_second();
    let open = counts.ready + counts.leased + counts.expired;
    // Time left for the jobs queued now (later rounds queue more, so a lower bound).
    let eta = (rate > 0.0).then(|| open as f64 / rate);
    if common.json {
        out!(
            "{}",
            json!({"size": cfg.size.side(), "task_empties": cfg.task_empties, "leaf_empties": cfg.leaf_empties,
                   "phase": format!("{phase:?}").to_lowercase(), "round": round, "hypothesis": hypothesis,
                   "tasks": tasks.len(), "pending": by(TaskStatus::Pending), "proven": by(TaskStatus::Proven),
                   "refuted": by(TaskStatus::Refuted), "leaves_listed": leaves, "knowledge_rows": knowledge,
                   "nodes": nodes, "choice_nodes": choice_nodes, "selection_choice_nodes": selection_nodes, "jobs_ready": counts.ready, "jobs_leased": counts.leased,
                   "jobs_expired": counts.expired, "jobs_done": counts.done, "jobs_parked": counts.parked,
                   "recent_jobs": recent.jobs, "recent_leaves_solved": recent.solves, "leaves_per_second": recent.leaves_per_second(), "recent_seconds": recent.span_ms as f64 / 1000.0,
                   "jobs_per_second": rate, "queued_seconds_left": eta,
                   "parked": parked.iter().map(|(id, k, e)| json!({"id": id, "kind": k, "error": e})).collect::<Vec<_>>()})
        );
    } else {
        out!(
            "{}x{} tasks at {} empties, leaves at {}; phase {:?}, round {round}, hypothesis {}",
            cfg.size.side(),
            cfg.size.side(),
            cfg.task_empties,
            cfg.leaf_empties,
            phase,
            hypothesis.as_deref().unwrap_or("-")
        );
        out!(
            "tasks: {} selected ({} pending, {} proven, {} refuted); leaves listed: {leaves}",
            tasks.len(),
            by(TaskStatus::Pending),
            by(TaskStatus::Proven),
            by(TaskStatus::Refuted)
        );
        out!(
            "jobs: {} ready, {} leased, {} lease expired, {} done, {} parked",
            counts.ready,
            counts.leased,
            counts.expired,
            counts.done,
            counts.parked
        );
        out!(
            "knowledge: {knowledge} leaves, {nodes} solver nodes; {choice_nodes} more nodes choosing children, \
             {selection_nodes} choosing tasks"
        );
        match eta {
            Some(eta) => out!(
                "throughput: {rate:.3} jobs/s, {:.0} leaves solved/s (last {:.0} s); the queued jobs need ~{} more \
                 (a lower bound: expansions queue more)",
                recent.leaves_per_second(),
                recent.span_ms as f64 / 1000.0,
                human_seconds(eta)
            ),
            None => out!("throughput: no job completed in the last {} min", THROUGHPUT_WINDOW_MS / 60_000),
        }
        for (id, kind, e) in parked.iter().take(20) {
            out!("parked job {id} ({kind}): {e}");
        }
    }
    Ok(())
}

/// Runs `solvo pipeline worker` (and its older name, `solvo worker`).
pub fn run_worker(args: WorkerArgs, common: Common) -> Result<(), CliError> {
    let mut o = worker_options(&args.work, args.name.unwrap_or_else(default_name));
    o.exit_when_done = !args.keep_polling;
    o.exit_when_stalled = !args.keep_polling;
    let stop = install_stop_signals();
    let start = Instant::now();
    let reports = run_local(&args.db.db, args.work.threads, &o, stop).map_err(err)?;
    let t = WorkerReport::total(&reports);
    print_report("worker", &t, start.elapsed().as_secs_f64(), common);
    Ok(())
}
