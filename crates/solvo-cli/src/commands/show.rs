//! `solvo position show`: a position as Othello players read it.

use crate::error::CliError;
use crate::input::parse_input;
use crate::shared::{move_names, status_line};
use crate::Common;
use serde_json::json;
use solvo_othello::formats::board_string::{board_chars_64, diagram, format_position};
use solvo_othello::formats::transcript::PassStyle;

/// Arguments of `solvo position show`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A board string (`<64 chars> X`), an OBF line, or a transcript such as `f5d6c3d3`
    /// (empty or `start` for the starting position).
    #[arg(default_value = "start", allow_hyphen_values = true)]
    pub position: String,
}

/// Runs `solvo position show`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let input = parse_input(&args.position, common)?;
    let pos = input.position;
    let transcript = input.replay.as_ref().map(|r| r.transcript(PassStyle::Implicit));
    if common.json {
        let over = pos.is_game_over();
        let out = json!({
            "board": format_position(&pos),
            "board64": format!("{} {}", board_chars_64(&pos), pos.side.letter()),
            "size": pos.size.side(),
            "variant": pos.variant,
            "side_to_move": pos.side,
            "black_discs": pos.black().count_ones(),
            "white_discs": pos.white().count_ones(),
            "empties": pos.empties(),
            "moves": move_names(pos.moves()),
            "must_pass": pos.moves() == 0 && !over,
            "game_over": over,
            "black_score": if over { Some(pos.black_score()) } else { None },
            "transcript": transcript,
        });
        out!("{out}");
    } else {
        if let Some(t) = &transcript {
            let plies = input.replay.as_ref().map_or(0, |r| r.plies.len());
            out!("after {plies} plies: {}", if t.is_empty() { "(start)" } else { t });
        }
        out!("{}", diagram(&pos).trim_end());
        out!("{}", status_line(&pos));
        out!("board: {}", format_position(&pos));
    }
    Ok(())
}
