//! Salvage of a damaged store: every record that can still be read is copied into a
//! new store; the damaged file is never written.
//!
//! How: the damaged file is opened through a read-only view ([`Overlay`]) that reads
//! zeros past its end (a truncated file) and keeps the database library's own writes
//! (its repair on open) in memory. The records are then read in key order; where a read
//! fails (a page lost or failing its checksum), the first readable key after the
//! damaged stretch is found by probing (doubling steps, then bisection) and reading goes
//! on from there. Each record is checked (key a valid board, bounds in range, kinds
//! known) before it is copied.
//!
//! Guarantees: the new store holds only records read intact from the damaged one. When
//! records were lost, the semi-strong kinds P, A' and P' are removed from the copies
//! (their claim "this record's subtree is complete in the store" may no longer hold);
//! values, bounds and moves are kept, so a semi-strong rerun on the new store restores
//! the kinds without solving again what the records know. A copy without losses keeps
//! every record as it was, and the parameters (meta values) when they can be read.

use super::{with_check, ClosingDb, Store, StoreError, FORMAT_1, META, SMALL, SMALL_1, WIDE, WIDE_1};
use crate::store::kind;
use redb::{Database, ReadableTable, StorageBackend, TableDefinition};
use solvo_othello::{BoardSize, Variant};
use std::collections::BTreeMap;
use std::fs::File;
use std::io;
use std::os::unix::fs::FileExt;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

/// What [`salvage`] did.
#[derive(Clone, Debug, Default)]
pub struct SalvageReport {
    /// Records copied into the new store.
    pub records: u64,
    /// Records read but refused (invalid key or value).
    pub refused: u64,
    /// Stretches of keys that could not be read (damaged pages skipped).
    pub damaged_stretches: u64,
    /// Parameters (meta values) copied.
    pub meta_copied: u64,
    /// True when the semi-strong kinds were removed (records were lost).
    pub kinds_removed: bool,
    /// The damaged file's length was shorter than its pages need (truncated).
    pub truncated: bool,
    /// A first-format store: its records carry no check, so a damaged record that is
    /// still a valid record cannot be told from an intact one.
    pub unchecked: bool,
}

const BLOCK: u64 = 4096;

/// A read-only view of a file: reads past its end give zeros, writes stay in memory.
#[derive(Debug)]
struct Overlay {
    file: File,
    file_len: u64,
    state: Mutex<OverlayState>,
    /// Set when a read went past the file's end (a truncated file).
    past_end: Arc<AtomicBool>,
    /// Length probing: every access but the header's read fails (see [`header_length`]).
    probing: bool,
}

#[derive(Debug, Default)]
struct OverlayState {
    len: u64,
    blocks: BTreeMap<u64, Vec<u8>>,
}

impl Overlay {
    /// The view of `path`, `len` bytes long (zeros past the file's end).
    fn open(path: &Path, len: Option<u64>, probing: bool) -> io::Result<Overlay> {
        let file = File::open(path)?;
        let file_len = file.metadata()?.len();
        Ok(Overlay {
            file,
            file_len,
            state: Mutex::new(OverlayState { len: len.unwrap_or(file_len), ..Default::default() }),
            past_end: Arc::new(AtomicBool::new(false)),
            probing,
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, OverlayState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Block `b` as the file (zeros past its end) and the writes made it.
    fn block(&self, state: &mut OverlayState, b: u64) -> io::Result<Vec<u8>> {
        if let Some(v) = state.blocks.get(&b) {
            return Ok(v.clone());
        }
        let mut buf = vec![0u8; BLOCK as usize];
        let start = b * BLOCK;
        if start < self.file_len {
            let n = (self.file_len - start).min(BLOCK) as usize;
            self.file.read_exact_at(&mut buf[..n], start)?;
        }
        if start + BLOCK > self.file_len {
            self.past_end.store(true, Ordering::Relaxed);
        }
        Ok(buf)
    }
}

impl StorageBackend for Overlay {
    fn len(&self) -> io::Result<u64> {
        Ok(self.lock().len)
    }

    fn read(&self, offset: u64, len: usize) -> io::Result<Vec<u8>> {
        if self.probing && offset != 0 {
            return Err(io::Error::other("length probe"));
        }
        let mut state = self.lock();
        let mut out = Vec::with_capacity(len);
        let end = offset + len as u64;
        let mut at = offset;
        while at < end {
            let b = at / BLOCK;
            let block = self.block(&mut state, b)?;
            let from = (at - b * BLOCK) as usize;
            let to = ((end - b * BLOCK).min(BLOCK)) as usize;
            out.extend_from_slice(&block[from..to]);
            at = b * BLOCK + to as u64;
        }
        Ok(out)
    }

    fn set_len(&self, len: u64) -> io::Result<()> {
        self.lock().len = len;
        Ok(())
    }

    fn sync_data(&self, _eventual: bool) -> io::Result<()> {
        Ok(())
    }

    fn write(&self, offset: u64, data: &[u8]) -> io::Result<()> {
        if self.probing {
            return Err(io::Error::other("length probe"));
        }
        let mut state = self.lock();
        let mut at = offset;
        let end = offset + data.len() as u64;
        while at < end {
            let b = at / BLOCK;
            let mut block = self.block(&mut state, b)?;
            let from = (at - b * BLOCK) as usize;
            let to = ((end - b * BLOCK).min(BLOCK)) as usize;
            block[from..to].copy_from_slice(&data[(at - offset) as usize..(at - offset) as usize + (to - from)]);
            state.blocks.insert(b, block);
            at = b * BLOCK + to as u64;
        }
        Ok(())
    }
}

/// The key types of the two record tables, seen as numbers for probing.
trait ProbeKey: redb::Key + for<'a> redb::Value<SelfType<'a> = Self> + Copy + 'static {
    const MAX: u128;
    fn from_u128(k: u128) -> Self;
    fn to_u128(self) -> u128;
}

impl ProbeKey for u64 {
    const MAX: u128 = u64::MAX as u128;
    fn from_u128(k: u128) -> Self {
        k.min(u64::MAX as u128) as u64
    }
    fn to_u128(self) -> u128 {
        self as u128
    }
}

impl ProbeKey for u128 {
    const MAX: u128 = u128::MAX;
    fn from_u128(k: u128) -> Self {
        k
    }
    fn to_u128(self) -> u128 {
        self
    }
}

/// Records as read: key (widened) and stored bytes.
type RawRecords<const N: usize> = Vec<(u128, [u8; N])>;

/// Every record of `table` that can be read, in key order, and the number of damaged
/// stretches skipped. A panic of the library on a damaged page counts as a failed read.
fn read_around_damage<K: ProbeKey, const N: usize>(
    db: &Database,
    table: TableDefinition<K, [u8; N]>,
) -> Result<(RawRecords<N>, u64), String> {
    let txn = db.begin_read().map_err(|e| e.to_string())?;
    let t = match solvo_core::contained_panic::catch(|| txn.open_table(table)) {
        Ok(Ok(t)) => t,
        Ok(Err(redb::TableError::TableDoesNotExist(_))) => return Ok((Vec::new(), 0)),
        Ok(Err(e)) => return Err(format!("the records' table cannot be opened: {e}")),
        Err(m) => return Err(format!("the records' table cannot be opened: {m}")),
    };
    // Reads from `start` until the end or the first failure: (records, failed).
    let scan = |start: u128, out: &mut RawRecords<N>| -> bool {
        let r = solvo_core::contained_panic::catch(|| {
            let iter = match t.range(K::from_u128(start)..) {
                Ok(i) => i,
                Err(_) => return true,
            };
            for item in iter {
                match item {
                    Ok((k, v)) => out.push((k.value().to_u128(), v.value())),
                    Err(_) => return true,
                }
            }
            false
        });
        r.unwrap_or(true)
    };
    // Whether reading from `start` gets past its first step.
    let readable = |start: u128| -> bool {
        solvo_core::contained_panic::catch(|| match t.range(K::from_u128(start)..) {
            Ok(mut i) => !matches!(i.next(), Some(Err(_))),
            Err(_) => false,
        })
        .unwrap_or(false)
    };
    let mut out = Vec::new();
    let mut damaged = 0;
    let mut start = 0u128;
    loop {
        let before = out.len();
        if !scan(start, &mut out) {
            break;
        }
        damaged += 1;
        let unread = if out.len() > before { out[out.len() - 1].0 + 1 } else { start };
        // The first readable key after the damaged stretch: doubling steps, then
        // bisection between the last unreadable and the first readable start.
        let (mut bad, mut step) = (unread, 1u128);
        let good = loop {
            let Some(s) = unread.checked_add(step).filter(|&s| s <= K::MAX) else {
                break None;
            };
            if readable(s) {
                break Some(s);
            }
            bad = s;
            step = step.saturating_mul(2);
        };
        let Some(mut good) = good else {
            break;
        };
        while good - bad > 1 {
            let mid = bad + (good - bad) / 2;
            if readable(mid) {
                good = mid;
            } else {
                bad = mid;
            }
        }
        start = good;
    }
    Ok((out, damaged))
}

/// Copies every readable record of the store at `damaged` into a new store at `out`
/// (which must not exist). `board`: the size and variant when the damaged file's own
/// record of them cannot be read (it is checked against them when it can).
pub fn salvage(damaged: &Path, out: &Path, board: Option<(BoardSize, Variant)>) -> Result<SalvageReport, StoreError> {
    let open_err = |path: &Path, m: String| StoreError::Open { path: path.to_path_buf(), message: m };
    if out.exists() {
        return Err(open_err(
            out,
            "already exists: salvage writes a new store; name a file that does not exist".into(),
        ));
    }
    if !damaged.is_file() {
        return Err(open_err(damaged, "no such file".into()));
    }
    let len = header_length(damaged).map_err(|e| open_err(damaged, e.to_string()))?;
    let overlay = Overlay::open(damaged, len, false).map_err(|e| open_err(damaged, e.to_string()))?;
    let past_end = overlay.past_end.clone();
    let db = solvo_core::contained_panic::catch(|| Database::builder().create_with_backend(overlay))
        .map_err(|m| damaged_beyond(damaged, format!("the database library failed on it: {m}")))?
        .map_err(|e| damaged_beyond(damaged, e.to_string()))?;
    let db = ClosingDb::new(db);
    let mut report = SalvageReport::default();

    // Parameters: read whatever can be.
    let mut meta: Vec<(String, Vec<u8>)> = Vec::new();
    let meta_read = solvo_core::contained_panic::catch(|| -> Result<(), String> {
        let txn = db.begin_read().map_err(|e| e.to_string())?;
        let t = txn.open_table(META).map_err(|e| e.to_string())?;
        for item in t.iter().map_err(|e| e.to_string())? {
            let (k, v) = item.map_err(|e| e.to_string())?;
            meta.push((k.value().to_string(), v.value().to_vec()));
        }
        Ok(())
    });
    let meta_intact = matches!(meta_read, Ok(Ok(())));
    let recorded = meta
        .iter()
        .find(|(k, _)| k == "board")
        .and_then(|(_, v)| std::str::from_utf8(v).ok())
        .and_then(|s| s.split_once(' '))
        .and_then(|(s, v)| Some((s.parse::<BoardSize>().ok()?, v.parse::<Variant>().ok()?)));
    let (size, variant) = match (recorded, board) {
        (Some(r), Some(b)) if r != b => {
            return Err(open_err(damaged, format!("it records a {} {} board, not the {} {} given", r.0, r.1, b.0, b.1)))
        }
        (Some(r), _) | (None, Some(r)) => r,
        (None, None) => {
            return Err(open_err(
                damaged,
                "its board size and variant cannot be read (damaged header): give them (--size, --variant)".into(),
            ))
        }
    };

    // First-format stores (their header says so, or, header unread, only their table
    // is there) have no checks: their records are given checks as read.
    let widen = |(key, v): (u128, [u8; 4])| (key, with_check(key, v));
    let read_first_format = || match size == BoardSize::Eight {
        true => read_around_damage(&db, WIDE_1).map(|(r, d)| (r.into_iter().map(widen).collect(), d)),
        false => read_around_damage(&db, SMALL_1).map(|(r, d)| (r.into_iter().map(widen).collect(), d)),
    };
    let said_first = meta.iter().any(|(k, v)| k == "format" && v == FORMAT_1);
    let (mut raw, mut damaged_stretches) = if said_first {
        read_first_format()
    } else if size == BoardSize::Eight {
        read_around_damage(&db, WIDE)
    } else {
        read_around_damage(&db, SMALL)
    }
    .map_err(|m| damaged_beyond(damaged, m))?;
    report.unchecked = said_first;
    if !said_first && !meta_intact && raw.is_empty() && damaged_stretches == 0 {
        (raw, damaged_stretches) = read_first_format().map_err(|m| damaged_beyond(damaged, m))?;
        report.unchecked = !raw.is_empty();
    }
    report.damaged_stretches = damaged_stretches;
    let truncated = past_end.load(Ordering::Relaxed);
    report.truncated = truncated;
    drop(db);

    let new = Store::open(out, size, variant)?;
    let mut intact = Vec::with_capacity(raw.len());
    for (key, value) in raw {
        let board = if size == BoardSize::Eight { Store::wide_board(key) } else { new.small_board(key as u64) };
        let Ok(board) = board else {
            report.refused += 1;
            continue;
        };
        let Ok(rec) = new.decode(value, key, &board) else {
            report.refused += 1;
            continue;
        };
        if rec.best_move.is_some_and(|m| board.moves(size) & m.bit() == 0) {
            report.refused += 1;
            continue;
        }
        intact.push((board, rec));
    }
    let lost = damaged_stretches > 0 || !meta_intact || truncated || report.refused > 0;
    report.kinds_removed = lost;
    for batch in intact.chunks_mut(1 << 16) {
        if lost {
            for (_, rec) in batch.iter_mut() {
                rec.kinds &= !(kind::P | kind::A_PRIME | kind::P_PRIME);
            }
        }
        new.put_batch(batch)?;
        report.records += batch.len() as u64;
    }
    for (k, v) in meta {
        // The header is the new store's own; the semi-strong root value stands only
        // for a complete store.
        if k == "board" || k == "format" || (lost && k == crate::semistrong::META_ROOT_VALUE) {
            continue;
        }
        new.put_meta(&k, &v)?;
        report.meta_copied += 1;
    }
    Ok(report)
}

/// The length the damaged file's header says it has, when it is longer than the file
/// (a truncated file; `None`: the file is long enough). The library refuses a file
/// shorter than its header says (an assertion); opened through a view of a given
/// length that fails every access after the header's read, an open fails that
/// assertion exactly when the length is too short: the length is found by doubling,
/// then bisection (page by page).
fn header_length(path: &Path) -> io::Result<Option<u64>> {
    let too_short = |len: u64| -> io::Result<bool> {
        let view = Overlay::open(path, Some(len), true)?;
        Ok(solvo_core::contained_panic::catch(|| Database::builder().create_with_backend(view).map(drop))
            .is_err_and(|m| m.contains("raw_file_len")))
    };
    let file_len = std::fs::metadata(path)?.len();
    if !too_short(file_len)? {
        return Ok(None);
    }
    let (mut short, mut long) = (file_len.div_ceil(BLOCK), file_len.div_ceil(BLOCK).max(1) * 2);
    while too_short(long * BLOCK)? {
        short = long;
        long = long
            .checked_mul(2)
            .filter(|&l| l < 1 << 40)
            .ok_or_else(|| io::Error::other("no length fits its header"))?;
    }
    while long - short > 1 {
        let mid = short + (long - short) / 2;
        if too_short(mid * BLOCK)? {
            short = mid;
        } else {
            long = mid;
        }
    }
    Ok(Some(long * BLOCK))
}

fn damaged_beyond(path: &Path, detail: String) -> StoreError {
    StoreError::Other(format!(
        "store {} is damaged beyond salvage ({detail}): restore it from a copy, or move it away and rerun the command that built it",
        path.display()
    ))
}
