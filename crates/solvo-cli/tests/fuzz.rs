//! The protocol front ends under bounded mutation fuzzing (see `solvo_core::fuzz`):
//! one `solvo gtp` and one `solvo nboard` process are fed the committed corpus
//! (`tests/fuzz-corpus/gtp/`, `tests/fuzz-corpus/nboard/`: odd lines, Latin-1 bytes,
//! GGF records of every game type, out-of-order commands), then mutations of it, each
//! input a batch of lines followed by a marker command whose answer must come back.
//! Properties: the session answers every batch (no hang) and outlives it (it ends
//! only on `quit`, with success), and every GTP reply starts with `=` or `?`.
//!
//! The driver caps the effort a batch may ask of the engine (levels, clocks) so that a
//! legitimately long search is not taken for a hang, and sends text (bytes that are not
//! UTF-8 become U+FFFD: how the readers take raw bytes is the protocol tests' concern).

use solvo_core::fuzz::{corpus_dir, Fuzz};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Longest wait for the marker's answer after a batch: below the fuzzer's hang limit,
/// so that a hang is reported here and the session's process is ended with the test.
const BATCH_WAIT: Duration = Duration::from_secs(15);
/// The marker's id (GTP) or ping number (NBoard).
const MARK: &str = "7777777";

/// A running protocol session.
struct Session {
    args: &'static [&'static str],
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    restarts: usize,
}

impl Session {
    fn start(args: &'static [&'static str]) -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_solvo"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn solvo");
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Session { args, child, stdin, lines, restarts: 0 }
    }

    /// Sends `batch` then `marker`; the lines answered before the marker's answer
    /// (`expect`). Panics when the session hangs or ends other than by `quit`.
    fn exchange(&mut self, batch: &str, marker: &str, expect: &str) -> Vec<String> {
        // A broken pipe means the session ended: found out below.
        let _ = self.stdin.write_all(format!("{batch}\n{marker}\n").as_bytes()).and_then(|_| self.stdin.flush());
        let mut out = Vec::new();
        loop {
            match self.lines.recv_timeout(BATCH_WAIT) {
                Ok(l) if l == expect => return out,
                Ok(l) => out.push(l),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("{:?}: no answer to {marker:?} within {BATCH_WAIT:?} (a hang)", self.args)
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let status = self.child.wait().expect("wait for solvo");
                    assert!(
                        status.success() && batch.contains("quit"),
                        "{:?} ended ({status}) on a batch without quit; it answered {out:?}",
                        self.args
                    );
                    let restarts = self.restarts + 1;
                    *self = Session::start(self.args);
                    self.restarts = restarts;
                    return out;
                }
            }
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// How the driver bounds the effort of a command: its name (words) and what becomes
/// of each of its arguments.
type Effort = (&'static str, fn(&str) -> String);

/// `line` with the arguments of effort commands rewritten (the command may follow a
/// GTP id).
fn capped(line: &str, effort: &[Effort]) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let Some(&(_, rewrite)) = effort.iter().find(|(cmd, _)| {
        let cmd_words: Vec<&str> = cmd.split(' ').collect();
        (0..words.len().min(2)).any(|skip| words.iter().skip(skip).take(cmd_words.len()).eq(cmd_words.iter()))
    }) else {
        return line.to_string();
    };
    words.iter().map(|w| rewrite(w)).collect::<Vec<_>>().join(" ")
}

/// `word` if it is not a number above `cap` (NaN and infinities included), else `cap`.
fn at_most(word: &str, cap: f64) -> String {
    match word.parse::<f64>() {
        Ok(x) if x.is_nan() || x > cap => cap.to_string(),
        _ => word.to_string(),
    }
}

/// `4` for any spelling of the 6x6 board (`6`, `6x6`, `06.0`), else `word`.
fn no_six(word: &str) -> String {
    let w = word.to_ascii_lowercase();
    if w == "6x6" || w.parse::<f64>() == Ok(6.0) {
        "4".to_string()
    } else {
        word.to_string()
    }
}

/// The lines of `input` as text, effort capped. GTP removes control characters other
/// than tabs and reads tabs as spaces before it reads a line (`gtp`): the driver does
/// the same first, so that what it caps is what the session reads. `quit` is kept in
/// one batch of eight (by length) and read as `instead` in the others: a session that
/// quits is started again, which costs more than a hundred batches.
fn batch_of(input: &[u8], effort: &[Effort], gtp: bool, instead: &str) -> String {
    let text = String::from_utf8_lossy(input);
    let cleaned = |l: &str| -> String {
        if gtp {
            l.chars().filter(|c| !c.is_control() || *c == '\t').map(|c| if c == '\t' { ' ' } else { c }).collect()
        } else {
            l.to_string()
        }
    };
    let keep_quit = input.len() & 7 == 0;
    let no_quit = |l: String| -> String {
        let words: Vec<&str> = l.split_whitespace().collect();
        if keep_quit || !words.iter().take(2).any(|w| *w == "quit") {
            return l;
        }
        words.iter().map(|w| if *w == "quit" { instead } else { w }).collect::<Vec<_>>().join(" ")
    };
    text.split(['\n', '\r']).map(|l| capped(&no_quit(cleaned(l)), effort)).collect::<Vec<_>>().join("\n")
}

fn corpus(parser: &str) -> std::path::PathBuf {
    corpus_dir(env!("CARGO_MANIFEST_DIR"), parser)
}

/// The fuzzer's feedback: `ok` when no line of the batch was refused, else the last
/// refusal (the lines that start with `refused`).
fn refusals(lines: &[String], refused: &str) -> String {
    lines.iter().rev().find(|l| l.starts_with(refused)).map_or("ok".into(), |l| l.chars().take(60).collect())
}

#[test]
fn gtp_sessions_survive_every_line() {
    let mut session = Session::start(&["gtp", "--level", "1", "--hash-mb", "8"]);
    // Levels at most 4, clocks at most 2 s, and 4x4 in place of 6x6: the engine plays
    // 6x6 perfectly, and without a store a 6x6 game takes minutes to solve.
    let effort: [Effort; 4] = [
        ("level", |w| at_most(w, 4.0)),
        ("time_settings", |w| at_most(w, 2.0)),
        ("time_left", |w| at_most(w, 2.0)),
        ("boardsize", no_six),
    ];
    let tokens: [&[u8]; 16] = [
        b"play b ",
        b"play w ",
        b"genmove b",
        b"genmove w",
        b"undo",
        b"boardsize 6",
        b"boardsize 4",
        b"clear_board",
        b"showboard",
        b"final_score",
        b"pass",
        b"\t",
        b"#",
        b"\x01",
        b"\xe9",
        b"\n",
    ];
    let report =
        Fuzz::new("gtp").corpus(&corpus("gtp"), |_, b| b).dictionary(&tokens).max_len(600).budget_scaled(0.5).run(
            |input| {
                let batch = batch_of(input, &effort, true, "name");
                let replies = session.exchange(&batch, &format!("{MARK} protocol_version"), &format!("={MARK} 2"));
                // Every reply block starts with = or ? (multi-line answers continue it).
                let mut block_start = true;
                for l in &replies {
                    if block_start && !l.is_empty() {
                        assert!(l.starts_with('=') || l.starts_with('?'), "a reply {l:?} in {replies:?}");
                    }
                    block_start = l.is_empty();
                }
                refusals(&replies, "?")
            },
        );
    println!("gtp: the session was restarted {} times after quit ({} executions)", session.restarts, report.executions);
}

#[test]
fn nboard_sessions_survive_every_line() {
    let mut session = Session::start(&["nboard", "--level", "1", "--hash-mb", "8"]);
    let effort: [Effort; 1] = [("set depth", |w| at_most(w, 4.0))];
    let tokens: [&[u8]; 14] = [
        b"nboard 2",
        b"set depth ",
        b"set game ",
        b"move ",
        b"go",
        b"hint 3",
        b"ping 1",
        b"learn",
        b"analyze",
        b"set contempt ",
        b"(;GM[Othello]TY[8a]",
        b"/",
        b"\xe9",
        b"\n",
    ];
    let report = Fuzz::new("nboard")
        .corpus(&corpus("nboard"), |_, b| b)
        .dictionary(&tokens)
        .max_len(1200)
        .budget_scaled(0.5)
        .run(|input| {
            let batch = batch_of(input, &effort, false, "ping");
            let replies = session.exchange(&batch, &format!("ping {MARK}"), &format!("pong {MARK}"));
            refusals(&replies, "status error")
        });
    println!(
        "nboard: the session was restarted {} times after quit ({} executions)",
        session.restarts, report.executions
    );
}
