//! `solvo engine nboard`: the NBoard protocol (version 2), as the NBoard GUI speaks it, over
//! stdin and stdout. A thin adapter: the game is a [`Session`], every answer comes
//! from the [`Engine`].
//!
//! From the GUI: `nboard <version>`, `set depth <n>` (the level), `set game <GGF>`,
//! `set contempt <n>`, `move <move>[/<eval>[/<time>]]`, `hint <n>`, `go`, `ping <n>`,
//! `learn`, `analyze`, `quit`. To the GUI: `set myname solvo<level>`, `status <text>`,
//! `search <move> <eval> 0 <depth>` lines while thinking, `=== <move>/<eval>/<time>` for
//! `go`, `pong <n>`, `learned`, `analysis <ply> <eval>`, `nodestats <nodes> <time>`.
//! The protocol has no error reply: a malformed command, or a line that is not UTF-8
//! text, gets a `status error: ...` line saying what is wrong, and the engine goes on.
//! A `ping` (or `quit`, or the end of input: the GUI is gone) arriving while the engine
//! thinks stops the search, as the protocol requires; the end of input then ends the
//! session. Squares in messages are named as in the game, from the board's own
//! top-left (`a1`..`f6` on 6x6).
//!
//! Checked against the protocol's description (NTest's `Protocol.htm`) and the way the
//! NBoard GUI reads replies (its `ParsedEngine` and `Hint` classes): a `search` line is
//! `search <pv> <eval> 0 <depth>`, the pv starting with the move's two characters and
//! without spaces, the eval a plain decimal number (no exponent) for the side to move;
//! the GUI takes the depth as text, its leading number as the depth, `100%` as an exact
//! value, and drops the hints whose depth text differs from the latest one, so every
//! line of an iteration carries the same depth text: `d`, `d@s%` for a selective
//! search (as Edax writes it), `100%` when exact.
//!
//! Time: the command line's `--move-time` or `--game-time` when given, else the clock
//! of the game record (`TI`, the engine's time left: a GUI's game time, or what
//! `solvo engine match` says is left), charged with the time of each `go`. As the protocol
//! says, `go` is limited by both: it searches to the depth set (`set depth`, else
//! `--level`) and stops earlier when its share of the clock is spent.
//!
//! `learn` adds the current game to the opening book (`Engine::learn`: its positions
//! the level does not solve, valued by the search and negamaxed), answers `learned`
//! (the protocol's word; the GUI clears its status on our empty `status` line before
//! it), and with `--learn-book FILE` writes the book back to FILE, which later
//! sessions (`--book FILE` or `--learn-book FILE`) play from.
//!
//! `set contempt <c>` (centidisks, the value of a draw) is accepted and not applied:
//! solvo's exact scores are final disc differences, which are even on 8x8 (the empty
//! squares go to the winner), so a draw valued anywhere strictly between -2 and +2
//! discs (|c| < 200) never changes the move chosen among exactly solved ones, and a
//! midgame estimate of 0 is no proven draw for a contempt to apply to. A larger
//! contempt would make solvo prefer a proven draw to a proven loss by 2 or more (or the
//! reverse): that needs the draw's value inside the exact search, which solvo does not
//! have; the engine says so in a status line and plays on as without contempt.

use crate::error::CliError;
use crate::shared::protocol_input::{Input, ProtocolInput};
use crate::shared::EngineArgs;
use crate::Common;
use solvo_engine::{Clock, Engine, Level, MoveTime, SearchResult, Session, SquareNames, TimeControl};
use solvo_othello::formats::ggf::{move_name, parse_ggf, parse_ggf_clock, parse_move};
use solvo_othello::formats::transcript::Ply;
use solvo_othello::{BoardSize, Position, Square, Variant};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// The time of a search when an interrupt waits: answer at once.
const HURRY: MoveTime = MoveTime::fixed(Duration::from_millis(1));

/// Arguments of `solvo engine nboard` (`--level` is the depth until the GUI sets one).
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(flatten)]
    pub engine: EngineArgs,
    /// A book that `learn` adds each game to and writes back (created when missing);
    /// the engine plays from it as from --book.
    #[arg(long, conflicts_with = "book")]
    pub learn_book: Option<PathBuf>,
}

/// An NBoard session.
struct NBoard {
    engine: Engine,
    /// Where `learn` writes the book.
    learn_book: Option<PathBuf>,
    session: Session,
    variant: Variant,
    clock: Option<Clock>,
    /// The time control of the command line (`--move-time`, `--game-time`): when set
    /// it is kept, else a game record's clock (`TI`) is the time control.
    command_line_time: TimeControl,
    input: ProtocolInput,
}

/// The engine's square name for NBoard (upper case, board-local), or `PA`.
fn name(ply: Ply, size: BoardSize) -> String {
    move_name(ply, size).to_ascii_uppercase()
}

fn ply_of(m: Option<Square>) -> Ply {
    m.map_or(Ply::Pass, Ply::Move)
}

/// The depth field of a `search` line.
fn depth_text(r: &SearchResult) -> String {
    if r.exact {
        "100%".to_string()
    } else if r.selectivity < 100 {
        format!("{}@{}%", r.depth, r.selectivity)
    } else {
        r.depth.to_string()
    }
}

impl NBoard {
    /// True when a `ping`, `quit` or the end of input waits: a search should not start.
    fn interrupt_waiting(&mut self) -> bool {
        self.input.interrupt_waiting()
    }

    /// Handles one command; returns false on `quit`.
    fn handle(&mut self, line: &str) -> bool {
        let line = line.trim();
        let (command, rest) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
        let rest = rest.trim();
        let result = match command {
            "" => Ok(()),
            "quit" => return false,
            "nboard" => match rest.parse::<u32>() {
                Ok(_) => {
                    out!("set myname solvo{}", self.engine.settings().level);
                    Ok(())
                }
                Err(_) => Err(format!("nboard: expected a protocol version number, not {rest:?}")),
            },
            "set" => self.set(rest),
            "move" => self.play(rest),
            "hint" => match rest.parse::<usize>() {
                Ok(n) if n >= 1 => self.hint(n),
                _ => Err(format!("hint: expected a number of moves (1 or more), not {rest:?}")),
            },
            "go" => self.go(),
            "ping" => {
                out!("pong {rest}");
                Ok(())
            }
            "learn" => self.learn(),
            "analyze" => self.analyze(),
            other => Err(format!("unknown command {other:?}")),
        };
        if let Err(e) = result {
            out!("status error: {e}");
        }
        true
    }

    fn set(&mut self, rest: &str) -> Result<(), String> {
        let (what, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        let value = value.trim();
        match what {
            "depth" => {
                let level: Level = value.parse().map_err(|e| format!("set depth: {e}"))?;
                self.engine.set_level(level);
                out!("set myname solvo{level}");
                Ok(())
            }
            "game" => {
                let games = parse_ggf(value, self.variant).map_err(|e| format!("set game: {e}"))?;
                let game = games.first().ok_or("set game: no game record")?;
                self.session = Session::from_ggf(game).with_square_names(SquareNames::Board);
                self.set_time_from(game.tag("TI"))?;
                Ok(())
            }
            "contempt" => {
                // Accepted and not applied: see the module's documentation.
                let c = value.parse::<f64>().ok().filter(|c| c.is_finite());
                let c = c.ok_or_else(|| format!("set contempt: expected a number (centidisks), not {value:?}"))?;
                if c.abs() >= 200.0 {
                    out!("status solvo ignores contempt {c}: draws are scored 0 in its exact search");
                }
                Ok(())
            }
            other => Err(format!("set: unknown parameter {other:?} (depth, game, contempt)")),
        }
    }

    fn reset_clock(&mut self) {
        self.clock = self.engine.settings().time.new_clock();
    }

    /// The time control of a `set game`: the command line's when it gives one, else the
    /// record's clock (`TI`: the time the engine has left, as the NBoard GUI and
    /// `solvo engine match` write it; none or zero: no time control), with a fresh clock.
    /// A `TI` that is not a clock is an error, the game set without a time control.
    fn set_time_from(&mut self, ti: Option<&str>) -> Result<(), String> {
        let clock = match (self.command_line_time, ti) {
            (TimeControl::None, Some(ti)) => Some(parse_ggf_clock(ti).ok_or(ti)),
            _ => None,
        };
        let control = match clock {
            Some(Ok((total, increment))) if !total.is_zero() => TimeControl::PerGame { total, increment },
            Some(_) => TimeControl::None,
            None => self.command_line_time,
        };
        self.engine.set_time_control(control);
        self.reset_clock();
        match clock {
            Some(Err(ti)) => Err(format!("set game: TI[{ti}] is not a clock (minutes:seconds): no time control")),
            _ => Ok(()),
        }
    }

    fn play(&mut self, rest: &str) -> Result<(), String> {
        let mv = rest.split('/').next().unwrap_or("").trim();
        let size = self.session.size();
        let ply = parse_move(mv, size).ok_or_else(|| format!("move: {mv:?} is not a move on a {size} board"))?;
        self.session.play_ply(ply).map_err(|e| format!("move: {e}"))
    }

    /// A search answer for the current position: [`HURRY`] when an interrupt waits.
    fn time(&mut self, pos: &Position) -> Option<MoveTime> {
        if self.interrupt_waiting() {
            return Some(HURRY);
        }
        self.engine.move_time(pos, self.clock.as_ref())
    }

    fn hint(&mut self, n: usize) -> Result<(), String> {
        let pos = self.session.position();
        if pos.is_game_over() {
            return Err("hint: the game is over".into());
        }
        out!("status solvo is thinking");
        let size = pos.size;
        // The protocol: a hint is not constrained by the time left in the game (a
        // per-move time from the command line still holds); a ping stops it.
        let time = match (self.interrupt_waiting(), self.engine.settings().time) {
            (true, _) => Some(Duration::from_millis(1)),
            (false, TimeControl::PerMove(t)) => Some(t),
            (false, _) => None,
        };
        let mut emit = |r: &SearchResult| {
            if r.move_scores.is_empty() {
                // A pass, or a finished game: the position's own line.
                out!("search {} {:.2} 0 {}", pv_text(r, size), r.score, depth_text(r));
            }
            for m in r.move_scores.iter().take(n) {
                out!("search {} {:.2} 0 {}", name(Ply::Move(m.square), size), m.score, depth_text(r));
            }
            out!("nodestats {} {:.3}", r.nodes, r.time.as_secs_f64());
        };
        self.engine.score_moves(&pos, time, &mut emit).map_err(|e| e.0)?;
        out!("status");
        Ok(())
    }

    fn go(&mut self) -> Result<(), String> {
        let pos = self.session.position();
        if pos.is_game_over() {
            return Err("go: the game is over".into());
        }
        out!("status solvo is thinking");
        let time = self.time(&pos);
        if let Some(c) = &mut self.clock {
            c.start();
        }
        let size = pos.size;
        let r = self.engine.best_move(&pos, time, &mut |r| {
            out!("nodestats {} {:.3}", r.nodes, r.time.as_secs_f64());
        });
        if let Some(c) = &mut self.clock {
            c.stop();
        }
        let r = r.map_err(|e| e.0)?;
        out!("=== {}/{:.2}/{:.3}", name(ply_of(r.best_move), size), r.score, r.time.as_secs_f64());
        out!("status");
        Ok(())
    }

    /// `learn`: the game into the book, the book to its file.
    fn learn(&mut self) -> Result<(), String> {
        out!("status solvo is learning");
        let learnt = self.engine.learn(self.session.replay()).map_err(|e| format!("learn: {}", e.0));
        out!("status");
        learnt?;
        if let (Some(path), Some(book)) = (&self.learn_book, self.engine.book()) {
            write_book(path, &book.to_text()).map_err(|e| format!("learn: {e}"))?;
        }
        out!("learned");
        Ok(())
    }

    /// Every position of the game from the last back to the first: `analysis <ply>
    /// <eval>`, the value for the side to move after `ply` plies.
    fn analyze(&mut self) -> Result<(), String> {
        let replay = self.session.replay().clone();
        let positions: Vec<Position> = std::iter::once(replay.start).chain(replay.positions.iter().copied()).collect();
        out!("status solvo is analysing the game");
        for (ply, pos) in positions.iter().enumerate().rev() {
            let time = self.time(pos);
            if time == Some(HURRY) {
                break;
            }
            let r = self.engine.best_move(pos, time, &mut |_| {}).map_err(|e| e.0)?;
            out!("analysis {ply} {:.2}", r.score);
        }
        out!("status");
        Ok(())
    }
}

fn pv_text(r: &SearchResult, size: BoardSize) -> String {
    let pv: String = r.pv.iter().take(8).map(|&m| name(ply_of(m), size)).collect();
    if pv.is_empty() {
        "PA".to_string()
    } else {
        pv
    }
}

/// Writes `text` to `path` whole or not at all (a temporary file renamed over it).
fn write_book(path: &Path, text: &str) -> Result<(), String> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let tmp = PathBuf::from(tmp);
    std::fs::write(&tmp, text).and_then(|_| std::fs::rename(&tmp, path)).map_err(|e| format!("{}: {e}", path.display()))
}

/// The engine of `solvo engine nboard`: `--learn-book`'s book (when the file exists) loaded
/// as `--book` would be.
fn make_engine(args: &Args, common: Common) -> Result<Engine, CliError> {
    let engine_args = match &args.learn_book {
        Some(path) if path.exists() => EngineArgs { book: Some(path.clone()), ..args.engine.clone() },
        _ => args.engine.clone(),
    };
    engine_args.engine(common)
}

/// Lines that stop a running search.
fn is_interrupt(line: &str) -> bool {
    let word = line.split_whitespace().next().unwrap_or("");
    word == "ping" || word == "quit"
}

/// Runs `solvo engine nboard` until `quit` or the end of input.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let mut engine = make_engine(&args, common)?;
    // A ping or quit (or the end of input) also stops the search running.
    let input = ProtocolInput::start(engine.stop_handle(), is_interrupt);
    let size = common.size.unwrap_or(BoardSize::Eight);
    let command_line_time = engine.settings().time;
    // `go` is limited by both the depth and the clock, as the protocol says.
    engine.set_level_within_time(true);
    let mut nb = NBoard {
        command_line_time,
        engine,
        learn_book: args.learn_book.clone(),
        session: Session::new(size, common.variant).with_square_names(SquareNames::Board),
        variant: common.variant,
        clock: None,
        input,
    };
    nb.reset_clock();
    loop {
        match nb.input.next() {
            Input::Line(line) => {
                if !nb.handle(&line) {
                    break;
                }
            }
            Input::NotText { error, .. } => out!("status error: {error}"),
            Input::End => break,
        }
    }
    Ok(())
}
