//! `solvo eval`: the static evaluation of positions (board, transcript, OBF line or
//! OBF file), in discs for the side to move.

use crate::error::{context, CliError};
use crate::input::parse_input;
use crate::Common;
use serde_json::json;
use solvo_eval::{stage_of, Weights};
use solvo_othello::formats::board_string::format_position;
use solvo_othello::formats::obf::parse_obf;
use solvo_othello::{BoardSize, Position};
use std::path::PathBuf;

/// Arguments of `solvo eval`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A board string, transcript or OBF line, or the path of an OBF file.
    #[arg(allow_hyphen_values = true)]
    pub input: String,
    /// Weight file to use instead of the embedded weights of the variant.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

/// The weights chosen by `--eval-file` (or the embedded set of the variant).
pub fn load_weights(file: Option<&std::path::Path>, common: Common) -> Result<Weights, CliError> {
    let w = match file {
        Some(path) => solvo_eval::read_file(path).map_err(|e| CliError(e.message))?,
        None => solvo_eval::embedded(common.variant).map_err(|e| CliError(e.message))?.clone(),
    };
    if w.variant != common.variant {
        return Err(CliError(format!(
            "the weights are for the {} variant but --variant is {}",
            w.variant.name(),
            common.variant.name()
        )));
    }
    Ok(w)
}

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

/// Runs `solvo eval`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let weights = load_weights(args.eval_file.as_deref(), common)?;
    for (line, pos) in positions_of(&args.input, common)? {
        if pos.size != BoardSize::Eight {
            return Err(CliError(format!("line {line}: the evaluation is for 8x8 boards, not {}", pos.size)));
        }
        let score = weights.evaluate_discs(&pos.board);
        let discs = (pos.board.player | pos.board.opponent).count_ones();
        if common.json {
            out!(
                "{}",
                json!({"line": line, "board": format_position(&pos), "empties": pos.empties(),
                       "stage": stage_of(discs), "score": score})
            );
        } else {
            out!("{}  {:+.2}", format_position(&pos), score);
        }
    }
    Ok(())
}
