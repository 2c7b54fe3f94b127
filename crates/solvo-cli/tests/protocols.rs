//! Issue 18: the protocol front ends driven over stdin/stdout of the real binary,
//! with scripted sessions: full games with passes, undo, malformed and out-of-order
//! commands (an error reply, the engine goes on), and NBoard's interactive flow.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::time::Duration;

/// Longest wait for one reply line.
const LINE_WAIT: Duration = Duration::from_secs(60);

/// A running `solvo` speaking a protocol.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_solvo"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("spawn solvo");
        let stdin = child.stdin.take().unwrap();
        let stdout: ChildStdout = child.stdout.take().unwrap();
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Engine { child, stdin, lines }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").expect("write to solvo");
        self.stdin.flush().unwrap();
    }

    /// Sends a line of raw bytes (a line end is added).
    fn send_bytes(&mut self, line: &[u8]) {
        self.stdin.write_all(line).and_then(|_| self.stdin.write_all(b"\n")).expect("write to solvo");
        self.stdin.flush().unwrap();
    }

    /// Closes the engine's input and waits for it to exit; the time it took.
    fn close_and_wait(self, within: Duration) -> Duration {
        let Engine { mut child, stdin, .. } = self;
        let t = std::time::Instant::now();
        drop(stdin);
        loop {
            if let Some(status) = child.try_wait().unwrap() {
                assert!(status.success(), "solvo exited with {status}");
                return t.elapsed();
            }
            if t.elapsed() > within {
                let _ = child.kill();
                panic!("solvo still runs {within:?} after the end of its input");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// The next line (panics after [`LINE_WAIT`]: a hang fails the test).
    fn line(&self) -> String {
        self.lines.recv_timeout(LINE_WAIT).expect("a reply line in time")
    }

    /// GTP: sends a command and returns its reply (`=...` or `?...`, lines joined
    /// with newlines, without the closing empty line).
    fn gtp(&mut self, command: &str) -> String {
        self.send(command);
        let mut reply = Vec::new();
        loop {
            let l = self.line();
            if l.is_empty() && !reply.is_empty() {
                break;
            }
            if !l.is_empty() || !reply.is_empty() {
                reply.push(l);
            }
        }
        reply.join("\n")
    }

    /// NBoard: lines up to and including the first for which `last` holds.
    fn until(&self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.line();
            let done = last(&l);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    fn finish(mut self) {
        drop(self.stdin);
        let status = self.child.wait().unwrap();
        assert!(status.success(), "solvo exited with {status}");
    }
}

fn ok(reply: &str) -> &str {
    assert!(reply.starts_with('='), "expected success, got {reply:?}");
    reply.trim_start_matches(|c: char| c == '=' || c.is_ascii_digit()).trim()
}

fn err(reply: &str) {
    assert!(reply.starts_with('?') && reply.len() > 2, "expected an error message, got {reply:?}");
}

/// Plays a full game by `genmove` for both colours; returns the moves (passes as
/// `PASS`) and the final score reply.
fn gtp_self_game(e: &mut Engine) -> (Vec<String>, String) {
    let mut moves = Vec::new();
    let mut passes_in_a_row = 0;
    for turn in 0.. {
        let color = if turn % 2 == 0 { "b" } else { "w" };
        let mv = ok(&e.gtp(&format!("genmove {color}"))).to_string();
        passes_in_a_row = if mv == "PASS" { passes_in_a_row + 1 } else { 0 };
        moves.push(mv);
        if passes_in_a_row == 2 {
            break;
        }
        assert!(turn < 200, "the game does not end");
    }
    let score = ok(&e.gtp("final_score")).to_string();
    (moves, score)
}

#[test]
fn gtp_plays_full_games_with_passes_and_undo() {
    let mut e = Engine::start(&["gtp", "--level", "2", "--hash-mb", "16"]);
    assert_eq!(ok(&e.gtp("protocol_version")), "2");
    assert_eq!(ok(&e.gtp("1 name")), "solvo");
    assert!(e.gtp("2 version").starts_with("=2 "));
    assert_eq!(ok(&e.gtp("known_command genmove")), "true");
    assert_eq!(ok(&e.gtp("known_command fly")), "false");
    // 4x4 (perfect play): the game has passes; both sides perfect gives the value.
    ok(&e.gtp("boardsize 4"));
    let (moves, score) = gtp_self_game(&mut e);
    assert!(moves.iter().filter(|m| *m == "PASS").count() >= 2, "{moves:?}");
    assert!(score == "0" || score.starts_with("B+") || score.starts_with("W+"), "{score}");
    // Undo back to the start, one ply at a time (passes included).
    let plies = moves.len() - 2; // the two closing passes were answers, not plies
    for _ in 0..plies {
        ok(&e.gtp("undo"));
    }
    err(&e.gtp("undo"));
    let start = ok(&e.gtp("showboard")).to_string();
    ok(&e.gtp("clear_board"));
    assert_eq!(ok(&e.gtp("showboard")), start);
    // 8x8: a whole game at level 2.
    ok(&e.gtp("boardsize 8"));
    ok(&e.gtp("komi 0"));
    let (moves, score) = gtp_self_game(&mut e);
    assert!(moves.len() >= 58, "{moves:?}");
    assert!(score == "0" || score.starts_with('B') || score.starts_with('W'));
    ok(&e.gtp("quit"));
    e.finish();
}

#[test]
fn gtp_answers_malformed_and_out_of_order_commands_with_errors() {
    let mut e = Engine::start(&["gtp", "--level", "1", "--hash-mb", "16"]);
    for bad in [
        "boardsize 5",
        "boardsize",
        "play",
        "play b",
        "play x d3",
        "play b z9",
        "play b a1",   // illegal here
        "play w d3",   // not white's turn
        "play b pass", // black has moves
        "genmove w",   // not white's turn
        "genmove",
        "komi lots",
        "time_settings 1 2",
        "time_left b -3 0",
        "level 0",
        "final_score", // the game is not over
        "undo",        // nothing to undo
        "frobnicate",
    ] {
        err(&e.gtp(bad));
    }
    // Only control characters or a comment: an empty command, ignored (no reply).
    e.send("\u{1}\u{2}");
    e.send("# a comment");
    assert_eq!(ok(&e.gtp("name")), "solvo");
    assert!(e.gtp("7 frobnicate").starts_with("?7 "));
    // The engine went on: a legal game continues.
    ok(&e.gtp("play b d3"));
    ok(&e.gtp("play w c3"));
    let mv = ok(&e.gtp("genmove b")).to_string();
    assert_eq!(mv.len(), 2, "{mv}");
    ok(&e.gtp("time_settings 10 0 0"));
    ok(&e.gtp("time_left w 5 0"));
    assert_eq!(ok(&e.gtp("genmove w")).len(), 2);
    ok(&e.gtp("quit"));
    e.finish();
}

const GGF_START: &str = "(;GM[Othello]PC[NBoard]PB[a]PW[b]RE[?]TI[15:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

#[test]
fn nboard_plays_a_full_game_with_hints_pings_and_errors() {
    let mut e = Engine::start(&["nboard", "--level", "2", "--hash-mb", "16"]);
    e.send("nboard 2");
    assert_eq!(e.line(), "set myname solvo2");
    e.send("set depth 3");
    assert_eq!(e.line(), "set myname solvo3");
    e.send(&format!("set game {GGF_START}"));
    e.send("ping 1");
    assert_eq!(e.line(), "pong 1");
    // A hint: per-move search lines, then an empty status.
    e.send("hint 4");
    let lines = e.until(|l| l == "status");
    let searches: Vec<&String> = lines.iter().filter(|l| l.starts_with("search ")).collect();
    assert!(!searches.is_empty(), "{lines:?}");
    for s in &searches {
        let f: Vec<&str> = s.split_whitespace().collect();
        assert_eq!(f.len(), 5, "{s}");
        assert!(["F5", "E6", "D3", "C4"].contains(&f[1]), "{s}");
        assert!(f[2].parse::<f64>().is_ok() && f[3] == "0", "{s}");
        assert!(is_nboard_depth(f[4]), "{s}");
    }
    // Malformed commands: a status error line each, and the engine goes on.
    for bad in ["set depth 0", "set depth x", "set game (;nonsense", "move z9", "move a1", "hint x", "nboard x", "fly"]
    {
        e.send(bad);
        let l = e.line();
        assert!(l.starts_with("status error: "), "{bad}: {l}");
    }
    // The whole game: the engine says its move with `go`, the GUI plays it with `move`.
    let mut plies = 0;
    loop {
        e.send("go");
        let lines = e.until(|l| l.starts_with("=== ") || l.starts_with("status error"));
        let last = lines.last().unwrap();
        if last.starts_with("status error") {
            assert!(last.contains("game is over"), "{last}");
            break;
        }
        let answer = last.trim_start_matches("=== ");
        let parts: Vec<&str> = answer.split('/').collect();
        assert_eq!(parts.len(), 3, "{answer}");
        assert!(parts[1].parse::<f64>().is_ok() && parts[2].parse::<f64>().is_ok(), "{answer}");
        assert_eq!(e.line(), "status");
        e.send(&format!("move {answer}"));
        plies += 1;
        assert!(plies < 80, "the game does not end");
    }
    assert!(plies >= 58, "{plies}");
    // Contempt: accepted (a status line says when it is too large to be without
    // effect), a malformed one refused.
    e.send("set contempt 50");
    e.send("set contempt 500");
    assert!(e.line().starts_with("status solvo ignores contempt 500"));
    e.send("set contempt x");
    assert!(e.line().starts_with("status error: set contempt"));
    e.send("learn");
    assert_eq!(e.until(|l| l == "learned").last().unwrap(), "learned");
    e.send("ping 2");
    assert_eq!(e.line(), "pong 2");
    // The game analysed from its end back to the start.
    e.send("analyze");
    let lines = e.until(|l| l == "status");
    let analysis = lines.iter().filter(|l| l.starts_with("analysis ")).count();
    assert!(analysis >= 59, "{analysis}: {lines:?}");
    e.send("quit");
    e.finish();
}

/// The depth field of an NBoard `search` line as the GUI reads it: a number, `d@s%`
/// (selective), or `100%` (exact).
fn is_nboard_depth(text: &str) -> bool {
    let digits = |t: &str| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit());
    match text.split_once('@') {
        Some((d, s)) => digits(d) && s.strip_suffix('%').is_some_and(digits),
        None => digits(text) || text == "100%",
    }
}

#[test]
fn nboard_learn_adds_the_game_to_the_book_file_that_later_sessions_play_from() {
    let dir = tempfile::tempdir().unwrap();
    let book = dir.path().join("learnt.book");
    let book_arg = book.to_str().unwrap();
    let mut e = Engine::start(&["nboard", "--level", "2", "--hash-mb", "16", "--learn-book", book_arg]);
    e.send("nboard 2");
    e.line();
    // A game of a few moves, then learnt: the book file holds its positions.
    let game = GGF_START.replace(";)", "B[F5]W[D6]B[C3]W[D3]B[C4];)");
    e.send(&format!("set game {game}"));
    e.send("learn");
    let lines = e.until(|l| l == "learned");
    assert!(!lines.iter().any(|l| l.starts_with("status error")), "{lines:?}");
    let text = std::fs::read_to_string(&book).unwrap();
    assert!(text.starts_with("# solvo book normal"), "{text}");
    assert_eq!(text.lines().count(), 1 + 6, "{text}");
    e.send("quit");
    e.finish();
    // A new session with the book: the start is answered from it at once (no nodes).
    let mut e = Engine::start(&["nboard", "--level", "8", "--hash-mb", "16", "--book", book_arg]);
    e.send("nboard 2");
    e.line();
    e.send(&format!("set game {GGF_START}"));
    e.send("go");
    let lines = e.until(|l| l.starts_with("=== "));
    assert!(lines.iter().any(|l| l.starts_with("nodestats 0 ")), "{lines:?}");
    assert!(["=== F5/", "=== E6/", "=== D3/", "=== C4/"].iter().any(|m| lines.last().unwrap().starts_with(m)));
    e.send("quit");
    e.finish();
    // Learning into a session without a book file keeps the book for the session.
    let mut e = Engine::start(&["nboard", "--level", "2", "--hash-mb", "16"]);
    e.send("nboard 2");
    e.line();
    e.send(&format!("set game {game}"));
    e.send("learn");
    assert_eq!(e.until(|l| l == "learned").last().unwrap(), "learned");
    e.send("quit");
    e.finish();
}

#[test]
fn nboard_ping_stops_a_long_search() {
    let mut e = Engine::start(&["nboard", "--level", "40", "--hash-mb", "16"]);
    e.send("nboard 2");
    e.line();
    e.send(&format!("set game {GGF_START}"));
    e.send("hint 1");
    assert_eq!(e.line(), "status solvo is thinking");
    std::thread::sleep(Duration::from_millis(500));
    let t = std::time::Instant::now();
    e.send("ping 9");
    let lines = e.until(|l| l.starts_with("pong"));
    assert_eq!(lines.last().unwrap(), "pong 9");
    assert!(t.elapsed() < Duration::from_secs(10), "ping took {:?}", t.elapsed());
    e.send("quit");
    e.finish();
}

#[test]
fn a_match_between_two_solvo_processes_over_gtp_and_nboard_has_no_protocol_error() {
    let exe = env!("CARGO_BIN_EXE_solvo");
    let xot = format!("{}/../../../shared/data/xot/xot-small.txt", env!("CARGO_MANIFEST_DIR"));
    let gtp = format!("gtp:{exe} gtp --level 1 --hash-mb 16");
    let nboard = format!("nboard:{exe} nboard --level 2 --hash-mb 16");
    let o = Command::new(exe)
        .args(["match", "--engine", &gtp, "--engine", &nboard, "--openings", &xot, "--games", "20"])
        // The match's level is the depth it sets in the NBoard engine, as the GUI does.
        .args(["--parallel", "2", "--hash-mb", "16", "--json", "--level", "2"])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(!stderr.contains("forfeits"), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 20);
    assert_eq!(v["first"], "gtp:solvo");
    assert_eq!(v["second"], "nboard:solvo2");
}

#[test]
fn a_killed_match_resumes_from_its_record() {
    let exe = env!("CARGO_BIN_EXE_solvo");
    let dir = tempfile::tempdir().unwrap();
    let record = dir.path().join("m.ggf");
    let run = |games: &str| {
        Command::new(exe)
            .args(["match", "--engine", "solvo:level=1", "--engine", "solvo:level=2", "--random-openings", "5"])
            .args(["--games", games, "--parallel", "1", "--hash-mb", "16", "--json", "--record"])
            .arg(&record)
            .output()
            .unwrap()
    };
    let o = run("4");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read_to_string(&record).unwrap().lines().count(), 4);
    let o = run("6");
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(stderr.contains("resuming: 4 games"), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 6);
    assert_eq!(std::fs::read_to_string(&record).unwrap().lines().count(), 6);
    // A record that is not a match record is refused, not overwritten.
    std::fs::write(
        &record,
        "(;GM[Othello]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *];)\n",
    )
    .unwrap();
    assert!(!run("6").status.success());
}

#[test]
fn play_in_the_terminal_on_8x8_with_undo() {
    let mut e = Engine::start(&["play", "--level", "2", "--hash-mb", "16", "--human", "white"]);
    // The engine (black) opens; the human answers, takes it back, answers again.
    let opening = e.until(|l| l.starts_with("solvo (black) plays"));
    assert!(opening.iter().any(|l| l.contains("at level 2")), "{opening:?}");
    e.send("zz");
    let err = e.until(|l| l.starts_with("error:"));
    assert!(err.last().unwrap().contains("is not a square"));
    e.send("a1");
    assert!(e.until(|l| l.starts_with("error:")).last().unwrap().contains("not a legal move"));
    // Every opening move of black leaves white a reply among these.
    let reply = ["c3", "c5", "e3", "d6", "f4", "f6", "e6", "c4"];
    let mut played = false;
    for r in reply {
        e.send(r);
        let lines = e.until(|l| l.starts_with("error:") || l.starts_with("solvo (black) plays"));
        if lines.last().unwrap().starts_with("solvo (black) plays") {
            played = true;
            break;
        }
    }
    assert!(played);
    e.send("undo");
    e.send("quit");
    let rest = e.until(|l| l == "game abandoned");
    assert!(!rest.iter().any(|l| l.contains("nothing to undo")), "{rest:?}");
    e.finish();
}

#[test]
fn an_external_engine_that_cheats_or_crashes_loses_its_games_and_the_match_goes_on() {
    let exe = env!("CARGO_BIN_EXE_solvo");
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("bad-gtp.sh");
    std::fs::write(
        &script,
        "#!/bin/sh\nwhile read -r cmd rest; do\n  case \"$cmd\" in\n    name) printf '= bad\\n\\n';;\n    \
         genmove) if [ -n \"$DIE\" ]; then exit 3; else printf '= a1\\n\\n'; fi;;\n    *) printf '=\\n\\n';;\n  \
         esac\ndone\n",
    )
    .unwrap();
    let spec = format!("gtp:sh {}", script.display());
    for (die, reason) in [(false, "illegal move"), (true, "the program ended")] {
        let mut cmd = Command::new(exe);
        cmd.args(["match", "--engine", "solvo:level=1", "--engine", &spec, "--random-openings", "2"]).args([
            "--parallel",
            "1",
            "--hash-mb",
            "16",
            "--json",
        ]);
        if die {
            cmd.env("DIE", "1");
        }
        let o = cmd.output().unwrap();
        let stderr = String::from_utf8_lossy(&o.stderr);
        assert!(o.status.success(), "{stderr}");
        assert_eq!(stderr.matches("forfeits").count(), 4, "{stderr}");
        assert!(stderr.contains(reason), "{stderr}");
        let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        assert_eq!((v["games"].as_u64(), v["wins"].as_u64()), (Some(4), Some(4)));
    }
}

/// Generous bound on an answer that must come (not a timing test: the answers measured
/// take well under a second; the old behaviour took minutes or forever).
const MUST_ANSWER: Duration = Duration::from_secs(30);

#[test]
fn a_line_that_is_not_utf8_gets_an_error_reply_and_the_conversation_goes_on() {
    // NBoard: a game record with a Latin-1 player name.
    let mut e = Engine::start(&["nboard", "--level", "1", "--hash-mb", "16"]);
    e.send("nboard 2");
    assert_eq!(e.line(), "set myname solvo1");
    let latin1 = GGF_START.replace("PB[a]", "PB[Jos\u{e9}]");
    let mut bytes = Vec::new();
    for c in latin1.chars() {
        bytes.push(u8::try_from(u32::from(c)).unwrap());
    }
    e.send_bytes(&bytes);
    let l = e.line();
    assert!(l.starts_with("status error: ") && l.contains("not UTF-8") && l.contains("0xE9"), "{l}");
    e.send("ping 1");
    assert_eq!(e.line(), "pong 1");
    e.send(&format!("set game {GGF_START}"));
    e.send("go");
    assert!(e.until(|l| l.starts_with("=== ")).last().unwrap().len() > 4);
    e.send("quit");
    e.finish();
    // GTP: an error reply with the command's id.
    let mut e = Engine::start(&["gtp", "--level", "1", "--hash-mb", "16"]);
    e.send_bytes(b"5 name Jos\xe9");
    let mut reply = e.line();
    while reply.is_empty() {
        reply = e.line();
    }
    assert!(reply.starts_with("?5 ") && reply.contains("not UTF-8"), "{reply}");
    assert_eq!(e.line(), "");
    assert_eq!(ok(&e.gtp("name")), "solvo");
    ok(&e.gtp("quit"));
    e.finish();
}

#[test]
fn the_end_of_input_during_a_search_stops_it_and_the_engine_exits() {
    // Level 40 from the start: minutes of search unless stopped.
    let mut e = Engine::start(&["nboard", "--level", "40", "--hash-mb", "16"]);
    e.send("nboard 2");
    e.line();
    e.send(&format!("set game {GGF_START}"));
    e.send("go");
    assert_eq!(e.line(), "status solvo is thinking");
    std::thread::sleep(Duration::from_millis(300));
    let took = e.close_and_wait(MUST_ANSWER);
    eprintln!("nboard exited {took:?} after the end of its input");
    let mut e = Engine::start(&["gtp", "--level", "40", "--hash-mb", "16"]);
    assert_eq!(ok(&e.gtp("name")), "solvo");
    e.send("genmove b");
    std::thread::sleep(Duration::from_millis(300));
    let took = e.close_and_wait(MUST_ANSWER);
    eprintln!("gtp exited {took:?} after the end of its input");
}

#[test]
fn six_by_six_without_a_store_answers_under_a_clock_and_at_a_low_level() {
    // GTP: a game clock of 2 s (time_settings), then a per-move time (--move-time).
    let mut e = Engine::start(&["gtp", "--size", "6", "--hash-mb", "16"]);
    ok(&e.gtp("time_settings 2 0 0"));
    let t = std::time::Instant::now();
    let mv = ok(&e.gtp("genmove b")).to_string();
    eprintln!("6x6 genmove under a 2 s game clock: {:?}", t.elapsed());
    assert!(t.elapsed() < MUST_ANSWER && ["C2", "B3", "E4", "D5"].contains(&mv.as_str()), "{mv}");
    ok(&e.gtp("quit"));
    e.finish();
    let mut e = Engine::start(&["gtp", "--size", "6", "--hash-mb", "16", "--move-time", "0.5"]);
    let t = std::time::Instant::now();
    ok(&e.gtp("genmove b"));
    ok(&e.gtp("genmove w"));
    eprintln!("two 6x6 genmoves at 0.5 s a move: {:?}", t.elapsed());
    assert!(t.elapsed() < MUST_ANSWER);
    // A level without a time control holds too: level 1 answers from the start.
    ok(&e.gtp("time_settings 0 0 0"));
    ok(&e.gtp("level 1"));
    ok(&e.gtp("clear_board"));
    let t = std::time::Instant::now();
    ok(&e.gtp("genmove b"));
    eprintln!("6x6 genmove at level 1: {:?}", t.elapsed());
    assert!(t.elapsed() < MUST_ANSWER);
    ok(&e.gtp("quit"));
    e.finish();
    // NBoard: `set depth 2` on a 6x6 game, then `go` and a hint.
    let mut e = Engine::start(&["nboard", "--size", "6", "--hash-mb", "16"]);
    e.send("nboard 2");
    e.line();
    e.send("set depth 2");
    e.line();
    e.send("set game (;GM[Othello]PB[a]PW[b]TY[6]BO[6 --------------O*----*O-------------- *];)");
    let t = std::time::Instant::now();
    e.send("go");
    let answer = e.until(|l| l.starts_with("=== ")).last().unwrap().clone();
    eprintln!("6x6 go at depth 2: {:?}", t.elapsed());
    assert!(["=== C2/", "=== B3/", "=== E4/", "=== D5/"].iter().any(|m| answer.starts_with(m)), "{answer}");
    assert_eq!(e.line(), "status");
    e.send("hint 4");
    let lines = e.until(|l| l == "status");
    assert!(lines.iter().any(|l| l.starts_with("search ")), "{lines:?}");
    assert!(t.elapsed() < MUST_ANSWER);
    e.send("quit");
    e.finish();
}

#[test]
fn messages_name_squares_as_the_game_does_on_small_boards() {
    // 6x6 is b2..g7 of the grid: black's opening moves c4 d3 e6 f5 of the grid are
    // b3 c2 d5 e4 of the board, the names GTP and NBoard use.
    let mut e = Engine::start(&["gtp", "--size", "6", "--level", "1", "--hash-mb", "16"]);
    for bad in ["play b a1", "play b pass"] {
        let reply = e.gtp(bad);
        err(&reply);
        assert!(reply.contains("b3") && reply.contains("c2") && reply.contains("e4"), "{bad}: {reply}");
        assert!(!reply.contains("f5") && !reply.contains("c4"), "{bad}: {reply}");
    }
    ok(&e.gtp("quit"));
    e.finish();
    let mut e = Engine::start(&["nboard", "--size", "6", "--level", "1", "--hash-mb", "16"]);
    e.send("nboard 2");
    e.line();
    e.send("set game (;GM[Othello]PB[a]PW[b]TY[6]BO[6 --------------O*----*O-------------- *];)");
    e.send("move a1");
    let l = e.line();
    assert!(l.starts_with("status error: ") && l.contains("b3") && !l.contains("f5"), "{l}");
    e.send("quit");
    e.finish();
}

/// Runs a two-game match of `solvo:level=2` against `<kind>:sh <script>`, the script
/// (`script_body`, run with `$SOLVO` the binary and `$LOG` a file) logging what the
/// match sends it; `args` are the match's further options. Checks that the match ends
/// without forfeits or losses on time, and returns the lines the script was sent.
fn match_with_logged_engine(kind: &str, script_body: &str, args: &[&str]) -> Vec<String> {
    let exe = env!("CARGO_BIN_EXE_solvo");
    let dir = tempfile::tempdir().unwrap();
    let script = dir.path().join("logged-engine.sh");
    let log = dir.path().join("sent.log");
    std::fs::write(&script, script_body).unwrap();
    let spec = format!("{kind}:sh {}", script.display());
    let o = Command::new(exe)
        .args(["match", "--engine", "solvo:level=2", "--engine", &spec, "--random-openings", "1"])
        .args(["--parallel", "1", "--hash-mb", "16", "--json"])
        .args(args)
        .env("SOLVO", exe)
        .env("LOG", &log)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(!stderr.contains("forfeits") && !stderr.contains("lost on time"), "{stderr}");
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(v["games"], 2);
    std::fs::read_to_string(&log).unwrap().lines().map(str::to_string).collect()
}

#[test]
fn a_match_speaks_to_an_nboard_engine_as_the_gui_does_depth_and_time_before_go() {
    // A scripted NBoard engine that, as NTest does, answers `go` with a warning and no
    // move until it has been given a depth (then it quits, so that the match fails at
    // once rather than waiting); every other line goes to `solvo nboard`.
    let script =
        "#!/bin/sh\nexec 3>&1\ndepth=\nwhile IFS= read -r line; do\n  printf '%s\\n' \"$line\" >> \"$LOG\"\n  \
                  case \"$line\" in\n    'set depth '*) depth=1 ;;\n    go*) if [ -z \"$depth\" ]; then\n      \
                  echo 'warning Must pick a depth with \"set depth <n>\" first' >&3; exit 3; fi ;;\n  esac\n  \
                  printf '%s\\n' \"$line\"\ndone | \"$SOLVO\" nboard --level 1 --hash-mb 16\n";
    let sent = match_with_logged_engine("nboard", script, &["--level", "3", "--game-time", "3"]);
    let depth = sent.iter().position(|l| l == "set depth 3").expect("the match's level as the depth");
    let go = sent.iter().position(|l| l == "go").expect("a go");
    assert!(depth < go, "{sent:?}");
    // Under a game clock every record tells the engine its time left.
    assert!(sent.iter().filter(|l| l.starts_with("set game ")).all(|l| l.contains("TI[")), "{sent:?}");
}

#[test]
fn a_match_tells_a_gtp_engine_its_time_so_a_high_level_keeps_to_the_clock() {
    // `solvo gtp` at level 30 (minutes a move by its level alone) behind a script that
    // logs what it is sent: under a 5 s game clock told by time_settings and time_left
    // it plays by the clock, losing no game on time.
    let script = "#!/bin/sh\nwhile IFS= read -r line; do\n  printf '%s\\n' \"$line\" >> \"$LOG\"\n  \
                  printf '%s\\n' \"$line\"\ndone | \"$SOLVO\" gtp --level 30 --hash-mb 16\n";
    let sent = match_with_logged_engine("gtp", script, &["--game-time", "5"]);
    let settings = sent.iter().position(|l| l.starts_with("time_settings ")).expect("time_settings");
    let genmove = sent.iter().position(|l| l.starts_with("genmove ")).expect("a genmove");
    assert!(settings < genmove, "{sent:?}");
}

#[test]
fn nboard_plays_by_the_clock_of_the_game_record() {
    // Level 40 (minutes a move by the level alone) and a game record whose clock gives
    // the engine 2 s: `go` answers by the clock.
    let mut e = Engine::start(&["nboard", "--level", "40", "--hash-mb", "16"]);
    e.send("nboard 2");
    e.line();
    e.send(&format!("set game {}", GGF_START.replace("TI[15:00]", "TI[0:02]")));
    let t = std::time::Instant::now();
    e.send("go");
    let answer = e.until(|l| l.starts_with("=== ")).last().unwrap().clone();
    eprintln!("go at level 40 with 2 s on the record's clock: {:?}", t.elapsed());
    assert!(t.elapsed() < MUST_ANSWER && answer.len() > 4, "{answer}");
    assert_eq!(e.line(), "status");
    // A clock that is not one: an error, the game set without a time control.
    e.send(&format!("set game {}", GGF_START.replace("TI[15:00]", "TI[soon]")));
    let l = e.line();
    assert!(l.starts_with("status error: set game: TI[soon]"), "{l}");
    e.send("quit");
    e.finish();
}
