//! Flat files of boards: 16-byte little-endian records (player, then opponent), read
//! and written in large buffered blocks. Used for sorted runs and level files.

use crate::record_checksum::RecordChecksum;
use solvo_othello::Board;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};

/// Bytes per stored board.
pub const RECORD_BYTES: usize = 16;

/// The buffer of a reader or writer made with `new` (1 MiB).
pub const BUFFER_BYTES: usize = 1 << 20;

/// Encodes one board as its record.
#[inline]
pub fn encode(b: &Board) -> [u8; RECORD_BYTES] {
    let mut r = [0u8; RECORD_BYTES];
    r[..8].copy_from_slice(&b.player.to_le_bytes());
    r[8..].copy_from_slice(&b.opponent.to_le_bytes());
    r
}

/// Decodes a record; `None` when the two disc sets overlap (a corrupt record).
#[inline]
pub fn decode(r: &[u8]) -> Option<Board> {
    let p = u64::from_le_bytes(r[..8].try_into().ok()?);
    let o = u64::from_le_bytes(r[8..16].try_into().ok()?);
    Board::new(p, o)
}

/// Writes boards one after another through a large buffer.
pub struct RecordWriter {
    out: BufWriter<File>,
    written: u64,
    checksum: RecordChecksum,
}

impl RecordWriter {
    /// Writes records to `file` from its current offset, through a buffer of `bytes`
    /// (at least one record).
    pub fn with_buffer(file: File, bytes: usize) -> RecordWriter {
        let out = BufWriter::with_capacity(bytes.max(RECORD_BYTES), file);
        RecordWriter { out, written: 0, checksum: RecordChecksum::default() }
    }

    /// Appends one board.
    #[inline]
    pub fn push(&mut self, b: &Board) -> io::Result<()> {
        self.written += 1;
        self.checksum.add(b);
        self.out.write_all(&encode(b))
    }

    /// The checksum of the boards written so far.
    pub fn checksum(&self) -> RecordChecksum {
        self.checksum
    }

    /// Boards written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Flushes the buffer and returns the file (not yet synced).
    pub fn finish(self) -> io::Result<File> {
        self.out.into_inner().map_err(|e| e.into_error())
    }
}

/// Reads a known number of boards through a large buffer.
pub struct RecordReader {
    input: BufReader<File>,
    remaining: u64,
    checksum: RecordChecksum,
}

impl RecordReader {
    /// Reads `count` records from `file`'s current offset, through a buffer of `bytes`
    /// (at least one record).
    pub fn with_buffer(file: File, count: u64, bytes: usize) -> RecordReader {
        let input = BufReader::with_capacity(bytes.max(RECORD_BYTES), file);
        RecordReader { input, remaining: count, checksum: RecordChecksum::default() }
    }

    /// Records not read yet.
    pub fn remaining(&self) -> u64 {
        self.remaining
    }

    /// The checksum of the boards read so far.
    pub fn checksum(&self) -> RecordChecksum {
        self.checksum
    }

    /// The underlying reader, for what follows the records (a trailer).
    pub fn input(&mut self) -> &mut BufReader<File> {
        &mut self.input
    }

    /// The next board, `Ok(None)` at the end; an error on a short or corrupt file.
    pub fn next_board(&mut self) -> io::Result<Option<Board>> {
        if self.remaining == 0 {
            return Ok(None);
        }
        let mut r = [0u8; RECORD_BYTES];
        self.input.read_exact(&mut r)?;
        self.remaining -= 1;
        let b = decode(&r).ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "overlapping disc sets"))?;
        self.checksum.add(&b);
        Ok(Some(b))
    }

    /// Up to `max` next boards (fewer only at the end).
    pub fn next_chunk(&mut self, max: usize) -> io::Result<Vec<Board>> {
        let n = (max as u64).min(self.remaining) as usize;
        let mut bytes = vec![0u8; n * RECORD_BYTES];
        self.input.read_exact(&mut bytes)?;
        self.remaining -= n as u64;
        let boards = bytes
            .chunks_exact(RECORD_BYTES)
            .map(|r| decode(r).ok_or_else(|| io::Error::new(io::ErrorKind::InvalidData, "overlapping disc sets")))
            .collect::<io::Result<Vec<Board>>>()?;
        boards.iter().for_each(|b| self.checksum.add(b));
        Ok(boards)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_round_trip() {
        let dir = std::env::temp_dir().join(format!("solvo-records-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("r.bin");
        let boards: Vec<Board> = (0..1000u64).map(|i| Board::new(i << 1, 1u64 << 63).unwrap()).collect();
        let mut w = RecordWriter::with_buffer(File::create(&path).unwrap(), BUFFER_BYTES);
        for b in &boards {
            w.push(b).unwrap();
        }
        assert_eq!(w.written(), 1000);
        w.finish().unwrap();
        let mut r = RecordReader::with_buffer(File::open(&path).unwrap(), 1000, BUFFER_BYTES);
        let mut back = r.next_chunk(10).unwrap();
        while let Some(b) = r.next_board().unwrap() {
            back.push(b);
        }
        assert_eq!(back, boards);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
