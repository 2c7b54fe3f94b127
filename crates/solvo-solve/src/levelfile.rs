//! A finished enumeration level on disk: a 24-byte header (magic, board side, disc
//! count, number of boards) and the sorted, duplicate-free canonical boards. A file is
//! written under a temporary name and renamed once complete and synced, so a file with
//! the final name is always whole: an interrupted run reuses it.

use crate::records::{RecordReader, RecordWriter, RECORD_BYTES};
use solvo_othello::{Board, BoardSize};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"SOLVOLV1";
const HEADER_BYTES: u64 = 24;

/// The path of level `discs` of `size` under `dir`.
pub fn level_path(dir: &Path, size: BoardSize, discs: u32) -> PathBuf {
    dir.join(format!("level-{}x{}-{discs:02}.bin", size.side(), size.side()))
}

fn header(size: BoardSize, discs: u32, count: u64) -> [u8; HEADER_BYTES as usize] {
    let mut h = [0u8; HEADER_BYTES as usize];
    h[..8].copy_from_slice(MAGIC);
    h[8] = size.side();
    h[9] = discs as u8;
    h[16..].copy_from_slice(&count.to_le_bytes());
    h
}

/// The number of boards in the level file at `path`, if it exists and is whole and of
/// this size and disc count; `Ok(None)` if it does not exist; an error naming the file
/// when it exists but is damaged or of another board.
pub fn existing_level(path: &Path, size: BoardSize, discs: u32) -> io::Result<Option<u64>> {
    let mut f = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    let bad = |what: &str| io::Error::new(io::ErrorKind::InvalidData, format!("{}: {what}", path.display()));
    let mut h = [0u8; HEADER_BYTES as usize];
    f.read_exact(&mut h).map_err(|_| bad("shorter than its header"))?;
    let count = u64::from_le_bytes(h[16..].try_into().expect("8 bytes"));
    if &h[..8] != MAGIC || h[8] != size.side() || u32::from(h[9]) != discs {
        return Err(bad("not a level file of this board size and disc count"));
    }
    let len = f.metadata()?.len();
    if len != HEADER_BYTES + count * RECORD_BYTES as u64 {
        return Err(bad(&format!("length {len} does not match its {count} boards")));
    }
    Ok(Some(count))
}

/// Opens a whole level file for reading its boards in order.
pub fn read_level(path: &Path, count: u64) -> io::Result<RecordReader> {
    let mut f = File::open(path)?;
    f.seek(SeekFrom::Start(HEADER_BYTES))?;
    Ok(RecordReader::new(f, count))
}

/// Writes a level file: boards are pushed in sorted order; [`LevelWriter::commit`]
/// fixes the header, syncs and renames the file into place.
pub struct LevelWriter {
    records: RecordWriter,
    tmp: PathBuf,
    path: PathBuf,
    size: BoardSize,
    discs: u32,
}

impl LevelWriter {
    /// Starts writing level `discs` to `path` (through `path` + `.tmp`).
    pub fn create(path: &Path, size: BoardSize, discs: u32) -> io::Result<LevelWriter> {
        let tmp = path.with_extension("bin.tmp");
        let mut f = OpenOptions::new().write(true).create(true).truncate(true).open(&tmp)?;
        f.write_all(&header(size, discs, 0))?;
        Ok(LevelWriter { records: RecordWriter::new(f), tmp, path: path.to_path_buf(), size, discs })
    }

    /// Appends the next board.
    #[inline]
    pub fn push(&mut self, b: &Board) -> io::Result<()> {
        self.records.push(b)
    }

    /// Completes the file; returns the number of boards.
    pub fn commit(self) -> io::Result<u64> {
        let count = self.records.written();
        let mut f = self.records.finish()?;
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&header(self.size, self.discs, count))?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&self.tmp, &self.path)?;
        Ok(count)
    }
}
