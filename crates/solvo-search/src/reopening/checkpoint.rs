//! The saved progress of a layer-by-layer verify ([`super::verify::verify_resumable`]):
//! what it needs to resume at the first layer it had not finished.

use super::verify::{LayerReport, SemiStrongVerifyReport};
use super::SemiError;
use std::fs::{File, OpenOptions};
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

/// A verify's state at a layer boundary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VerifyProgress {
    /// The next layer's ply (the layers before it are finished).
    pub ply: usize,
    /// The report of the finished layers.
    pub report: SemiStrongVerifyReport,
    /// The next layer: each position's path from the start (move indices of the
    /// game's move list, passes folded) and the kinds it is required as.
    pub layer: Vec<(Vec<u16>, u8)>,
}

/// Where a verify keeps its progress.
pub trait VerifyCheckpoint {
    /// The progress saved last, with the canonical keys (and kinds) of every position
    /// checked before it; `None` when there is none (a fresh verify).
    #[allow(clippy::type_complexity)]
    fn resume(&mut self) -> Result<Option<(VerifyProgress, Vec<(Vec<u8>, u8)>)>, SemiError>;

    /// Records a finished layer: the canonical keys and kinds of its positions and the
    /// progress after it. When this returns, a resume starts from `progress`.
    fn save(&mut self, finished: &[(Vec<u8>, u8)], progress: &VerifyProgress) -> Result<(), SemiError>;
}

/// A [`VerifyCheckpoint`] in two files: `PATH` (the progress, replaced atomically
/// after each layer) and `PATH.done` (the keys of the finished layers, appended; what
/// lies beyond the length `PATH` names is cut on resume). Tied to an identity string
/// (the game, its options, the store and the verify's mode): a checkpoint of another
/// identity is an error, not a resume.
pub struct FileCheckpoint {
    path: PathBuf,
    identity: String,
    done_len: u64,
}

const MAGIC: &[u8] = b"solvo-verify-checkpoint-1\n";

fn io_err(path: &Path, e: impl std::fmt::Display) -> SemiError {
    SemiError::Store(format!("verify checkpoint {}: {e}", path.display()))
}

fn done_path(path: &Path) -> PathBuf {
    let mut p = path.as_os_str().to_owned();
    p.push(".done");
    PathBuf::from(p)
}

struct Reader<R> {
    r: R,
}

impl<R: Read> Reader<R> {
    fn bytes(&mut self, n: usize) -> std::io::Result<Vec<u8>> {
        let mut b = vec![0; n];
        self.r.read_exact(&mut b)?;
        Ok(b)
    }
    fn u8(&mut self) -> std::io::Result<u8> {
        Ok(self.bytes(1)?[0])
    }
    fn u16(&mut self) -> std::io::Result<u16> {
        Ok(u16::from_le_bytes(self.bytes(2)?.try_into().expect("2 bytes")))
    }
    fn u64(&mut self) -> std::io::Result<u64> {
        Ok(u64::from_le_bytes(self.bytes(8)?.try_into().expect("8 bytes")))
    }
    fn len(&mut self) -> std::io::Result<usize> {
        let n = self.u64()?;
        usize::try_from(n).map_err(|_| std::io::Error::other("length out of range"))
    }
    fn string(&mut self) -> std::io::Result<String> {
        let n = self.len()?;
        String::from_utf8(self.bytes(n)?).map_err(std::io::Error::other)
    }
}

fn put_u64(w: &mut impl Write, x: u64) -> std::io::Result<()> {
    w.write_all(&x.to_le_bytes())
}

fn put_string(w: &mut impl Write, s: &str) -> std::io::Result<()> {
    put_u64(w, s.len() as u64)?;
    w.write_all(s.as_bytes())
}

impl FileCheckpoint {
    /// The checkpoint at `path` for `identity` (nothing is read or written yet).
    pub fn new(path: impl Into<PathBuf>, identity: impl Into<String>) -> FileCheckpoint {
        FileCheckpoint { path: path.into(), identity: identity.into(), done_len: 0 }
    }

    /// Removes the checkpoint's files (after a verify that finished).
    pub fn remove(&self) -> Result<(), SemiError> {
        for p in [self.path.clone(), done_path(&self.path)] {
            match std::fs::remove_file(&p) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(io_err(&p, e)),
            }
        }
        Ok(())
    }

    fn read_progress(&self, r: &mut Reader<impl Read>) -> std::io::Result<Result<(VerifyProgress, u64), String>> {
        if r.bytes(MAGIC.len())? != MAGIC {
            return Ok(Err("not a verify checkpoint".into()));
        }
        let identity = r.string()?;
        if identity != self.identity {
            return Ok(Err(format!("made for {identity:?}, not for {:?}", self.identity)));
        }
        let ply = r.len()?;
        let done_len = r.u64()?;
        let mut report = SemiStrongVerifyReport {
            value: match r.u8()? {
                0 => None,
                _ => Some(r.u64()? as i64 as i32),
            },
            reproved: r.u64()?,
            ..SemiStrongVerifyReport::default()
        };
        for _ in 0..r.len()? {
            let mut f = [0u64; 6];
            for x in &mut f {
                *x = r.u64()?;
            }
            let [checked, p, a_prime, p_prime, bounds, violations] = f;
            report.layers.push(LayerReport { checked, p, a_prime, p_prime, bounds, violations });
        }
        for _ in 0..r.len()? {
            report.first.push(r.string()?);
        }
        let mut layer = Vec::new();
        for _ in 0..r.len()? {
            let kinds = r.u8()?;
            let n = r.u16()?;
            let path = (0..n).map(|_| r.u16()).collect::<std::io::Result<Vec<u16>>>()?;
            layer.push((path, kinds));
        }
        Ok(Ok((VerifyProgress { ply, report, layer }, done_len)))
    }

    fn write_progress(&self, w: &mut impl Write, p: &VerifyProgress) -> std::io::Result<()> {
        w.write_all(MAGIC)?;
        put_string(w, &self.identity)?;
        put_u64(w, p.ply as u64)?;
        put_u64(w, self.done_len)?;
        match p.report.value {
            None => w.write_all(&[0])?,
            Some(v) => {
                w.write_all(&[1])?;
                put_u64(w, i64::from(v) as u64)?;
            }
        }
        put_u64(w, p.report.reproved)?;
        put_u64(w, p.report.layers.len() as u64)?;
        for l in &p.report.layers {
            for x in [l.checked, l.p, l.a_prime, l.p_prime, l.bounds, l.violations] {
                put_u64(w, x)?;
            }
        }
        put_u64(w, p.report.first.len() as u64)?;
        for f in &p.report.first {
            put_string(w, f)?;
        }
        put_u64(w, p.layer.len() as u64)?;
        for (path, kinds) in &p.layer {
            w.write_all(&[*kinds])?;
            let n = u16::try_from(path.len()).map_err(|_| std::io::Error::other("a path longer than 65,535 plies"))?;
            w.write_all(&n.to_le_bytes())?;
            for &i in path {
                w.write_all(&i.to_le_bytes())?;
            }
        }
        w.flush()
    }
}

impl VerifyCheckpoint for FileCheckpoint {
    fn resume(&mut self) -> Result<Option<(VerifyProgress, Vec<(Vec<u8>, u8)>)>, SemiError> {
        let file = match File::open(&self.path) {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                // A fresh verify: a keys file left without its progress is stale.
                let done = done_path(&self.path);
                File::create(&done).map_err(|e| io_err(&done, e))?;
                self.done_len = 0;
                return Ok(None);
            }
            Err(e) => return Err(io_err(&self.path, e)),
        };
        let (progress, done_len) = match self.read_progress(&mut Reader { r: BufReader::new(file) }) {
            Ok(Ok(x)) => x,
            Ok(Err(m)) => return Err(io_err(&self.path, m)),
            Err(e) => return Err(io_err(&self.path, format!("damaged ({e})"))),
        };
        let done = done_path(&self.path);
        let file = OpenOptions::new().read(true).write(true).open(&done).map_err(|e| io_err(&done, e))?;
        let len = file.metadata().map_err(|e| io_err(&done, e))?.len();
        if len < done_len {
            return Err(io_err(&done, format!("{len} bytes, the progress names {done_len}")));
        }
        file.set_len(done_len).map_err(|e| io_err(&done, e))?;
        self.done_len = done_len;
        let mut r = Reader { r: BufReader::new(file).take(done_len) };
        let mut keys = Vec::new();
        let mut read = 0u64;
        while read < done_len {
            let entry = (|| -> std::io::Result<(Vec<u8>, u8)> {
                let n = r.u16()?;
                let key = r.bytes(usize::from(n))?;
                Ok((key, r.u8()?))
            })()
            .map_err(|e| io_err(&done, format!("damaged ({e})")))?;
            read += 3 + entry.0.len() as u64;
            keys.push(entry);
        }
        Ok(Some((progress, keys)))
    }

    fn save(&mut self, finished: &[(Vec<u8>, u8)], progress: &VerifyProgress) -> Result<(), SemiError> {
        let done = done_path(&self.path);
        let file = OpenOptions::new().create(true).append(true).open(&done).map_err(|e| io_err(&done, e))?;
        let mut w = BufWriter::new(file);
        let mut added = 0u64;
        for (key, kinds) in finished {
            let n = u16::try_from(key.len()).map_err(|_| io_err(&done, "a key longer than 65,535 bytes"))?;
            w.write_all(&n.to_le_bytes()).map_err(|e| io_err(&done, e))?;
            w.write_all(key).map_err(|e| io_err(&done, e))?;
            w.write_all(&[*kinds]).map_err(|e| io_err(&done, e))?;
            added += 3 + key.len() as u64;
        }
        let file = w.into_inner().map_err(|e| io_err(&done, e))?;
        file.sync_all().map_err(|e| io_err(&done, e))?;
        self.done_len += added;
        let mut tmp = self.path.as_os_str().to_owned();
        tmp.push(".tmp");
        let tmp = PathBuf::from(tmp);
        let mut w = BufWriter::new(File::create(&tmp).map_err(|e| io_err(&tmp, e))?);
        self.write_progress(&mut w, progress).map_err(|e| io_err(&tmp, e))?;
        w.into_inner().map_err(|e| io_err(&tmp, e))?.sync_all().map_err(|e| io_err(&tmp, e))?;
        std::fs::rename(&tmp, &self.path).map_err(|e| io_err(&self.path, e))
    }
}
