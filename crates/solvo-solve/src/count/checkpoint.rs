//! Checkpoints of one long stage program, so that a program of hours (the plain
//! column's first stage) survives a kill or a stop and resumes to the very positions an
//! uninterrupted run visits.
//!
//! A program's outer search is cheap and deterministic once the answers of its inner
//! search are known; the inner search's answers depend on its table. So a checkpoint is
//! three files in the program's directory:
//! - `answers.bin`: every answer of an inner search started by the outer search, in the
//!   order asked (value `i32` and move `u32`, little-endian, 8 bytes each), appended as
//!   they come;
//! - `inner.bin`: the inner table as it stood after the first `k` answers: a header
//!   `SOLVOCKP`, `k` and the entry count, then per entry the board's two words and its
//!   bounds, 18 bytes, and an FNV-1a sum of all that; written to a temporary file and
//!   renamed, so a kill leaves the old snapshot or the new one, whole. It is taken
//!   between two answers once the interval has passed, so an answer that takes longer
//!   delays it;
//! - `program.txt`: which program the checkpoint is of (search, start, kinds, window,
//!   limits, one line): a rerun of another program in the same directory is refused
//!   rather than fed these answers.
//!
//! A resumed program replays its first `k` answers without searching (the outer search
//! and its table are rebuilt as they were), takes the snapshot's inner table, and goes
//! on searching from answer `k + 1`; answers after `k` (asked after the snapshot) are cut
//! from the file and computed again. A program touches the disk only from its first
//! snapshot on (most programs end sooner: their answers stay in memory), and its
//! directory is removed once it has finished and its records are kept.

use super::io_err;
use super::program::BoardMap;
use solvo_othello::Board;
use std::fs::{self, File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const MAGIC: &[u8; 8] = b"SOLVOCKP";
const ANSWER_BYTES: u64 = 8;
const ENTRY_BYTES: usize = 18;

/// FNV-1a over `bytes`, continuing from `h`.
fn fnv(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    h
}

const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// The inner search's table: bounds per canonical board.
type InnerTable = BoardMap<(i8, i8)>;

/// The checkpoint of one program (see the module's documentation).
pub struct Checkpoint {
    dir: PathBuf,
    /// The program's identity line (see `program.txt`).
    identity: String,
    /// Answers to replay before searching again (read from `answers.bin`).
    replay: Vec<(i32, u8)>,
    /// The next answer to replay.
    cursor: usize,
    /// Answers asked so far (replayed and new).
    asked: u64,
    /// The answers file, once the first snapshot has created it.
    answers: Option<BufWriter<File>>,
    /// Answers not yet in a file (before the first snapshot).
    pending: Vec<(i32, u8)>,
    every: Duration,
    last: Instant,
}

impl Checkpoint {
    /// Opens the checkpoint in `dir` (created if missing), snapshotting the inner table
    /// every `every`: the answers to replay and, if a snapshot exists, its inner table
    /// (else an empty one and nothing to replay).
    pub fn open(dir: &Path, every: Duration, identity: &str) -> Result<(Checkpoint, InnerTable), String> {
        let id_path = dir.join("program.txt");
        if let Ok(found) = fs::read_to_string(&id_path) {
            if found.trim_end() != identity {
                return Err(format!(
                    "{}: a checkpoint of another program ({}), not of this one ({identity}); remove the directory to start afresh",
                    dir.display(),
                    found.trim_end()
                ));
            }
        }
        let fresh = || Checkpoint {
            dir: dir.to_path_buf(),
            identity: identity.to_string(),
            replay: Vec::new(),
            cursor: 0,
            asked: 0,
            answers: None,
            pending: Vec::new(),
            every,
            last: Instant::now(),
        };
        let Some((k, inner)) = read_snapshot(&dir.join("inner.bin"))? else {
            // Nothing kept (a program killed before its first snapshot starts over).
            return Ok((fresh(), BoardMap::default()));
        };
        let answers_path = dir.join("answers.bin");
        let mut replay = Vec::with_capacity(k as usize);
        if k > 0 {
            let f = File::open(&answers_path).map_err(io_err(&answers_path))?;
            let have = f.metadata().map_err(io_err(&answers_path))?.len() / ANSWER_BYTES;
            if have < k {
                return Err(format!(
                    "{}: {have} answers, but the inner table's snapshot was taken after {k}",
                    answers_path.display()
                ));
            }
            let mut r = BufReader::new(f);
            let mut buf = [0u8; 8];
            for _ in 0..k {
                r.read_exact(&mut buf).map_err(io_err(&answers_path))?;
                let v = i32::from_le_bytes(buf[..4].try_into().expect("4 bytes"));
                let m = u32::from_le_bytes(buf[4..].try_into().expect("4 bytes"));
                replay.push((v, m as u8));
            }
        }
        // Answers asked after the snapshot are asked again.
        let f = OpenOptions::new().write(true).open(&answers_path).map_err(io_err(&answers_path))?;
        f.set_len(k * ANSWER_BYTES).map_err(io_err(&answers_path))?;
        drop(f);
        let f = OpenOptions::new().append(true).open(&answers_path).map_err(io_err(&answers_path))?;
        Ok((Checkpoint { replay, answers: Some(BufWriter::new(f)), ..fresh() }, inner))
    }

    /// The next recorded answer, while some remain.
    pub fn next_replayed(&mut self) -> Option<(i32, u8)> {
        let a = self.replay.get(self.cursor).copied()?;
        self.cursor += 1;
        self.asked += 1;
        Some(a)
    }

    /// Appends a new answer.
    pub fn record(&mut self, v: i32, m: u8) -> Result<(), String> {
        self.asked += 1;
        match &mut self.answers {
            Some(w) => w.write_all(&answer_bytes(v, m)).map_err(io_err(&self.dir)),
            None => {
                self.pending.push((v, m));
                Ok(())
            }
        }
    }

    /// Whether a snapshot is due (the interval has passed since the last one).
    pub fn due(&self) -> bool {
        self.last.elapsed() >= self.every
    }

    /// Writes the inner table as it stands after the answers recorded so far: the
    /// answers first (flushed and synced), then the snapshot (a temporary file renamed);
    /// the number of answers it follows.
    pub fn snapshot(&mut self, inner: &InnerTable) -> Result<u64, String> {
        let answers_path = self.dir.join("answers.bin");
        let w = match &mut self.answers {
            Some(w) => w,
            slot => {
                fs::create_dir_all(&self.dir).map_err(io_err(&self.dir))?;
                let f = File::create(&answers_path).map_err(io_err(&answers_path))?;
                slot.insert(BufWriter::new(f))
            }
        };
        for (v, m) in self.pending.drain(..) {
            w.write_all(&answer_bytes(v, m)).map_err(io_err(&answers_path))?;
        }
        w.flush().map_err(io_err(&answers_path))?;
        w.get_ref().sync_data().map_err(io_err(&answers_path))?;
        let id_path = self.dir.join("program.txt");
        fs::write(&id_path, format!("{}\n", self.identity)).map_err(io_err(&id_path))?;
        let tmp = self.dir.join("inner.bin.tmp");
        let f = File::create(&tmp).map_err(io_err(&tmp))?;
        let mut w = BufWriter::with_capacity(1 << 20, f);
        let mut head = Vec::with_capacity(24);
        head.extend_from_slice(MAGIC);
        head.extend_from_slice(&self.asked.to_le_bytes());
        head.extend_from_slice(&(inner.len() as u64).to_le_bytes());
        let mut sum = fnv(FNV_START, &head);
        w.write_all(&head).map_err(io_err(&tmp))?;
        for (b, &(lo, hi)) in inner {
            let mut e = [0u8; ENTRY_BYTES];
            e[..8].copy_from_slice(&b.player.to_le_bytes());
            e[8..16].copy_from_slice(&b.opponent.to_le_bytes());
            e[16] = lo as u8;
            e[17] = hi as u8;
            sum = fnv(sum, &e);
            w.write_all(&e).map_err(io_err(&tmp))?;
        }
        w.write_all(&sum.to_le_bytes()).map_err(io_err(&tmp))?;
        let f = w.into_inner().map_err(|e| format!("{}: {}", tmp.display(), e.error()))?;
        f.sync_data().map_err(io_err(&tmp))?;
        let path = self.dir.join("inner.bin");
        fs::rename(&tmp, &path).map_err(io_err(&path))?;
        self.last = Instant::now();
        Ok(self.asked)
    }

    /// Removes the checkpoint's files (the program has finished).
    pub fn remove(self) -> Result<(), String> {
        let had_files = self.answers.is_some() || self.dir.exists();
        drop(self.answers);
        if had_files {
            fs::remove_dir_all(&self.dir).map_err(io_err(&self.dir))?;
        }
        Ok(())
    }
}

fn answer_bytes(v: i32, m: u8) -> [u8; 8] {
    let mut buf = [0u8; 8];
    buf[..4].copy_from_slice(&v.to_le_bytes());
    buf[4..].copy_from_slice(&u32::from(m).to_le_bytes());
    buf
}

/// The snapshot at `path` (answers it follows, inner table), `None` when there is none;
/// an error naming the file when it is not a whole snapshot.
fn read_snapshot(path: &Path) -> Result<Option<(u64, InnerTable)>, String> {
    let f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let len = f.metadata().map_err(io_err(path))?.len();
    let mut r = BufReader::with_capacity(1 << 20, f);
    let mut head = [0u8; 24];
    r.read_exact(&mut head).map_err(|_| format!("{}: shorter than its header", path.display()))?;
    if &head[..8] != MAGIC {
        return Err(format!("{}: not a solvo checkpoint (bad magic)", path.display()));
    }
    let k = u64::from_le_bytes(head[8..16].try_into().expect("8 bytes"));
    let n = u64::from_le_bytes(head[16..24].try_into().expect("8 bytes"));
    if len != 24 + n * ENTRY_BYTES as u64 + 8 {
        return Err(format!("{}: {len} bytes, but its header announces {n} entries", path.display()));
    }
    let mut sum = fnv(FNV_START, &head);
    let mut inner = BoardMap::default();
    inner.reserve(n as usize);
    let mut e = [0u8; ENTRY_BYTES];
    for _ in 0..n {
        r.read_exact(&mut e).map_err(io_err(path))?;
        sum = fnv(sum, &e);
        let b = Board {
            player: u64::from_le_bytes(e[..8].try_into().expect("8 bytes")),
            opponent: u64::from_le_bytes(e[8..16].try_into().expect("8 bytes")),
        };
        inner.insert(b, (e[16] as i8, e[17] as i8));
    }
    let mut s = [0u8; 8];
    r.read_exact(&mut s).map_err(io_err(path))?;
    if u64::from_le_bytes(s) != sum {
        return Err(format!("{}: checksum mismatch (the snapshot is damaged)", path.display()));
    }
    Ok(Some((k, inner)))
}
