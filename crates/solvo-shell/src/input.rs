//! Turning a command-line argument into a position: a board string, an OBF line, a
//! GGF record or a move transcript, recognised by their characters
//! (`solvo_othello::formats::recognize`), after the command line's own checks.

use crate::error::CliError;
use crate::Common;
use solvo_othello::formats::recognize::recognize;
use solvo_othello::formats::transcript::Replay;
use solvo_othello::Position;

pub use solvo_othello::formats::recognize::InputKind;

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

/// Reads `text` as a position (unknown options and file names refused first), as
/// [`recognize`] does: GGF, OBF, transcript or board string. Errors name what was expected.
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
    let r = recognize(trimmed, common.size, common.variant).map_err(CliError)?;
    Ok(ParsedInput { position: r.position, replay: r.replay, kind: r.kind })
}
