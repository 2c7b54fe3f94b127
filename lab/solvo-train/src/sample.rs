//! Labelled training positions and their file format.
//!
//! A sample file is `SOLVOSMP`, a version byte, the sample count (u64), the samples
//! (18 bytes each: player u64, opponent u64, label i8, flags u8) and an FNV-1a 64
//! checksum of everything before it. Reading checks all of it.

use solvo_eval::checksum::fnv64;
use std::path::Path;

/// A position with the side to move's final disc difference as its label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
    /// Final disc difference for the side to move (exact or estimated, see `flags`).
    pub label: i8,
    /// [`Sample::EXACT`], [`Sample::VALIDATION`].
    pub flags: u8,
}

impl Sample {
    /// The label is the exact perfect-play value (solved), not a game result.
    pub const EXACT: u8 = 1;
    /// The sample belongs to the held-out validation set (by game).
    pub const VALIDATION: u8 = 2;

    /// Number of discs on the board.
    pub fn discs(&self) -> u32 {
        (self.player | self.opponent).count_ones()
    }

    /// True if [`Sample::EXACT`] is set.
    pub fn is_exact(&self) -> bool {
        self.flags & Sample::EXACT != 0
    }

    /// True if [`Sample::VALIDATION`] is set.
    pub fn is_validation(&self) -> bool {
        self.flags & Sample::VALIDATION != 0
    }
}

/// `Ok` if every sample's discs lie on the board of `size` (a sample file does not
/// record its board size: a 6x6 fit must not read 8x8 samples); else an error naming
/// the first sample that does not.
pub fn check_size(samples: &[Sample], size: solvo_othello::BoardSize) -> Result<(), String> {
    let off = !size.mask();
    match samples.iter().position(|s| (s.player | s.opponent) & off != 0) {
        None => Ok(()),
        Some(i) => Err(format!(
            "sample {} has discs outside the {size} board: the samples are not {size} positions (made with another --size?)",
            i + 1
        )),
    }
}

const MAGIC: &[u8; 8] = b"SOLVOSMP";
const VERSION: u8 = 1;
const RECORD: usize = 18;

/// Writes samples to `path` (atomically: a temporary file renamed into place).
pub fn write_samples(path: &Path, samples: &[Sample]) -> Result<(), String> {
    let mut out = Vec::with_capacity(17 + samples.len() * RECORD + 8);
    out.extend_from_slice(MAGIC);
    out.push(VERSION);
    out.extend((samples.len() as u64).to_le_bytes());
    for s in samples {
        out.extend(s.player.to_le_bytes());
        out.extend(s.opponent.to_le_bytes());
        out.push(s.label as u8);
        out.push(s.flags);
    }
    let sum = fnv64(&out);
    out.extend(sum.to_le_bytes());
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, &out).map_err(|e| format!("cannot write {}: {e}", tmp.display()))?;
    std::fs::rename(&tmp, path).map_err(|e| format!("cannot rename {} to {}: {e}", tmp.display(), path.display()))
}

/// Reads a sample file, checking magic, version, length, checksum and every record
/// (discs do not overlap, labels within -64..=64).
pub fn read_samples(path: &Path) -> Result<Vec<Sample>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let bad = |what: String| format!("sample file {}: {what}", path.display());
    if bytes.len() < 25 || &bytes[..8] != MAGIC {
        return Err(bad("not a solvo sample file (magic SOLVOSMP missing)".into()));
    }
    if bytes[8] != VERSION {
        return Err(bad(format!("version {} (this build reads {VERSION})", bytes[8])));
    }
    let count = u64::from_le_bytes(bytes[9..17].try_into().expect("8 bytes"));
    let expected = count.checked_mul(RECORD as u64).and_then(|n| n.checked_add(25));
    if expected != Some(bytes.len() as u64) {
        return Err(bad(format!("{} bytes, but {count} samples need {:?}", bytes.len(), expected)));
    }
    let (body, sum) = bytes.split_at(bytes.len() - 8);
    if fnv64(body) != u64::from_le_bytes(sum.try_into().expect("8 bytes")) {
        return Err(bad("checksum mismatch: the file is damaged; regenerate it".into()));
    }
    body[17..]
        .chunks_exact(RECORD)
        .enumerate()
        .map(|(i, r)| {
            let s = Sample {
                player: u64::from_le_bytes(r[0..8].try_into().expect("8 bytes")),
                opponent: u64::from_le_bytes(r[8..16].try_into().expect("8 bytes")),
                label: r[16] as i8,
                flags: r[17],
            };
            if s.player & s.opponent != 0 || !(-64..=64).contains(&s.label) {
                return Err(bad(format!("sample {} is invalid", i + 1)));
            }
            Ok(s)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_damage() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.bin");
        let samples = vec![
            Sample { player: 1, opponent: 2, label: -5, flags: Sample::EXACT },
            Sample { player: 1 << 40, opponent: 3 << 8, label: 64, flags: Sample::VALIDATION },
        ];
        write_samples(&path, &samples).unwrap();
        assert_eq!(read_samples(&path).unwrap(), samples);
        let mut bytes = std::fs::read(&path).unwrap();
        bytes[20] ^= 1;
        std::fs::write(&path, &bytes).unwrap();
        assert!(read_samples(&path).unwrap_err().contains("checksum"));
        std::fs::write(&path, &bytes[..30]).unwrap();
        assert!(read_samples(&path).unwrap_err().contains("samples need"));
    }
}
