//! `solvo engine gtp`: the Othello dialect of the Go Text Protocol, as match tools (GoGui's
//! twogtp and the like) and Othello engines speak it, over stdin and stdout. A thin
//! adapter: the game is a [`Session`], every move comes from the [`Engine`].
//!
//! Commands: `protocol_version`, `name`, `version`, `boardsize 8|6|4`, `clear_board`,
//! `komi`, `play <colour> <move>`, `genmove <colour>`, `reg_genmove <colour>`, `undo`,
//! `showboard`, `final_score`, `time_settings`, `time_left`, `list_commands`,
//! `known_command`, `quit`. Squares are named on the board itself (`a1` top-left, on
//! 6x6 `a1`..`f6`), any case, in commands, replies and error messages alike; a pass is
//! `pass`. Replies are `=[id] result` or `?[id] message`, each followed by an empty
//! line; a bad command, or a line that is not UTF-8 text, never stops the engine. The
//! end of input (the controller is gone) stops a running `genmove` and ends the
//! session, as `quit` does.

use crate::error::CliError;
use crate::shared::protocol_input::{Input, ProtocolInput};
use crate::shared::EngineArgs;
use crate::Common;
use solvo_engine::{Clock, Engine, MoveTime, Session, SquareNames, TimeControl};
use solvo_othello::formats::ggf::{move_name, parse_move};
use solvo_othello::formats::transcript::Ply;
use solvo_othello::{BoardSize, Color, Position};
use std::time::Duration;

/// Arguments of `solvo engine gtp` (board from `--size`, default 8; `--variant`).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The commands known, in the order `list_commands` gives them.
const COMMANDS: [&str; 18] = [
    "protocol_version",
    "name",
    "version",
    "boardsize",
    "clear_board",
    "komi",
    "play",
    "genmove",
    "reg_genmove",
    "undo",
    "showboard",
    "final_score",
    "time_settings",
    "time_left",
    "list_commands",
    "known_command",
    "quit",
    "level",
];

/// A GTP session: the game, the engine, the clocks.
pub struct Gtp {
    engine: Engine,
    session: Session,
    /// Black's and white's clocks when a game time is set.
    clocks: [Option<Clock>; 2],
    /// The input ends or `quit` waits: a move is asked for as briefly as can be.
    hurry: bool,
}

/// What a command answered: success or error text, and whether to quit.
struct Answer {
    ok: bool,
    text: String,
    quit: bool,
}

fn ok(text: impl Into<String>) -> Result<Answer, String> {
    Ok(Answer { ok: true, text: text.into(), quit: false })
}

fn parse_color(word: Option<&str>) -> Result<Color, String> {
    match word.map(str::to_ascii_lowercase).as_deref() {
        Some("b" | "black") => Ok(Color::Black),
        Some("w" | "white") => Ok(Color::White),
        Some(other) => Err(format!("invalid color {other:?}: expected b, black, w or white")),
        None => Err("missing color: expected b, black, w or white".into()),
    }
}

fn clock_index(color: Color) -> usize {
    match color {
        Color::Black => 0,
        Color::White => 1,
    }
}

fn seconds(word: Option<&str>, what: &str) -> Result<Duration, String> {
    word.and_then(|w| w.parse::<f64>().ok())
        .filter(|t| t.is_finite() && *t >= 0.0 && *t <= crate::option_ranges::MAX_SECONDS)
        .map(Duration::from_secs_f64)
        .ok_or_else(|| format!("{what}: expected a number of seconds"))
}

impl Gtp {
    /// A session on the standard start of `size` under the engine's settings.
    pub fn new(engine: Engine, size: BoardSize, variant: solvo_othello::Variant) -> Gtp {
        let mut gtp = Gtp { engine, session: new_session(size, variant), clocks: [None, None], hurry: false };
        gtp.reset_clocks();
        gtp
    }

    fn reset_clocks(&mut self) {
        self.clocks = [self.engine.settings().time.new_clock(); 2];
    }

    /// Handles one input line; `None` for lines to ignore (empty, comments), else the
    /// reply (with its trailing empty line) and whether to quit.
    pub fn handle(&mut self, line: &str) -> Option<(String, bool)> {
        // Control characters other than tab and newline are removed, tabs are spaces,
        // `#` starts a comment.
        let cleaned: String =
            line.chars().filter(|c| !c.is_control() || *c == '\t').map(|c| if c == '\t' { ' ' } else { c }).collect();
        let text = cleaned.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            return None;
        }
        let mut words = text.split_whitespace().peekable();
        let id = match words.peek() {
            Some(w) if w.chars().all(|c| c.is_ascii_digit()) => words.next().map(str::to_string),
            _ => None,
        }
        .unwrap_or_default();
        let Some(command) = words.next() else {
            return Some((format!("?{id} missing command\n"), false));
        };
        let args: Vec<&str> = words.collect();
        let answer = self.command(command, &args).unwrap_or_else(|e| Answer { ok: false, text: e, quit: false });
        let mark = if answer.ok { '=' } else { '?' };
        let sep = if answer.text.is_empty() || answer.text.starts_with('\n') { "" } else { " " };
        Some((format!("{mark}{id}{sep}{}\n", answer.text), answer.quit))
    }

    fn command(&mut self, command: &str, args: &[&str]) -> Result<Answer, String> {
        let size = self.session.size();
        match command {
            "protocol_version" => ok("2"),
            "name" => ok("solvo"),
            "version" => ok(env!("CARGO_PKG_VERSION")),
            "list_commands" => ok(COMMANDS.join("\n")),
            "known_command" => ok(COMMANDS.contains(&args.first().copied().unwrap_or("")).to_string()),
            "quit" => Ok(Answer { ok: true, text: String::new(), quit: true }),
            "boardsize" => {
                let n = args.first().ok_or("boardsize: missing size (8, 6 or 4)")?;
                let size: BoardSize = n.parse().map_err(|_| format!("unacceptable size {n:?}: expected 8, 6 or 4"))?;
                self.session = new_session(size, self.session.variant());
                self.reset_clocks();
                ok("")
            }
            "clear_board" => {
                self.session = new_session(size, self.session.variant());
                self.reset_clocks();
                ok("")
            }
            "komi" => {
                let k = args.first().and_then(|k| k.parse::<f64>().ok()).filter(|k| k.is_finite());
                k.map(|_| ok("")).unwrap_or_else(|| Err("komi: expected a number".into()))
            }
            "level" => {
                let n = args.first().ok_or("level: missing level (1 to 60)")?;
                self.engine.set_level(n.parse()?);
                ok("")
            }
            "play" => {
                let color = parse_color(args.first().copied())?;
                let mv = args.get(1).ok_or("play: missing move (a square such as d3, or pass)")?;
                let ply = parse_move(mv, size).ok_or_else(|| format!("invalid move {mv:?} on a {size} board"))?;
                self.play(color, ply).map_err(|e| format!("illegal move: {e}"))?;
                ok("")
            }
            "genmove" | "reg_genmove" => {
                let color = parse_color(args.first().copied())?;
                let ply = self.genmove(color)?;
                // At the end of the game the answer is a pass that is not a ply.
                if command == "genmove" && !self.session.is_over() {
                    self.play(color, ply).map_err(|e| format!("internal: the engine's move is illegal: {e}"))?;
                }
                ok(match ply {
                    Ply::Pass => "PASS".to_string(),
                    mv => move_name(mv, size).to_ascii_uppercase(),
                })
            }
            "undo" => {
                self.session.undo().ok_or("cannot undo: no move played")?;
                ok("")
            }
            "showboard" => ok(format!("\n{}", board_text(&self.session.position()))),
            "final_score" => {
                let s = self.session.result().ok_or("the game is not over")?;
                ok(match s.signum() {
                    1 => format!("B+{s}"),
                    -1 => format!("W+{}", -s),
                    _ => "0".to_string(),
                })
            }
            "time_settings" => {
                let main = seconds(args.first().copied(), "time_settings main time")?;
                let byo = seconds(args.get(1).copied(), "time_settings byo-yomi time")?;
                let stones = args
                    .get(2)
                    .and_then(|s| s.parse::<u32>().ok())
                    .ok_or("time_settings: expected byo-yomi stones (a whole number)")?;
                let control = if !main.is_zero() {
                    TimeControl::PerGame { total: main, increment: Duration::ZERO }
                } else if !byo.is_zero() && stones > 0 {
                    TimeControl::PerMove(byo / stones)
                } else {
                    TimeControl::None
                };
                self.engine.set_time_control(control);
                self.reset_clocks();
                ok("")
            }
            "time_left" => {
                let color = parse_color(args.first().copied())?;
                let left = seconds(args.get(1).copied(), "time_left time")?;
                if let Some(c) = &mut self.clocks[clock_index(color)] {
                    c.set_remaining(left);
                }
                ok("")
            }
            other => Err(format!("unknown command {other:?}")),
        }
    }

    /// Plays `ply` for `color`: a pass only when `color` is to move and has no move.
    fn play(&mut self, color: Color, ply: Ply) -> Result<(), String> {
        let pos = self.session.position();
        match ply {
            Ply::Move(sq) => self.session.play_as(color, sq),
            Ply::Pass if pos.side != color => Err(format!("it is {}'s turn, not {color}'s", pos.side)),
            Ply::Pass => self.session.pass(),
        }
    }

    /// The engine's move for `color` (passing for the side to move first when it has
    /// no move and it is not its turn); `Pass` when `color` has no move or the game
    /// is over.
    fn genmove(&mut self, color: Color) -> Result<Ply, String> {
        let mut pos = self.session.position();
        if pos.is_game_over() {
            return Ok(Ply::Pass);
        }
        if pos.side != color {
            if pos.moves() != 0 {
                return Err(format!("it is {}'s turn, not {color}'s", pos.side));
            }
            self.session.pass()?;
            pos = self.session.position();
        }
        if pos.moves() == 0 {
            return Ok(Ply::Pass);
        }
        let clock = &mut self.clocks[clock_index(color)];
        let time = match self.hurry {
            true => Some(MoveTime::fixed(Duration::from_millis(1))),
            false => self.engine.move_time(&pos, clock.as_ref()),
        };
        if let Some(c) = clock {
            c.start();
        }
        let r = self.engine.best_move(&pos, time, &mut |_| {}).map_err(|e| e.0);
        if let Some(c) = clock {
            c.stop();
        }
        Ok(r?.best_move.map_or(Ply::Pass, Ply::Move))
    }
}

/// The board for `showboard`: squares named on the board itself, `X` black, `O`
/// white, `.` empty; then the disc counts and the side to move.
fn board_text(pos: &Position) -> String {
    let (off, side) = (pos.size.offset(), pos.size.side());
    let files: String = (0..side).map(|c| format!(" {}", (b'A' + c) as char)).collect();
    let mut out = format!("  {files}\n");
    for r in 0..side {
        out.push_str(&format!("{:2}", r + 1));
        for c in 0..side {
            let bit = solvo_othello::Square::from_row_col(off + r, off + c).bit();
            let ch = match () {
                _ if pos.black() & bit != 0 => 'X',
                _ if pos.white() & bit != 0 => 'O',
                _ => '.',
            };
            out.push(' ');
            out.push(ch);
        }
        out.push('\n');
    }
    out.push_str(&format!(
        "black {} white {}, {} to move",
        pos.black().count_ones(),
        pos.white().count_ones(),
        pos.side
    ));
    out
}

/// A game on the standard start whose messages name squares as GTP does.
fn new_session(size: BoardSize, variant: solvo_othello::Variant) -> Session {
    Session::new(size, variant).with_square_names(SquareNames::Board)
}

/// True for a `quit` command (with or without an id): it stops a running search.
fn is_quit(line: &str) -> bool {
    let mut words = line.split_whitespace();
    let first = words.next().unwrap_or("");
    let command = if first.chars().all(|c| c.is_ascii_digit()) { words.next().unwrap_or("") } else { first };
    command == "quit"
}

/// The error reply to a line that is not UTF-8 text (with the line's id when it
/// starts with one).
fn not_text_reply(lossy: &str, error: &str) -> String {
    let first = lossy.split_whitespace().next().unwrap_or("");
    let id = if first.chars().all(|c| c.is_ascii_digit()) { first } else { "" };
    format!("?{id} {error}\n")
}

/// Runs `solvo engine gtp` until `quit` or the end of input.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let engine = args.engine.engine(common)?;
    let mut input = ProtocolInput::start(engine.stop_handle(), is_quit);
    let mut gtp = Gtp::new(engine, common.size.unwrap_or(BoardSize::Eight), common.variant);
    loop {
        let line = match input.next() {
            Input::Line(line) => line,
            Input::NotText { lossy, error } => {
                out!("{}", not_text_reply(&lossy, &error));
                continue;
            }
            Input::End => break,
        };
        gtp.hurry = input.interrupt_waiting();
        if let Some((reply, quit)) = gtp.handle(&line) {
            out!("{reply}");
            if quit {
                break;
            }
        }
    }
    Ok(())
}
