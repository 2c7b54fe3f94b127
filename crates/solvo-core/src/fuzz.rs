//! Bounded mutation fuzzing for the parsers' tests, on the stable toolchain.
//!
//! A [`Fuzz`] first replays a corpus of seeds (files committed under
//! `tests/fuzz-corpus/<parser>/`, plus seeds a test builds), then mutates them (bit
//! flips, byte and token insertions, deletions, splices, truncations, numbers
//! rewritten) until its time budget is spent. The check a test passes returns a short
//! *signature* of what the parser did (`"ok"`, or its error message); an input whose
//! signature was not seen before joins the pool of inputs to mutate, so the fuzzer is
//! guided towards inputs that reach new answers (behaviour feedback in place of
//! coverage counters, which need a nightly compiler).
//!
//! Guarantees: a panic in the check fails the run with the input shown (escaped) and
//! written to a file under the system's temporary directory; a single input that runs
//! longer than the hang limit ends the whole process with the input shown (the check
//! cannot be interrupted, so a hang is reported, not waited out); the run is
//! reproducible from the seed it prints. [`Report`] says how many inputs ran and for how
//! long, which tests print so the CI log shows them.
//!
//! Settings from the environment: `SOLVO_FUZZ_SECONDS` (the mutation budget of each
//! fuzzed parser, default [`DEFAULT_SECONDS`]), `SOLVO_FUZZ_SEED` (default: from the
//! clock), `SOLVO_FUZZ_HANG_SECONDS` (default [`DEFAULT_HANG_SECONDS`]).

use crate::rng::{mix64, Rng};
use std::collections::HashSet;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The mutation budget of each parser when `SOLVO_FUZZ_SECONDS` is not set: small, so
/// a plain `cargo test` stays fast.
pub const DEFAULT_SECONDS: f64 = 0.5;
/// The longest one input may run before it counts as a hang, when
/// `SOLVO_FUZZ_HANG_SECONDS` is not set.
pub const DEFAULT_HANG_SECONDS: f64 = 20.0;
/// Most inputs kept in the pool of inputs to mutate.
const POOL_MAX: usize = 4096;

/// What a fuzz run did.
#[derive(Clone, Debug)]
pub struct Report {
    /// The parser's name.
    pub name: String,
    /// Inputs run in all (corpus replays included).
    pub executions: u64,
    /// Corpus seeds replayed.
    pub seeds: usize,
    /// Distinct signatures seen (kinds of answers reached).
    pub signatures: usize,
    /// Inputs whose signature was `"ok"` (accepted by the parser).
    pub accepted: u64,
    /// Wall-clock time of the run.
    pub elapsed: Duration,
    /// The seed of the generator.
    pub seed: u64,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "fuzz {}: {} executions in {:.2} s ({} corpus seeds, {} accepted, {} kinds of answer, seed {})",
            self.name,
            self.executions,
            self.elapsed.as_secs_f64(),
            self.seeds,
            self.accepted,
            self.signatures,
            self.seed
        )
    }
}

/// A fuzz run being set up (see the module documentation).
pub struct Fuzz {
    name: String,
    seeds: Vec<Vec<u8>>,
    dictionary: Vec<Vec<u8>>,
    budget: Duration,
    hang: Duration,
    max_len: usize,
    seed: u64,
}

fn env_seconds(var: &str, default: f64) -> Duration {
    let s = std::env::var(var).ok().and_then(|v| v.trim().parse::<f64>().ok()).filter(|s| s.is_finite() && *s >= 0.0);
    Duration::from_secs_f64(s.unwrap_or(default).min(86_400.0))
}

/// The mutation budget of each parser: `SOLVO_FUZZ_SECONDS`, else [`DEFAULT_SECONDS`].
pub fn budget() -> Duration {
    env_seconds("SOLVO_FUZZ_SECONDS", DEFAULT_SECONDS)
}

impl Fuzz {
    /// A run called `name` with the budget, seed and hang limit of the environment, no
    /// seeds yet and inputs of at most 4096 bytes.
    pub fn new(name: &str) -> Fuzz {
        let seed = std::env::var("SOLVO_FUZZ_SEED").ok().and_then(|v| v.trim().parse().ok()).unwrap_or_else(|| {
            let t = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
            mix64(t.as_nanos() as u64 ^ u64::from(std::process::id()))
        });
        Fuzz {
            name: name.to_string(),
            seeds: Vec::new(),
            dictionary: Vec::new(),
            budget: budget(),
            hang: env_seconds("SOLVO_FUZZ_HANG_SECONDS", DEFAULT_HANG_SECONDS),
            max_len: 4096,
            seed,
        }
    }

    /// Adds every file under `dir` (recursively, in name order) as a seed, each passed
    /// through `load` (which may turn a description into bytes, e.g. apply a patch to a
    /// base file). Panics naming the directory when it cannot be read: a corpus that
    /// silently went missing would make the run test nothing.
    pub fn corpus(mut self, dir: &Path, load: impl Fn(&Path, Vec<u8>) -> Vec<u8>) -> Fuzz {
        let mut files = Vec::new();
        collect_files(dir, &mut files);
        assert!(!files.is_empty(), "fuzz corpus {} is missing or empty", dir.display());
        files.sort();
        for f in files {
            let bytes = std::fs::read(&f).unwrap_or_else(|e| panic!("reading {}: {e}", f.display()));
            self.seeds.push(load(&f, bytes));
        }
        self
    }

    /// Adds seeds built by the test.
    pub fn seeds(mut self, seeds: impl IntoIterator<Item = Vec<u8>>) -> Fuzz {
        self.seeds.extend(seeds);
        self
    }

    /// Tokens the mutator inserts or writes over the input (keywords, separators).
    pub fn dictionary(mut self, tokens: &[&[u8]]) -> Fuzz {
        self.dictionary.extend(tokens.iter().map(|t| t.to_vec()));
        self
    }

    /// The longest input the mutator makes (seeds may be longer).
    pub fn max_len(mut self, n: usize) -> Fuzz {
        self.max_len = n.max(1);
        self
    }

    /// Scales the budget (a parser whose inputs are slow, such as a whole process or
    /// a file on disk, may take a share of it).
    pub fn budget_scaled(mut self, factor: f64) -> Fuzz {
        self.budget = self.budget.mul_f64(factor.max(0.0));
        self
    }

    /// Replays the seeds, then mutates them until the budget is spent, calling `check`
    /// on each input; `check` panics on a broken property and returns the input's
    /// signature (see the module documentation). Prints and returns the report.
    pub fn run(self, mut check: impl FnMut(&[u8]) -> String) -> Report {
        quiet_about_caught_panics();
        let start = Instant::now();
        let current: Arc<Mutex<(Instant, Vec<u8>)>> = Arc::new(Mutex::new((Instant::now(), Vec::new())));
        let done = Arc::new(AtomicBool::new(false));
        let executions = Arc::new(AtomicU64::new(0));
        let watchdog = {
            let (current, done, executions) = (current.clone(), done.clone(), executions.clone());
            let (name, hang) = (self.name.clone(), self.hang);
            std::thread::spawn(move || {
                let mut last = u64::MAX;
                let mut since = Instant::now();
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(50));
                    let n = executions.load(Ordering::Relaxed);
                    if n != last {
                        (last, since) = (n, Instant::now());
                    } else if since.elapsed() > hang {
                        let input = current.lock().map(|c| c.1.clone()).unwrap_or_default();
                        let file = save_input(&name, &input);
                        eprintln!(
                            "fuzz {name}: one input has run for more than {:.0} s (a hang): {}\nsaved as {}",
                            hang.as_secs_f64(),
                            shown(&input),
                            file.display()
                        );
                        std::process::exit(101);
                    }
                }
            })
        };
        let mut rng = Rng::new(self.seed);
        let mut seen: HashSet<String> = HashSet::new();
        let mut accepted = 0u64;
        // Every seed is kept for mutation, and never replaced: inputs found by
        // mutation that fail early (short, truncated) would otherwise crowd out the
        // whole files that reach the deep checks.
        let mut pool: Vec<Vec<u8>> = self.seeds.iter().take(POOL_MAX / 2).cloned().collect();
        if pool.is_empty() {
            pool.push(Vec::new());
        }
        let protected = pool.len();
        let mut one = |input: Vec<u8>, pool: &mut Vec<Vec<u8>>, rng: &mut Rng, replay: bool| {
            if let Ok(mut c) = current.lock() {
                c.1.clone_from(&input);
            }
            let r = catch_unwind(AssertUnwindSafe(|| check(&input)));
            executions.fetch_add(1, Ordering::Relaxed);
            match r {
                Ok(signature) => {
                    let signature = normalised(&signature);
                    if signature == "ok" {
                        accepted += 1;
                    }
                    if seen.insert(signature) && !replay {
                        // A full pool takes the newcomer in place of a random input
                        // found by mutation (the seeds stay).
                        if pool.len() < POOL_MAX {
                            pool.push(input);
                        } else {
                            let i = protected + rng.below(POOL_MAX - protected);
                            pool[i] = input;
                        }
                    }
                }
                Err(payload) => {
                    done.store(true, Ordering::Relaxed);
                    let file = save_input(&self.name, &input);
                    panic!(
                        "fuzz {} (seed {}): {} on input {}\nsaved as {} (add it to the corpus once fixed)",
                        self.name,
                        self.seed,
                        crate::contained_panic::message(payload.as_ref()),
                        shown(&input),
                        file.display()
                    );
                }
            }
        };
        for s in &self.seeds {
            one(s.clone(), &mut pool, &mut rng, true);
        }
        let mutate_start = Instant::now();
        while mutate_start.elapsed() < self.budget {
            for _ in 0..16 {
                // A seed a quarter of the time, else any input of the pool.
                let from = if rng.below(4) == 0 { protected } else { pool.len() };
                let base = pool[rng.below(from)].clone();
                let other = &pool[rng.below(pool.len())];
                let input = mutate(&mut rng, base, other, &self.dictionary, self.max_len);
                one(input, &mut pool, &mut rng, false);
            }
        }
        done.store(true, Ordering::Relaxed);
        let _ = watchdog.join();
        let report = Report {
            name: self.name.clone(),
            executions: executions.load(Ordering::Relaxed),
            seeds: self.seeds.len(),
            signatures: seen.len(),
            accepted,
            elapsed: start.elapsed(),
            seed: self.seed,
        };
        println!("{report}");
        report
    }
}

/// Installs, once per process, a panic hook that keeps quiet about the panics a
/// library catches on purpose ([`crate::contained_panic::catch`]: a database reading a
/// damaged file), which damaged inputs cause by the thousand; every other panic is
/// reported by the hook that was there before.
fn quiet_about_caught_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !crate::contained_panic::is_caught_here() {
                previous(info);
            }
        }));
    });
}

fn collect_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_files(&p, out);
        } else {
            out.push(p);
        }
    }
}

/// A signature with its digits and quoted parts (`"..."`, `` `...` ``, and characters
/// shown as `'x'`) dropped, so `move 12` and `move 13` are one kind of answer; at most 80
/// characters.
fn normalised(signature: &str) -> String {
    let chars: Vec<char> = signature.chars().collect();
    let mut out = String::new();
    let mut quoted = false;
    let mut i = 0;
    while i < chars.len() && out.len() < 80 {
        let c = chars[i];
        if c == '"' || c == '`' {
            quoted = !quoted;
        } else if c == '\'' && !quoted {
            // A character shown as 'x' or '\u{e9}': skipped whole.
            if let Some(end) = (i + 2..chars.len().min(i + 12)).find(|&k| chars[k] == '\'') {
                i = end;
            }
        } else if !quoted && !c.is_ascii_digit() {
            out.push(c);
        }
        i += 1;
    }
    out
}

/// An input for a message: text with escapes, at most 2000 characters.
fn shown(input: &[u8]) -> String {
    let text = String::from_utf8_lossy(input);
    let escaped: String = format!("{text:?}").chars().take(2000).collect();
    format!("{escaped} ({} bytes)", input.len())
}

/// Writes a failing input under the temporary directory; its path.
fn save_input(name: &str, input: &[u8]) -> PathBuf {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for &b in input {
        h = (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
    }
    let path = std::env::temp_dir().join(format!("solvo-fuzz-{}-{h:016x}", name.replace(['/', ' '], "-")));
    let _ = std::fs::write(&path, input);
    path
}

/// Bytes the mutator likes to write: boundaries of integers, separators, line ends.
const INTERESTING: [u8; 16] =
    [0, 1, 0x7f, 0x80, 0xff, b'\n', b'\r', b' ', b';', b':', b'[', b']', b'-', b'9', 0xef, 0xc3];

/// One mutated input from `base` (`other` for splices).
pub fn mutate(rng: &mut Rng, mut v: Vec<u8>, other: &[u8], dictionary: &[Vec<u8>], max_len: usize) -> Vec<u8> {
    let rounds = 1 + rng.below(4) * rng.below(2);
    for _ in 0..rounds {
        let len = v.len();
        let at = |rng: &mut Rng| if len == 0 { 0 } else { rng.below(len) };
        match rng.below(12) {
            0 if len > 0 => {
                let i = at(rng);
                v[i] ^= 1 << rng.below(8);
            }
            1 if len > 0 => {
                let i = at(rng);
                v[i] = if rng.below(2) == 0 { rng.pick(&INTERESTING) } else { rng.next_u64() as u8 };
            }
            2 => {
                let i = if len == 0 { 0 } else { rng.below(len + 1) };
                let n = 1 + rng.below(4);
                for _ in 0..n {
                    let b = if rng.below(2) == 0 { rng.pick(&INTERESTING) } else { rng.next_u64() as u8 };
                    v.insert(i.min(v.len()), b);
                }
            }
            3 if len > 0 => {
                let i = at(rng);
                let n = 1 + rng.below((len - i).min(16));
                v.drain(i..i + n);
            }
            4 if len > 0 => {
                let i = at(rng);
                let n = 1 + rng.below((len - i).min(32));
                let chunk = v[i..i + n].to_vec();
                let j = rng.below(v.len() + 1);
                v.splice(j..j, chunk);
            }
            5 | 6 if !dictionary.is_empty() => {
                let token = &dictionary[rng.below(dictionary.len())];
                let i = rng.below(len + 1);
                if rng.below(2) == 0 || i == len {
                    v.splice(i..i, token.iter().copied());
                } else {
                    let end = (i + token.len()).min(len);
                    v.splice(i..end, token.iter().copied());
                }
            }
            7 if !other.is_empty() => {
                let i = rng.below(len + 1);
                let j = rng.below(other.len());
                v.truncate(i);
                v.extend_from_slice(&other[j..]);
            }
            8 if len > 0 => {
                v.truncate(rng.below(len));
            }
            9 if len >= 2 => {
                // A little-endian integer written over the input: 16 or 32 bits of a
                // boundary value.
                let width = if rng.below(2) == 0 || len < 4 { 2 } else { 4 };
                let i = rng.below(len - width + 1);
                let value: u32 = match rng.below(5) {
                    0 => 0,
                    1 => 1,
                    2 => u32::MAX,
                    3 => 1 << rng.below(32),
                    _ => rng.next_u64() as u32,
                };
                v[i..i + width].copy_from_slice(&value.to_le_bytes()[..width]);
            }
            10 => {
                // A run of ASCII digits replaced by another number (often a large one).
                let starts: Vec<usize> =
                    (0..len).filter(|&i| v[i].is_ascii_digit() && (i == 0 || !v[i - 1].is_ascii_digit())).collect();
                if starts.is_empty() {
                    continue;
                }
                let i = starts[rng.below(starts.len())];
                let end = (i..len).find(|&k| !v[k].is_ascii_digit()).unwrap_or(len);
                let n = match rng.below(4) {
                    0 => rng.below(10) as u64,
                    1 => rng.below(100) as u64,
                    2 => u64::MAX >> rng.below(64),
                    _ => rng.next_u64(),
                };
                v.splice(i..end, n.to_string().into_bytes());
            }
            _ => {
                // A byte repeated: long runs of one character.
                let i = rng.below(len + 1);
                let b = if len > 0 && rng.below(2) == 0 { v[at(rng)] } else { rng.pick(&INTERESTING) };
                let n = 1 + rng.below(64);
                v.splice(i..i, vec![b; n]);
            }
        }
    }
    v.truncate(max_len);
    v
}

/// The corpus directory of `parser`: `tests/fuzz-corpus/<parser>` of the workspace,
/// found from a crate's manifest directory (`env!("CARGO_MANIFEST_DIR")` of a crate
/// under `crates/`).
pub fn corpus_dir(manifest_dir: &str, parser: &str) -> PathBuf {
    Path::new(manifest_dir).join("../../tests/fuzz-corpus").join(parser)
}

/// A corpus loader for [`Fuzz::corpus`] over binary files: a `.patch` file is applied
/// to `base` ([`apply_patch`]: damage described in words), any other file is taken as
/// the bytes it holds.
pub fn patches_of(base: Vec<u8>) -> impl Fn(&Path, Vec<u8>) -> Vec<u8> {
    move |path, bytes| {
        if path.extension().is_some_and(|e| e == "patch") {
            apply_patch(&base, &String::from_utf8_lossy(&bytes))
        } else {
            bytes
        }
    }
}

/// Applies a patch description to `base`, one command a line (`#` starts a comment):
/// `truncate N` (keep the first N bytes; a negative N drops that many from the end),
/// `xor OFFSET BYTE`, `set OFFSET HEX...` (bytes written from OFFSET; a negative
/// offset counts from the end), `append HEX...`. Numbers are decimal or `0x` hex.
/// Offsets past the end are clamped to it. Panics naming the line on a malformed
/// command (a corpus file is written by people; it must be right).
pub fn apply_patch(base: &[u8], patch: &str) -> Vec<u8> {
    let mut v = base.to_vec();
    for (n, line) in patch.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let bad = || {
            panic!(
                "patch line {}: {line:?}: expected truncate N, xor OFFSET BYTE, set OFFSET HEX.., append HEX..",
                n + 1
            )
        };
        let num = |w: &str| -> i64 {
            let (neg, w) = w.strip_prefix('-').map_or((false, w), |r| (true, r));
            let x = match w.strip_prefix("0x") {
                Some(h) => i64::from_str_radix(h, 16).ok(),
                None => w.parse::<i64>().ok(),
            };
            let Some(x) = x else { bad() };
            if neg {
                -x
            } else {
                x
            }
        };
        let offset = |w: &str, len: usize| -> usize {
            let x = num(w);
            if x < 0 {
                len.saturating_sub(x.unsigned_abs() as usize)
            } else {
                (x as usize).min(len)
            }
        };
        let hex = |ws: &[&str]| -> Vec<u8> {
            ws.iter().map(|w| u8::from_str_radix(w.trim_start_matches("0x"), 16).unwrap_or_else(|_| bad())).collect()
        };
        match words.as_slice() {
            ["truncate", n] => {
                let keep = offset(n, v.len());
                v.truncate(keep);
            }
            ["xor", o, b] => {
                let i = offset(o, v.len());
                if i < v.len() {
                    v[i] ^= num(b) as u8;
                }
            }
            ["set", o, bytes @ ..] if !bytes.is_empty() => {
                let i = offset(o, v.len());
                for (k, b) in hex(bytes).into_iter().enumerate() {
                    match v.get_mut(i + k) {
                        Some(slot) => *slot = b,
                        None => v.push(b),
                    }
                }
            }
            ["append", bytes @ ..] if !bytes.is_empty() => v.extend(hex(bytes)),
            _ => bad(),
        }
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mutations_stay_within_the_length_and_patches_apply() {
        let mut rng = Rng::new(7);
        let dict = vec![b"ab".to_vec()];
        for _ in 0..10_000 {
            let v = mutate(&mut rng, b"f5d6 12 x".to_vec(), b"c3", &dict, 32);
            assert!(v.len() <= 32);
        }
        let p = apply_patch(b"abcdef", "xor 0 0x20\nset -2 41 42 43\ntruncate -1 # drop one");
        assert_eq!(p, b"Abcd".iter().chain(b"AB").copied().collect::<Vec<u8>>());
        assert_eq!(apply_patch(b"abc", "truncate 1\nappend 0a"), b"a\n");
    }

    #[test]
    fn signatures_ignore_numbers_and_quoted_text() {
        assert_eq!(normalised("move 12 (\"x9\"): illegal"), normalised("move 3 (\"a1\"): illegal"));
        assert_eq!(normalised("unexpected 'x' here"), normalised("unexpected '\\u{e9}' here"));
        assert_eq!(normalised("it is white's turn"), "it is whites turn");
    }

    #[test]
    fn a_panicking_check_fails_the_run_with_the_input() {
        let r = catch_unwind(|| {
            Fuzz::new("self-test").budget_scaled(0.0).seeds([b"boom".to_vec()]).run(|i| {
                assert!(i != b"boom", "found it");
                "ok".into()
            })
        });
        let msg = crate::contained_panic::message(r.unwrap_err().as_ref());
        assert!(msg.contains("found it") && msg.contains("\"boom\""), "{msg}");
    }
}
