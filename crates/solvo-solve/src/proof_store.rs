//! A file of proven game positions for the generic solvers ([`ProvenPositions`]): a
//! long `solvo game solve ... --store F` killed at any moment resumes from what it had
//! proven.
//!
//! Guarantees:
//! - a store belongs to one game (name, size, rule options, key scheme): opening it for
//!   another is refused, so a key can never be read as another game's position;
//! - every record carries a checksum of its key and value: a record that fails it is
//!   skipped and counted ([`ProofStore::damaged`]), never used as a proof; damage of the
//!   database's own structure is reported as damage;
//! - records reach the file in transactions at most [`FLUSH_EVERY`] apart (and at
//!   [`ProofStore::flush`]): a kill loses at most the last few seconds of proofs, and a
//!   commit cut short by a crash is rolled back by the database on the next open.
//!
//! Records are loaded into memory on open (the solver asks at every node).

use crate::store::{db_err, library_panic, open_waiting, ClosingDb, StoreError};
use redb::{Database, ReadableTable, ReadableTableMetadata, TableDefinition};
use solvo_search::keyhash::KeyMap;
use solvo_search::proven::{ProofProgress, ProvenPositions};
use solvo_search::tt::Bound;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
const PROOFS: TableDefinition<u64, [u8; 8]> = TableDefinition::new("proofs");
/// Version of the record layout, written into the meta table.
const FORMAT: &[u8] = b"solvo-proofs-1";

/// New records are committed at least this often.
pub const FLUSH_EVERY: Duration = Duration::from_secs(2);

/// A record: value (4 bytes, little-endian), bound (1), checksum (3) of key, value and
/// bound.
fn encode(key: u64, value: i32, bound: Bound) -> [u8; 8] {
    let b = match bound {
        Bound::Exact => 0u8,
        Bound::Lower => 1,
        Bound::Upper => 2,
    };
    let mut out = [0u8; 8];
    out[..4].copy_from_slice(&value.to_le_bytes());
    out[4] = b;
    out[5..].copy_from_slice(&check(key, value, b).to_le_bytes()[..3]);
    out
}

/// The record's value and bound, or `None` when it fails its checksum or is malformed.
fn decode(key: u64, raw: [u8; 8]) -> Option<(i32, Bound)> {
    let value = i32::from_le_bytes(raw[..4].try_into().ok()?);
    let bound = match raw[4] {
        0 => Bound::Exact,
        1 => Bound::Lower,
        2 => Bound::Upper,
        _ => return None,
    };
    (raw[5..] == check(key, value, raw[4]).to_le_bytes()[..3]).then_some((value, bound))
}

/// 24 bits of a mix of key, value and bound.
fn check(key: u64, value: i32, bound: u8) -> u32 {
    let mut h = key ^ 0x7072_6f6f_6673_2d31;
    h = (h ^ u64::from(value as u32)).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(29);
    h = (h ^ u64::from(bound)).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    (h >> 40) as u32
}

/// What a progress report receives at each flush.
pub type ProgressFn = Box<dyn FnMut(&ProofProgress, Duration) + Send>;

/// What reports a settled root move ([`ProvenPositions::root_move`]): the move, its
/// value for the side to move at the root, the bound, the nodes its search took (0: read
/// from the store).
pub type RootMoveFn = Box<dyn FnMut(&str, i32, Bound, u64) + Send>;

/// An open proof store (see the module documentation).
pub struct ProofStore {
    db: ClosingDb,
    path: PathBuf,
    known: KeyMap<(i32, Bound)>,
    pending: Vec<(u64, [u8; 8])>,
    last_flush: Instant,
    start: Instant,
    progress: ProofProgress,
    damaged: u64,
    error: Option<StoreError>,
    report: Option<ProgressFn>,
    root_report: Option<RootMoveFn>,
}

impl ProofStore {
    /// Opens `path`, creating it for `game` (a description of the game, its size, rule
    /// options and key scheme) if it does not exist; refuses a store of another game or
    /// format, and a damaged file.
    pub fn open(path: &Path, game: &str) -> Result<ProofStore, StoreError> {
        if path.is_dir() {
            return Err(StoreError::Open { path: path.to_path_buf(), message: "is a directory".into() });
        }
        let db = ClosingDb::new(open_waiting(path, || Database::builder().set_cache_size(64 << 20).create(path))?);
        solvo_core::contained_panic::catch(|| Self::check_meta(&db, path, game))
            .map_err(|m| library_panic(path, "reading its header", m))??;
        let (known, damaged) = solvo_core::contained_panic::catch(|| Self::load(&db))
            .map_err(|m| library_panic(path, "reading its records", m))??;
        let proven = known.len() as u64;
        Ok(ProofStore {
            db,
            path: path.to_path_buf(),
            known,
            pending: Vec::new(),
            last_flush: Instant::now(),
            start: Instant::now(),
            progress: ProofProgress { proven, ..ProofProgress::default() },
            damaged,
            error: None,
            report: None,
            root_report: None,
        })
    }

    /// Calls `report` at every flush with the progress so far and the time since open.
    pub fn set_progress(&mut self, report: ProgressFn) {
        self.report = Some(report);
    }

    /// Calls `report` for every move of the root the solver settles (see
    /// [`ProvenPositions::root_move`]).
    pub fn set_root_report(&mut self, report: RootMoveFn) {
        self.root_report = Some(report);
    }

    fn check_meta(db: &Database, path: &Path, game: &str) -> Result<(), StoreError> {
        let read = |key: &str| -> Result<Option<Vec<u8>>, StoreError> {
            let txn = db.begin_read().map_err(|e| db_err("begin read")(e.into()))?;
            let meta = match txn.open_table(META) {
                Ok(t) => t,
                Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
                Err(e) => return Err(db_err("open meta")(e.into())),
            };
            let v = meta.get(key).map_err(|e| db_err("read meta")(e.into()))?;
            Ok(v.map(|g| g.value().to_vec()))
        };
        match (read("game")?, read("format")?) {
            (Some(stored), Some(format)) => {
                let stored = String::from_utf8_lossy(&stored).into_owned();
                if format != FORMAT {
                    return Err(StoreError::Open {
                        path: path.to_path_buf(),
                        message: format!("not a proof store of this version ({})", String::from_utf8_lossy(&format)),
                    });
                }
                if stored != game {
                    return Err(StoreError::Mismatch {
                        path: path.to_path_buf(),
                        stored: format!("proofs of '{stored}'"),
                        requested: format!("'{game}'"),
                    });
                }
                Ok(())
            }
            (None, None) => {
                let txn = db.begin_write().map_err(|e| db_err("begin write")(e.into()))?;
                {
                    if txn.list_tables().map_err(|e| db_err("list tables")(e.into()))?.next().is_some() {
                        return Err(StoreError::Open {
                            path: path.to_path_buf(),
                            message: "a database of another kind (not a solvo proof store)".into(),
                        });
                    }
                    let mut meta = txn.open_table(META).map_err(|e| db_err("open meta")(e.into()))?;
                    meta.insert("game", game.as_bytes()).map_err(|e| db_err("write meta")(e.into()))?;
                    meta.insert("format", FORMAT).map_err(|e| db_err("write meta")(e.into()))?;
                    txn.open_table(PROOFS).map_err(|e| db_err("create table")(e.into()))?;
                }
                txn.commit().map_err(|e| db_err("commit")(e.into()))
            }
            _ => Err(StoreError::Open {
                path: path.to_path_buf(),
                message: "not a solvo proof store (its header is incomplete)".into(),
            }),
        }
    }

    fn load(db: &Database) -> Result<(KeyMap<(i32, Bound)>, u64), StoreError> {
        let txn = db.begin_read().map_err(|e| db_err("begin read")(e.into()))?;
        let table = txn.open_table(PROOFS).map_err(|e| db_err("open proofs")(e.into()))?;
        let mut known = KeyMap::default();
        known.reserve(table.len().map_err(|e| db_err("count proofs")(e.into()))? as usize);
        let mut damaged = 0;
        for row in table.iter().map_err(|e| db_err("read proofs")(e.into()))? {
            let (k, v) = row.map_err(|e| db_err("read proofs")(e.into()))?;
            match decode(k.value(), v.value()) {
                Some(r) => {
                    known.insert(k.value(), r);
                }
                None => damaged += 1,
            }
        }
        Ok((known, damaged))
    }

    /// Records that failed their checksum when the store was opened (skipped).
    pub fn damaged(&self) -> u64 {
        self.damaged
    }

    /// Proven positions known (loaded and recorded).
    pub fn len(&self) -> usize {
        self.known.len()
    }

    /// Whether no position is known.
    pub fn is_empty(&self) -> bool {
        self.known.is_empty()
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The progress counters so far.
    pub fn progress(&self) -> ProofProgress {
        self.progress
    }

    /// Commits the pending records. After an error nothing more is written and every
    /// later call returns it.
    pub fn flush(&mut self) -> Result<(), StoreError> {
        if let Some(e) = &self.error {
            return Err(StoreError::Other(e.to_string()));
        }
        self.last_flush = Instant::now();
        if !self.pending.is_empty() {
            let pending = std::mem::take(&mut self.pending);
            let db = &self.db;
            let write = || -> Result<(), StoreError> {
                let txn = db.begin_write().map_err(|e| db_err("begin write")(e.into()))?;
                {
                    let mut t = txn.open_table(PROOFS).map_err(|e| db_err("open proofs")(e.into()))?;
                    for (k, v) in &pending {
                        t.insert(*k, *v).map_err(|e| db_err("write proof")(e.into()))?;
                    }
                }
                txn.commit().map_err(|e| db_err("commit")(e.into()))
            };
            let r = solvo_core::contained_panic::catch(write)
                .map_err(|m| library_panic(&self.path, "writing it", m))
                .and_then(|r| r);
            if let Err(e) = r {
                let message = e.to_string();
                self.error = Some(e);
                return Err(StoreError::Other(message));
            }
        }
        if let Some(report) = &mut self.report {
            report(&self.progress, self.start.elapsed());
        }
        Ok(())
    }
}

impl ProvenPositions for ProofStore {
    fn proven(&mut self, key: u64) -> Option<(i32, Bound)> {
        let r = self.known.get(&key).copied();
        self.progress.reused += u64::from(r.is_some());
        r
    }

    fn record(&mut self, key: u64, value: i32, bound: Bound, _nodes: u64) {
        if self.known.insert(key, (value, bound)).is_none() {
            self.progress.proven += 1;
        }
        self.progress.recorded += 1;
        self.pending.push((key, encode(key, value, bound)));
    }

    fn root_move(&mut self, mv: &str, value: i32, bound: Bound, nodes: u64) {
        if let Some(report) = &mut self.root_report {
            report(mv, value, bound, nodes);
        }
    }

    fn checkpoint(&mut self, nodes: u64) -> bool {
        self.progress.nodes = nodes;
        if self.last_flush.elapsed() < FLUSH_EVERY {
            return self.error.is_none();
        }
        self.flush().is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_failing_its_checksum_is_skipped_and_the_rest_used() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.redb");
        {
            let mut s = ProofStore::open(&path, "test 1x1").unwrap();
            for key in 1..=3u64 {
                s.record(key, key as i32, Bound::Exact, 5000);
            }
            s.flush().unwrap();
        }
        {
            // Overwrite record 2 with a value whose checksum does not match.
            let db = Database::create(&path).unwrap();
            let txn = db.begin_write().unwrap();
            {
                let mut t = txn.open_table(PROOFS).unwrap();
                let mut raw = encode(2, 2, Bound::Exact);
                raw[0] ^= 1;
                t.insert(2u64, raw).unwrap();
            }
            txn.commit().unwrap();
        }
        let mut s = ProofStore::open(&path, "test 1x1").unwrap();
        assert_eq!(s.damaged(), 1);
        assert_eq!(s.len(), 2);
        assert_eq!(s.proven(1), Some((1, Bound::Exact)));
        assert_eq!(s.proven(2), None);
        assert_eq!(s.proven(3), Some((3, Bound::Exact)));
        drop(s);
        assert!(matches!(ProofStore::open(&path, "test 2x2"), Err(StoreError::Mismatch { .. })));
    }

    #[test]
    fn records_round_trip_and_damage_is_caught() {
        for (key, value, bound) in [(1u64, -1, Bound::Upper), (u64::MAX, 64, Bound::Exact), (42, 0, Bound::Lower)] {
            let raw = encode(key, value, bound);
            assert_eq!(decode(key, raw), Some((value, bound)));
            assert_eq!(decode(key ^ 1, raw), None, "another key");
            for byte in 0..8 {
                for bit in 0..8 {
                    let mut bad = raw;
                    bad[byte] ^= 1 << bit;
                    assert_eq!(decode(key, bad), None, "bit {bit} of byte {byte}");
                }
            }
        }
    }
}
