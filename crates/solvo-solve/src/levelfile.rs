//! A finished enumeration level on disk: a 24-byte header (magic, board side, disc
//! count, number of boards), the sorted, duplicate-free canonical boards, and an 8-byte
//! trailer: the [`RecordChecksum`] of the boards. A file is written under a temporary
//! name and renamed once complete and synced, so a file with the final name is always
//! whole: an interrupted run reuses it.
//!
//! Damage is found as the file is used: the length is checked on open, and the
//! checksum when the boards have been read ([`LevelReader::finish`]), before anything
//! built from them is committed. Files of the first format (`SOLVOLV1`, no checksum)
//! are refused with a message saying to regenerate them: their boards cannot be
//! checked, and a level built from a silently damaged one would give wrong counts.

use crate::record_checksum::RecordChecksum;
use crate::records::{RecordReader, RecordWriter, RECORD_BYTES};
use solvo_othello::{Board, BoardSize};
use std::fs::{File, OpenOptions};
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 8] = b"SOLVOLV2";
const MAGIC_WITHOUT_CHECKSUM: &[u8; 8] = b"SOLVOLV1";
const HEADER_BYTES: u64 = 24;
const TRAILER_BYTES: u64 = 8;

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
    if &h[..8] == MAGIC_WITHOUT_CHECKSUM {
        return Err(bad(
            "written by an older solvo without a checksum, so its boards cannot be checked: delete it and the later level files and rerun to regenerate them",
        ));
    }
    if &h[..8] != MAGIC || h[8] != size.side() || u32::from(h[9]) != discs {
        return Err(bad(
            "not a level file of this board size and disc count (damaged?): delete it and rerun to regenerate it",
        ));
    }
    let len = f.metadata()?.len();
    let expected = count.checked_mul(RECORD_BYTES as u64).and_then(|n| n.checked_add(HEADER_BYTES + TRAILER_BYTES));
    if Some(len) != expected {
        return Err(bad(&format!(
            "damaged: length {len} does not match its {count} boards (truncated?): delete it and rerun to regenerate it"
        )));
    }
    Ok(Some(count))
}

/// Reads the boards of a whole level file in order and checks its checksum at the end.
pub struct LevelReader {
    records: RecordReader,
    path: PathBuf,
}

impl LevelReader {
    /// Boards not read yet.
    pub fn remaining(&self) -> u64 {
        self.records.remaining()
    }

    /// Up to `max` next boards (fewer only at the end).
    pub fn next_chunk(&mut self, max: usize) -> io::Result<Vec<Board>> {
        self.records.next_chunk(max)
    }

    /// After every board was read: `Ok` when the boards match the file's checksum, else
    /// an error saying the file is damaged and what to do.
    pub fn finish(mut self) -> io::Result<()> {
        let mut trailer = [0u8; TRAILER_BYTES as usize];
        self.records.input().read_exact(&mut trailer)?;
        if self.records.remaining() != 0 || u64::from_le_bytes(trailer) != self.records.checksum().value() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: damaged: its boards do not match its checksum: delete it and rerun to regenerate it",
                    self.path.display()
                ),
            ));
        }
        Ok(())
    }
}

/// Opens a whole level file (see [`existing_level`]) for reading its boards in order,
/// through a buffer of `buffer` bytes.
pub fn read_level(path: &Path, count: u64, buffer: usize) -> io::Result<LevelReader> {
    let mut f = File::open(path)?;
    f.seek(SeekFrom::Start(HEADER_BYTES))?;
    Ok(LevelReader { records: RecordReader::with_buffer(f, count, buffer), path: path.to_path_buf() })
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
    /// Starts writing level `discs` to `path` (through `path` + `.tmp`), through a buffer
    /// of `buffer` bytes.
    pub fn create(path: &Path, size: BoardSize, discs: u32, buffer: usize) -> io::Result<LevelWriter> {
        let tmp = path.with_extension("bin.tmp");
        let mut f = OpenOptions::new().write(true).create(true).truncate(true).open(&tmp)?;
        f.write_all(&header(size, discs, 0))?;
        Ok(LevelWriter { records: RecordWriter::with_buffer(f, buffer), tmp, path: path.to_path_buf(), size, discs })
    }

    /// Appends the next board.
    #[inline]
    pub fn push(&mut self, b: &Board) -> io::Result<()> {
        self.records.push(b)
    }

    /// Completes the file (trailer, header, sync, rename); returns the number of boards.
    pub fn commit(self) -> io::Result<u64> {
        let count = self.records.written();
        let checksum: RecordChecksum = self.records.checksum();
        let mut f = self.records.finish()?;
        f.write_all(&checksum.value().to_le_bytes())?;
        f.seek(SeekFrom::Start(0))?;
        f.write_all(&header(self.size, self.discs, count))?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&self.tmp, &self.path)?;
        Ok(count)
    }
}
