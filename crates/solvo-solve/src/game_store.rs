//! The semi-strong solution store of the generic games ([`GameStore`]): the
//! [`SolutionStore`] of `solvo_search::reopening` in a redb file, crash-safe like the
//! Othello store.
//!
//! Guarantees:
//! - a store belongs to one game (name, size, rule options: its identity string):
//!   opening it for another is refused, so a key is never read as another game's;
//! - keys are canonical encodings ([`solvo_core::Game::encode`] of the smallest
//!   symmetric image), so symmetric positions share a record;
//! - [`SolutionStore::commit`] writes every pending record in ONE durable transaction,
//!   merged in the order they were put (bounds intersected, kinds ORed); an
//!   inconsistent merge is refused before anything is written; a kill at any moment
//!   keeps exactly the committed batches;
//! - every record carries a 32-bit check of its key and value: a damaged record is an
//!   error naming the store, never used.
//!
//! Values are 11 bytes: lower and upper (`i16`, little-endian), kinds, the move's index
//! in the canonical image's move list (`u16`, `0xFFFF` = none), the check (`u32`).

use crate::store::{db_err, existing_file, library_panic, open_waiting, ClosingDb, StoreError};
use redb::{Database, ReadableTable, ReadableTableMetadata, TableDefinition};
use solvo_search::reopening::{SemiError, SemiRecord, SolutionStore};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
const RECORDS: TableDefinition<&[u8], [u8; 11]> = TableDefinition::new("semi-records");
/// Version of the record layout, written into the meta table.
const FORMAT: &[u8] = b"solvo-semi-games-1";
/// Meta key of the root's value, written when a build completes.
pub const META_ROOT_VALUE: &str = "semistrong.root_value";

/// A stored (canonical key, record).
pub type KeyedRecord = (Vec<u8>, SemiRecord<u16>);
/// A stored (canonical key, value bytes), before its check.
type RawRecord = (Vec<u8>, [u8; 11]);

/// An open store (see the module documentation).
pub struct GameStore {
    db: ClosingDb,
    path: PathBuf,
    identity: String,
    max_value: i32,
    /// Records put since the last commit, in order.
    pending: Vec<KeyedRecord>,
    /// The same merged per key, for lookups.
    pending_map: HashMap<Vec<u8>, SemiRecord<u16>>,
}

fn check(key: &[u8], v: &[u8]) -> [u8; 4] {
    let mut h: u64 = 0x7365_6d69_2d67_616d;
    for chunk in key.chunks(8).chain(v.chunks(8)) {
        let mut w = [0u8; 8];
        w[..chunk.len()].copy_from_slice(chunk);
        h = solvo_core::rng::mix64(h ^ u64::from_le_bytes(w) ^ chunk.len() as u64);
    }
    (h as u32).to_le_bytes()
}

fn encode(key: &[u8], r: &SemiRecord<u16>) -> [u8; 11] {
    let mut out = [0u8; 11];
    out[0..2].copy_from_slice(&(r.lower as i16).to_le_bytes());
    out[2..4].copy_from_slice(&(r.upper as i16).to_le_bytes());
    out[4] = r.kinds;
    out[5..7].copy_from_slice(&r.best.unwrap_or(u16::MAX).to_le_bytes());
    let c = check(key, &out[..7]);
    out[7..].copy_from_slice(&c);
    out
}

impl GameStore {
    /// Opens `path`, creating it for the game `identity` (with values within
    /// `±max_value`) when missing; refuses a store of another game, a file of another
    /// kind and a damaged one.
    pub fn open(path: &Path, identity: &str, max_value: i32) -> Result<GameStore, StoreError> {
        if path.is_dir() {
            return Err(StoreError::Open {
                path: path.to_path_buf(),
                message: "is a directory, not a store file".into(),
            });
        }
        let db = ClosingDb::new(open_waiting(path, || Database::builder().set_cache_size(256 << 20).create(path))?);
        solvo_core::contained_panic::catch(|| Self::check_meta(&db, path, identity))
            .map_err(|m| library_panic(path, "reading its header", m))??;
        Ok(GameStore {
            db,
            path: path.to_path_buf(),
            identity: identity.to_string(),
            max_value,
            pending: Vec::new(),
            pending_map: HashMap::new(),
        })
    }

    /// The game an existing store at `path` belongs to (its identity string), read
    /// without writing: a missing path, a directory, an empty file or a file that is no
    /// game store is an error saying which. Open it with [`GameStore::open`] under
    /// that identity.
    pub fn identity_of(path: &Path) -> Result<String, StoreError> {
        existing_file(path, "a semi-strong store")?;
        let open_err = |m: String| StoreError::Open { path: path.to_path_buf(), message: m };
        solvo_core::contained_panic::catch(|| -> Result<String, StoreError> {
            let db = ClosingDb::new(open_waiting(path, || Database::builder().set_cache_size(1 << 20).open(path))?);
            let txn = db.begin_read().map_err(|e| open_err(e.to_string()))?;
            let meta = txn.open_table(META).map_err(|_| not_a_game_store(path))?;
            stored_identity(&meta, path, |e| open_err(e.to_string()))
        })
        .map_err(|m| library_panic(path, "reading its header", m))?
    }

    /// The game this store belongs to (its identity string).
    pub fn identity(&self) -> &str {
        &self.identity
    }

    fn check_meta(db: &Database, path: &Path, identity: &str) -> Result<(), StoreError> {
        let txn = db.begin_write().map_err(|e| db_err("begin write")(e.into()))?;
        {
            let fresh = txn.list_tables().map_err(|e| db_err("list tables")(e.into()))?.next().is_none();
            let mut meta = txn.open_table(META).map_err(|e| db_err("open meta")(e.into()))?;
            if fresh {
                meta.insert("game", identity.as_bytes()).map_err(|e| db_err("write meta")(e.into()))?;
                meta.insert("format", FORMAT).map_err(|e| db_err("write meta")(e.into()))?;
            } else {
                let stored = stored_identity(&meta, path, |e| db_err("read meta")(e.into()))?;
                if stored != identity {
                    return Err(StoreError::Mismatch {
                        path: path.to_path_buf(),
                        stored: format!("'{stored}'"),
                        requested: format!("'{identity}'"),
                    });
                }
            }
            txn.open_table(RECORDS).map_err(|e| db_err("create table")(e.into()))?;
        }
        txn.commit().map_err(|e| db_err("commit")(e.into()))
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn err(&self, e: StoreError) -> SemiError {
        SemiError::Store(format!("store {}: {e}", self.path.display()))
    }

    fn decode(&self, key: &[u8], v: [u8; 11]) -> Result<SemiRecord<u16>, SemiError> {
        let lower = i16::from_le_bytes([v[0], v[1]]) as i32;
        let upper = i16::from_le_bytes([v[2], v[3]]) as i32;
        let best = u16::from_le_bytes([v[5], v[6]]);
        let ok = v[7..] == check(key, &v[..7])
            && lower <= upper
            && lower.abs() <= self.max_value
            && upper.abs() <= self.max_value
            && v[4] & !solvo_search::reopening::kind::ALL == 0;
        if !ok {
            return Err(self.err(StoreError::Corrupt(format!("the record under key {key:02x?} fails its check"))));
        }
        Ok(SemiRecord { lower, upper, kinds: v[4], best: (best != u16::MAX).then_some(best) })
    }

    fn get_stored(&self, key: &[u8]) -> Result<Option<SemiRecord<u16>>, SemiError> {
        let read = || -> Result<Option<[u8; 11]>, StoreError> {
            let txn = self.db.begin_read().map_err(|e| db_err("begin read")(e.into()))?;
            let t = txn.open_table(RECORDS).map_err(|e| db_err("open table")(e.into()))?;
            let v = t.get(key).map_err(|e| db_err("read")(e.into()))?;
            Ok(v.map(|g| g.value()))
        };
        let raw = solvo_core::contained_panic::catch(read)
            .map_err(|m| self.err(library_panic(&self.path, "reading a record", m)))?
            .map_err(|e| self.err(e))?;
        raw.map(|v| self.decode(key, v)).transpose()
    }

    /// Records stored (committed).
    pub fn len(&self) -> Result<u64, SemiError> {
        let count = || -> Result<u64, StoreError> {
            let txn = self.db.begin_read().map_err(|e| db_err("begin read")(e.into()))?;
            let t = txn.open_table(RECORDS).map_err(|e| db_err("open table")(e.into()))?;
            t.len().map_err(|e| db_err("count")(e.into()))
        };
        solvo_core::contained_panic::catch(count)
            .map_err(|m| self.err(library_panic(&self.path, "counting records", m)))?
            .map_err(|e| self.err(e))
    }

    /// Every committed (canonical key, record), in key order (statistics, tests).
    pub fn records(&self) -> Result<Vec<KeyedRecord>, SemiError> {
        let read = || -> Result<Vec<RawRecord>, StoreError> {
            let txn = self.db.begin_read().map_err(|e| db_err("begin read")(e.into()))?;
            let t = txn.open_table(RECORDS).map_err(|e| db_err("open table")(e.into()))?;
            let mut out = Vec::new();
            for item in t.iter().map_err(|e| db_err("iterate")(e.into()))? {
                let (k, v) = item.map_err(|e| db_err("iterate")(e.into()))?;
                out.push((k.value().to_vec(), v.value()));
            }
            Ok(out)
        };
        let raw = solvo_core::contained_panic::catch(read)
            .map_err(|m| self.err(library_panic(&self.path, "reading records", m)))?
            .map_err(|e| self.err(e))?;
        raw.into_iter().map(|(k, v)| Ok((k.clone(), self.decode(&k, v)?))).collect()
    }

    /// True when no record is committed.
    pub fn is_empty(&self) -> Result<bool, SemiError> {
        Ok(self.len()? == 0)
    }

    /// A named value (the root's value: [`META_ROOT_VALUE`]).
    pub fn get_meta(&self, key: &str) -> Result<Option<Vec<u8>>, SemiError> {
        let read = || -> Result<Option<Vec<u8>>, StoreError> {
            let txn = self.db.begin_read().map_err(|e| db_err("begin read")(e.into()))?;
            let t = txn.open_table(META).map_err(|e| db_err("open meta")(e.into()))?;
            let v = t.get(key).map_err(|e| db_err("read meta")(e.into()))?;
            Ok(v.map(|g| g.value().to_vec()))
        };
        solvo_core::contained_panic::catch(read)
            .map_err(|m| self.err(library_panic(&self.path, "reading its parameters", m)))?
            .map_err(|e| self.err(e))
    }

    /// Sets a named value in its own durable transaction.
    pub fn put_meta(&self, key: &str, value: &[u8]) -> Result<(), SemiError> {
        let write = || -> Result<(), StoreError> {
            let txn = self.db.begin_write().map_err(|e| db_err("begin write")(e.into()))?;
            {
                let mut t = txn.open_table(META).map_err(|e| db_err("open meta")(e.into()))?;
                t.insert(key, value).map_err(|e| db_err("write meta")(e.into()))?;
            }
            txn.commit().map_err(|e| db_err("commit")(e.into()))
        };
        solvo_core::contained_panic::catch(write)
            .map_err(|m| self.err(library_panic(&self.path, "writing its parameters", m)))?
            .map_err(|e| self.err(e))
    }

    /// The root value a completed build recorded.
    pub fn root_value(&self) -> Result<Option<i32>, SemiError> {
        Ok(self.get_meta(META_ROOT_VALUE)?.and_then(|v| std::str::from_utf8(&v).ok()?.parse().ok()))
    }

    fn write_batch(&self, items: &[KeyedRecord]) -> Result<(), SemiError> {
        let mut txn = self.db.begin_write().map_err(|e| self.err(db_err("begin write")(e.into())))?;
        txn.set_quick_repair(true);
        {
            let mut t = txn.open_table(RECORDS).map_err(|e| self.err(db_err("open table")(e.into())))?;
            for (key, rec) in items {
                let old = t.get(key.as_slice()).map_err(|e| self.err(db_err("read")(e.into())))?.map(|g| g.value());
                let merged = match old {
                    None => *rec,
                    Some(bytes) => {
                        let stored = self.decode(key, bytes)?;
                        stored.merged(rec).ok_or_else(|| {
                            SemiError::Internal(format!("record {rec} contradicts stored {stored} for key {key:02x?}"))
                        })?
                    }
                };
                let bytes = encode(key, &merged);
                if old != Some(bytes) {
                    t.insert(key.as_slice(), bytes).map_err(|e| self.err(db_err("write")(e.into())))?;
                }
            }
        }
        // Dropping `txn` on an error above aborts it: nothing of the batch is written.
        txn.commit().map_err(|e| self.err(db_err("commit")(e.into())))
    }
}

impl SolutionStore for GameStore {
    fn get(&mut self, key: &[u8]) -> Result<Option<SemiRecord<u16>>, SemiError> {
        let stored = self.get_stored(key)?;
        match (stored, self.pending_map.get(key)) {
            (s, None) => Ok(s),
            (None, Some(p)) => Ok(Some(*p)),
            (Some(s), Some(p)) => s
                .merged(p)
                .map(Some)
                .ok_or_else(|| SemiError::Internal(format!("pending record {p} contradicts stored {s}"))),
        }
    }

    fn put(&mut self, key: &[u8], rec: SemiRecord<u16>) -> Result<(), SemiError> {
        let merged = match self.pending_map.get(key) {
            None => rec,
            Some(p) => {
                p.merged(&rec).ok_or_else(|| SemiError::Internal(format!("record {rec} contradicts pending {p}")))?
            }
        };
        self.pending_map.insert(key.to_vec(), merged);
        self.pending.push((key.to_vec(), rec));
        Ok(())
    }

    fn commit(&mut self) -> Result<(), SemiError> {
        if self.pending.is_empty() {
            return Ok(());
        }
        let pending = std::mem::take(&mut self.pending);
        let r = solvo_core::contained_panic::catch(|| self.write_batch(&pending))
            .map_err(|m| self.err(library_panic(&self.path, "writing records", m)))?;
        r?;
        self.pending_map.clear();
        Ok(())
    }
}

/// The refusal of a file whose header is not a semi-strong game store's.
fn not_a_game_store(path: &Path) -> StoreError {
    StoreError::Open {
        path: path.to_path_buf(),
        message: "not a semi-strong store of a game (another kind of database)".into(),
    }
}

/// The game identity the header `meta` of the store at `path` records; a header without
/// one, or of another format, is [`not_a_game_store`]; a read that fails is
/// `storage_err`'s.
fn stored_identity(
    meta: &impl ReadableTable<&'static str, &'static [u8]>,
    path: &Path,
    storage_err: impl Fn(redb::StorageError) -> StoreError,
) -> Result<String, StoreError> {
    let read = |k: &str| -> Result<Option<Vec<u8>>, StoreError> {
        Ok(meta.get(k).map_err(&storage_err)?.map(|g| g.value().to_vec()))
    };
    match (read("game")?, read("format")?) {
        (Some(g), Some(f)) if f == FORMAT => Ok(String::from_utf8_lossy(&g).into_owned()),
        _ => Err(not_a_game_store(path)),
    }
}
