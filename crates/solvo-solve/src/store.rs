//! The solution store: an embedded, crash-safe database (redb: copy-on-write B-trees,
//! checksummed pages, durable two-phase commits) mapping canonical positions to what is
//! known of their value.
//!
//! Guarantees:
//! - keys are canonical under the 8 board symmetries; a best move is stored in the
//!   canonical orientation and mapped back to the orientation of the board asked about;
//! - [`Store::put_batch`] is one durable transaction: after it returns, a crash (even
//!   `kill -9` or a power cut) keeps every item; before it returns, a crash keeps none;
//! - records are merged, never overwritten: bounds intersect, kinds are ORed, and an
//!   inconsistent merge is refused before anything is written;
//! - the board size and variant are written into the file on creation; opening with
//!   another size or variant, or opening a file that is not a valid store, is an error.
//!
//! - every record carries a 32-bit check of its key and value: a record damaged on disk
//!   (a flipped bit the database library does not see on a plain read) is reported as
//!   damage, never used; [`salvage`] copies every intact record of a damaged store.
//!
//! Layout: keys of 4x4 and 6x6 boards are the base-3 code of the board (`u64`, 0 empty,
//! 1 side to move, 2 opponent, most significant digit first in reading order); 8x8 keys
//! are `player << 64 | opponent` (`u128`). Values are 8 bytes: lower, upper (as `i8`),
//! kinds, best move (square index, 255 = none), then the check (little-endian `u32`).
//! Stores of the first format (4-byte values, no check) are converted on open, in one
//! durable transaction.

use redb::{Database, ReadableTable, ReadableTableMetadata, TableDefinition};
use solvo_othello::symmetry::{inverse_transform, transform};
use solvo_othello::{Board, BoardSize, Square, Variant};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// Node kinds, as bit flags (the Takizawa CSV codes): P = PV, A' = ALL', P' = PV',
/// A = ALL, C = CUT.
pub mod kind {
    /// Principal-variation node of the reopening search (exact value, designated move).
    pub const P: u8 = 1;
    /// ALL' node: reopened, exact value, designated move.
    pub const A_PRIME: u8 = 2;
    /// PV' node: the first child of an A' node, or a failed-high sibling re-searched.
    pub const P_PRIME: u8 = 4;
    /// ALL node: every child searched with a null window; an upper bound.
    pub const A: u8 = 8;
    /// CUT node: one refuting child; a lower bound.
    pub const C: u8 = 16;
    /// Written by a strong (every position) solve.
    pub const STRONG: u8 = 32;
    /// Every flag defined here.
    pub const ALL_FLAGS: u8 = P | A_PRIME | P_PRIME | A | C | STRONG;
    /// The kinds whose record is exact and whose move is designated: the solution's
    /// stored subtree was searched under that move.
    pub const DESIGNATING: u8 = P | A_PRIME | P_PRIME | STRONG;

    /// Short names of the flags set in `kinds`, e.g. `P,A'`.
    pub fn names(kinds: u8) -> String {
        let names = [(P, "P"), (A_PRIME, "A'"), (P_PRIME, "P'"), (A, "A"), (C, "C"), (STRONG, "S")];
        let v: Vec<&str> = names.iter().filter(|(f, _)| kinds & f != 0).map(|(_, n)| *n).collect();
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(",")
        }
    }
}

/// What the store knows of one position (side to move's final disc difference,
/// empties to the winner).
///
/// Exact when `lower == upper`; `best_move` is in the coordinates of the board passed
/// to [`Store::put_batch`] / [`Store::get`] (the store maps it through the symmetry).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Record {
    /// Proven lower bound.
    pub lower: i8,
    /// Proven upper bound.
    pub upper: i8,
    /// Set of [`kind`] flags the position was searched as.
    pub kinds: u8,
    /// A move proving the value (the designated best move of exact records).
    pub best_move: Option<Square>,
}

impl Record {
    /// An exact record.
    pub fn exact(value: i8, kinds: u8, best_move: Option<Square>) -> Record {
        Record { lower: value, upper: value, kinds, best_move }
    }

    /// True when the value is known exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The exact value, if known.
    pub fn value(&self) -> Option<i8> {
        self.is_exact().then_some(self.lower)
    }

    /// True when the record is exact and its move designated (one of the
    /// [`kind::DESIGNATING`] kinds): the stored solution continues with that move.
    pub fn has_designated_move(&self) -> bool {
        self.is_exact() && self.kinds & kind::DESIGNATING != 0 && self.best_move.is_some()
    }

    /// Merges `new` into `self`: bounds intersected, kinds ORed. A record's move is
    /// proven to reach its lower bound, so the merged move is that of the record with
    /// the higher lower bound (none if that record has none: a move proven only for a
    /// lower bound would claim a value it was never shown to reach). At equal lower
    /// bounds a designated move wins (once stored it stays, and it replaces the move of
    /// a record without kinds, such as the endgame solver's: the stored subtree was
    /// searched under the designated one); else the stored move is kept unless `self`
    /// has none, or `new` is exact and `self` was not. `None` when the bounds do not
    /// overlap.
    pub fn merged(&self, new: &Record) -> Option<Record> {
        let lower = self.lower.max(new.lower);
        let upper = self.upper.min(new.upper);
        if lower > upper {
            return None;
        }
        let best_move = solvo_search::reopening::merged_move(self.move_claim(), new.move_claim());
        Some(Record { lower, upper, kinds: self.kinds | new.kinds, best_move })
    }

    /// What this record says of its move, for the merge rule every store shares.
    fn move_claim(&self) -> solvo_search::reopening::MoveClaim<Square> {
        solvo_search::reopening::MoveClaim {
            lower: i32::from(self.lower),
            best: self.best_move,
            designated: self.has_designated_move(),
            exact: self.is_exact(),
        }
    }

    fn encode(&self) -> [u8; 4] {
        [self.lower as u8, self.upper as u8, self.kinds, self.best_move.map_or(255, |m| m.index() as u8)]
    }

    fn decode(bytes: [u8; 4], max: i32) -> Option<Record> {
        let (lower, upper) = (bytes[0] as i8, bytes[1] as i8);
        let ok = lower <= upper && (lower as i32).abs() <= max && (upper as i32).abs() <= max;
        let best_move = match bytes[3] {
            255 => None,
            i => Some(Square::new(i)?),
        };
        (ok && bytes[2] & !kind::ALL_FLAGS == 0).then_some(Record { lower, upper, kinds: bytes[2], best_move })
    }
}

impl fmt::Display for Record {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_exact() {
            write!(f, "{:+}", self.lower)?;
        } else {
            write!(f, "[{:+}, {:+}]", self.lower, self.upper)?;
        }
        write!(f, " kinds {}", kind::names(self.kinds))?;
        match self.best_move {
            Some(m) => write!(f, " best {m}"),
            None => write!(f, " best -"),
        }
    }
}

/// Errors of the store. Never a panic: every failure of the file or its contents
/// comes back as one of these, naming the file or position involved.
#[derive(Debug)]
pub enum StoreError {
    /// The file could not be opened or created (missing directory, permissions, not a
    /// store, corrupt, locked by another process).
    Open {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// The file is damaged (truncated, overwritten, failed checksum): nothing in it is
    /// trusted.
    Damaged {
        /// The file.
        path: PathBuf,
        /// What was found wrong.
        detail: String,
    },
    /// Another process has the store open (the database allows one at a time).
    InUse {
        /// The file.
        path: PathBuf,
        /// The processes found holding it (`pid N (command)`; may be empty).
        holders: Vec<String>,
    },
    /// The file is a store of another board size or variant.
    Mismatch {
        /// The file.
        path: PathBuf,
        /// What the file holds, e.g. `6x6 normal`.
        stored: String,
        /// What was asked for.
        requested: String,
    },
    /// A database operation failed after opening (I/O error, corruption found).
    Db(String),
    /// A stored key or value cannot be decoded.
    Corrupt(String),
    /// A merge would make a record's lower bound exceed its upper bound.
    Inconsistent {
        /// The position, canonical.
        board: Board,
        /// What was stored (canonical orientation).
        stored: Record,
        /// What was put (canonical orientation).
        new: Record,
    },
    /// An error raised by a caller's callback (e.g. in [`Store::for_each`]).
    Other(String),
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Open { path, message } => write!(f, "cannot open store {}: {message}", path.display()),
            StoreError::Damaged { path, detail } => write!(
                f,
                "store {} is damaged ({detail}); it cannot be used as it is: restore it from a copy, copy its intact records into a new store with `solvo solution salvage --store <it> --out <new>` (solution stores), or move it away and rerun the command that built it (`solvo solution semi-strong`, `solvo solution strong`) to rebuild it",
                path.display()
            ),
            StoreError::InUse { path, holders } => write!(
                f,
                "store {} is in use by another process ({}); only one process can open a store at a time: wait for it to finish or stop it (a stopped semi-strong keeps its committed work), then retry",
                path.display(),
                if holders.is_empty() { "its pid could not be found".to_string() } else { holders.join(", ") }
            ),
            StoreError::Mismatch { path, stored, requested } => {
                write!(f, "store {} holds {stored} positions, not {requested}", path.display())
            }
            StoreError::Db(m) => write!(f, "store error: {m}"),
            StoreError::Corrupt(m) => write!(
                f,
                "the store is damaged: {m}; restore it from a copy, or move it away and rebuild it"
            ),
            StoreError::Inconsistent { board, stored, new } => write!(
                f,
                "inconsistent merge for position {:016x}/{:016x}: stored {stored}, new {new}",
                board.player, board.opponent
            ),
            StoreError::Other(m) => f.write_str(m),
        }
    }
}

impl std::error::Error for StoreError {}

pub(crate) fn db_err(what: &str) -> impl Fn(redb::Error) -> StoreError + '_ {
    move |e| match e {
        redb::Error::Corrupted(m) => StoreError::Corrupt(format!("{what}: {m}")),
        e => StoreError::Db(format!("{what}: {e}")),
    }
}

/// The error of opening `path` that failed with `e`: in use, damaged, or other.
fn open_error(path: &Path, e: redb::DatabaseError) -> StoreError {
    use redb::{DatabaseError, StorageError};
    let path = path.to_path_buf();
    match e {
        DatabaseError::DatabaseAlreadyOpen => {
            let holders = crate::file_holders::processes_holding(&path);
            StoreError::InUse { path, holders }
        }
        DatabaseError::Storage(StorageError::Corrupted(m)) => StoreError::Damaged { path, detail: m },
        DatabaseError::Storage(StorageError::Io(e)) if e.kind() == std::io::ErrorKind::UnexpectedEof => {
            StoreError::Damaged { path, detail: format!("the file is shorter than its header says: truncated? ({e})") }
        }
        e => StoreError::Open { path, message: e.to_string() },
    }
}

/// How long an open waits for a store whose lock another process still holds: a
/// process just killed (by a user, or by a test that kills runs on purpose) can keep
/// its file lock for a moment after it was reaped by its parent (seen: the next run
/// found the killed one still listed as the holder), so only a lock held longer is
/// reported as a store in use.
const LOCK_WAIT: std::time::Duration = std::time::Duration::from_secs(3);

/// Refuses a `path` that is missing, a directory or an empty file (not `what`), saying
/// which, before a store is opened without being created.
pub(crate) fn existing_file(path: &Path, what: &str) -> Result<(), StoreError> {
    let open_err = |m: String| StoreError::Open { path: path.to_path_buf(), message: m };
    match std::fs::metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(open_err("no such file".into())),
        Err(e) => Err(open_err(e.to_string())),
        Ok(m) if m.is_dir() => Err(open_err("is a directory, not a store file".into())),
        Ok(m) if m.len() == 0 => Err(open_err(format!("empty file, not {what}"))),
        Ok(_) => Ok(()),
    }
}

/// Runs `open` (a redb open or create of `path`), retrying while the file is locked by
/// another process, for at most [`LOCK_WAIT`]; a panic of the library is damage, and so
/// is a header the library would trust to its harm (checked first: [`header_check`]).
pub(crate) fn open_waiting(
    path: &Path,
    open: impl Fn() -> Result<Database, redb::DatabaseError>,
) -> Result<Database, StoreError> {
    header_check::check(path)?;
    let start = std::time::Instant::now();
    loop {
        let r = solvo_core::contained_panic::catch(&open).map_err(|m| library_panic(path, "opening it", m))?;
        match r {
            Err(redb::DatabaseError::DatabaseAlreadyOpen) if start.elapsed() < LOCK_WAIT => {
                std::thread::sleep(std::time::Duration::from_millis(50));
            }
            r => return r.map_err(|e| open_error(path, e)),
        }
    }
}

/// A panic of the database library on `path` (it trusts its file's structure): the
/// file is damaged.
pub(crate) fn library_panic(path: &Path, what: &str, message: String) -> StoreError {
    StoreError::Damaged {
        path: path.to_path_buf(),
        detail: format!("the database library failed while {what}: {message}; truncated or overwritten?"),
    }
}

const META: TableDefinition<&str, &[u8]> = TableDefinition::new("meta");
const SMALL: TableDefinition<u64, [u8; 8]> = TableDefinition::new("positions-2");
const WIDE: TableDefinition<u128, [u8; 8]> = TableDefinition::new("positions_wide-2");
/// Version of the record layout, written into the meta table.
const FORMAT: &[u8] = b"solvo-store-2";
/// The first format: the same records without their check, converted on open.
const FORMAT_1: &[u8] = b"solvo-store-1";
const SMALL_1: TableDefinition<u64, [u8; 4]> = TableDefinition::new("positions");
const WIDE_1: TableDefinition<u128, [u8; 4]> = TableDefinition::new("positions_wide");

/// The stored bytes of `rec` under `key` (the canonical board's key, widened).
fn encode_checked(key: u128, rec: &Record) -> [u8; 8] {
    with_check(key, rec.encode())
}

/// The 4 record bytes `v` stored under `key`, followed by their check.
fn with_check(key: u128, v: [u8; 4]) -> [u8; 8] {
    let c = record_check(key, v);
    [v[0], v[1], v[2], v[3], c[0], c[1], c[2], c[3]]
}

/// 32 bits of a mix of key and value.
fn record_check(key: u128, v: [u8; 4]) -> [u8; 4] {
    let mut h = (key as u64) ^ 0x736f_6c76_6f2d_7374;
    h = (h ^ (key >> 64) as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(31);
    h = (h ^ u64::from(u32::from_le_bytes(v))).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    ((h ^ (h >> 29)) as u32).to_le_bytes()
}

/// An open database whose closing cannot panic: redb commits when its last handle is
/// dropped, and on a damaged file (whose structure it trusts) that commit can panic
/// from inside `Drop`, past every guarded read. The close runs inside
/// [`solvo_core::contained_panic::catch`] instead; a panic there is dropped quietly,
/// since the damage is what every read of the file reports (and what the next open
/// finds). Derefs to the [`Database`].
pub(crate) struct ClosingDb(Option<Database>);

impl ClosingDb {
    /// Takes `db` over; it is closed when this is dropped.
    pub(crate) fn new(db: Database) -> ClosingDb {
        ClosingDb(Some(db))
    }
}

impl std::ops::Deref for ClosingDb {
    type Target = Database;
    fn deref(&self) -> &Database {
        self.0.as_ref().expect("the database is held until the handle is dropped")
    }
}

impl std::ops::DerefMut for ClosingDb {
    fn deref_mut(&mut self) -> &mut Database {
        self.0.as_mut().expect("the database is held until the handle is dropped")
    }
}

impl Drop for ClosingDb {
    fn drop(&mut self) {
        if let Some(db) = self.0.take() {
            let _ = solvo_core::contained_panic::catch(move || drop(db));
        }
    }
}

/// An open solution store for one board size and variant. Cheap to share between
/// threads by reference (`Store: Sync`); writes are serialised by the database.
pub struct Store {
    db: Arc<ClosingDb>,
    size: BoardSize,
    variant: Variant,
    path: PathBuf,
    /// Square indices of the playable area in reading order (key digits).
    squares: Vec<u8>,
}

impl fmt::Debug for Store {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Store({}, {} {})", self.path.display(), self.size, self.variant)
    }
}

impl Store {
    /// Opens or creates; errors (never panics) on a directory, a corrupt file or a
    /// size/variant mismatch. A store left by a killed process is repaired on open (quickly: every
    /// commit saves the allocator state).
    pub fn open(path: &Path, size: BoardSize, variant: Variant) -> Result<Store, StoreError> {
        if path.is_dir() {
            let message = "is a directory, not a store file".to_string();
            return Err(StoreError::Open { path: path.to_path_buf(), message });
        }
        let db = open_waiting(path, || Database::builder().set_cache_size(256 << 20).create(path))?;
        let store = Store {
            db: Arc::new(ClosingDb::new(db)),
            size,
            variant,
            path: path.to_path_buf(),
            squares: size.squares_in_order().map(|s| s.index() as u8).collect(),
        };
        store.guarded("reading its header", || store.check_meta())?;
        Ok(store)
    }

    /// Runs `f` (an operation on the database); a panic of the database library inside
    /// it (on a damaged file) becomes [`StoreError::Damaged`].
    fn guarded<T>(&self, what: &str, f: impl FnOnce() -> Result<T, StoreError>) -> Result<T, StoreError> {
        solvo_core::contained_panic::catch(f).map_err(|m| library_panic(&self.path, what, m))?
    }

    /// Reads every page of the file and checks its checksums (slow on a large store:
    /// one pass over the file). `Ok(true)`: intact; `Ok(false)`: a commit interrupted
    /// by a crash was rolled back to the last durable one; an error: damaged.
    pub fn check_integrity(&mut self) -> Result<bool, StoreError> {
        let path = self.path.clone();
        let db = Arc::get_mut(&mut self.db).ok_or_else(|| StoreError::Open {
            path: path.clone(),
            message: "the store is shared (see Store::share): check it through its only handle".into(),
        })?;
        solvo_core::contained_panic::catch(|| db.check_integrity())
            .map_err(|m| library_panic(&path, "checking it", m))?
            .map_err(|e| open_error(&path, e))
    }

    /// Opens an existing store with the size and variant recorded in it (never
    /// creates a file); a missing path, a directory or an empty file is an error
    /// saying which.
    pub fn open_existing(path: &Path) -> Result<Store, StoreError> {
        let open_err = |m: String| StoreError::Open { path: path.to_path_buf(), message: m };
        existing_file(path, "a solvo store")?;
        let board = solvo_core::contained_panic::catch(|| -> Result<String, StoreError> {
            let db = open_waiting(path, || Database::builder().set_cache_size(16 << 20).open(path))?;
            let txn = db.begin_read().map_err(|e| open_err(e.to_string()))?;
            let meta = txn.open_table(META).map_err(|e| open_err(format!("not a solvo store ({e})")))?;
            let v = meta.get("board").map_err(|e| open_err(e.to_string()))?;
            v.map(|g| String::from_utf8_lossy(g.value()).into_owned())
                .ok_or_else(|| open_err("not a solvo store (no board size recorded)".into()))
        })
        .map_err(|m| library_panic(path, "opening it", m))??;
        let (size, variant) = board
            .split_once(' ')
            .and_then(|(s, v)| Some((s.parse::<BoardSize>().ok()?, v.parse::<Variant>().ok()?)))
            .ok_or_else(|| open_err(format!("unknown board {board:?} recorded")))?;
        Store::open(path, size, variant)
    }

    /// A second handle on the same open database (one file lock; reads and writes of
    /// both handles see each other), for engines that each want a store of their own.
    pub fn share(&self) -> Store {
        Store {
            db: self.db.clone(),
            size: self.size,
            variant: self.variant,
            path: self.path.clone(),
            squares: self.squares.clone(),
        }
    }

    /// The board size of this store.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The scoring variant of this store.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn describe(size: BoardSize, variant: Variant) -> String {
        format!("{size} {variant}")
    }

    /// Writes size/variant/format on creation, checks them afterwards.
    fn check_meta(&self) -> Result<(), StoreError> {
        let want = Self::describe(self.size, self.variant);
        match self.get_meta("board")? {
            Some(stored) => {
                let stored = String::from_utf8_lossy(&stored).into_owned();
                if stored != want {
                    return Err(StoreError::Mismatch { path: self.path.clone(), stored, requested: want });
                }
                match self.get_meta("format")? {
                    Some(f) if f == FORMAT => Ok(()),
                    Some(f) if f == FORMAT_1 => self.convert_from_format_1(),
                    other => Err(StoreError::Open {
                        path: self.path.clone(),
                        message: format!(
                            "unknown record format {:?} (expected {:?})",
                            other.map(|f| String::from_utf8_lossy(&f).into_owned()),
                            String::from_utf8_lossy(FORMAT)
                        ),
                    }),
                }
            }
            None => {
                let txn = self.db.begin_write().map_err(|e| db_err("begin write")(e.into()))?;
                {
                    let mut meta = txn.open_table(META).map_err(|e| db_err("open meta")(e.into()))?;
                    meta.insert("board", want.as_bytes()).map_err(|e| db_err("write meta")(e.into()))?;
                    meta.insert("format", FORMAT).map_err(|e| db_err("write meta")(e.into()))?;
                    if self.is_wide() {
                        txn.open_table(WIDE).map_err(|e| db_err("create table")(e.into()))?;
                    } else {
                        txn.open_table(SMALL).map_err(|e| db_err("create table")(e.into()))?;
                    }
                }
                txn.commit().map_err(|e| db_err("commit")(e.into()))
            }
        }
    }

    /// Rewrites a first-format store's records with their checks, in one durable
    /// transaction (a crash keeps the old store whole).
    fn convert_from_format_1(&self) -> Result<(), StoreError> {
        let txn = self.db.begin_write().map_err(|e| db_err("begin write")(e.into()))?;
        {
            macro_rules! convert {
                ($old:expr, $new:expr) => {{
                    let old = txn.open_table($old).map_err(|e| db_err("open table")(e.into()))?;
                    let mut new = txn.open_table($new).map_err(|e| db_err("create table")(e.into()))?;
                    for item in old.iter().map_err(|e| db_err("iterate")(e.into()))? {
                        let (k, v) = item.map_err(|e| db_err("iterate")(e.into()))?;
                        let (key, bytes) = (k.value(), v.value());
                        let rec = Record::decode(bytes, self.max_score()).ok_or_else(|| {
                            StoreError::Corrupt(format!("first-format record {bytes:?} under key {key} is invalid"))
                        })?;
                        new.insert(key, encode_checked(key as u128, &rec)).map_err(|e| db_err("write")(e.into()))?;
                    }
                }};
            }
            if self.is_wide() {
                convert!(WIDE_1, WIDE);
                txn.delete_table(WIDE_1).map_err(|e| db_err("delete table")(e.into()))?;
            } else {
                convert!(SMALL_1, SMALL);
                txn.delete_table(SMALL_1).map_err(|e| db_err("delete table")(e.into()))?;
            }
            let mut meta = txn.open_table(META).map_err(|e| db_err("open meta")(e.into()))?;
            meta.insert("format", FORMAT).map_err(|e| db_err("write meta")(e.into()))?;
        }
        txn.commit().map_err(|e| db_err("commit")(e.into()))
    }

    fn is_wide(&self) -> bool {
        self.size == BoardSize::Eight
    }

    fn max_score(&self) -> i32 {
        self.size.squares() as i32
    }

    /// Base-3 key of a (canonical) board of size 4x4 or 6x6.
    fn small_key(&self, b: &Board) -> u64 {
        self.squares.iter().fold(0u64, |k, &sq| k * 3 + ((b.player >> sq) & 1) + 2 * ((b.opponent >> sq) & 1))
    }

    fn small_board(&self, mut key: u64) -> Result<Board, StoreError> {
        let mut b = Board::default();
        for &sq in self.squares.iter().rev() {
            match key % 3 {
                1 => b.player |= 1 << sq,
                2 => b.opponent |= 1 << sq,
                _ => {}
            }
            key /= 3;
        }
        if key != 0 {
            return Err(StoreError::Corrupt(format!("key {key} out of range for {}", self.size)));
        }
        Ok(b)
    }

    fn wide_board(key: u128) -> Result<Board, StoreError> {
        Board::new((key >> 64) as u64, key as u64)
            .ok_or_else(|| StoreError::Corrupt(format!("key {key:032x} has overlapping discs")))
    }

    /// The key of a canonical board, widened.
    fn key_of(&self, b: &Board) -> u128 {
        if self.is_wide() {
            wide_key(b)
        } else {
            self.small_key(b) as u128
        }
    }

    /// The record stored as `bytes` under `key` (of the canonical `board`); damage when
    /// it fails its check or is invalid.
    fn decode(&self, bytes: [u8; 8], key: u128, board: &Board) -> Result<Record, StoreError> {
        let v = [bytes[0], bytes[1], bytes[2], bytes[3]];
        Record::decode(v, self.max_score()).filter(|_| bytes[4..] == record_check(key, v)).ok_or_else(|| {
            StoreError::Corrupt(format!(
                "the record of position {:016x}/{:016x} fails its check (bytes {bytes:?}); `solvo solution salvage` copies every intact record into a new store",
                board.player, board.opponent
            ))
        })
    }

    /// Record of `board` (any orientation; canonicalised inside).
    pub fn get(&self, board: &Board) -> Result<Option<Record>, StoreError> {
        self.guarded("reading a record", || self.get_unguarded(board))
    }

    fn get_unguarded(&self, board: &Board) -> Result<Option<Record>, StoreError> {
        let (canon, k) = board.canonical_with_symmetry();
        let txn = self.db.begin_read().map_err(|e| db_err("begin read")(e.into()))?;
        let bytes = if self.is_wide() {
            let t = txn.open_table(WIDE).map_err(|e| db_err("open table")(e.into()))?;
            let v = t.get(wide_key(&canon)).map_err(|e| db_err("read")(e.into()))?;
            v.map(|g| g.value())
        } else {
            let t = txn.open_table(SMALL).map_err(|e| db_err("open table")(e.into()))?;
            let v = t.get(self.small_key(&canon)).map_err(|e| db_err("read")(e.into()))?;
            v.map(|g| g.value())
        };
        match bytes {
            None => Ok(None),
            Some(b) => Ok(Some(from_canonical(self.decode(b, self.key_of(&canon), &canon)?, k))),
        }
    }

    /// Writes all items in ONE durable transaction; merges with what is stored
    /// (bounds intersected, kinds ORed; an inconsistent merge (lower > upper) is an
    /// error, nothing written). Items for the same position merge in order.
    pub fn put_batch(&self, items: &[(Board, Record)]) -> Result<(), StoreError> {
        self.guarded("writing records", || self.put_batch_unguarded(items))
    }

    fn put_batch_unguarded(&self, items: &[(Board, Record)]) -> Result<(), StoreError> {
        let mut txn = self.db.begin_write().map_err(|e| db_err("begin write")(e.into()))?;
        txn.set_quick_repair(true);
        {
            macro_rules! merge_all {
                ($def:expr, $key:expr) => {{
                    let mut t = txn.open_table($def).map_err(|e| db_err("open table")(e.into()))?;
                    for (board, rec) in items {
                        let (canon, k) = board.canonical_with_symmetry();
                        let new = to_canonical(*rec, k);
                        let key = $key(&canon);
                        let old = t.get(key).map_err(|e| db_err("read")(e.into()))?.map(|g| g.value());
                        let merged = match old {
                            None => new,
                            Some(bytes) => {
                                let stored = self.decode(bytes, self.key_of(&canon), &canon)?;
                                stored.merged(&new).ok_or(StoreError::Inconsistent { board: canon, stored, new })?
                            }
                        };
                        let bytes = encode_checked(self.key_of(&canon), &merged);
                        if old != Some(bytes) {
                            t.insert(key, bytes).map_err(|e| db_err("write")(e.into()))?;
                        }
                    }
                }};
            }
            if self.is_wide() {
                merge_all!(WIDE, wide_key);
            } else {
                merge_all!(SMALL, |b: &Board| self.small_key(b));
            }
        }
        // Dropping `txn` on an error above aborts it: nothing of the batch is written.
        txn.commit().map_err(|e| db_err("commit")(e.into()))
    }

    /// Every stored (canonical board, record), for verification and statistics, in key
    /// order. Stops at the first error of `f` and returns it.
    pub fn for_each(&self, f: impl FnMut(Board, Record) -> Result<(), StoreError>) -> Result<(), StoreError> {
        self.guarded("reading records", || self.for_each_unguarded(f))
    }

    fn for_each_unguarded(&self, mut f: impl FnMut(Board, Record) -> Result<(), StoreError>) -> Result<(), StoreError> {
        let txn = self.db.begin_read().map_err(|e| db_err("begin read")(e.into()))?;
        if self.is_wide() {
            let t = txn.open_table(WIDE).map_err(|e| db_err("open table")(e.into()))?;
            for item in t.iter().map_err(|e| db_err("iterate")(e.into()))? {
                let (k, v) = item.map_err(|e| db_err("iterate")(e.into()))?;
                let board = Self::wide_board(k.value())?;
                f(board, self.decode(v.value(), k.value(), &board)?)?;
            }
        } else {
            let t = txn.open_table(SMALL).map_err(|e| db_err("open table")(e.into()))?;
            for item in t.iter().map_err(|e| db_err("iterate")(e.into()))? {
                let (k, v) = item.map_err(|e| db_err("iterate")(e.into()))?;
                let board = self.small_board(k.value())?;
                f(board, self.decode(v.value(), k.value() as u128, &board)?)?;
            }
        }
        Ok(())
    }

    /// Small named values (resume state, parameters), durable like records.
    pub fn get_meta(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        self.guarded("reading its parameters", || self.get_meta_unguarded(key))
    }

    fn get_meta_unguarded(&self, key: &str) -> Result<Option<Vec<u8>>, StoreError> {
        let txn = self.db.begin_read().map_err(|e| db_err("begin read")(e.into()))?;
        let t = match txn.open_table(META) {
            Ok(t) => t,
            Err(redb::TableError::TableDoesNotExist(_)) => return Ok(None),
            Err(e) => return Err(db_err("open meta")(e.into())),
        };
        let v = t.get(key).map_err(|e| db_err("read meta")(e.into()))?;
        Ok(v.map(|g| g.value().to_vec()))
    }

    /// Sets a named value in its own durable transaction.
    pub fn put_meta(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        self.guarded("writing its parameters", || self.put_meta_unguarded(key, value))
    }

    fn put_meta_unguarded(&self, key: &str, value: &[u8]) -> Result<(), StoreError> {
        let mut txn = self.db.begin_write().map_err(|e| db_err("begin write")(e.into()))?;
        txn.set_quick_repair(true);
        {
            let mut t = txn.open_table(META).map_err(|e| db_err("open meta")(e.into()))?;
            t.insert(key, value).map_err(|e| db_err("write meta")(e.into()))?;
        }
        txn.commit().map_err(|e| db_err("commit")(e.into()))
    }

    /// Number of stored positions.
    pub fn len(&self) -> Result<u64, StoreError> {
        self.guarded("counting records", || self.len_unguarded())
    }

    fn len_unguarded(&self) -> Result<u64, StoreError> {
        let txn = self.db.begin_read().map_err(|e| db_err("begin read")(e.into()))?;
        let n = if self.is_wide() {
            txn.open_table(WIDE).map_err(|e| db_err("open table")(e.into()))?.len()
        } else {
            txn.open_table(SMALL).map_err(|e| db_err("open table")(e.into()))?.len()
        };
        n.map_err(|e| db_err("count")(e.into()))
    }

    /// True when no position is stored.
    pub fn is_empty(&self) -> Result<bool, StoreError> {
        Ok(self.len()? == 0)
    }
}

fn wide_key(b: &Board) -> u128 {
    ((b.player as u128) << 64) | b.opponent as u128
}

/// `rec` (moves in the orientation of a board whose image under symmetry `k` is the
/// canonical board) in canonical coordinates.
pub(crate) fn to_canonical(rec: Record, k: u8) -> Record {
    let best_move = rec.best_move.map(|m| Square::from_index(transform(m.bit(), k).trailing_zeros()));
    Record { best_move, ..rec }
}

/// The inverse of [`to_canonical`].
pub(crate) fn from_canonical(rec: Record, k: u8) -> Record {
    let best_move = rec.best_move.map(|m| Square::from_index(inverse_transform(m.bit(), k).trailing_zeros()));
    Record { best_move, ..rec }
}

mod header_check;
pub mod salvage;
#[cfg(test)]
mod tests;
