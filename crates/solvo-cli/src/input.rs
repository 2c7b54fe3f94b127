//! Turning a command-line argument into a position: a board string, an OBF line or a
//! move transcript, recognised by their characters.

use crate::error::CliError;
use crate::Common;
use solvo_othello::formats::board_string::parse_position;
use solvo_othello::formats::transcript::{parse_transcript, Replay};
use solvo_othello::{BoardSize, Position};

/// What an argument turned out to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// A board string with side to move.
    Board,
    /// An OBF problem line (board, side, `;`...).
    Obf,
    /// A move transcript from the standard start (possibly empty).
    Transcript,
}

/// A position read from the command line, with the game that led to it if it was a
/// transcript.
#[derive(Clone, Debug)]
pub struct ParsedInput {
    /// The position.
    pub position: Position,
    /// The replayed moves, for transcripts.
    pub replay: Option<Replay>,
    /// What the input was.
    pub kind: InputKind,
}

/// Reads `text` as an OBF line (if it has a `;`), a transcript (if it has a digit, or
/// is empty or `start`), or else a board string. Errors name what was expected.
pub fn parse_input(text: &str, common: Common) -> Result<ParsedInput, CliError> {
    let trimmed = text.trim();
    // Inputs may start with `-` (board strings), so clap hands over unknown options too.
    if trimmed.starts_with("--")
        && trimmed[2..].starts_with(|c: char| c.is_ascii_lowercase())
        && trimmed[2..].chars().all(|c| c.is_ascii_lowercase() || c == '-' || c == '_')
    {
        return Err(CliError(format!("unknown option {trimmed} (see --help)")));
    }
    if crate::input_file::looks_like_path(trimmed) {
        let path = std::path::Path::new(trimmed);
        return Err(match crate::input_file::read_bytes(path) {
            Err(e) => e,
            Ok(_) => CliError(format!(
                "{trimmed}: a file, where a position was expected (give the board, OBF line or moves; `solve` and `convert` read files)"
            )),
        });
    }
    if trimmed.contains(';') {
        let problem = solvo_othello::formats::obf::parse_obf_line(trimmed, common.size, common.variant)
            .map_err(|e| CliError(format!("OBF line: {e}")))?;
        return Ok(ParsedInput { position: problem.position, replay: None, kind: InputKind::Obf });
    }
    let looks_like_moves =
        trimmed.is_empty() || trimmed.eq_ignore_ascii_case("start") || trimmed.chars().any(|c| c.is_ascii_digit());
    if looks_like_moves {
        let size = common.size.unwrap_or(BoardSize::Eight);
        let start = Position::start(size, common.variant);
        let moves = if trimmed.eq_ignore_ascii_case("start") { "" } else { trimmed };
        let replay = parse_transcript(moves, &start).map_err(|e| CliError(format!("transcript: {e}")))?;
        return Ok(ParsedInput { position: replay.end(), replay: Some(replay), kind: InputKind::Transcript });
    }
    let position =
        parse_position(trimmed, common.size, common.variant).map_err(|e| CliError(format!("board string: {e}")))?;
    Ok(ParsedInput { position, replay: None, kind: InputKind::Board })
}
