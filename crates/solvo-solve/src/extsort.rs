//! Sorting and de-duplicating more boards than fit in memory: boards are gathered in a
//! buffer; a full buffer is sorted and de-duplicated in place and, if still more than
//! half full, written to disk as a sorted run; at the end the runs (and the buffer) are
//! merged k ways, dropping duplicates, into one sorted stream. When there are more runs
//! than the process may open files ([`crate::open_file_limit::merge_fan_in`]), they are
//! first merged in groups into fewer, longer runs, pass after pass.

use crate::records::{RecordReader, RecordWriter, BUFFER_BYTES};
use rayon::slice::ParallelSliceMut;
use solvo_othello::Board;
use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::fs::File;
use std::io;
use std::path::PathBuf;

/// Why boards could not be sorted.
#[derive(Debug)]
pub enum SortError {
    /// The buffer filled up and no spill directory was given.
    OutOfMemory,
    /// The system refused the buffer's memory (the budget is larger than what is free).
    AllocFailed {
        /// The buffer size asked for, in bytes.
        bytes: usize,
    },
    /// Reading or writing a run failed.
    Io(io::Error),
}

impl From<io::Error> for SortError {
    fn from(e: io::Error) -> Self {
        SortError::Io(e)
    }
}

/// An external sorter of boards with duplicate removal.
pub struct ExternalSorter {
    buffer: Vec<Board>,
    capacity: usize,
    spill_dir: Option<PathBuf>,
    runs: Vec<(PathBuf, u64)>,
    pushed: u64,
    io_buffer: usize,
}

/// The sorted, duplicate-free result of an [`ExternalSorter`].
pub enum Sorted {
    /// Everything fitted in memory.
    Memory(Vec<Board>),
    /// Runs on disk to merge with [`merge_runs_buffered`].
    Runs(Vec<(PathBuf, u64)>),
}

fn sort_dedup(v: &mut Vec<Board>) {
    v.par_sort_unstable();
    v.dedup();
}

impl ExternalSorter {
    /// A sorter holding at most `capacity` boards in memory, spilling runs into
    /// `spill_dir` (when `None`, overflowing is an error).
    pub fn new(capacity: usize, spill_dir: Option<PathBuf>) -> ExternalSorter {
        ExternalSorter {
            buffer: Vec::new(),
            capacity: capacity.max(1024),
            spill_dir,
            runs: Vec::new(),
            pushed: 0,
            io_buffer: BUFFER_BYTES,
        }
    }

    /// Writes runs through a buffer of `bytes` (default [`BUFFER_BYTES`]).
    pub fn with_io_buffer(mut self, bytes: usize) -> ExternalSorter {
        self.io_buffer = bytes;
        self
    }

    /// Boards pushed so far (duplicates included).
    pub fn pushed(&self) -> u64 {
        self.pushed
    }

    /// Runs written to disk so far.
    pub fn runs(&self) -> usize {
        self.runs.len()
    }

    /// Adds boards; compacts or spills when the buffer is full.
    pub fn extend(&mut self, boards: &[Board]) -> Result<(), SortError> {
        self.pushed += boards.len() as u64;
        if self.buffer.capacity() == 0 {
            let bytes = self.capacity.saturating_mul(std::mem::size_of::<Board>());
            self.buffer.try_reserve_exact(self.capacity).map_err(|_| SortError::AllocFailed { bytes })?;
        }
        let mut rest = boards;
        while !rest.is_empty() {
            let room = self.capacity - self.buffer.len();
            let take = room.min(rest.len());
            self.buffer.extend_from_slice(&rest[..take]);
            rest = &rest[take..];
            if self.buffer.len() == self.capacity {
                sort_dedup(&mut self.buffer);
                if self.buffer.len() > self.capacity / 2 {
                    self.spill()?;
                }
            }
        }
        Ok(())
    }

    fn spill(&mut self) -> Result<(), SortError> {
        let dir = self.spill_dir.as_ref().ok_or(SortError::OutOfMemory)?;
        sort_dedup(&mut self.buffer);
        let path = dir.join(format!("run-{:05}.bin", self.runs.len()));
        let mut w = RecordWriter::with_buffer(File::create(&path)?, self.io_buffer);
        for b in &self.buffer {
            w.push(b)?;
        }
        w.finish()?;
        self.runs.push((path, self.buffer.len() as u64));
        self.buffer.clear();
        Ok(())
    }

    /// Sorts what is left; in memory if nothing was spilled, else as runs.
    pub fn finish(mut self) -> Result<Sorted, SortError> {
        if self.runs.is_empty() {
            sort_dedup(&mut self.buffer);
            // Kept in memory only without a spill directory (else it is written out at
            // once): shrinking copies it, twice the memory for a moment.
            if self.spill_dir.is_none() {
                self.buffer.shrink_to_fit();
            }
            return Ok(Sorted::Memory(self.buffer));
        }
        if !self.buffer.is_empty() {
            self.spill()?;
        }
        Ok(Sorted::Runs(std::mem::take(&mut self.runs)))
    }
}

/// Merges sorted runs, calling `out` once per distinct board in increasing order, and
/// deletes the run files afterwards; returns the number of distinct boards. Opens at
/// most `fan_in` (at least 2) run files at once: while there are more runs, groups of
/// `fan_in` are merged into new runs beside them (named `<first run>.pass<N>-<k>`) and
/// deleted, pass after pass. Each run is read, and each intermediate run written,
/// through a buffer of `buffer` bytes: a pass holds at most `(fan_in + 1) * buffer`
/// bytes of buffers (and a heap of `fan_in` boards), whatever the number of runs.
pub fn merge_runs_buffered(
    runs: &[(PathBuf, u64)],
    fan_in: usize,
    buffer: usize,
    out: impl FnMut(&Board) -> io::Result<()>,
) -> Result<u64, SortError> {
    let fan_in = fan_in.max(2);
    let mut runs = runs.to_vec();
    let mut pass = 0;
    while runs.len() > fan_in {
        pass += 1;
        let mut merged = Vec::with_capacity(runs.len().div_ceil(fan_in));
        for (k, group) in runs.chunks(fan_in).enumerate() {
            let path = PathBuf::from(format!("{}.pass{pass}-{k:05}", group[0].0.display()));
            let mut w = RecordWriter::with_buffer(File::create(&path)?, buffer);
            let n = merge_group(group, buffer, |b| w.push(b))?;
            w.finish()?;
            merged.push((path, n));
        }
        runs = merged;
    }
    merge_group(&runs, buffer, out)
}

/// One k-way merge of `runs` (all open at once, each read through `buffer` bytes) into
/// `out`; deletes the runs.
fn merge_group(
    runs: &[(PathBuf, u64)],
    buffer: usize,
    mut out: impl FnMut(&Board) -> io::Result<()>,
) -> Result<u64, SortError> {
    let mut readers = Vec::with_capacity(runs.len());
    let mut heap = BinaryHeap::with_capacity(runs.len());
    for (i, (path, count)) in runs.iter().enumerate() {
        let mut r = RecordReader::with_buffer(File::open(path)?, *count, buffer);
        if let Some(b) = r.next_board()? {
            heap.push(Reverse((b, i)));
        }
        readers.push(r);
    }
    let mut last: Option<Board> = None;
    let mut distinct = 0u64;
    while let Some(Reverse((b, i))) = heap.pop() {
        if last != Some(b) {
            out(&b)?;
            distinct += 1;
            last = Some(b);
        }
        if let Some(next) = readers[i].next_board()? {
            heap.push(Reverse((next, i)));
        }
    }
    for (path, _) in runs {
        std::fs::remove_file(path)?;
    }
    Ok(distinct)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(i: u64) -> Board {
        Board::new(i % 5000, 1 << 63).unwrap()
    }

    /// Also issue 16 item 5: with a fan-in of 3, more runs than files may be open are
    /// merged in passes, with the same result and no file left behind.
    #[test]
    fn spilled_and_in_memory_sorts_agree() {
        let input: Vec<Board> = (0..20_000u64).map(|i| board(i.wrapping_mul(0x9E37_79B9) % 7919)).collect();
        let mut expected = input.clone();
        expected.sort();
        expected.dedup();
        let mut mem = ExternalSorter::new(1 << 20, None);
        mem.extend(&input).unwrap();
        let Sorted::Memory(v) = mem.finish().unwrap() else { panic!("should fit") };
        assert_eq!(v, expected);

        for fan_in in [crate::open_file_limit::merge_fan_in(), 3] {
            let dir = tempfile::tempdir().unwrap();
            let mut ext = ExternalSorter::new(1024, Some(dir.path().to_path_buf()));
            for chunk in input.chunks(777) {
                ext.extend(chunk).unwrap();
            }
            let Sorted::Runs(runs) = ext.finish().unwrap() else { panic!("should spill") };
            assert!(runs.len() > 9, "{} runs", runs.len());
            let mut merged = Vec::new();
            let n = merge_runs_buffered(&runs, fan_in, BUFFER_BYTES, |b| {
                merged.push(*b);
                Ok(())
            })
            .unwrap();
            assert_eq!(n as usize, merged.len());
            assert_eq!(merged, expected, "fan-in {fan_in}");
            assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0, "every run file deleted");
        }
    }

    #[test]
    fn overflow_without_a_spill_directory_is_an_error() {
        let input: Vec<Board> = (0..5000u64).map(board).collect();
        let mut s = ExternalSorter::new(1024, None);
        assert!(matches!(s.extend(&input), Err(SortError::OutOfMemory)));
    }
}
