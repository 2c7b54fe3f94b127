//! `solvo position wthor`: read WTHOR game databases (.wtb with .JOU/.TRN names).

use crate::error::{context, CliError};
use crate::shared::wthor_names::{player_names, tournament_names};
use crate::Common;
use serde_json::json;
use solvo_othello::formats::board_string::diagram;
use solvo_othello::formats::transcript::PassStyle;
use solvo_othello::formats::wthor::{parse_wtb, WthorGame};
use std::path::PathBuf;

/// Arguments of `solvo position wthor`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The game file (e.g. WTH_2024.wtb).
    pub file: PathBuf,
    /// Player names file (default: WTHOR.JOU or WTH.JOU beside the game file, if present).
    #[arg(long)]
    pub players: Option<PathBuf>,
    /// Tournament names file (default: WTHOR.TRN or WTH.TRN beside the game file).
    #[arg(long)]
    pub tournaments: Option<PathBuf>,
    /// Replay this game (1-based) and show its final position.
    #[arg(long)]
    pub game: Option<usize>,
    /// Print only one transcript per line (export).
    #[arg(long)]
    pub transcripts: bool,
    /// At most this many games in the listing.
    #[arg(long)]
    pub limit: Option<usize>,
}

fn name(names: &[String], id: u16) -> String {
    names.get(id as usize).cloned().unwrap_or_else(|| format!("#{id}"))
}

/// Runs `solvo position wthor`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let bytes = crate::input_file::read_bytes(&args.file)?;
    let db = parse_wtb(&bytes).map_err(context(args.file.display()))?;
    let players = player_names(args.players.as_deref(), &args.file)?;
    let tournaments = tournament_names(args.tournaments.as_deref(), &args.file)?;
    let describe = |i: usize, g: &WthorGame| -> Result<serde_json::Value, CliError> {
        if let Some(damage) = db.damage(i) {
            return Err(CliError(format!("damaged record: {damage}")));
        }
        let replay = g.replay().map_err(context(format!("game {}: damaged record", i + 1)))?;
        Ok(json!({
            "game": i + 1,
            "year": db.header.year,
            "tournament": name(&tournaments, g.tournament),
            "black": name(&players, g.black_player),
            "white": name(&players, g.white_player),
            "black_discs": g.black_discs,
            "theoretical_black_discs": g.theoretical_black_discs,
            "transcript": replay.transcript(PassStyle::Implicit),
        }))
    };
    if let Some(n) = args.game {
        let g = db
            .games
            .get(n.wrapping_sub(1))
            .ok_or_else(|| CliError(format!("game {n} does not exist: the file holds games 1..={}", db.games.len())))?;
        let info = describe(n - 1, g).map_err(context(args.file.display()))?;
        if common.json {
            out!("{info}");
        } else {
            let replay = g.replay().map_err(context(format!("{}: game {n}", args.file.display())))?;
            out!(
                "game {n}: {} (black) vs {} (white), {} — black {} discs (theoretical {})",
                info["black"].as_str().unwrap_or("?"),
                info["white"].as_str().unwrap_or("?"),
                info["tournament"].as_str().unwrap_or("?"),
                g.black_discs,
                g.theoretical_black_discs
            );
            out!("{}", replay.transcript(PassStyle::Implicit));
            out!("{}", diagram(&replay.end()).trim_end());
        }
        return Ok(());
    }
    if !common.json && !args.transcripts {
        out!(
            "{}: {} games of {} (created {:04}-{:02}-{:02}, theoretical scores at {} empties)",
            args.file.display(),
            db.games.len(),
            db.header.year,
            db.header.created.0,
            db.header.created.1,
            db.header.created.2,
            db.header.depth
        );
    }
    let mut skipped = 0;
    for (i, g) in db.games.iter().enumerate().take(args.limit.unwrap_or(usize::MAX)) {
        // A damaged game is reported and skipped: the others stay usable.
        let info = match describe(i, g) {
            Ok(info) => info,
            Err(e) => {
                eprintln!("warning: {}: game {} skipped: {e}", args.file.display(), i + 1);
                skipped += 1;
                continue;
            }
        };
        if common.json {
            out!("{info}");
        } else if args.transcripts {
            out!("{}", info["transcript"].as_str().unwrap_or(""));
        } else {
            out!(
                "{:>6}  {:<24} {:<24} {:>2}-{:<2} (th. {:>2})  {}",
                i + 1,
                info["black"].as_str().unwrap_or("?"),
                info["white"].as_str().unwrap_or("?"),
                g.black_discs,
                64u8.saturating_sub(g.black_discs),
                g.theoretical_black_discs,
                info["tournament"].as_str().unwrap_or("?"),
            );
        }
    }
    if skipped > 0 {
        eprintln!("warning: {}: {skipped} damaged game(s) skipped, the others are listed", args.file.display());
    }
    Ok(())
}
