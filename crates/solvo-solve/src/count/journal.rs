//! The oracle journal of the counting runs: every fact the oracle learns by a solve
//! (an exact value with a best move, a cutting move with its lower bound, bounds at the
//! threshold) appended as one text line, so that a killed or repeated run (another
//! threshold, the other search) starts with everything already paid for.
//!
//! Format: a header `# solvo count oracle v1 <size> <variant>`, then lines
//! `E <player hex> <opponent hex> <value> <move>`, `C <player> <opponent> <lower> <move>`
//! or `B <player> <opponent> <lower> <upper>` (canonical boards, moves in canonical
//! orientation). A torn last line (a kill in the middle of a write) is cut off; any
//! other malformed line is an error naming its line number.

use super::Oracle;
use solvo_othello::{Board, BoardSize, Square, Variant};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

/// One fact of the journal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fact {
    /// Exact value and a best move.
    Exact(Board, i32, Square),
    /// A move and a proven lower bound of the position it leads to.
    Cut(Board, Square, i32),
    /// Proven lower and upper bounds.
    Bounds(Board, i32, i32),
}

fn header(size: BoardSize, variant: Variant) -> String {
    format!("# solvo count oracle v1 {size} {variant}")
}

impl Fact {
    fn line(&self) -> String {
        match *self {
            Fact::Exact(b, v, m) => format!("E {:016x} {:016x} {v} {m}", b.player, b.opponent),
            Fact::Cut(b, m, lo) => format!("C {:016x} {:016x} {lo} {m}", b.player, b.opponent),
            Fact::Bounds(b, lo, hi) => format!("B {:016x} {:016x} {lo} {hi}", b.player, b.opponent),
        }
    }

    fn parse(line: &str) -> Option<Fact> {
        let f: Vec<&str> = line.split_whitespace().collect();
        if f.len() != 5 {
            return None;
        }
        let player = u64::from_str_radix(f[1], 16).ok()?;
        let opponent = u64::from_str_radix(f[2], 16).ok()?;
        if player & opponent != 0 {
            return None;
        }
        let b = Board { player, opponent };
        let n: i32 = f[3].parse().ok()?;
        match f[0] {
            "E" => Some(Fact::Exact(b, n, Square::parse(f[4])?)),
            "C" => Some(Fact::Cut(b, Square::parse(f[4])?, n)),
            "B" => Some(Fact::Bounds(b, n, f[4].parse().ok()?)),
            _ => None,
        }
    }
}

/// An open journal, appended to as facts are learned.
pub struct Journal {
    file: File,
}

impl Journal {
    /// Opens (creating if missing) the journal at `path` for `size` and `variant`,
    /// loads its facts into `oracle` and returns the journal with the number of facts
    /// loaded. Errors name the file and, for a malformed line, its number; a journal of
    /// another size or variant is refused.
    pub fn open(path: &Path, size: BoardSize, variant: Variant, oracle: &mut Oracle) -> Result<(Journal, u64), String> {
        let name = path.display();
        let head = header(size, variant);
        let mut loaded = 0;
        if path.exists() {
            let bytes = std::fs::read(path).map_err(|e| format!("{name}: {e}"))?;
            // Bytes after the last newline are a write cut by a kill: that fact is lost,
            // and the file is cut back so that the next fact starts a fresh line.
            let whole = bytes.iter().rposition(|&c| c == b'\n').map_or(0, |i| i + 1);
            if whole < bytes.len() {
                let f = OpenOptions::new().write(true).open(path).map_err(|e| format!("{name}: {e}"))?;
                f.set_len(whole as u64).map_err(|e| format!("{name}: {e}"))?;
            }
            let text = std::str::from_utf8(&bytes[..whole]).map_err(|_| format!("{name}: not a text file"))?;
            let mut lines = text.lines();
            match lines.next() {
                Some(h) if h == head => {}
                Some(h) => {
                    return Err(format!("{name}: line 1 is {h:?}, expected {head:?} (another board or variant?)"))
                }
                None => {}
            }
            for (i, line) in lines.enumerate() {
                let fact =
                    Fact::parse(line).ok_or_else(|| format!("{name}: line {}: not a journal fact: {line:?}", i + 2))?;
                oracle.learn(fact);
                loaded += 1;
            }
        }
        let mut file = OpenOptions::new().create(true).append(true).open(path).map_err(|e| format!("{name}: {e}"))?;
        if std::fs::metadata(path).map(|m| m.len() == 0).unwrap_or(false) {
            writeln!(file, "{head}").map_err(|e| format!("{name}: {e}"))?;
        }
        Ok((Journal { file }, loaded))
    }

    /// Appends one fact (one `write` call of a whole line).
    pub fn append(&mut self, fact: Fact) -> std::io::Result<()> {
        let line = fact.line() + "\n";
        self.file.write_all(line.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_round_trip_and_torn_lines() {
        let dir = std::env::temp_dir().join(format!("solvo-journal-{}", std::process::id()));
        let _ = std::fs::remove_file(&dir);
        let b = Board::start();
        let m = Square::parse("d3").unwrap();
        let facts = [Fact::Exact(b, -4, m), Fact::Cut(b, m, 2), Fact::Bounds(b, -6, 8)];
        let mut oracle = Oracle::default();
        let (mut j, n) = Journal::open(&dir, BoardSize::Six, Variant::Normal, &mut oracle).unwrap();
        assert_eq!(n, 0);
        for f in facts {
            j.append(f).unwrap();
            assert_eq!(Fact::parse(&f.line()), Some(f));
        }
        drop(j);
        // A torn last line is ignored.
        std::fs::OpenOptions::new().append(true).open(&dir).unwrap().write_all(b"E 00ff").unwrap();
        let mut again = Oracle::default();
        let (_, n) = Journal::open(&dir, BoardSize::Six, Variant::Normal, &mut again).unwrap();
        assert_eq!(n, 3);
        assert_eq!(again.len(), 1);
        // Another board size is refused, naming the file and line.
        let err = Journal::open(&dir, BoardSize::Four, Variant::Normal, &mut Oracle::default()).err().unwrap();
        assert!(err.contains("line 1"), "{err}");
        // A malformed line in the middle is an error with its number.
        std::fs::OpenOptions::new().append(true).open(&dir).unwrap().write_all(b"X\nB 0 0 1 2\n").unwrap();
        let err = Journal::open(&dir, BoardSize::Six, Variant::Normal, &mut Oracle::default()).err().unwrap();
        assert!(err.contains("line 5"), "{err}");
        std::fs::remove_file(&dir).unwrap();
    }
}
