//! `solvo serve`: the web front end (crate `solvo-web`) on a local port. A thin
//! adapter: it reads the files named on the command line (stores, WTHOR games and
//! their name files beside them), makes the server's configuration and runs it.

use crate::error::CliError;
use crate::shared::open_stores;
use crate::shared::wthor_names::{player_names, read_wthor, tournament_names};
use crate::Common;
use solvo_core::Game;
use solvo_engine::{EngineSettings, Level, TimeControl};
use solvo_games::GameVisitor;
use solvo_solve::game_store::GameStore;
use solvo_web::wthor::WthorLibrary;
use solvo_web::ServerConfig;
use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};
use std::time::Duration;

/// Arguments of `solvo serve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The address to listen on (127.0.0.1: this machine only; 0.0.0.0 opens it to the
    /// network).
    #[arg(long, default_value = "127.0.0.1")]
    pub bind: IpAddr,
    /// The port (0: any free port, printed at start).
    #[arg(long, default_value_t = 8080, value_parser = port, allow_negative_numbers = true)]
    pub port: u16,
    /// A 6x6 or 4x4 solution store to answer from (repeat for several).
    #[arg(long)]
    pub store: Vec<PathBuf>,
    /// A semi-strong store of another game (`solvo game semi-strong build`) for the
    /// page `/games`: positions of the game, size and rule options it was built for are
    /// answered from it, the rest solved on demand (repeat for several; only read).
    #[arg(long, value_name = "FILE")]
    pub game_store: Vec<PathBuf>,
    /// A WTHOR game file (.wtb) for the game browser (repeat for several; player and
    /// tournament names are read from WTHOR.JOU/WTH.JOU and WTHOR.TRN/WTH.TRN beside it).
    #[arg(long)]
    pub wthor: Vec<PathBuf>,
    /// The level of requests that name none (1-60).
    #[arg(long, default_value_t = 10, value_parser = crate::option_ranges::level, allow_negative_numbers = true)]
    pub level: u32,
    /// Search threads of each search (2: a person at the board gets both cores of a
    /// small machine; concurrent searches share the cores, the cap bounds them).
    #[arg(long, default_value_t = 2, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Transposition table size in MiB of each engine (one per concurrent search; every
    /// table of every search at once must fit in the machine's memory).
    #[arg(long, default_value_t = 16, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
    /// The most searches running at once (more get 503 at once).
    #[arg(long, default_value_t = 8, value_parser = max_searches, allow_negative_numbers = true)]
    pub max_searches: usize,
    /// The longest a request may search, in seconds (also the default budget).
    #[arg(long, default_value_t = 60.0, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true)]
    pub max_time: f64,
    /// The most nodes a request may search (also the default budget; requests may ask
    /// for fewer with `nodes`). Without it, only the time bounds a request.
    #[arg(long, value_parser = crate::option_ranges::nodes, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,
    /// The largest request body accepted, in KiB.
    #[arg(long, default_value_t = 64, value_parser = body_kib, allow_negative_numbers = true)]
    pub body_limit_kib: usize,
    /// Check the configuration and bind the port, print the address, and exit without
    /// serving.
    #[arg(long)]
    pub check: bool,
}

fn port(text: &str) -> Result<u16, String> {
    crate::option_ranges::in_range(text, 0, u16::MAX)
}

fn max_searches(text: &str) -> Result<usize, String> {
    crate::option_ranges::in_range(text, 1, 1024)
}

fn body_kib(text: &str) -> Result<usize, String> {
    crate::option_ranges::in_range(text, 1, 16 * 1024)
}

/// The largest value of a game (what its store's records are checked against).
struct MaxValue;

impl GameVisitor for MaxValue {
    type Output = i32;
    fn visit<G: Game + std::fmt::Display + 'static>(self, root: G) -> i32 {
        root.max_value()
    }
}

/// Opens a `--game-store` for the game it records.
fn open_game_store(path: &Path) -> Result<GameStore, CliError> {
    let err = |e: String| CliError(format!("--game-store {}: {e}", path.display()));
    // The store's errors name its file.
    let identity = GameStore::identity_of(path).map_err(|e| CliError(format!("--game-store: {e}")))?;
    let (spec, rows, cols, options) = solvo_games::parse_semi_strong_identity(&identity)
        .ok_or_else(|| err(format!("a store of '{identity}', not of a game of the catalogue")))?;
    let max = solvo_games::dispatch_with(spec.name, rows, cols, &options, MaxValue).map_err(|e| err(e.to_string()))?;
    GameStore::open(path, &identity, max).map_err(|e| CliError(format!("--game-store: {e}")))
}

/// Runs `solvo serve`.
pub fn run(args: Args, _common: Common) -> Result<(), CliError> {
    let level = Level::new(args.level).ok_or_else(|| CliError(format!("--level {}: out of range", args.level)))?;
    let mut wthor = WthorLibrary::default();
    for path in &args.wthor {
        let file = read_wthor(path)?;
        let players = player_names(None, path)?;
        let tournaments = tournament_names(None, path)?;
        let name = path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        wthor.add(&name, &file, &players, &tournaments);
    }
    let config = ServerConfig {
        engine: EngineSettings {
            level,
            time: TimeControl::None,
            threads: args.threads,
            hash_mb: args.hash_mb,
            eval: None,
        },
        stores: open_stores(&args.store)?,
        game_stores: args.game_store.iter().map(|p| open_game_store(p)).collect::<Result<_, _>>()?,
        wthor,
        max_searches: args.max_searches,
        max_time: Duration::from_secs_f64(args.max_time),
        max_nodes: args.max_nodes,
        body_limit: args.body_limit_kib * 1024,
    };
    // The worst case, checked with or without `--check`: every search at once, each
    // with every table an engine can hold.
    let per_search = config.engine.most_table_mib(config.stores.len()) / args.hash_mb.max(1) as u128;
    let how = format!("{} searches at once x {per_search} tables", args.max_searches);
    crate::option_ranges::check_tables(
        "--hash-mb",
        args.hash_mb,
        config.most_table_mib() / args.hash_mb.max(1) as u128,
        &how,
    )?;
    let games = config.wthor.len();
    let game_stores = config.game_stores.len();
    let addr = SocketAddr::new(args.bind, args.port);
    let check = args.check;
    solvo_web::run(addr, config, check, |bound| {
        if check {
            out!("configuration fine; would serve http://{bound}/ ({games} WTHOR games, {game_stores} game stores)");
        } else {
            out!("solvo serving http://{bound}/ ({games} WTHOR games); Ctrl-C stops it");
        }
    })
    .map_err(CliError)
}
