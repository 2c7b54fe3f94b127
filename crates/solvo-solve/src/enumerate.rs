//! Counting the unique positions of a board level by level: level `n` holds the
//! canonical forms of every position with `n` discs whose side to move can move
//! (reachable from the start); the children of level `n` form level `n + 1`. Each level
//! is canonicalised in parallel, sorted and de-duplicated, spilling sorted runs to disk
//! when it exceeds the memory budget and merging them k ways. With a data directory,
//! finished levels are kept as files and reused by a later run (resume).

use crate::children::for_each_child;
use crate::extsort::{merge_runs_buffered, ExternalSorter, SortError, Sorted};
use crate::levelfile::{existing_level, level_path, read_level, LevelWriter};
use crate::records::{BUFFER_BYTES, RECORD_BYTES};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;
use solvo_othello::{Board, BoardSize};
use std::fmt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// What to enumerate and with which resources.
#[derive(Clone, Debug)]
pub struct EnumerateOptions {
    /// The board.
    pub size: BoardSize,
    /// The last level (disc count) to count; levels 4..=max_discs are reported.
    pub max_discs: u32,
    /// Where level files and sorted runs go; `None` keeps everything in memory (a level
    /// exceeding the budget is then an error).
    pub data_dir: Option<PathBuf>,
    /// Memory budget of the enumeration, in bytes: every buffer it holds at once (the
    /// parents of a step and their children, the sort buffer, the level files' and the
    /// runs' buffers, a merge), at least [`MIN_MEMORY_BYTES`]; without a data
    /// directory, a whole level must fit in it.
    pub memory_bytes: usize,
    /// Draw a progress bar on stderr (only when it is a terminal).
    pub progress: bool,
}

/// The result for one disc count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelReport {
    /// Disc count of the level.
    pub discs: u32,
    /// Unique positions (canonical, side to move can move).
    pub count: u64,
    /// Children generated from the previous level before de-duplication (0 if reused).
    pub generated: u64,
    /// Sorted runs written to disk for this level.
    pub runs: usize,
    /// True when the level was read back from a finished level file.
    pub reused: bool,
    /// Time spent on the level.
    pub time: Duration,
}

/// Why an enumeration failed.
#[derive(Debug)]
pub enum EnumerateError {
    /// The disc count is outside 4..=squares.
    BadDiscs(u32, BoardSize),
    /// A level needed more memory than allowed and there is no data directory.
    OutOfMemory {
        /// The level that did not fit.
        discs: u32,
        /// The budget, in MiB.
        budget_mb: usize,
    },
    /// The memory budget is below what the enumeration needs to keep it.
    BudgetTooSmall {
        /// The budget, in bytes.
        bytes: usize,
    },
    /// A file problem (the message names the file).
    Io(String),
    /// Another run holds the data directory (two runs on one directory would write the
    /// same level files).
    InUse {
        /// The data directory.
        dir: PathBuf,
        /// The processes holding its lock, as `pid <n> (<command line>)` (empty when
        /// they cannot be found).
        holders: Vec<String>,
    },
}

impl fmt::Display for EnumerateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EnumerateError::BadDiscs(n, size) => {
                write!(f, "--discs {n}: expected a disc count from 4 to {} on {size}", size.squares())
            }
            EnumerateError::OutOfMemory { discs, budget_mb } => write!(
                f,
                "level {discs} needs more than the memory budget of {budget_mb} MiB; give --data-dir to spill sorted runs to disk, or raise --memory-mb"
            ),
            EnumerateError::BudgetTooSmall { bytes } => write!(
                f,
                "a memory budget of {} KiB cannot be kept: the enumeration needs at least {} MiB (--memory-mb {})",
                bytes >> 10,
                MIN_MEMORY_BYTES >> 20,
                MIN_MEMORY_BYTES >> 20
            ),
            EnumerateError::Io(m) => f.write_str(m),
            EnumerateError::InUse { dir, holders } => write!(
                f,
                "data directory {} is in use by another enumeration ({}); only one run can use a data directory at a time: wait for it to finish or stop it (finished levels are kept), then retry",
                dir.display(),
                if holders.is_empty() { "its pid could not be found".to_string() } else { holders.join(", ") }
            ),
        }
    }
}

impl std::error::Error for EnumerateError {}

fn io_err(what: impl fmt::Display) -> impl FnOnce(std::io::Error) -> EnumerateError {
    move |e| EnumerateError::Io(format!("{what}: {e}"))
}

/// The name of the lock file in a data directory.
const LOCK_FILE: &str = "enumerate.lock";

/// Locks the data directory `dir` for this run (an advisory lock on its
/// [`LOCK_FILE`], released when the returned file is dropped, or by the system when
/// the process dies); [`EnumerateError::InUse`] naming the holder when another run
/// has it.
fn lock_data_dir(dir: &std::path::Path) -> Result<std::fs::File, EnumerateError> {
    let path = dir.join(LOCK_FILE);
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(io_err(path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(EnumerateError::InUse {
            dir: dir.to_path_buf(),
            holders: crate::file_holders::processes_holding(&path),
        }),
        Err(std::fs::TryLockError::Error(e)) => Err(io_err(path.display())(e)),
    }
}

/// A finished level: in memory, or a level file.
enum Level {
    Memory(Vec<Board>),
    File(PathBuf, u64),
}

impl Level {
    fn count(&self) -> u64 {
        match self {
            Level::Memory(v) => v.len() as u64,
            Level::File(_, n) => *n,
        }
    }
}

/// Most parents read per step (and canonicalised in parallel).
const CHUNK: usize = 1 << 18;

/// Fewest parents read per step.
const MIN_CHUNK: usize = 1024;

/// Bytes a parent read from a file costs while its children are made: its record read
/// and decoded (2 x 16), and its children (about 7 on average from 6x6 level 14 on, at
/// most about 12 on 8x8: 12 x 16).
const STEP_BYTES_PER_PARENT: usize = 2 * RECORD_BYTES + 12 * RECORD_BYTES;

/// Smallest buffer of a file's reader or writer (level files and sorted runs).
const MIN_IO_BUFFER: usize = 16 << 10;

/// Smallest sort buffer (boards) a level is sorted in.
const MIN_SORT_BOARDS: usize = 1 << 14;

/// The smallest memory budget the enumeration keeps (see [`EnumerateOptions::memory_bytes`]):
/// three file buffers, the smallest step and a sort buffer of [`MIN_SORT_BOARDS`]
/// boards, rounded up to a whole MiB.
pub const MIN_MEMORY_BYTES: usize = 1 << 20;

/// How one level's budget is shared out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Plan {
    /// Parents read per step.
    chunk: usize,
    /// Boards the sort buffer holds.
    capacity: usize,
    /// Bytes of each file's reader or writer buffer (level files and runs).
    io_buffer: usize,
    /// Runs merged at once.
    fan_in: usize,
}

impl Plan {
    /// The plan for `budget` bytes when the parent level takes `parent_bytes` in memory
    /// (0 when it is read from a file); `None` when the budget cannot be kept.
    fn new(budget: usize, parent_bytes: usize) -> Option<Plan> {
        let io_buffer = (budget / 64).clamp(MIN_IO_BUFFER, BUFFER_BYTES);
        // The level file being read and the one being written.
        let fixed = 2 * io_buffer;
        let chunk = (budget / 4 / STEP_BYTES_PER_PARENT).clamp(MIN_CHUNK, CHUNK);
        let step = parent_bytes + chunk * STEP_BYTES_PER_PARENT;
        // The sort buffer, less the writer of a spilled run.
        let left = budget.checked_sub(fixed + io_buffer + step)?;
        let capacity = left / RECORD_BYTES;
        if capacity < MIN_SORT_BOARDS {
            return None;
        }
        // While merging, the sort buffer is gone: the runs' readers and one writer share
        // what is left besides the level files' buffers.
        let buffers = budget.saturating_sub(fixed) / io_buffer;
        let fan_in = buffers.saturating_sub(1).min(crate::open_file_limit::merge_fan_in()).max(2);
        Some(Plan { chunk, capacity, io_buffer, fan_in })
    }
}

fn bar(opts: &EnumerateOptions, len: u64, discs: u32) -> ProgressBar {
    if !opts.progress {
        return ProgressBar::hidden();
    }
    let pb = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    pb.set_style(
        ProgressStyle::with_template(
            "{prefix} [{elapsed_precise}] {bar:30} {human_pos}/{human_len} parents ({per_sec}, eta {eta}) {msg}",
        )
        .expect("valid template"),
    );
    pb.set_prefix(format!("level {discs}"));
    pb
}

/// Parents handed to one parallel task.
const PIECE: usize = 1024;

/// Canonical children of `parents`, computed in parallel into `out` (cleared first; its
/// memory is reused from step to step, so a level's steps hold one buffer, not a new
/// one per step and per task).
fn canonical_children_into(parents: &[Board], size: BoardSize, out: &mut Vec<Board>) {
    let counts: Vec<usize> = parents
        .par_chunks(PIECE)
        .map(|piece| {
            let mut n = 0;
            for b in piece {
                for_each_child(b, size, |_| n += 1);
            }
            n
        })
        .collect();
    out.clear();
    out.resize(counts.iter().sum(), Board::start());
    let mut slots = Vec::with_capacity(counts.len());
    let mut rest = out.as_mut_slice();
    for &n in &counts {
        let (slot, tail) = rest.split_at_mut(n);
        slots.push(slot);
        rest = tail;
    }
    parents.par_chunks(PIECE).zip(slots).for_each(|(piece, slot)| {
        let mut at = 0;
        for b in piece {
            for_each_child(b, size, |c| {
                slot[at] = c.canonical();
                at += 1;
            });
        }
    });
}

/// Canonical children of `parents`, computed in parallel.
fn canonical_children(parents: &[Board], size: BoardSize) -> Vec<Board> {
    parents
        .par_chunks(1024)
        .flat_map_iter(|chunk| {
            let mut out = Vec::with_capacity(chunk.len() * 8);
            for b in chunk {
                for_each_child(b, size, |c| out.push(c.canonical()));
            }
            out
        })
        .collect()
}

/// Builds level `discs` from its parent level.
fn next_level(opts: &EnumerateOptions, parent: &Level, discs: u32) -> Result<(Level, u64, usize), EnumerateError> {
    let budget = opts.memory_bytes;
    // Memory the parents take while children are generated: the whole level when it is
    // in memory, else one step's parents read from its file (with their children: the
    // budget is approximate, children per parent vary).
    let parent_bytes = match parent {
        Level::Memory(v) => v.len() * RECORD_BYTES,
        Level::File(..) => 0,
    };
    let plan = match Plan::new(budget, parent_bytes) {
        Some(plan) => plan,
        None if parent_bytes > 0 => return Err(EnumerateError::OutOfMemory { discs, budget_mb: budget >> 20 }),
        None => return Err(EnumerateError::BudgetTooSmall { bytes: budget }),
    };
    let spill_dir = match &opts.data_dir {
        Some(d) => {
            let dir = d.join(format!("runs-{discs:02}"));
            // Runs left by an interrupted attempt at this level are stale: start afresh.
            if dir.exists() {
                std::fs::remove_dir_all(&dir).map_err(io_err(dir.display()))?;
            }
            std::fs::create_dir_all(&dir).map_err(io_err(dir.display()))?;
            Some(dir)
        }
        None => None,
    };
    let mut sorter = ExternalSorter::new(plan.capacity, spill_dir.clone()).with_io_buffer(plan.io_buffer);
    let pb = bar(opts, parent.count(), discs);
    let oom = |e: SortError| match e {
        SortError::OutOfMemory => EnumerateError::OutOfMemory { discs, budget_mb: budget >> 20 },
        SortError::AllocFailed { bytes } => EnumerateError::Io(format!(
            "level {discs}: cannot allocate a sort buffer of {} MiB (not enough free memory: lower --memory-mb)",
            bytes >> 20
        )),
        SortError::Io(e) => EnumerateError::Io(format!("sorted runs of level {discs}: {e}")),
    };
    let mut kids = Vec::new();
    let mut feed = |parents: &[Board], sorter: &mut ExternalSorter| -> Result<(), EnumerateError> {
        canonical_children_into(parents, opts.size, &mut kids);
        sorter.extend(&kids).map_err(oom)?;
        pb.inc(parents.len() as u64);
        pb.set_message(format!("{} children, {} runs", sorter.pushed(), sorter.runs()));
        Ok(())
    };
    match parent {
        Level::Memory(v) => {
            for chunk in v.chunks(plan.chunk) {
                feed(chunk, &mut sorter)?;
            }
        }
        Level::File(path, count) => {
            let mut r = read_level(path, *count, plan.io_buffer).map_err(io_err(path.display()))?;
            while r.remaining() > 0 {
                let chunk = r.next_chunk(plan.chunk).map_err(io_err(path.display()))?;
                feed(&chunk, &mut sorter)?;
            }
            // Before anything built from these boards is committed.
            r.finish().map_err(io_err("level file"))?;
        }
    }
    pb.finish_and_clear();
    let generated = sorter.pushed();
    let runs = sorter.runs();
    let sorted = sorter.finish().map_err(oom)?;
    let level = match (&opts.data_dir, sorted) {
        (None, Sorted::Memory(v)) => Level::Memory(v),
        (None, Sorted::Runs(_)) => unreachable!("runs need a data directory"),
        (Some(dir), sorted) => {
            let path = level_path(dir, opts.size, discs);
            let mut w = LevelWriter::create(&path, opts.size, discs, plan.io_buffer).map_err(io_err(path.display()))?;
            match sorted {
                Sorted::Memory(v) => {
                    for b in &v {
                        w.push(b).map_err(io_err(path.display()))?;
                    }
                }
                Sorted::Runs(runs) => {
                    let pb = if opts.progress { ProgressBar::new_spinner() } else { ProgressBar::hidden() };
                    pb.set_message(format!("level {discs}: merging {} runs", runs.len()));
                    let mut n = 0u64;
                    merge_runs_buffered(&runs, plan.fan_in, plan.io_buffer, |b| {
                        n += 1;
                        if n.is_multiple_of(1 << 20) {
                            pb.set_message(format!("level {discs}: merging {} runs, {n} boards out", runs.len()));
                        }
                        w.push(b)
                    })
                    .map_err(oom)?;
                    pb.finish_and_clear();
                }
            }
            let count = w.commit().map_err(io_err(path.display()))?;
            if let Some(d) = &spill_dir {
                let _ = std::fs::remove_dir(d);
            }
            Level::File(path, count)
        }
    };
    if let (None, Some(d)) = (&opts.data_dir, &spill_dir) {
        let _ = std::fs::remove_dir(d);
    }
    Ok((level, generated, runs))
}

/// Counts the unique positions with 4..=`opts.max_discs` discs, calling `on_level`
/// as each level is finished. Levels found complete in the data directory are reused.
/// The data directory is locked for the run: a second run on it is
/// [`EnumerateError::InUse`], naming the process that holds it.
pub fn enumerate(
    opts: &EnumerateOptions,
    mut on_level: impl FnMut(&LevelReport),
) -> Result<Vec<LevelReport>, EnumerateError> {
    if opts.max_discs < 4 || opts.max_discs > opts.size.squares() {
        return Err(EnumerateError::BadDiscs(opts.max_discs, opts.size));
    }
    if opts.memory_bytes < MIN_MEMORY_BYTES {
        return Err(EnumerateError::BudgetTooSmall { bytes: opts.memory_bytes });
    }
    let _lock = match &opts.data_dir {
        Some(d) => {
            std::fs::create_dir_all(d).map_err(io_err(d.display()))?;
            Some(lock_data_dir(d)?)
        }
        None => None,
    };
    let mut level = Level::Memory(vec![Board::start().canonical()]);
    let mut reports = Vec::new();
    let first = LevelReport { discs: 4, count: 1, generated: 0, runs: 0, reused: false, time: Duration::ZERO };
    on_level(&first);
    reports.push(first);
    for discs in 5..=opts.max_discs {
        let start = Instant::now();
        let existing = match &opts.data_dir {
            Some(d) => {
                let path = level_path(d, opts.size, discs);
                existing_level(&path, opts.size, discs).map_err(io_err("level file"))?.map(|n| (path, n))
            }
            None => None,
        };
        let report = if let Some((path, count)) = existing {
            level = Level::File(path, count);
            LevelReport { discs, count, generated: 0, runs: 0, reused: true, time: start.elapsed() }
        } else {
            let (next, generated, runs) = next_level(opts, &level, discs)?;
            level = next;
            LevelReport { discs, count: level.count(), generated, runs, reused: false, time: start.elapsed() }
        };
        on_level(&report);
        reports.push(report);
    }
    Ok(reports)
}

/// Every level 4..=`max_discs` of `size` as sorted canonical boards, in memory (for
/// small boards: 4x4 has a few thousand positions). `levels[i]` holds `4 + i` discs.
pub fn levels_in_memory(size: BoardSize, max_discs: u32) -> Vec<Vec<Board>> {
    let mut levels = vec![vec![Board::start().canonical()]];
    for _ in 5..=max_discs.min(size.squares()) {
        let mut next = canonical_children(levels.last().expect("level 4"), size);
        next.par_sort_unstable();
        next.dedup();
        levels.push(next);
    }
    levels
}
