//! `solvo position convert`: between board strings, OBF, transcripts and GGF.

use crate::error::{context, CliError};
use crate::input::{parse_input, InputKind};
use crate::Common;
use serde_json::json;
use solvo_othello::formats::board_string::{board_chars_64, format_position};
use solvo_othello::formats::ggf::{format_ggf, ggf_from_replay, parse_ggf};
use solvo_othello::formats::obf::{format_obf, parse_obf, ObfProblem};
use solvo_othello::formats::transcript::{PassStyle, Replay};
use solvo_othello::Position;

/// Formats `solvo position convert` reads and writes.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Recognise the input by its characters (only for `--from`).
    Auto,
    /// Board string: squares then side to move (`---...OX... X`).
    Board,
    /// Board string of the whole 8x8 grid (small boards in its centre).
    Board64,
    /// OBF problem line (`<board> X; A2:+38; ...`).
    Obf,
    /// Move transcript from the standard start (`f5d6c3d3`).
    Transcript,
    /// GGF game record (`(;GM[Othello]...;)`).
    Ggf,
}

/// Arguments of `solvo position convert`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The input text, or the path of a file holding one item per line (OBF, boards,
    /// transcripts) or GGF records.
    #[arg(allow_hyphen_values = true)]
    pub input: String,
    /// Output format.
    #[arg(long)]
    pub to: Format,
    /// Input format (default: recognised from the text).
    #[arg(long, default_value = "auto")]
    pub from: Format,
    /// Write passes in transcripts as `pa` instead of leaving them out.
    #[arg(long)]
    pub explicit_passes: bool,
}

/// One thing to convert: a position, with the game that led to it and OBF scores
/// when the input had them.
struct Item {
    position: Position,
    replay: Option<Replay>,
    obf: Option<ObfProblem>,
}

fn read_items(text: &str, from: Format, common: Common) -> Result<Vec<Item>, CliError> {
    let from = match from {
        Format::Auto if text.trim_start().starts_with('(') => Format::Ggf,
        f => f,
    };
    match from {
        Format::Ggf => Ok(parse_ggf(text, common.variant)?
            .into_iter()
            .map(|g| Item { position: g.replay.end(), replay: Some(g.replay), obf: None })
            .collect()),
        Format::Obf => Ok(parse_obf(text, common.size, common.variant)?
            .into_iter()
            .map(|(_, p)| Item { position: p.position, replay: None, obf: Some(p) })
            .collect()),
        _ => {
            let mut items = Vec::new();
            for (i, line) in text.lines().enumerate() {
                let line = line.trim();
                if line.is_empty() || line.starts_with('%') || line.starts_with('#') {
                    continue;
                }
                let parsed = parse_input(line, common).map_err(context(format!("line {}", i + 1)))?;
                let obf = if parsed.kind == InputKind::Obf {
                    Some(solvo_othello::formats::obf::parse_obf_line(line, common.size, common.variant)?)
                } else {
                    None
                };
                items.push(Item { position: parsed.position, replay: parsed.replay, obf });
            }
            Ok(items)
        }
    }
}

fn write_item(item: &Item, to: Format, style: PassStyle) -> Result<String, CliError> {
    Ok(match to {
        Format::Board | Format::Auto => format_position(&item.position),
        Format::Board64 => format!("{} {}", board_chars_64(&item.position), item.position.side.letter()),
        Format::Obf => {
            let problem = item.obf.clone().unwrap_or(ObfProblem {
                position: item.position,
                move_scores: Vec::new(),
                position_score: None,
            });
            format_obf(&problem)
        }
        Format::Transcript => {
            let replay = item
                .replay
                .as_ref()
                .ok_or_else(|| CliError("a board or OBF line has no moves: it cannot become a transcript".into()))?;
            let start = Position::start(replay.start.size, replay.start.variant);
            if replay.start.board != start.board || replay.start.side != start.side {
                return Err(CliError(
                    "the game does not begin at the standard start: a transcript would be replayed wrongly".into(),
                ));
            }
            replay.transcript(style)
        }
        Format::Ggf => {
            let replay = item.replay.clone().unwrap_or_else(|| Replay::new(item.position));
            format_ggf(&ggf_from_replay(&replay, "?", "?"))
        }
    })
}

/// Runs `solvo position convert`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    if args.to == Format::Auto {
        return Err(CliError("--to needs a format: board, board64, obf, transcript or ggf".into()));
    }
    let file = crate::input_file::file_text_if_path(&args.input)?;
    let text = file.as_deref().unwrap_or(&args.input);
    let items = read_items(text, args.from, common).map_err(|e| match &file {
        Some(_) => CliError(format!("{}: {e}", args.input.trim())),
        None => e,
    })?;
    if items.is_empty() {
        return Err(CliError(format!("{}: nothing to convert (no position in it)", args.input.trim())));
    }
    let style = if args.explicit_passes { PassStyle::Explicit } else { PassStyle::Implicit };
    for (i, item) in items.iter().enumerate() {
        let out = write_item(item, args.to, style).map_err(context(format!("item {}", i + 1)))?;
        if common.json {
            out!("{}", json!({"item": i + 1, "format": format!("{:?}", args.to).to_lowercase(), "output": out}));
        } else {
            out!("{out}");
        }
    }
    Ok(())
}
