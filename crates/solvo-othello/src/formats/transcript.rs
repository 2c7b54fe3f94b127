//! Move transcripts such as `f5d6c3d3c4`: square names one after another,
//! case-insensitive, whitespace ignored. A pass may be written `PA` or `PS` (or `--`)
//! or left out: when the side to move has no legal move, the next square is played
//! by the other side.

use super::ParseError;
use crate::position::Position;
use crate::square::Square;
use std::fmt;

/// One ply of a game: a move on a square, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Ply {
    /// A disc placed on the square.
    Move(Square),
    /// The side to move had no legal move.
    Pass,
}

impl fmt::Display for Ply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ply::Move(sq) => write!(f, "{sq}"),
            Ply::Pass => f.write_str("pa"),
        }
    }
}

/// How passes are written when a transcript is printed.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum PassStyle {
    /// Passes are left out (the usual form: `f5d6c3...`).
    #[default]
    Implicit,
    /// Passes are written as `pa`.
    Explicit,
}

/// A game replayed from a start position: every ply (implicit passes made explicit)
/// and the position after each of them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Replay {
    /// The position before the first ply.
    pub start: Position,
    /// The plies, passes included.
    pub plies: Vec<Ply>,
    /// `positions[i]` is the position after `plies[i]`.
    pub positions: Vec<Position>,
}

impl Replay {
    /// An empty replay from `start`.
    pub fn new(start: Position) -> Replay {
        Replay { start, plies: Vec::new(), positions: Vec::new() }
    }

    /// The current (last) position.
    pub fn end(&self) -> Position {
        self.positions.last().copied().unwrap_or(self.start)
    }

    /// Plays `sq`, passing first if the side to move has no move but the other side
    /// can play `sq`. Errors (nothing changes) if the move is illegal.
    pub fn push_move(&mut self, sq: Square) -> Result<(), String> {
        self.push_move_named(sq, &|s| s.to_string())
    }

    /// [`Replay::push_move`] with the squares of its error named by `name` (a front end
    /// that names a small board's squares from its own top-left, as GGF does).
    pub fn push_move_named(&mut self, sq: Square, name: &dyn Fn(Square) -> String) -> Result<(), String> {
        let cur = self.end();
        if let Some(next) = cur.play(sq) {
            self.plies.push(Ply::Move(sq));
            self.positions.push(next);
            return Ok(());
        }
        if cur.moves() == 0 {
            if let Some(next) = cur.passed().play(sq) {
                self.plies.extend([Ply::Pass, Ply::Move(sq)]);
                self.positions.extend([cur.passed(), next]);
                return Ok(());
            }
        }
        Err(illegal_move_message_named(&cur, sq, name))
    }

    /// Records a pass. Errors if the side to move has a legal move, or if the game
    /// is over.
    pub fn push_pass(&mut self) -> Result<(), String> {
        self.push_pass_named(&|s| s.to_string())
    }

    /// [`Replay::push_pass`] with the squares of its error named by `name`.
    pub fn push_pass_named(&mut self, name: &dyn Fn(Square) -> String) -> Result<(), String> {
        let cur = self.end();
        if cur.moves() != 0 {
            return Err(format!("pass while {} has legal moves ({})", cur.side, square_list(cur.moves(), name)));
        }
        if cur.is_game_over() {
            return Err("pass after the game is over".to_string());
        }
        self.plies.push(Ply::Pass);
        self.positions.push(cur.passed());
        Ok(())
    }

    /// Applies a ply (see [`Replay::push_move`], [`Replay::push_pass`]).
    pub fn push(&mut self, ply: Ply) -> Result<(), String> {
        match ply {
            Ply::Move(sq) => self.push_move(sq),
            Ply::Pass => self.push_pass(),
        }
    }

    /// The transcript of the plies.
    pub fn transcript(&self, style: PassStyle) -> String {
        format_transcript(&self.plies, style)
    }
}

fn square_list(bits: u64, name: &dyn Fn(Square) -> String) -> String {
    Square::iter(bits).map(name).collect::<Vec<_>>().join(" ")
}

/// Why `sq` cannot be played in `pos`, for error messages (squares by their 8x8-grid
/// names, as transcripts and board strings use them).
pub fn illegal_move_message(pos: &Position, sq: Square) -> String {
    illegal_move_message_named(pos, sq, &|s| s.to_string())
}

/// [`illegal_move_message`] with the squares named by `name` (GGF names a small
/// board's squares from its own top-left).
pub fn illegal_move_message_named(pos: &Position, sq: Square, name: &dyn Fn(Square) -> String) -> String {
    let moves = pos.moves();
    let reason = if (pos.board.player | pos.board.opponent) & sq.bit() != 0 {
        "the square is occupied".to_string()
    } else if pos.size.mask() & sq.bit() == 0 {
        format!("the square is off the {} board", pos.size)
    } else {
        "it flips no disc".to_string()
    };
    if moves == 0 && pos.passed().moves() == 0 {
        return format!("illegal move {}: the game is over", name(sq));
    }
    let legal = if moves == 0 {
        format!("{} must pass; {} can play {}", pos.side, pos.side.opposite(), square_list(pos.passed().moves(), name))
    } else {
        format!("legal for {}: {}", pos.side, square_list(moves, name))
    };
    format!("illegal move {} for {}: {reason} ({legal})", name(sq), pos.side)
}

/// Parses and replays a transcript from `start`. Errors name the line and column of
/// the offending move and why it is wrong (malformed name, occupied square, no flip).
pub fn parse_transcript(text: &str, start: &Position) -> Result<Replay, ParseError> {
    let mut replay = Replay::new(*start);
    for (li, line) in text.split('\n').enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            if chars[i].is_whitespace() {
                i += 1;
                continue;
            }
            let at = |msg: String| ParseError::at(li + 1, i + 1, msg);
            let Some(&second) = chars.get(i + 1) else {
                return Err(at(format!("incomplete move {:?}: expected a square such as f5, or pa", chars[i])));
            };
            let token: String = [chars[i], second].iter().collect();
            let lower = token.to_ascii_lowercase();
            let result = if lower == "pa" || lower == "ps" || lower == "--" {
                replay.push_pass()
            } else if let Some(sq) = Square::parse(&token) {
                replay.push_move(sq)
            } else {
                return Err(at(format!("{token:?} is not a move: expected a square a1..h8, or pa for a pass")));
            };
            result.map_err(|m| at(format!("move {}: {m}", replay.plies.len() + 1)))?;
            i += 2;
        }
    }
    Ok(replay)
}

/// Writes plies as a transcript (`f5d6c3`), lower case, passes as `style` says.
pub fn format_transcript(plies: &[Ply], style: PassStyle) -> String {
    plies.iter().filter(|p| style == PassStyle::Explicit || **p != Ply::Pass).map(|p| p.to_string()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{BoardSize, Variant};

    #[test]
    fn replays_and_reports_errors() {
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let r = parse_transcript("F5d6 C3d3", &start).unwrap();
        assert_eq!(r.transcript(PassStyle::Implicit), "f5d6c3d3");
        let e = parse_transcript("f5d6\nc3a1", &start).unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert!(e.message.contains("illegal move a1"), "{e}");
        let e = parse_transcript("f5 z9", &start).unwrap_err();
        assert_eq!((e.line, e.column), (1, 4));
        let e = parse_transcript("f5pa", &start).unwrap_err();
        assert!(e.message.contains("legal moves"), "{e}");
        assert!(parse_transcript("f", &start).is_err());
    }

    #[test]
    fn implicit_and_explicit_passes() {
        // 4x4: a game that reaches a forced pass.
        let start = Position::start(BoardSize::Four, Variant::Normal);
        let mut found = None;
        // Search the small tree for a game with a pass.
        fn dfs(r: &mut Replay, found: &mut Option<Replay>) {
            if found.is_some() {
                return;
            }
            let cur = r.end();
            if cur.moves() == 0 {
                if !cur.is_game_over() {
                    *found = Some(r.clone());
                }
                return;
            }
            for sq in Square::iter(cur.moves()) {
                let mut next = r.clone();
                next.push_move(sq).unwrap();
                dfs(&mut next, found);
            }
        }
        dfs(&mut Replay::new(start), &mut found);
        let mut r = found.expect("4x4 has forced passes");
        r.push_pass().unwrap();
        let next = Square::iter(r.end().moves()).next().unwrap();
        r.push_move(next).unwrap();
        let explicit = r.transcript(PassStyle::Explicit);
        let implicit = r.transcript(PassStyle::Implicit);
        assert!(explicit.contains("pa"));
        assert_eq!(parse_transcript(&explicit, &start).unwrap(), r);
        assert_eq!(parse_transcript(&implicit, &start).unwrap(), r);
    }
}
