//! The engine options every playing command takes (`play`, `gtp`, `nboard`, `match`):
//! level, time control, threads, table size, evaluation file, opening book, solution
//! stores; and
//! the engine they make.

use crate::error::{context, CliError};
use crate::shared::load_weights;
use crate::Common;
use solvo_engine::book::Book;
use solvo_engine::{Engine, EngineSettings, Level, TimeControl};
use solvo_othello::BoardSize;
use solvo_solve::store::Store;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Engine options.
#[derive(clap::Args, Debug, Clone)]
pub struct EngineArgs {
    /// Level 1-60: midgame depth L, the outcome proven from min(2L, L + 8) empties and
    /// the exact score from a few fewer (L + 3 from level 8), selectivity rising with L
    /// (ignored for depth under a time control).
    #[arg(long, default_value_t = 10, value_parser = crate::option_ranges::level, allow_negative_numbers = true)]
    pub level: u32,
    /// Seconds per move (a time control instead of the level's depth).
    #[arg(long, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true, conflicts_with = "game_time")]
    pub move_time: Option<f64>,
    /// Seconds per game for each side (a clock; the engine never runs out of it).
    #[arg(long, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true)]
    pub game_time: Option<f64>,
    /// Seconds added to the clock after each move (with --game-time).
    #[arg(long, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true, requires = "game_time")]
    pub increment: Option<f64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 64, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
    /// 8x8 weight file to use instead of the embedded weights of the variant.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// An opening book (made by `solvo engine book`) to play known openings from.
    #[arg(long)]
    pub book: Option<PathBuf>,
    /// A 6x6 or 4x4 solution store to play from (repeat for several; positions a store
    /// lacks are solved on demand).
    #[arg(long)]
    pub store: Vec<PathBuf>,
}

impl EngineArgs {
    /// The time control the options give.
    pub fn time_control(&self) -> TimeControl {
        match (self.move_time, self.game_time) {
            (Some(t), _) => TimeControl::PerMove(Duration::from_secs_f64(t)),
            (None, Some(total)) => TimeControl::PerGame {
                total: Duration::from_secs_f64(total),
                increment: Duration::from_secs_f64(self.increment.unwrap_or(0.0)),
            },
            (None, None) => TimeControl::None,
        }
    }

    /// The engine settings (weights read when `--eval-file` is given).
    pub fn settings(&self, common: Common) -> Result<EngineSettings, CliError> {
        let level = Level::new(self.level).ok_or_else(|| CliError(format!("--level {}: out of range", self.level)))?;
        let eval = match &self.eval_file {
            Some(path) => Some(Arc::new(load_weights(Some(path), common)?)),
            None => None,
        };
        Ok(EngineSettings { level, time: self.time_control(), threads: self.threads, hash_mb: self.hash_mb, eval })
    }

    /// The engine, with its stores opened (each must exist and be a 6x6 or 4x4 store);
    /// the tables it can hold must fit in the machine's memory
    /// ([`crate::option_ranges::check_tables`]).
    pub fn engine(&self, common: Common) -> Result<Engine, CliError> {
        let settings = self.settings(common)?;
        let tables = settings.most_table_mib(self.store.len()) / self.hash_mb.max(1) as u128;
        crate::option_ranges::check_tables("--hash-mb", self.hash_mb, tables, &format!("{tables} tables"))?;
        let mut engine = Engine::new(settings).map_err(|e| CliError(e.0))?;
        for store in open_stores(&self.store)? {
            engine.set_store(store).map_err(|e| CliError(e.0))?;
        }
        if let Some(path) = &self.book {
            let text = crate::input_file::read_text(path)?;
            let book = Book::from_text(&text).map_err(context(path.display()))?;
            if book.variant() != common.variant {
                return Err(CliError(format!(
                    "book {}: made for {} rules, the game is {}",
                    path.display(),
                    book.variant(),
                    common.variant
                )));
            }
            engine.set_book(book);
        }
        Ok(engine)
    }
}

/// Opens the solution stores at `paths` to play from: each must exist and be a 6x6 or
/// 4x4 store (errors name the file).
pub fn open_stores(paths: &[PathBuf]) -> Result<Vec<Store>, CliError> {
    paths
        .iter()
        .map(|path| {
            let store = Store::open_existing(path).map_err(context(path.display()))?;
            if store.size() == BoardSize::Eight {
                return Err(CliError(format!("store {}: an 8x8 store cannot be played from", path.display())));
            }
            Ok(store)
        })
        .collect()
}
