//! The embedded backend: one SQLite file (bundled library), WAL journal, several
//! processes on one machine. Writers serialise on `BEGIN IMMEDIATE`; a claim is a select
//! and an update in one such transaction, so two workers never hold the same job.

use crate::goal::{Bounds, Goal};
use crate::store::*;
use rusqlite::{params, Connection, OpenFlags, OptionalExtension, TransactionBehavior};
use solvo_othello::Board;
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

/// The versioned migrations: `MIGRATIONS[i]` brings the schema from version `i` to `i + 1`.
const MIGRATIONS: &[&str] = &[
    "
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE positions (id INTEGER PRIMARY KEY, player INTEGER NOT NULL, opponent INTEGER NOT NULL,
    estimate INTEGER, UNIQUE (player, opponent));
CREATE TABLE tasks (id INTEGER PRIMARY KEY, player INTEGER NOT NULL, opponent INTEGER NOT NULL,
    goal_lo INTEGER NOT NULL, goal_hi INTEGER NOT NULL, status TEXT NOT NULL, lower INTEGER NOT NULL,
    upper INTEGER NOT NULL, rounds INTEGER NOT NULL DEFAULT 0, leaves INTEGER NOT NULL DEFAULT 0,
    selected INTEGER NOT NULL DEFAULT 1, UNIQUE (player, opponent));
CREATE TABLE jobs (id INTEGER PRIMARY KEY, kind TEXT NOT NULL, a INTEGER NOT NULL, b INTEGER NOT NULL,
    lo INTEGER NOT NULL, hi INTEGER NOT NULL, round INTEGER NOT NULL, priority INTEGER NOT NULL,
    status TEXT NOT NULL DEFAULT 'ready', owner TEXT, lease_until INTEGER, attempts INTEGER NOT NULL DEFAULT 0,
    error TEXT, UNIQUE (kind, a, b, lo, hi, round));
CREATE INDEX jobs_claim ON jobs (status, priority DESC, id);
CREATE TABLE knowledge (player INTEGER NOT NULL, opponent INTEGER NOT NULL, lower INTEGER NOT NULL,
    upper INTEGER NOT NULL, nodes INTEGER NOT NULL, checksum INTEGER NOT NULL, PRIMARY KEY (player, opponent));
CREATE TABLE locks (name TEXT PRIMARY KEY, owner TEXT NOT NULL, until_ms INTEGER NOT NULL);
",
    "
ALTER TABLE jobs ADD COLUMN done_ms INTEGER;
CREATE INDEX jobs_done ON jobs (done_ms) WHERE done_ms IS NOT NULL;
",
    "
ALTER TABLE jobs ADD COLUMN leaves_solved INTEGER;
ALTER TABLE jobs ADD COLUMN choice_nodes INTEGER;
",
];

const NOW: &str = "CAST(unixepoch('subsec') * 1000 AS INTEGER)";

/// A pipeline store in one SQLite file.
pub struct SqliteStore {
    conn: Mutex<Connection>,
}

fn db(e: rusqlite::Error) -> PipelineStoreError {
    PipelineStoreError::Db(e.to_string())
}

impl SqliteStore {
    /// Opens (creating if needed) the store at `path` and applies migrations.
    pub fn open(path: &Path) -> PipelineStoreResult<SqliteStore> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| PipelineStoreError::Db(format!("cannot create directory {}: {e}", dir.display())))?;
        }
        let conn = Connection::open(path).map_err(|e| PipelineStoreError::Db(format!("{}: {e}", path.display())))?;
        Self::with_connection(conn, path)
    }

    /// Opens the existing store at `path` and applies migrations; never creates a file
    /// or directory: a missing path, a directory or an empty file is an error saying so.
    pub fn open_existing(path: &Path) -> PipelineStoreResult<SqliteStore> {
        let not_a_store = |why: &str| PipelineStoreError::Schema(format!("{}: {why}", path.display()));
        let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => {
                not_a_store("no such file (a pipeline store is made by `solvo pipeline init`)")
            }
            _ => PipelineStoreError::Db(format!("{}: {e}", path.display())),
        })?;
        if meta.is_dir() {
            return Err(not_a_store("is a directory, not a pipeline store file"));
        }
        if meta.len() == 0 {
            return Err(not_a_store("empty file, not a pipeline store"));
        }
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(path, flags)
            .map_err(|e| PipelineStoreError::Db(format!("{}: {e}", path.display())))?;
        Self::with_connection(conn, path)
    }

    /// The store over `conn` (the file at `path`), its journal set and migrations applied.
    fn with_connection(conn: Connection, path: &Path) -> PipelineStoreResult<SqliteStore> {
        conn.busy_timeout(Duration::from_secs(60)).map_err(db)?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(|e| PipelineStoreError::Schema(format!("{}: {e}", path.display())))?;
        conn.pragma_update(None, "synchronous", "NORMAL").map_err(db)?;
        let store = SqliteStore { conn: Mutex::new(conn) };
        store.migrate()?;
        Ok(store)
    }

    fn with<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> PipelineStoreResult<T> {
        let mut c = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut c).map_err(db)
    }

    fn tx<T>(&self, f: impl FnOnce(&rusqlite::Transaction) -> PipelineStoreResult<T>) -> PipelineStoreResult<T> {
        let mut c = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        let tx = c.transaction_with_behavior(TransactionBehavior::Immediate).map_err(db)?;
        let out = f(&tx)?;
        tx.commit().map_err(db)?;
        Ok(out)
    }
}

/// A knowledge row from the columns player, opponent, lower, upper, checksum.
fn knowledge_row_of(r: &rusqlite::Row) -> rusqlite::Result<KnowledgeRow> {
    Ok(KnowledgeRow { player: r.get(0)?, opponent: r.get(1)?, lower: r.get(2)?, upper: r.get(3)?, checksum: r.get(4)? })
}

fn knowledge_of(tx: &Connection, b: &Board) -> PipelineStoreResult<Option<KnowledgeRow>> {
    tx.query_row(
        "SELECT player, opponent, lower, upper, checksum FROM knowledge WHERE player = ?1 AND opponent = ?2",
        params![b.player as i64, b.opponent as i64],
        knowledge_row_of,
    )
    .optional()
    .map_err(db)
}

impl PipelineStore for SqliteStore {
    fn migrate(&self) -> PipelineStoreResult<()> {
        self.tx(|tx| {
            tx.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)", []).map_err(db)?;
            let v: Option<i64> =
                tx.query_row("SELECT max(version) FROM schema_version", [], |r| r.get(0)).map_err(db)?;
            let v = v.unwrap_or(0);
            if v > SCHEMA_VERSION {
                return Err(PipelineStoreError::Schema(format!(
                    "schema version {v} is newer than this build's {SCHEMA_VERSION}"
                )));
            }
            for (i, m) in MIGRATIONS.iter().enumerate().skip(v as usize) {
                tx.execute_batch(m).map_err(db)?;
                tx.execute("INSERT INTO schema_version (version) VALUES (?1)", [i as i64 + 1]).map_err(db)?;
            }
            Ok(())
        })
    }

    fn meta(&self, key: &str) -> PipelineStoreResult<Option<String>> {
        self.with(|c| c.query_row("SELECT value FROM meta WHERE key = ?1", [key], |r| r.get(0)).optional())
    }

    fn set_meta(&self, key: &str, value: &str) -> PipelineStoreResult<()> {
        self.with(|c| {
            c.execute(
                "INSERT INTO meta (key, value) VALUES (?1, ?2) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                [key, value],
            )
            .map(drop)
        })
    }

    fn add_positions(&self, boards: &[Board]) -> PipelineStoreResult<()> {
        self.tx(|tx| {
            let mut st = tx
                .prepare("INSERT INTO positions (player, opponent) VALUES (?1, ?2) ON CONFLICT DO NOTHING")
                .map_err(db)?;
            for b in boards {
                st.execute(params![b.player as i64, b.opponent as i64]).map_err(db)?;
            }
            Ok(())
        })
    }

    fn positions(&self) -> PipelineStoreResult<Vec<(i64, Board, Option<i32>)>> {
        self.with(|c| {
            let mut st = c.prepare("SELECT id, player, opponent, estimate FROM positions ORDER BY id")?;
            let rows = st.query_map([], |r| {
                Ok((
                    r.get(0)?,
                    Board { player: r.get::<_, i64>(1)? as u64, opponent: r.get::<_, i64>(2)? as u64 },
                    r.get(3)?,
                ))
            })?;
            rows.collect()
        })
    }

    fn position_range(&self, first: i64, last: i64) -> PipelineStoreResult<Vec<(i64, Board)>> {
        self.with(|c| {
            let mut st =
                c.prepare("SELECT id, player, opponent FROM positions WHERE id BETWEEN ?1 AND ?2 ORDER BY id")?;
            let rows = st.query_map([first, last], |r| {
                Ok((r.get(0)?, Board { player: r.get::<_, i64>(1)? as u64, opponent: r.get::<_, i64>(2)? as u64 }))
            })?;
            rows.collect()
        })
    }

    fn add_jobs(&self, jobs: &[NewJob]) -> PipelineStoreResult<()> {
        self.tx(|tx| insert_jobs(tx, jobs))
    }

    fn claim(
        &self,
        worker: &str,
        lease_ms: i64,
        max_attempts: i32,
        kind: Option<JobKind>,
    ) -> PipelineStoreResult<Option<Job>> {
        let only = JobKind::condition(kind);
        self.tx(|tx| {
            tx.execute(
                &format!(
                    "UPDATE jobs SET status = 'parked', owner = NULL,
                     error = coalesce(error || '; ', '') || 'lease expired ' || attempts || ' times'
                     WHERE status = 'leased' AND lease_until < {NOW} AND attempts >= ?1"
                ),
                [max_attempts],
            )
            .map_err(db)?;
            // Two index lookups (ready; lease expired) rather than one OR that scans.
            let pick = |cond: &str| {
                tx.query_row(
                    &format!(
                        "SELECT id, kind, a, b, lo, hi, round, priority, attempts FROM jobs
                         WHERE {cond} ORDER BY priority DESC, id LIMIT 1"
                    ),
                    [],
                    |r| {
                        Ok((
                            r.get::<_, i64>(0)?,
                            r.get::<_, String>(1)?,
                            NewJob {
                                kind: JobKind::Estimate,
                                a: r.get(2)?,
                                b: r.get(3)?,
                                lo: r.get(4)?,
                                hi: r.get(5)?,
                                round: r.get(6)?,
                                priority: r.get(7)?,
                            },
                            r.get::<_, i32>(8)?,
                        ))
                    },
                )
                .optional()
                .map_err(db)
            };
            let ready = pick(&format!("status = 'ready' AND {only}"))?;
            let expired = pick(&format!("status = 'leased' AND lease_until < {NOW} AND {only}"))?;
            let row = match (ready, expired) {
                (Some(r), Some(e)) => Some(if (e.2.priority, -e.0) > (r.2.priority, -r.0) { e } else { r }),
                (r, e) => r.or(e),
            };
            let Some((id, kind, mut job, attempts)) = row else { return Ok(None) };
            job.kind = JobKind::parse(&kind)
                .ok_or_else(|| PipelineStoreError::Corrupt(format!("job {id}: unknown kind {kind:?}")))?;
            tx.execute(
                &format!(
                    "UPDATE jobs SET status = 'leased', owner = ?1, lease_until = {NOW} + ?2, attempts = attempts + 1
                     WHERE id = ?3"
                ),
                params![worker, lease_ms, id],
            )
            .map_err(db)?;
            Ok(Some(Job { id, job, attempts: attempts + 1 }))
        })
    }

    fn heartbeat(&self, job: i64, worker: &str, lease_ms: i64) -> PipelineStoreResult<bool> {
        self.with(|c| {
            c.execute(
                &format!("UPDATE jobs SET lease_until = {NOW} + ?1 WHERE id = ?2 AND owner = ?3 AND status = 'leased'"),
                params![lease_ms, job, worker],
            )
            .map(|n| n == 1)
        })
    }

    fn release(&self, job: i64, worker: &str) -> PipelineStoreResult<()> {
        self.with(|c| {
            c.execute(
                "UPDATE jobs SET status = 'ready', owner = NULL, lease_until = NULL, attempts = max(attempts - 1, 0)
                 WHERE id = ?1 AND owner = ?2 AND status = 'leased'",
                params![job, worker],
            )
            .map(drop)
        })
    }

    fn fail(&self, job: i64, worker: &str, error: &str, max_attempts: i32) -> PipelineStoreResult<()> {
        self.with(|c| {
            c.execute(
                "UPDATE jobs SET status = CASE WHEN attempts >= ?4 THEN 'parked' ELSE 'ready' END, owner = NULL,
                 lease_until = NULL, error = ?3 WHERE id = ?1 AND owner = ?2 AND status = 'leased'",
                params![job, worker, error, max_attempts],
            )
            .map(drop)
        })
    }

    fn complete(&self, job: &Job, worker: &str, outcome: &Outcome) -> PipelineStoreResult<bool> {
        self.tx(|tx| {
            let holder: Option<(String, Option<String>)> = tx
                .query_row("SELECT status, owner FROM jobs WHERE id = ?1", [job.id], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()
                .map_err(db)?;
            if holder != Some(("leased".into(), Some(worker.into()))) {
                return Ok(false);
            }
            match outcome {
                Outcome::Estimates(rows) => {
                    let mut st = tx.prepare("UPDATE positions SET estimate = ?1 WHERE id = ?2").map_err(db)?;
                    for (id, e) in rows {
                        st.execute(params![e, id]).map_err(db)?;
                    }
                }
                Outcome::Expanded { goal, status, bounds, todo, solved, .. } => {
                    for (board, bounds, nodes) in solved {
                        write_knowledge(tx, board, *bounds, *nodes)?;
                    }
                    tx.execute(
                        "UPDATE tasks SET status = CASE WHEN goal_lo = ?6 AND goal_hi = ?7 THEN ?1 ELSE status END,
                         lower = max(lower, ?2), upper = min(upper, ?3), rounds = rounds + 1,
                         leaves = leaves + ?4 WHERE id = ?5",
                        params![
                            status.name(),
                            bounds.lower,
                            bounds.upper,
                            (todo.len() + solved.len()) as i64,
                            job.job.a,
                            goal.lo,
                            goal.hi
                        ],
                    )
                    .map_err(db)?;
                    insert_jobs(tx, todo)?;
                }
                Outcome::Solved { board, bounds, nodes } => write_knowledge(tx, board, *bounds, *nodes)?,
            }
            tx.execute(
                &format!(
                    "UPDATE jobs SET status = 'done', owner = NULL, lease_until = NULL, done_ms = {NOW},
                     leaves_solved = ?2, choice_nodes = ?3 WHERE id = ?1"
                ),
                params![job.id, leaves_solved(outcome), choice_nodes(outcome)],
            )
            .map_err(db)?;
            Ok(true)
        })
    }

    fn job_counts(&self) -> PipelineStoreResult<JobCounts> {
        self.with(|c| {
            c.query_row(
                &format!(
                    "SELECT coalesce(sum(status = 'ready'), 0), coalesce(sum(status = 'leased' AND lease_until >= {NOW}), 0),
                     coalesce(sum(status = 'leased' AND lease_until < {NOW}), 0), coalesce(sum(status = 'done'), 0),
                     coalesce(sum(status = 'parked'), 0) FROM jobs"
                ),
                [],
                |r| Ok(JobCounts { ready: r.get(0)?, leased: r.get(1)?, expired: r.get(2)?, done: r.get(3)?, parked: r.get(4)? }),
            )
        })
    }

    fn recent_completions(&self, window_ms: i64) -> PipelineStoreResult<Completions> {
        self.with(|c| {
            c.query_row(
                &format!(
                    "SELECT count(*), coalesce(sum(leaves_solved), 0), coalesce({NOW} - min(done_ms), 0) FROM jobs
                     WHERE done_ms >= {NOW} - ?1"
                ),
                [window_ms],
                |r| Ok(Completions { jobs: r.get(0)?, solves: r.get(1)?, span_ms: r.get(2)? }),
            )
        })
    }

    fn parked(&self) -> PipelineStoreResult<Vec<(i64, String, String)>> {
        self.with(|c| {
            let mut st =
                c.prepare("SELECT id, kind, coalesce(error, '') FROM jobs WHERE status = 'parked' ORDER BY id")?;
            let rows = st.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect()
        })
    }

    fn set_tasks(&self, tasks: &[(Board, Goal)]) -> PipelineStoreResult<()> {
        self.tx(|tx| {
            tx.execute("UPDATE tasks SET selected = 0", []).map_err(db)?;
            let mut st = tx
                .prepare(
                    "INSERT INTO tasks (player, opponent, goal_lo, goal_hi, status, lower, upper)
                     VALUES (?1, ?2, ?3, ?4, 'pending', ?5, ?6) ON CONFLICT (player, opponent) DO UPDATE
                     SET selected = 1, status = CASE WHEN goal_lo = excluded.goal_lo AND goal_hi = excluded.goal_hi
                     AND status <> 'refuted' THEN status ELSE 'pending' END, goal_lo = excluded.goal_lo,
                     goal_hi = excluded.goal_hi",
                )
                .map_err(db)?;
            for (b, g) in tasks {
                st.execute(params![b.player as i64, b.opponent as i64, g.lo, g.hi, -64, 64]).map_err(db)?;
            }
            Ok(())
        })
    }

    fn tasks(&self) -> PipelineStoreResult<Vec<TaskRow>> {
        self.with(|c| {
            let mut st = c.prepare(
                "SELECT id, player, opponent, goal_lo, goal_hi, status, lower, upper, rounds, leaves, selected FROM tasks ORDER BY id",
            )?;
            let rows = st.query_map([], |r| {
                let status: String = r.get(5)?;
                Ok(TaskRow {
                    id: r.get(0)?,
                    board: Board { player: r.get::<_, i64>(1)? as u64, opponent: r.get::<_, i64>(2)? as u64 },
                    goal: Goal { lo: r.get(3)?, hi: r.get(4)? },
                    status: TaskStatus::parse(&status).unwrap_or(TaskStatus::Pending),
                    bounds: Bounds { lower: r.get(6)?, upper: r.get(7)? },
                    rounds: r.get(8)?,
                    leaves: r.get(9)?,
                    selected: r.get::<_, i64>(10)? != 0,
                })
            })?;
            rows.collect()
        })
    }

    fn knowledge_row(&self, b: &Board) -> PipelineStoreResult<Option<KnowledgeRow>> {
        let c = self.conn.lock().unwrap_or_else(|p| p.into_inner());
        knowledge_of(&c, b)
    }

    fn knowledge_rows(&self) -> PipelineStoreResult<Vec<KnowledgeRow>> {
        self.with(|c| {
            let mut st = c.prepare("SELECT player, opponent, lower, upper, checksum FROM knowledge")?;
            let rows = st.query_map([], knowledge_row_of)?;
            rows.collect()
        })
    }

    fn knowledge_nodes(&self) -> PipelineStoreResult<i64> {
        self.with(|c| c.query_row("SELECT coalesce(sum(nodes), 0) FROM knowledge", [], |r| r.get(0)))
    }

    fn choice_nodes(&self) -> PipelineStoreResult<i64> {
        self.with(|c| c.query_row("SELECT coalesce(sum(choice_nodes), 0) FROM jobs", [], |r| r.get(0)))
    }

    fn try_lock(&self, name: &str, owner: &str, ttl_ms: i64) -> PipelineStoreResult<bool> {
        self.tx(|tx| {
            let n = tx
                .execute(
                    &format!(
                        "INSERT INTO locks (name, owner, until_ms) VALUES (?1, ?2, {NOW} + ?3)
                         ON CONFLICT (name) DO UPDATE SET owner = excluded.owner, until_ms = excluded.until_ms
                         WHERE locks.owner = excluded.owner OR locks.until_ms < {NOW}"
                    ),
                    params![name, owner, ttl_ms],
                )
                .map_err(db)?;
            Ok(n == 1)
        })
    }

    fn unlock(&self, name: &str, owner: &str) -> PipelineStoreResult<()> {
        self.with(|c| c.execute("DELETE FROM locks WHERE name = ?1 AND owner = ?2", [name, owner]).map(drop))
    }
}

/// Merges proven `bounds` of leaf `board` into its knowledge row (checksummed), adding
/// the solver's nodes.
fn write_knowledge(tx: &Connection, board: &Board, bounds: Bounds, nodes: u64) -> PipelineStoreResult<()> {
    let merged = match knowledge_of(tx, board)? {
        Some(old) => merge_row(&old, board, bounds)?,
        None => bounds,
    };
    let row = KnowledgeRow::new(board, merged);
    tx.execute(
        "INSERT INTO knowledge (player, opponent, lower, upper, nodes, checksum)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6) ON CONFLICT (player, opponent) DO UPDATE
         SET lower = excluded.lower, upper = excluded.upper, nodes = nodes + excluded.nodes,
         checksum = excluded.checksum",
        params![row.player, row.opponent, row.lower, row.upper, nodes as i64, row.checksum],
    )
    .map_err(db)?;
    Ok(())
}

fn insert_jobs(tx: &rusqlite::Transaction, jobs: &[NewJob]) -> PipelineStoreResult<()> {
    let mut st = tx
        .prepare(
            "INSERT INTO jobs (kind, a, b, lo, hi, round, priority) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
             ON CONFLICT DO NOTHING",
        )
        .map_err(db)?;
    for j in jobs {
        st.execute(params![j.kind.name(), j.a, j.b, j.lo, j.hi, j.round, j.priority]).map_err(db)?;
    }
    Ok(())
}

/// `old` (checked) merged with new `bounds` of `board`. A damaged old row is replaced by
/// the fresh proof; contradicting valid rows are an error (never silently resolved).
pub(crate) fn merge_row(old: &KnowledgeRow, board: &Board, bounds: Bounds) -> PipelineStoreResult<Bounds> {
    let old_bounds = Bounds { lower: old.lower, upper: old.upper };
    if knowledge_checksum(board, old_bounds) != old.checksum {
        eprintln!(
            "warning: knowledge {:016x}/{:016x}: damaged row replaced by a fresh solve",
            board.player, board.opponent
        );
        return Ok(bounds);
    }
    old_bounds.merged(bounds).ok_or_else(|| {
        PipelineStoreError::Corrupt(format!(
            "knowledge {:016x}/{:016x}: stored bounds {}..{} contradict new bounds {}..{}",
            board.player, board.opponent, old.lower, old.upper, bounds.lower, bounds.upper
        ))
    })
}
