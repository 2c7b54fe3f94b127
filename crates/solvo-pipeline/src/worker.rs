//! A worker: claim a job, run it while a heartbeat renews the lease, complete it (result
//! and "done" in one transaction), repeat; when nothing is claimable, take the
//! coordinator lock and [`advance`] the pipeline. SIGTERM/SIGINT stop it gracefully: a
//! running solve stops and its lease is given back at once. A worker killed outright
//! (SIGKILL) leaves a lease that expires; another worker then claims the job again.

use crate::config::Config;
use crate::stages::{advance, reselect_early, Advance, JobRunner};
use crate::store::{JobKind, Outcome, PipelineStore, PipelineStoreError, PipelineStoreResult, TaskStatus};
use crate::verify::{verify, PipelineVerifyReport};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How a worker behaves.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// This worker's name in lease rows (unique per worker).
    pub name: String,
    /// Lease length; the heartbeat renews it every third of it.
    pub lease: Duration,
    /// Claims of one job before it is parked.
    pub max_attempts: i32,
    /// Pause when nothing is claimable.
    pub idle: Duration,
    /// Return once the pipeline is done (else keep polling).
    pub exit_when_done: bool,
    /// Return after this many completed jobs (tests, batch schedulers).
    pub max_jobs: Option<u64>,
    /// Return when a job is parked and nothing else is open.
    pub exit_when_stalled: bool,
    /// How long to wait for an unreachable database before giving up.
    pub db_patience: Duration,
    /// Claim only jobs of this kind (a single stage); `None`: every kind.
    pub only: Option<JobKind>,
    /// Advance the pipeline when nothing is claimable (else return "idle").
    pub coordinate: bool,
}

impl WorkerOptions {
    /// Defaults: 30 s lease, 3 attempts, 200 ms idle pause, exit when done or stalled.
    pub fn named(name: String) -> WorkerOptions {
        WorkerOptions {
            name,
            lease: Duration::from_secs(30),
            max_attempts: 3,
            idle: Duration::from_millis(200),
            exit_when_done: true,
            max_jobs: None,
            exit_when_stalled: true,
            db_patience: Duration::from_secs(300),
            only: None,
            coordinate: true,
        }
    }
}

/// What a worker did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WorkerReport {
    /// Estimate jobs completed.
    pub estimates: u64,
    /// Expand jobs completed.
    pub expansions: u64,
    /// Leaves solved (solve jobs, and leaves solved inside expansion batches).
    pub solves: u64,
    /// Solver nodes of the completed solves.
    pub nodes: u64,
    /// Jobs that failed (recorded with their error).
    pub failures: u64,
    /// Jobs given back on a stop request.
    pub released: u64,
    /// Completions refused because the lease had been lost.
    pub lost_leases: u64,
    /// How the worker ended: "done", "stalled", "stopped", "max-jobs", "idle".
    pub end: String,
}

impl WorkerReport {
    /// The sum of `reports` (the workers of one run), ending as the first one did.
    pub fn total(reports: &[WorkerReport]) -> WorkerReport {
        let mut t = WorkerReport::default();
        for r in reports {
            t.estimates += r.estimates;
            t.expansions += r.expansions;
            t.solves += r.solves;
            t.nodes += r.nodes;
            t.failures += r.failures;
            t.released += r.released;
            t.lost_leases += r.lost_leases;
        }
        t.end = reports.first().map(|r| r.end.clone()).unwrap_or_default();
        t
    }
}

static STOP: AtomicBool = AtomicBool::new(false);

extern "C" fn on_signal(_: libc::c_int) {
    STOP.store(true, Ordering::SeqCst);
}

/// Installs SIGTERM and SIGINT handlers that ask every worker of this process to stop
/// gracefully; returns the flag they set.
pub fn install_stop_signals() -> &'static AtomicBool {
    // SAFETY: the handler only stores to an atomic, which is async-signal-safe.
    unsafe {
        libc::signal(libc::SIGTERM, on_signal as *const () as libc::sighandler_t);
        libc::signal(libc::SIGINT, on_signal as *const () as libc::sighandler_t);
    }
    &STOP
}

/// Runs jobs from `store` until the pipeline is done, `stop` is set, or an option says so.
/// A database that cannot be reached (a restart, a network cut) is waited for up to
/// `opts.db_patience`; a job whose completion failed is claimed again after its lease.
pub fn work(
    store: &dyn PipelineStore,
    cfg: &Config,
    opts: &WorkerOptions,
    stop: &AtomicBool,
) -> PipelineStoreResult<WorkerReport> {
    let mut runner = JobRunner::new(cfg.clone()).map_err(crate::PipelineStoreError::Db)?;
    let mut report = WorkerReport::default();
    let mut completed = 0u64;
    let mut failing_since: Option<Instant> = None;
    loop {
        if stop.load(Ordering::SeqCst) {
            report.end = "stopped".into();
            return Ok(report);
        }
        if opts.max_jobs.is_some_and(|m| completed >= m) {
            report.end = "max-jobs".into();
            return Ok(report);
        }
        match step(store, cfg, opts, stop, &mut runner, &mut report, &mut completed) {
            Ok(Some(end)) => {
                report.end = end;
                return Ok(report);
            }
            Ok(None) => failing_since = None,
            Err(PipelineStoreError::Db(e)) => {
                let since = *failing_since.get_or_insert_with(Instant::now);
                if since.elapsed() > opts.db_patience {
                    return Err(PipelineStoreError::Db(e));
                }
                eprintln!("worker {}: database unavailable ({e}); retrying", opts.name);
                std::thread::sleep(Duration::from_millis(500));
            }
            Err(e) => return Err(e),
        }
    }
}

/// One claim (or coordinator step); `Some(end)` when the worker should stop.
fn step(
    store: &dyn PipelineStore,
    cfg: &Config,
    opts: &WorkerOptions,
    stop: &AtomicBool,
    runner: &mut JobRunner,
    report: &mut WorkerReport,
    completed: &mut u64,
) -> PipelineStoreResult<Option<String>> {
    let lease_ms = opts.lease.as_millis() as i64;
    let Some(job) = store.claim(&opts.name, lease_ms, opts.max_attempts, opts.only)? else {
        if !opts.coordinate {
            return Ok(Some("idle".into()));
        }
        if store.try_lock("coordinator", &opts.name, lease_ms)? {
            let step = advance(store, cfg);
            store.unlock("coordinator", &opts.name)?;
            match step? {
                Advance::Done if opts.exit_when_done => return Ok(Some("done".into())),
                Advance::Stalled(_) if opts.exit_when_stalled => return Ok(Some("stalled".into())),
                Advance::Queued { .. } => return Ok(None),
                _ => {}
            }
        }
        std::thread::sleep(opts.idle);
        return Ok(None);
    };
    runner.reset_stop();
    let solver_stop = runner.stop_flag();
    let (done_tx, done_rx) = mpsc::channel::<()>();
    let job_id = job.id;
    let result = std::thread::scope(|s| {
        s.spawn(move || {
            let mut last = Instant::now();
            loop {
                match done_rx.recv_timeout(Duration::from_millis(100)) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    _ => return,
                }
                if stop.load(Ordering::SeqCst) {
                    solver_stop.store(true, Ordering::SeqCst);
                }
                if last.elapsed() >= opts.lease / 3 {
                    last = Instant::now();
                    if let Ok(false) = store.heartbeat(job_id, &opts.name, lease_ms) {
                        // Lease lost (expired and taken): stop; completion will be refused.
                        solver_stop.store(true, Ordering::SeqCst);
                    }
                }
            }
        });
        let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| runner.run(store, &job)));
        let _ = done_tx.send(());
        r
    });
    let result = result.unwrap_or_else(|p| {
        let msg = p
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_else(|| "panic".into());
        Err(format!("internal error: {msg}"))
    });
    match result {
        Ok(Some(outcome)) => {
            if store.complete(&job, &opts.name, &outcome)? {
                *completed += 1;
                let refuted = matches!(outcome, Outcome::Expanded { status: TaskStatus::Refuted, .. });
                if refuted && opts.coordinate && store.try_lock("coordinator", &opts.name, lease_ms)? {
                    // Replace the refuted task now, not after every pending task.
                    let r = reselect_early(store, cfg);
                    store.unlock("coordinator", &opts.name)?;
                    r?;
                }
                match (&job.job.kind, &outcome) {
                    (JobKind::Estimate, _) => report.estimates += 1,
                    (JobKind::Expand, Outcome::Expanded { solved, .. }) => {
                        report.expansions += 1;
                        report.solves += solved.len() as u64;
                        report.nodes += solved.iter().map(|s| s.2).sum::<u64>();
                    }
                    (JobKind::Solve, Outcome::Solved { nodes, .. }) => {
                        report.solves += 1;
                        report.nodes += nodes;
                    }
                    _ => {}
                }
            } else {
                report.lost_leases += 1;
            }
        }
        Ok(None) => {
            store.release(job.id, &opts.name)?;
            report.released += 1;
        }
        Err(e) => {
            eprintln!("worker {}: job {} failed: {e}", opts.name, job.id);
            store.fail(job.id, &opts.name, &e, opts.max_attempts)?;
            report.failures += 1;
        }
    }
    Ok(None)
}

/// Stores `cfg` in the store at `db` (refused if it holds another pipeline).
pub fn init(db: &str, cfg: &Config) -> PipelineStoreResult<()> {
    cfg.validate().map_err(PipelineStoreError::Schema)?;
    let store = crate::create_store(db)?;
    cfg.save(&*store)
}

/// How [`run_to_end`] ended.
#[derive(Clone, Debug)]
pub enum RunEnd {
    /// Every job is done and the proof was checked: complete when
    /// [`PipelineVerifyReport::is_complete`], else what is missing.
    Done {
        /// The check of the proof.
        verify: PipelineVerifyReport,
        /// Seconds the check took.
        verify_seconds: f64,
    },
    /// Work remains that no worker may take (parked jobs).
    Stalled,
    /// The workers stopped before the end (a stop request, a job limit): rerunning
    /// resumes; the worker's end is named.
    Stopped(String),
}

/// A whole pipeline on this machine: the store at `db` initialised with `cfg` (an
/// existing store with the same settings is resumed), `threads` workers in this process
/// coordinating the stages until the end, then the proof checked. Returns the workers'
/// total, the seconds they took, and how it ended.
pub fn run_to_end(
    db: &str,
    cfg: &Config,
    threads: usize,
    opts: &WorkerOptions,
    stop: &AtomicBool,
) -> PipelineStoreResult<(WorkerReport, f64, RunEnd)> {
    init(db, cfg)?;
    let mut opts = opts.clone();
    opts.only = None;
    opts.coordinate = true;
    let start = Instant::now();
    let work = WorkerReport::total(&run_local(db, threads, &opts, stop)?);
    let seconds = start.elapsed().as_secs_f64();
    let end = match work.end.as_str() {
        "done" => {
            let store = crate::open_store(db)?;
            let start = Instant::now();
            let report = verify(&*store, cfg)?;
            RunEnd::Done { verify: report, verify_seconds: start.elapsed().as_secs_f64() }
        }
        "stalled" => RunEnd::Stalled,
        other => RunEnd::Stopped(other.to_string()),
    };
    Ok((work, seconds, end))
}

/// Runs `threads` workers in this process against the store at `db` (each with its own
/// connection) until the pipeline is done or stalls; their reports.
pub fn run_local(
    db: &str,
    threads: usize,
    opts: &WorkerOptions,
    stop: &AtomicBool,
) -> PipelineStoreResult<Vec<WorkerReport>> {
    let cfg = {
        let store = crate::open_store(db)?;
        Config::load(&*store)?.ok_or_else(|| PipelineStoreError::Schema("no pipeline settings (run init)".into()))?
    };
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads.max(1))
            .map(|i| {
                let cfg = cfg.clone();
                let mut o = opts.clone();
                o.name = format!("{}-{i}", opts.name);
                s.spawn(move || -> PipelineStoreResult<WorkerReport> {
                    let store = crate::open_store(db)?;
                    work(&*store, &cfg, &o, stop)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().unwrap_or_else(|_| Err(PipelineStoreError::Db("worker panicked".into()))))
            .collect()
    })
}
