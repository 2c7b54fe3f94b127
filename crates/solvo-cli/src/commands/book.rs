//! `solvo engine book`: builds an opening book from WTHOR game files: the positions at least
//! `--min-games` games reach within `--plies` plies, each valued by the engine's search
//! at `--level` and negamaxed back to the start (see `solvo_engine::book`). Play from
//! it with `--book FILE` (play, gtp, nboard, match).

use crate::error::{context, CliError};
use crate::shared::{read_wthor, EngineArgs};
use crate::Common;
use serde_json::json;
use solvo_engine::book::Book;
use solvo_othello::BoardSize;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `solvo engine book`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// WTHOR files (.wtb) whose games make the book.
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Plies from the start the book covers.
    #[arg(long, default_value_t = 16, value_parser = crate::option_ranges::plies, allow_negative_numbers = true)]
    pub plies: u32,
    /// Games that must reach a position for it to enter the book.
    #[arg(long, default_value_t = 20, value_parser = crate::option_ranges::at_least_one, allow_negative_numbers = true)]
    pub min_games: usize,
    /// The book file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// The engine that values the positions (its --level; --book is ignored).
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// Runs `solvo engine book`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    if common.size.is_some_and(|s| s != BoardSize::Eight) {
        return Err(CliError("book: opening books are for 8x8".into()));
    }
    let mut games = Vec::new();
    for file in &args.files {
        let db = read_wthor(file)?;
        games.extend(db.whole_games().map(|(_, g)| g.moves.clone()));
    }
    let engine_args = EngineArgs { book: None, ..args.engine.clone() };
    let mut engine = engine_args.engine(common)?;
    let start = Instant::now();
    let mut valued = 0u64;
    let mut failure = None;
    let min_games = u32::try_from(args.min_games).unwrap_or(u32::MAX);
    let book = Book::build(&games, common.variant, args.plies as usize, min_games, &mut |pos| {
        valued += 1;
        if valued.is_multiple_of(500) {
            eprintln!("{valued} positions valued, {:.0} s", start.elapsed().as_secs_f64());
        }
        match engine.best_move(pos, None, &mut |_| {}) {
            Ok(r) => r.score,
            Err(e) => {
                failure.get_or_insert(e.0);
                0.0
            }
        }
    });
    if let Some(e) = failure {
        return Err(CliError(e));
    }
    std::fs::write(&args.out, book.to_text()).map_err(context(args.out.display()))?;
    let secs = start.elapsed().as_secs_f64();
    if common.json {
        out!("{}", json!({"games": games.len(), "positions": book.len(), "seconds": secs}));
    } else {
        out!("{} games, {} book positions, {secs:.1} s: {}", games.len(), book.len(), args.out.display());
    }
    Ok(())
}
