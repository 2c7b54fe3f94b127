//! The queue and knowledge store every stage reads and writes, behind one interface with
//! two backends: SQLite (one machine, several processes) and PostgreSQL (many machines).
//!
//! Contents: settings (`meta`), the positions at the task depth with their estimates,
//! the tasks with their goals, the jobs (estimate a range of positions, expand a task,
//! solve a leaf with a window) under leases, and the knowledge: proven bounds of leaf
//! positions, each row checksummed so that a damaged or foreign row is reported and never
//! taken as a proof.

use crate::goal::{Bounds, Goal};
use solvo_othello::Board;
use solvo_solve::record_checksum::RecordChecksum;
use std::fmt;

/// The schema version this build reads and writes (migrations bring older stores up).
pub const SCHEMA_VERSION: i64 = 3;

/// Why a store operation failed.
#[derive(Debug)]
pub enum PipelineStoreError {
    /// The database refused or could not be reached.
    Db(String),
    /// A row fails its checksum or its invariants: named, never used.
    Corrupt(String),
    /// The store is not a pipeline store of this version.
    Schema(String),
}

impl fmt::Display for PipelineStoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PipelineStoreError::Db(m) => write!(f, "database error: {m}"),
            PipelineStoreError::Corrupt(m) => write!(f, "corrupt row: {m}"),
            PipelineStoreError::Schema(m) => write!(f, "not a usable pipeline store: {m}"),
        }
    }
}

impl std::error::Error for PipelineStoreError {}

/// Results of store operations.
pub type PipelineStoreResult<T> = Result<T, PipelineStoreError>;

/// What a job asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JobKind {
    /// Estimate positions `a..=b` (position ids).
    Estimate,
    /// Expand task `a` (round in `round`).
    Expand,
    /// Solve leaf board (`a`, `b` = player, opponent) with window `lo..=hi`.
    Solve,
}

impl JobKind {
    /// The SQL condition selecting jobs of `kind` (true for `None`).
    pub fn condition(kind: Option<JobKind>) -> String {
        kind.map_or("TRUE".into(), |k| format!("kind = '{}'", k.name()))
    }

    /// The name stored in the database.
    pub fn name(self) -> &'static str {
        match self {
            JobKind::Estimate => "estimate",
            JobKind::Expand => "expand",
            JobKind::Solve => "solve",
        }
    }

    /// The kind of a stored name.
    pub fn parse(s: &str) -> Option<JobKind> {
        match s {
            "estimate" => Some(JobKind::Estimate),
            "expand" => Some(JobKind::Expand),
            "solve" => Some(JobKind::Solve),
            _ => None,
        }
    }
}

/// A job to insert (ignored if the same job exists).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NewJob {
    /// What to do.
    pub kind: JobKind,
    /// First argument (see [`JobKind`]).
    pub a: i64,
    /// Second argument.
    pub b: i64,
    /// Window low end (solve jobs).
    pub lo: i32,
    /// Window high end (solve jobs).
    pub hi: i32,
    /// Round (expand jobs).
    pub round: i32,
    /// Higher runs first.
    pub priority: i32,
}

/// A claimed job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// Row id.
    pub id: i64,
    /// The job itself.
    pub job: NewJob,
    /// Claims so far, this one included.
    pub attempts: i32,
}

/// Status of a task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TaskStatus {
    /// Its goal is not decided yet.
    Pending,
    /// The knowledge proves its goal.
    Proven,
    /// The knowledge proves its goal false (the hypothesis was wrong).
    Refuted,
}

impl TaskStatus {
    /// The name stored in the database.
    pub fn name(self) -> &'static str {
        match self {
            TaskStatus::Pending => "pending",
            TaskStatus::Proven => "proven",
            TaskStatus::Refuted => "refuted",
        }
    }

    /// The status of a stored name.
    pub fn parse(s: &str) -> Option<TaskStatus> {
        match s {
            "pending" => Some(TaskStatus::Pending),
            "proven" => Some(TaskStatus::Proven),
            "refuted" => Some(TaskStatus::Refuted),
            _ => None,
        }
    }
}

/// A task row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaskRow {
    /// Row id.
    pub id: i64,
    /// The canonical task position.
    pub board: Board,
    /// What must be proven.
    pub goal: Goal,
    /// Where it stands.
    pub status: TaskStatus,
    /// Bounds its expansions found (merged: every expansion's bounds are facts): proven
    /// by the knowledge, or for a disproved goal found by an exact solve of the task. They
    /// only steer the selection; verify reads the knowledge rows alone.
    pub bounds: Bounds,
    /// Expansions so far.
    pub rounds: i32,
    /// Leaves listed over all its rounds.
    pub leaves: i64,
    /// Part of the current selection (unselected rows keep their proven bounds, which
    /// later selections use as knowledge).
    pub selected: bool,
}

/// The result a worker hands back with a finished job.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Estimates of positions by id.
    Estimates(Vec<(i64, i32)>),
    /// An expansion: the task's new status and bounds, and leaves to solve.
    Expanded {
        /// The goal the expansion worked on: the status is written only while the task
        /// still has it (a re-selection may have changed it meanwhile).
        goal: Goal,
        /// New status (of `goal`).
        status: TaskStatus,
        /// Bounds found now (see [`TaskRow::bounds`]).
        bounds: Bounds,
        /// Jobs to queue: leaf solves, or the task's next expansion after a batch.
        todo: Vec<NewJob>,
        /// Leaves the job solved itself (batch): canonical board, proven bounds, nodes;
        /// written as knowledge in the same transaction.
        solved: Vec<(Board, Bounds, u64)>,
        /// Solver nodes spent choosing children (exact null-window solves that order the
        /// expansion; never knowledge).
        choice_nodes: u64,
    },
    /// A leaf solve: proven bounds and the solver's nodes.
    Solved {
        /// The leaf (canonical).
        board: Board,
        /// Proven bounds.
        bounds: Bounds,
        /// Solver nodes.
        nodes: u64,
    },
}

/// Job counts by status.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobCounts {
    /// Waiting to be claimed.
    pub ready: i64,
    /// Claimed under a live lease.
    pub leased: i64,
    /// Claimed under an expired lease (claimable again).
    pub expired: i64,
    /// Finished.
    pub done: i64,
    /// Given up after too many failed attempts (with their error).
    pub parked: i64,
}

/// What [`PipelineStore::recent_completions`] counts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Completions {
    /// Jobs completed in the window.
    pub jobs: i64,
    /// Leaves they solved (a solve job one, a batch expansion its batch; schema 3).
    pub solves: i64,
    /// Milliseconds from the first of them to now (0 when none).
    pub span_ms: i64,
}

/// Leaves an outcome solved (for the throughput).
pub fn leaves_solved(outcome: &Outcome) -> i64 {
    match outcome {
        Outcome::Estimates(_) => 0,
        Outcome::Expanded { solved, .. } => solved.len() as i64,
        Outcome::Solved { .. } => 1,
    }
}

/// Solver nodes an outcome spent choosing children (see [`Outcome::Expanded`]).
pub fn choice_nodes(outcome: &Outcome) -> i64 {
    match outcome {
        Outcome::Expanded { choice_nodes, .. } => *choice_nodes as i64,
        _ => 0,
    }
}

impl Completions {
    /// Leaves solved per second over the span (0 when nothing was completed).
    pub fn leaves_per_second(&self) -> f64 {
        if self.span_ms <= 0 {
            0.0
        } else {
            self.solves as f64 * 1000.0 / self.span_ms as f64
        }
    }

    /// Jobs per second over the span (0 when nothing was completed).
    pub fn jobs_per_second(&self) -> f64 {
        if self.span_ms <= 0 {
            0.0
        } else {
            self.jobs as f64 * 1000.0 / self.span_ms as f64
        }
    }
}

/// One stored knowledge row as read, before it is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KnowledgeRow {
    /// Player discs, as stored.
    pub player: i64,
    /// Opponent discs, as stored.
    pub opponent: i64,
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// Checksum as stored.
    pub checksum: i64,
}

/// The checksum of a knowledge row's contents.
pub fn knowledge_checksum(b: &Board, bounds: Bounds) -> i64 {
    let mut c = RecordChecksum::default();
    c.add(b);
    c.add(&Board { player: bounds.lower as i64 as u64, opponent: (bounds.upper as i64 as u64) ^ 0x6b6e_6f77 });
    c.value() as i64
}

impl KnowledgeRow {
    /// The row for `b` (canonical) with `bounds`.
    pub fn new(b: &Board, bounds: Bounds) -> KnowledgeRow {
        KnowledgeRow {
            player: b.player as i64,
            opponent: b.opponent as i64,
            lower: bounds.lower,
            upper: bounds.upper,
            checksum: knowledge_checksum(b, bounds),
        }
    }

    /// The row's board and bounds if it passes its checksum and invariants on a board with
    /// `mask` playable squares and leaves at `leaf_empties`; otherwise what is wrong.
    pub fn check(&self, mask: u64, leaf_empties: u32) -> Result<(Board, Bounds), String> {
        let b = Board { player: self.player as u64, opponent: self.opponent as u64 };
        let bounds = Bounds { lower: self.lower, upper: self.upper };
        let name = format!("knowledge {:016x}/{:016x}", b.player, b.opponent);
        if knowledge_checksum(&b, bounds) != self.checksum {
            return Err(format!("{name}: checksum mismatch (damaged or written by something else)"));
        }
        let squares = mask.count_ones() as i32;
        if b.player & b.opponent != 0 || (b.player | b.opponent) & !mask != 0 {
            return Err(format!("{name}: discs overlap or lie off the board"));
        }
        if b.canonical() != b {
            return Err(format!("{name}: board is not in canonical form"));
        }
        if squares - (b.player | b.opponent).count_ones() as i32 != leaf_empties as i32 {
            return Err(format!("{name}: not at the leaf depth ({leaf_empties} empties)"));
        }
        if bounds.lower > bounds.upper || bounds.lower < -squares || bounds.upper > squares {
            return Err(format!("{name}: impossible bounds {}..{}", bounds.lower, bounds.upper));
        }
        Ok((b, bounds))
    }
}

/// The queue and knowledge store. Every method is one transaction.
pub trait PipelineStore: Send + Sync {
    /// Brings the schema to [`SCHEMA_VERSION`] (versioned migrations, idempotent).
    fn migrate(&self) -> PipelineStoreResult<()>;
    /// A setting.
    fn meta(&self, key: &str) -> PipelineStoreResult<Option<String>>;
    /// Sets a setting.
    fn set_meta(&self, key: &str, value: &str) -> PipelineStoreResult<()>;
    /// Adds task-depth positions (canonical; duplicates ignored).
    fn add_positions(&self, boards: &[Board]) -> PipelineStoreResult<()>;
    /// Every task-depth position: id, board, estimate.
    fn positions(&self) -> PipelineStoreResult<Vec<(i64, Board, Option<i32>)>>;
    /// Positions with ids in `first..=last`.
    fn position_range(&self, first: i64, last: i64) -> PipelineStoreResult<Vec<(i64, Board)>>;
    /// Inserts jobs; a job equal to an existing one is ignored.
    fn add_jobs(&self, jobs: &[NewJob]) -> PipelineStoreResult<()>;
    /// Claims the ready (or lease-expired) job of highest priority (of `kind` only, if
    /// given) for `worker` under a lease of `lease_ms`; a job whose claims reached
    /// `max_attempts` is parked instead.
    fn claim(
        &self,
        worker: &str,
        lease_ms: i64,
        max_attempts: i32,
        kind: Option<JobKind>,
    ) -> PipelineStoreResult<Option<Job>>;
    /// Extends `worker`'s lease on `job`; false if the lease was lost.
    fn heartbeat(&self, job: i64, worker: &str, lease_ms: i64) -> PipelineStoreResult<bool>;
    /// Gives the job back unfinished (a graceful stop): claimable at once, the attempt
    /// not counted.
    fn release(&self, job: i64, worker: &str) -> PipelineStoreResult<()>;
    /// Records a failed attempt with its error: ready again, or parked at `max_attempts`.
    fn fail(&self, job: i64, worker: &str, error: &str, max_attempts: i32) -> PipelineStoreResult<()>;
    /// Writes the outcome and marks the job done in one transaction, only while `worker`
    /// holds its lease (false otherwise: nothing written). Knowledge merges (max of
    /// lower bounds, min of upper bounds), so writing twice changes nothing.
    fn complete(&self, job: &Job, worker: &str, outcome: &Outcome) -> PipelineStoreResult<bool>;
    /// Job counts by status (all kinds).
    fn job_counts(&self) -> PipelineStoreResult<JobCounts>;
    /// Jobs completed in the last `window_ms` milliseconds (server clock): how many, how
    /// many of them were leaf solves, and the milliseconds from the first of them to now
    /// (0 when none). Schema 2 stores each job's completion time for it.
    fn recent_completions(&self, window_ms: i64) -> PipelineStoreResult<Completions>;
    /// Parked jobs with their errors.
    fn parked(&self) -> PipelineStoreResult<Vec<(i64, String, String)>>;
    /// Sets the task list: new positions are added pending; a task whose goal changes
    /// becomes pending again; tasks no longer selected are kept, marked unselected.
    fn set_tasks(&self, tasks: &[(Board, Goal)]) -> PipelineStoreResult<()>;
    /// Every task.
    fn tasks(&self) -> PipelineStoreResult<Vec<TaskRow>>;
    /// The stored knowledge row of canonical `b`, unchecked.
    fn knowledge_row(&self, b: &Board) -> PipelineStoreResult<Option<KnowledgeRow>>;
    /// Every knowledge row, unchecked.
    fn knowledge_rows(&self) -> PipelineStoreResult<Vec<KnowledgeRow>>;
    /// Total solver nodes recorded with the knowledge.
    fn knowledge_nodes(&self) -> PipelineStoreResult<i64>;
    /// Total solver nodes the completed expansions spent choosing children by exact
    /// null-window solves (schema 3; not part of [`Self::knowledge_nodes`]).
    fn choice_nodes(&self) -> PipelineStoreResult<i64>;
    /// Takes the named lock for `owner` for `ttl_ms` (or renews it); false if another
    /// owner holds it unexpired.
    fn try_lock(&self, name: &str, owner: &str, ttl_ms: i64) -> PipelineStoreResult<bool>;
    /// Frees the named lock if `owner` holds it.
    fn unlock(&self, name: &str, owner: &str) -> PipelineStoreResult<()>;
}
