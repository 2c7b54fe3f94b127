//! The published run's stages on disk: every stage program of a stage run (on a few
//! threads, resumably) into a directory that keeps the positions it visited, one file
//! of 16-byte board records per disc count and thread, so that the union per disc
//! count (what Table 3 counts) is taken at the end by an external sort, not held in
//! memory (the plain column alone visits 1.34e9 positions, 21 GB of records).
//!
//! A stage directory holds `layer-<discs>-t<thread>.bin` (the visited boards, each
//! program's own ones once; the same board from several programs several times),
//! `next-t<thread>.txt` (the positions at the next stage's start with kinds and
//! bounds, `player opponent kinds lower upper`), `done.txt` (one line per finished
//! program: `index seconds positions`, written after its records are flushed) and, for a
//! program still running after [`CHECKPOINT_EVERY`], `program-<index>/` (its
//! checkpoint, see [`super::checkpoint`]). A killed or stopped run restarts with the
//! programs not in `done.txt`, each from its checkpoint if it has one; records a killed
//! program left behind are duplicates of what its rerun writes, which the union drops.

use super::io_err;
use super::program::{Limits, Program, Snapshot};
use super::published::{merge_restarts, Restart};
use crate::extsort::{merge_runs_buffered, ExternalSorter, Sorted};
use crate::records::{RecordReader, RecordWriter, BUFFER_BYTES, RECORD_BYTES};
use solvo_othello::Board;
use std::collections::HashSet;
use std::fs::{self, File, OpenOptions};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

fn discs(b: &Board) -> u32 {
    (b.player | b.opponent).count_ones()
}

/// How often a running program snapshots its inner table (see [`super::checkpoint`]):
/// a kill loses at most this much of a program's work, and shorter programs never
/// write a checkpoint.
const CHECKPOINT_EVERY: std::time::Duration = std::time::Duration::from_secs(600);

/// What one stage's directory holds so far.
#[derive(Clone, Debug, Default)]
pub struct StageProgress {
    /// Programs finished (in `done.txt`).
    pub done: usize,
    /// Programs of the stage.
    pub total: usize,
    /// CPU-side wall seconds summed over the finished programs.
    pub seconds: f64,
}

/// The indices of the programs `dir/done.txt` lists as finished, with their seconds.
fn finished(dir: &Path) -> Result<(HashSet<usize>, f64), String> {
    let path = dir.join("done.txt");
    let mut done = HashSet::new();
    let mut seconds = 0.0;
    let Ok(f) = File::open(&path) else { return Ok((done, seconds)) };
    for (i, line) in BufReader::new(f).lines().enumerate() {
        let line = line.map_err(io_err(&path))?;
        let mut it = line.split_whitespace();
        let (Some(k), Some(s)) = (it.next(), it.next()) else { continue };
        let k = k.parse::<usize>().map_err(|_| format!("{}: line {}: bad index", path.display(), i + 1))?;
        done.insert(k);
        seconds += s.parse::<f64>().unwrap_or(0.0);
    }
    Ok((done, seconds))
}

/// Where and how stage programs run on disk.
pub struct DiskRun<'a> {
    /// The directory ([`run_stage`]: the stage's own; [`count_published_on_disk`]: the
    /// root of the stage directories).
    pub dir: &'a Path,
    /// Programs run at a time.
    pub threads: usize,
    /// Boards held in memory while counting a layer (more are sorted in runs on disk).
    pub memory_boards: usize,
    /// Ends the run between programs when set (a later call resumes it).
    pub stop: &'a AtomicBool,
    /// Told of every snapshot a running program takes (its directory and what it had):
    /// the progress of programs that run for hours.
    pub snapshots: Option<&'a SnapshotReport<'a>>,
}

/// Told of a running program's snapshot: the program's directory and what it had.
pub type SnapshotReport<'a> = dyn Fn(&Path, Snapshot) + Sync + 'a;

/// Runs every program of `programs` not yet finished in `run.dir` (created if missing),
/// on `run.threads` threads, keeping the visited positions with at most `max_discs` discs
/// and, when `next_at` is given, those with `next_at` discs as the next stage's starts.
/// `run.stop` ends the run between programs (a later call resumes it). `progress` gets
/// (finished, total) after each program.
pub fn run_stage(
    run: &DiskRun,
    reopening: bool,
    limits: Limits,
    programs: &[Restart],
    max_discs: u32,
    next_at: Option<u32>,
    progress: &(dyn Fn(usize, usize) + Sync),
) -> Result<StageProgress, String> {
    let (dir, threads, stop) = (run.dir, run.threads, run.stop);
    fs::create_dir_all(dir).map_err(io_err(dir))?;
    let (done, _) = finished(dir)?;
    let todo: Vec<usize> = (0..programs.len()).filter(|i| !done.contains(i)).collect();
    let next_index = AtomicUsize::new(0);
    let finished_count = AtomicUsize::new(done.len());
    let done_path = dir.join("done.txt");
    let done_file =
        Mutex::new(OpenOptions::new().create(true).append(true).open(&done_path).map_err(io_err(&done_path))?);
    let first_error: Mutex<Option<String>> = Mutex::new(None);
    std::thread::scope(|s| {
        for t in 0..threads.max(1) {
            let (todo, next_index, finished_count, done_file, first_error, done_path) =
                (&todo, &next_index, &finished_count, &done_file, &first_error, &done_path);
            s.spawn(move || {
                let work = || -> Result<(), String> {
                    let mut layers: Vec<Option<RecordWriter>> = (0..37).map(|_| None).collect();
                    let next_path = dir.join(format!("next-t{t}.txt"));
                    let mut next =
                        OpenOptions::new().create(true).append(true).open(&next_path).map_err(io_err(&next_path))?;
                    loop {
                        if stop.load(Ordering::Relaxed) {
                            return Ok(());
                        }
                        let k = next_index.fetch_add(1, Ordering::Relaxed);
                        let Some(&i) = todo.get(k) else { return Ok(()) };
                        let r = programs[i];
                        let t0 = Instant::now();
                        let program_dir = dir.join(format!("program-{i}"));
                        let report = |s: Snapshot| {
                            if let Some(f) = run.snapshots {
                                f(&program_dir, s);
                            }
                        };
                        let mut p = Program::resumable(reopening, limits, r, &program_dir, CHECKPOINT_EVERY, stop)?
                            .on_snapshot(&report);
                        p.resume();
                        if p.halted() {
                            // Stopped (or its checkpoint failed): it resumes from its snapshot.
                            return p.finish();
                        }
                        let mut lines = String::new();
                        for (b, e) in p.visited() {
                            let d = discs(b);
                            if Some(d) == next_at {
                                lines.push_str(&format!(
                                    "{:x} {:x} {} {} {}\n",
                                    b.player, b.opponent, e.kinds, e.lower, e.upper
                                ));
                            }
                            if d > max_discs {
                                continue;
                            }
                            let w = match &mut layers[d as usize] {
                                Some(w) => w,
                                slot => {
                                    let path = dir.join(format!("layer-{d:02}-t{t}.bin"));
                                    let f = OpenOptions::new()
                                        .create(true)
                                        .append(true)
                                        .open(&path)
                                        .map_err(io_err(&path))?;
                                    slot.insert(RecordWriter::with_buffer(f, BUFFER_BYTES))
                                }
                            };
                            w.push(b).map_err(|e| e.to_string())?;
                        }
                        // Flush this program's records before it is marked finished.
                        for slot in layers.iter_mut() {
                            if let Some(w) = slot.take() {
                                w.finish().map_err(|e| e.to_string())?;
                            }
                        }
                        next.write_all(lines.as_bytes()).map_err(io_err(&next_path))?;
                        next.flush().map_err(io_err(&next_path))?;
                        let line = format!("{i} {:.3} {}\n", t0.elapsed().as_secs_f64(), p.visited().len());
                        done_file.lock().expect("done file").write_all(line.as_bytes()).map_err(io_err(done_path))?;
                        p.finish()?;
                        let n = finished_count.fetch_add(1, Ordering::Relaxed) + 1;
                        progress(n, programs.len());
                    }
                };
                if let Err(e) = work() {
                    stop.store(true, Ordering::Relaxed);
                    first_error.lock().expect("error slot").get_or_insert(e);
                }
            });
        }
    });
    if let Some(e) = first_error.into_inner().expect("error slot") {
        return Err(e);
    }
    let (done, seconds) = finished(dir)?;
    Ok(StageProgress { done: done.len(), total: programs.len(), seconds })
}

/// The next stage's starts a finished stage's directory holds (kinds ORed and bounds
/// intersected over its programs, as the published scripts merged them).
pub fn next_starts(dir: &Path) -> Result<Vec<Restart>, String> {
    let mut all = Vec::new();
    for entry in fs::read_dir(dir).map_err(io_err(dir))? {
        let path = entry.map_err(io_err(dir))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if !(name.starts_with("next-t") && name.ends_with(".txt")) {
            continue;
        }
        let text = fs::read_to_string(&path).map_err(io_err(&path))?;
        for (i, line) in text.lines().enumerate() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("{}: line {}: expected `player opponent kinds lower upper`", path.display(), i + 1);
            if f.len() != 5 {
                // A torn last line of a killed program (rerun later) is skipped.
                continue;
            }
            let p = u64::from_str_radix(f[0], 16).map_err(|_| bad())?;
            let o = u64::from_str_radix(f[1], 16).map_err(|_| bad())?;
            let board = Board::new(p, o).ok_or_else(bad)?;
            let kinds = f[2].parse().map_err(|_| bad())?;
            let lower = f[3].parse().map_err(|_| bad())?;
            let upper = f[4].parse().map_err(|_| bad())?;
            all.push(Restart { board, kinds, lower, upper });
        }
    }
    Ok(merge_restarts(all))
}

/// One disc count of a stage directory: unique positions and the bytes of records kept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerCount {
    /// Disc count.
    pub discs: u32,
    /// Unique positions in the union of the stage's programs.
    pub unique: u64,
    /// Bytes of records on disk for this disc count (duplicates included).
    pub bytes: u64,
}

/// The union per disc count of what `dir`'s programs visited: each layer's records are
/// sorted and de-duplicated through at most `memory_boards` boards in memory, spilling
/// sorted runs into `dir/sort/`.
pub fn count_layers(dir: &Path, memory_boards: usize) -> Result<Vec<LayerCount>, String> {
    let mut files: Vec<Vec<PathBuf>> = vec![Vec::new(); 37];
    for entry in fs::read_dir(dir).map_err(io_err(dir))? {
        let path = entry.map_err(io_err(dir))?.path();
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("").to_string();
        if let Some(rest) = name.strip_prefix("layer-") {
            if let Some(d) = rest.get(..2).and_then(|d| d.parse::<usize>().ok()).filter(|&d| d < 37) {
                files[d].push(path);
            }
        }
    }
    let spill = dir.join("sort");
    let mut out = Vec::new();
    for (d, paths) in files.iter().enumerate() {
        if paths.is_empty() {
            continue;
        }
        let mut sorter = ExternalSorter::new(memory_boards, Some(spill.clone()));
        let mut bytes = 0;
        for path in paths {
            let len = fs::metadata(path).map_err(io_err(path))?.len();
            bytes += len;
            let n = len / RECORD_BYTES as u64;
            let mut r = RecordReader::with_buffer(File::open(path).map_err(io_err(path))?, n, BUFFER_BYTES);
            let mut chunk = Vec::with_capacity(1 << 16);
            while let Some(b) = r.next_board().map_err(io_err(path))? {
                chunk.push(b);
                if chunk.len() == chunk.capacity() {
                    sorter.extend(&chunk).map_err(|e| format!("{e:?}"))?;
                    chunk.clear();
                }
            }
            sorter.extend(&chunk).map_err(|e| format!("{e:?}"))?;
        }
        fs::create_dir_all(&spill).map_err(io_err(&spill))?;
        let unique = match sorter.finish().map_err(|e| format!("{e:?}"))? {
            Sorted::Memory(v) => v.len() as u64,
            Sorted::Runs(runs) => {
                merge_runs_buffered(&runs, 64, BUFFER_BYTES, |_| Ok(())).map_err(|e| format!("{e:?}"))?
            }
        };
        out.push(LayerCount { discs: d as u32, unique, bytes });
    }
    Ok(out)
}

/// Table 3's column counted on disk, stage by stage (see [`count_published_on_disk`]).
#[derive(Clone, Debug, Default)]
pub struct DiskCounts {
    /// Per disc count: unique positions, bytes of records kept, and whether every
    /// program that could visit that disc count has finished (else a lower bound).
    pub rows: Vec<(LayerCount, bool)>,
    /// Per stage run here: its programs finished and in all, and their seconds.
    pub stages: Vec<StageProgress>,
}

/// [`super::published::count_published`] with every stage's programs run into
/// `run.dir/<plain|reopening>/stage<k>` (resumable, `run.threads` threads; see
/// [`run_stage`]), the union per disc count taken on disk. A stage starts once the one
/// before has finished; `run.stop` ends the run between programs, and what has finished is counted
/// (rows whose stage has not finished are marked incomplete).
pub fn count_published_on_disk(
    run: &DiskRun,
    reopening: bool,
    max_discs: u32,
    table: &[Restart],
    progress: &(dyn Fn(usize, usize, usize) + Sync),
) -> Result<DiskCounts, String> {
    let dir = run.dir;
    let bounds = super::published::stage_boundaries(reopening);
    let root = dir.join(if reopening { "reopening" } else { "plain" });
    let mut out = DiskCounts::default();
    let mut rows: Vec<Option<(LayerCount, bool)>> = vec![None; 37];
    let from_table = reopening && !table.is_empty();
    let mut starts = if from_table {
        let mut n = [0u64; 37];
        for r in table {
            n[discs(&r.board) as usize] += 1;
        }
        for d in 4..=bounds[0].min(max_discs) {
            rows[d as usize] = Some((LayerCount { discs: d, unique: n[d as usize], bytes: 0 }, true));
        }
        merge_restarts(table.iter().copied().filter(|r| discs(&r.board) == bounds[0]))
    } else {
        vec![Restart { board: Board::start(), kinds: crate::store::kind::P, lower: -36, upper: 36 }]
    };
    let first = usize::from(from_table);
    for stage in first..=bounds.len() {
        let from = if stage == 0 { 4 } else { bounds[stage - 1] };
        if stage > 0 && from >= max_discs {
            break;
        }
        let limits = Limits::published(reopening, from).ok_or("no published limits")?;
        let sdir = root.join(format!("stage{}", stage + 1));
        let next_at = bounds.get(stage).copied();
        let report = |d: usize, t: usize| progress(stage + 1, d, t);
        let stage_run = DiskRun { dir: &sdir, ..*run };
        let p = run_stage(&stage_run, reopening, limits, &starts, max_discs, next_at, &report)?;
        let complete = p.done == p.total;
        out.stages.push(p);
        let to = next_at.unwrap_or(36).min(max_discs);
        for c in count_layers(&sdir, run.memory_boards)? {
            let owned = c.discs <= to && (stage == 0 || c.discs > from);
            if owned {
                rows[c.discs as usize] = Some((c, complete));
            }
        }
        if !complete {
            break;
        }
        starts = match next_at {
            Some(_) => next_starts(&sdir)?,
            None => Vec::new(),
        };
    }
    out.rows = rows.into_iter().flatten().collect();
    Ok(out)
}
