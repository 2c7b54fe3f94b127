//! Positions named on the command line, and how moves and positions are named for
//! people.

use crate::error::{context, CliError};
use crate::input::parse_input;
use crate::Common;
use solvo_othello::formats::obf::parse_obf;
use solvo_othello::{Position, Square};

/// The positions named by a command-line argument: an OBF file's lines (with line
/// numbers), or one position.
pub fn positions_of(input: &str, common: Common) -> Result<Vec<(usize, Position)>, CliError> {
    match crate::input_file::file_text_if_path(input)? {
        Some(text) => {
            let name = input.trim();
            let problems = parse_obf(&text, common.size, common.variant).map_err(context(name))?;
            if problems.is_empty() {
                return Err(CliError(format!("{name}: no positions in this file")));
            }
            Ok(problems.into_iter().map(|(line, p)| (line, p.position)).collect())
        }
        None => Ok(vec![(1, parse_input(input, common)?.position)]),
    }
}

/// The legal moves, space separated (`d3 c4 f5 e6`).
pub fn move_names(bits: u64) -> Vec<String> {
    Square::iter(bits).map(|s| s.to_string()).collect()
}

/// A move's name, `pass` for none.
pub fn move_name(m: Option<Square>) -> String {
    m.map_or_else(|| "pass".to_string(), |s| s.to_string())
}

/// One line saying what happens next: who moves and where, a forced pass, or the result.
pub fn status_line(pos: &Position) -> String {
    let moves = pos.moves();
    if moves != 0 {
        format!("{} to move; legal moves: {}", pos.side, move_names(moves).join(" "))
    } else if pos.passed().moves() != 0 {
        format!("{} has no legal move and must pass", pos.side)
    } else {
        let score = pos.black_score();
        let who = match score.signum() {
            1 => "black wins".to_string(),
            -1 => "white wins".to_string(),
            _ => "draw".to_string(),
        };
        format!("game over ({} rules): {who}, black's score {score:+}", pos.variant)
    }
}
