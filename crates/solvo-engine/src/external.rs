//! External programs as match contestants: a GTP engine or an NBoard engine run as a
//! child process (`sh -c "exec <command line>"`), spoken to over its stdin and stdout.
//! A program that exits, stops answering within its time, or answers nonsense makes
//! [`Contestant::choose`] fail, which loses it the game; the match goes on.

use crate::arena::Contestant;
use crate::clock::MoveTime;
use crate::session::Session;
use solvo_othello::formats::ggf::{format_ggf, format_ggf_clock, ggf_from_replay, move_name, parse_move};
use solvo_othello::formats::transcript::Ply;
use solvo_othello::{BoardSize, Color};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Longest wait for an answer that involves no search.
const QUICK: Duration = Duration::from_secs(30);
/// Longest wait for a move without a time control.
const UNTIMED_MOVE: Duration = Duration::from_secs(600);

/// How long to wait for a move given `time` to think: twice its limit plus ten
/// seconds of grace (the program's own clock decides losses on time).
fn move_wait(time: Option<MoveTime>) -> Duration {
    time.map_or(UNTIMED_MOVE, |t| t.limit * 2 + Duration::from_secs(10))
}

/// A child process and its output lines.
struct Program {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Program {
    fn start(command: &str) -> Result<Program, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {command:?}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Program { command: command.to_string(), child, stdin, lines })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("{}: cannot send {line:?}: {e}", self.command))
    }

    /// The next line within `wait`.
    fn line(&self, deadline: Instant) -> Result<String, String> {
        let wait = deadline.saturating_duration_since(Instant::now());
        self.lines.recv_timeout(wait).map_err(|e| match e {
            RecvTimeoutError::Timeout => format!("{}: no answer within {:.1} s", self.command, wait.as_secs_f64()),
            RecvTimeoutError::Disconnected => format!("{}: the program ended", self.command),
        })
    }
}

impl Drop for Program {
    fn drop(&mut self) {
        let _ = self.send("quit");
        // A program that does not quit at once is ended.
        let deadline = Instant::now() + Duration::from_millis(500);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn color_word(c: Color) -> &'static str {
    match c {
        Color::Black => "b",
        Color::White => "w",
    }
}

/// A GTP engine (Othello dialect: `boardsize`, `clear_board`, `play`, `genmove`,
/// `time_settings`, `time_left`). It is told every ply of the game, and
/// re-synchronised from the start when the game it knows is not a prefix of the game
/// asked about; under a time control it is told the time (`time_settings` once a
/// game, as match tools do, then `time_left` before each move under a game clock).
pub struct GtpContestant {
    program: Program,
    label: String,
    /// The plies the program has been told, from the start of the current game.
    told: Vec<Ply>,
    size: Option<BoardSize>,
    /// Whether the program has been told the time control of the current game.
    time_told: bool,
}

/// Whole seconds for a GTP time command, rounded down, at least 1.
fn gtp_seconds(t: Duration) -> u64 {
    t.as_secs().max(1)
}

impl GtpContestant {
    /// Starts `command` and asks its name. Errors: the program cannot start or does not
    /// answer `name`.
    pub fn start(command: &str) -> Result<GtpContestant, String> {
        let program = Program::start(command)?;
        let mut c = GtpContestant { program, label: String::new(), told: Vec::new(), size: None, time_told: false };
        c.label = format!("gtp:{}", c.ask("name", QUICK)?);
        Ok(c)
    }

    /// Sends a command and returns the text of a `=` reply; a `?` reply is an error.
    fn ask(&mut self, command: &str, wait: Duration) -> Result<String, String> {
        self.program.send(command)?;
        let deadline = Instant::now() + wait;
        let mut reply: Vec<String> = Vec::new();
        loop {
            let l = self.program.line(deadline)?;
            if l.trim().is_empty() {
                if reply.is_empty() {
                    continue;
                }
                break;
            }
            reply.push(l);
        }
        let text = reply.join("\n");
        let body = text.trim_start_matches(['=', '?']).trim_start_matches(|c: char| c.is_ascii_digit()).trim();
        if text.starts_with('=') {
            Ok(body.to_string())
        } else {
            Err(format!("{command:?} answered {text:?}"))
        }
    }

    fn sync(&mut self, game: &Session) -> Result<(), String> {
        let plies = game.plies();
        let size = game.size();
        if self.size != Some(size) || plies.len() < self.told.len() || plies[..self.told.len()] != self.told[..] {
            self.ask(&format!("boardsize {}", size.side()), QUICK)?;
            self.ask("clear_board", QUICK)?;
            self.size = Some(size);
            self.told.clear();
            self.time_told = false;
        }
        let mut side =
            game.replay().positions.get(self.told.len().wrapping_sub(1)).map_or(game.start().side, |p| p.side);
        for &ply in &plies[self.told.len()..] {
            self.ask(&format!("play {} {}", color_word(side), move_name(ply, size)), QUICK)?;
            self.told.push(ply);
            side = side.opposite();
        }
        Ok(())
    }
}

impl Contestant for GtpContestant {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&mut self, game: &Session, time: Option<MoveTime>, clock: Option<Duration>) -> Result<Ply, String> {
        self.sync(game)?;
        let color = color_word(game.position().side);
        if !self.time_told {
            // The time left as the game's time, or the time of a move as byo-yomi for
            // one stone. Not every program knows time_settings; its answer does not
            // matter.
            let settings = match (clock, time) {
                (Some(left), _) => Some(format!("time_settings {} 0 0", gtp_seconds(left))),
                (None, Some(t)) => Some(format!("time_settings 0 {} 1", gtp_seconds(t.target))),
                (None, None) => None,
            };
            if let Some(command) = settings {
                let _ = self.ask(&command, QUICK);
            }
            self.time_told = true;
        }
        if let Some(left) = clock {
            // Not every program knows time_left; its answer does not matter.
            let _ = self.ask(&format!("time_left {color} {:.0} 0", left.as_secs_f64().floor()), QUICK);
        }
        let answer = self.ask(&format!("genmove {color}"), move_wait(time))?;
        let ply = parse_move(answer.trim(), game.size()).ok_or_else(|| format!("genmove answered {answer:?}"))?;
        self.told.push(ply);
        Ok(ply)
    }
}

/// An NBoard engine, spoken to as the NBoard GUI does: `nboard 2` and `set depth <n>`
/// first (engines such as NTest refuse `go` before a depth), then before each move the
/// whole game (`set game` with a GGF record whose `TI` tag is the time the engine has
/// left), a `ping` it must answer, and `go`, answered by `=== <move>[/...]`.
pub struct NBoardContestant {
    program: Program,
    label: String,
    ping: u64,
}

/// The time an NBoard engine is told it has left: its clock, or under a per-move time
/// that time for each move it still has to make (the protocol knows only game clocks).
fn time_left_for_nboard(game: &Session, time: Option<Duration>, clock: Option<Duration>) -> Option<Duration> {
    clock.or_else(|| time.map(|t| t * game.position().empties().div_ceil(2).max(1)))
}

impl NBoardContestant {
    /// Starts `command`, opens the protocol (`nboard 2`) and sets the search depth
    /// (`set depth <depth>`, 1 at least) as the NBoard GUI does before any `go`.
    pub fn start(command: &str, depth: u32) -> Result<NBoardContestant, String> {
        let mut program = Program::start(command)?;
        program.send("nboard 2")?;
        program.send(&format!("set depth {}", depth.max(1)))?;
        Ok(NBoardContestant { program, label: format!("nboard:{command}"), ping: 0 })
    }

    /// Reads lines until one starts with `prefix`; `set myname` names the program.
    fn wait_for(&mut self, prefix: &str, wait: Duration) -> Result<String, String> {
        let deadline = Instant::now() + wait;
        loop {
            let l = self.program.line(deadline)?;
            if let Some(name) = l.strip_prefix("set myname ") {
                self.label = format!("nboard:{}", name.trim());
            }
            if let Some(rest) = l.strip_prefix(prefix) {
                return Ok(rest.trim().to_string());
            }
        }
    }
}

impl Contestant for NBoardContestant {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&mut self, game: &Session, time: Option<MoveTime>, clock: Option<Duration>) -> Result<Ply, String> {
        let mut ggf = ggf_from_replay(game.replay(), "black", "white");
        if let Some(left) = time_left_for_nboard(game, time.map(|t| t.target), clock) {
            let at = ggf.tags.iter().position(|(n, _)| n == "TY").unwrap_or(ggf.tags.len());
            ggf.tags.insert(at, ("TI".to_string(), format_ggf_clock(left)));
        }
        let record = format_ggf(&ggf);
        self.program.send(&format!("set game {record}"))?;
        self.ping += 1;
        self.program.send(&format!("ping {}", self.ping))?;
        let pong = format!("pong {}", self.ping);
        self.wait_for(&pong, QUICK)?;
        self.program.send("go")?;
        let answer = self.wait_for("=== ", move_wait(time))?;
        let mv = answer.split('/').next().unwrap_or("").trim();
        parse_move(mv, game.size()).ok_or_else(|| format!("go answered {answer:?}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::Variant;

    #[test]
    fn nboard_engines_are_told_their_time_left() {
        let game = Session::new(BoardSize::Eight, Variant::Normal);
        let left = time_left_for_nboard(&game, Some(Duration::from_secs(1)), None);
        assert_eq!(left, Some(Duration::from_secs(30)), "a second for each of 30 moves");
        let left = time_left_for_nboard(&game, Some(Duration::from_secs(1)), Some(Duration::from_secs(7)));
        assert_eq!(left, Some(Duration::from_secs(7)));
        assert_eq!(time_left_for_nboard(&game, None, None), None);
    }
}
