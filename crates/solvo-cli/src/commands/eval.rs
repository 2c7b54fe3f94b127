//! `solvo position eval`: the static evaluation of positions (board, transcript, OBF line or
//! OBF file), in discs for the side to move.

use crate::error::CliError;
use crate::shared::{load_weights, positions_of};
use crate::Common;
use serde_json::json;
use solvo_othello::formats::board_string::format_position;
use std::path::PathBuf;

/// Arguments of `solvo position eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A board string, transcript or OBF line, or the path of an OBF file.
    #[arg(allow_hyphen_values = true)]
    pub input: String,
    /// Weight file to use instead of the embedded weights of the board size and variant.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

/// Runs `solvo position eval`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let weights = load_weights(args.eval_file.as_deref(), common)?;
    for (line, pos) in positions_of(&args.input, common)? {
        if pos.size != weights.size() {
            return Err(CliError(format!(
                "line {line}: the weights are for {} boards, not {} (give --size {})",
                weights.size(),
                pos.size,
                pos.size.side()
            )));
        }
        let discs = (pos.board.player | pos.board.opponent).count_ones();
        if pos.is_game_over() {
            // A finished game is not estimated: its score is the disc count.
            let score = pos.final_score();
            if common.json {
                out!(
                    "{}",
                    json!({"line": line, "board": format_position(&pos), "empties": pos.empties(), "game_over": true,
                           "score": score})
                );
            } else {
                out!("{}  game over: {score:+}", format_position(&pos));
            }
            continue;
        }
        let score = weights.evaluate_discs(&pos.board);
        if common.json {
            out!(
                "{}",
                json!({"line": line, "board": format_position(&pos), "empties": pos.empties(),
                       "stage": weights.stage_index(discs), "score": score})
            );
        } else {
            out!("{}  {:+.2}", format_position(&pos), score);
        }
    }
    Ok(())
}
