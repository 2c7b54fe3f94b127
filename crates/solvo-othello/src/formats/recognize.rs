//! One text, whatever it holds: an OBF problem line, a GGF game record, a move
//! transcript or a board string, told apart by their characters. The command line and
//! the web server read positions people paste through this one function.

use super::board_string::parse_position;
use super::ggf::parse_ggf;
use super::obf::parse_obf_line;
use super::transcript::{parse_transcript, Replay};
use crate::position::Position;
use crate::size::BoardSize;
use crate::variant::Variant;

/// What a text turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A board string with side to move.
    Board,
    /// An OBF problem line (board, side, `;`...).
    Obf,
    /// A move transcript from the standard start (possibly empty, or `start`).
    Transcript,
    /// A GGF game record (its first game).
    Ggf,
}

/// A position read from a text, with the game that led to it when the text held one.
#[derive(Clone, Debug)]
pub struct Recognized {
    /// The position (the end of the game for transcripts and GGF).
    pub position: Position,
    /// The replayed game, for transcripts and GGF records.
    pub replay: Option<Replay>,
    /// What the text was.
    pub kind: InputKind,
}

/// Reads `text` as a GGF record (if it starts with `(;`), an OBF line (if it has a
/// `;`), a transcript (if it has a digit, or is empty or `start`), or else a board
/// string; `size` picks the board of transcripts (default 8x8) and may be checked
/// against a board string's. Errors (never a panic) name the kind tried and what is
/// wrong, e.g. `transcript: ...`.
pub fn recognize(text: &str, size: Option<BoardSize>, variant: Variant) -> Result<Recognized, String> {
    let trimmed = text.trim();
    if trimmed.starts_with("(;") {
        let games = parse_ggf(trimmed, variant).map_err(|e| format!("GGF: {e}"))?;
        let game = games.into_iter().next().ok_or("GGF: no game record")?;
        if let Some(size) = size.filter(|s| *s != game.replay.start.size) {
            return Err(format!("GGF: a {} game, the board is {size}", game.replay.start.size));
        }
        return Ok(Recognized { position: game.replay.end(), replay: Some(game.replay), kind: InputKind::Ggf });
    }
    if trimmed.contains(';') {
        let problem = parse_obf_line(trimmed, size, variant).map_err(|e| format!("OBF line: {e}"))?;
        return Ok(Recognized { position: problem.position, replay: None, kind: InputKind::Obf });
    }
    let looks_like_moves =
        trimmed.is_empty() || trimmed.eq_ignore_ascii_case("start") || trimmed.chars().any(|c| c.is_ascii_digit());
    if looks_like_moves {
        let start = Position::start(size.unwrap_or(BoardSize::Eight), variant);
        let moves = if trimmed.eq_ignore_ascii_case("start") { "" } else { trimmed };
        let replay = parse_transcript(moves, &start).map_err(|e| format!("transcript: {e}"))?;
        return Ok(Recognized { position: replay.end(), replay: Some(replay), kind: InputKind::Transcript });
    }
    let position = parse_position(trimmed, size, variant).map_err(|e| format!("board string: {e}"))?;
    Ok(Recognized { position, replay: None, kind: InputKind::Board })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_the_kinds_apart() {
        let n = Variant::Normal;
        assert_eq!(recognize("f5d6", None, n).unwrap().kind, InputKind::Transcript);
        assert_eq!(recognize("start", Some(BoardSize::Six), n).unwrap().position.size, BoardSize::Six);
        let board = "---------------------------OX------XO--------------------------- X";
        assert_eq!(recognize(board, None, n).unwrap().kind, InputKind::Board);
        let obf = format!("{board};");
        assert_eq!(recognize(&obf, None, n).unwrap().kind, InputKind::Obf);
        let ggf = recognize(
            "(;GM[Othello]TY[8]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[d3];)",
            None,
            n,
        )
        .unwrap();
        assert_eq!((ggf.kind, ggf.replay.unwrap().plies.len()), (InputKind::Ggf, 1));
        assert!(recognize("f5f5", None, n).unwrap_err().starts_with("transcript:"));
        assert!(recognize("xyz", None, n).unwrap_err().starts_with("board string:"));
        assert!(recognize("(;GM[Othello]", None, n).unwrap_err().starts_with("GGF:"));
    }
}
