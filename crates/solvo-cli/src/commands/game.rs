//! `solvo game`: the small games of solvo-games (and Othello) solved by the generic
//! solvers of solvo-search: `list`, `solve`, and their semi-strong solutions
//! (`semi-strong`, in [`super::game_semi`]).
//!
//! The board size is a positional `RxC` argument (`solvo game solve domineering 7x7`):
//! the global `--size` option is Othello's board size (4, 6 or 8).

use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_core::Game;
use solvo_games::GameOptions;
use solvo_search::play_out::play_out;
use solvo_search::proven::ProvenPositions;
use solvo_search::{solve_with_proofs, Algorithm, SolverAnswer, SolverConfig, Verdict};
use solvo_shell::games::{
    report_json, report_of, size_of, verdict_text, with_game, GameAction, GameReport, SolverArgs,
};

/// Arguments of `solvo game`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

/// The `game` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum What {
    /// List the games with their default sizes and rule options.
    List,
    /// Solve a game from its start (or after a random opening): the winner, a winning
    /// first move, nodes, time and transposition-table statistics.
    Solve(Box<SolveArgs>),
    /// Semi-strong solutions by reopening alpha-beta: `build`, `query`, `verify`,
    /// `count`, `play` (see `solvo game semi-strong --help`).
    SemiStrong(super::game_semi::Args),
}

/// Arguments of `solvo game solve`.
#[derive(clap::Args, Debug)]
pub struct SolveArgs {
    /// The game (see `solvo game list`), or `othello`.
    pub game: String,
    /// Board size RxC (rows x columns); default: the game's default size.
    pub board: Option<String>,
    /// Rule options key=value (see `solvo game list`).
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// Play this many random (seeded by --opening-seed) moves before solving.
    #[arg(long, default_value_t = 0)]
    pub random_opening: u32,
    /// Seed of the random opening.
    #[arg(long, default_value_t = 1)]
    pub opening_seed: u64,
    /// Play these moves (space- or comma-separated, as the solver prints them, like
    /// `e3 d3 b4`) after the random opening, then solve.
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
    /// After the solve, print a winning line: from the position solved, the move the
    /// solver finds best at every turn (each turn solved again with the same options
    /// and store) until the game ends.
    #[arg(long)]
    pub line: bool,
    /// Keep what the alpha-beta solvers prove in this file (created if missing) and
    /// reuse what it holds: a solve killed at any moment resumes without redoing its
    /// proven subtrees. Progress goes to stderr every 2 s, with a line for each first
    /// move settled (searched, or read from the store: a resumed solve plays a proven
    /// winning first move at once).
    #[arg(long, value_name = "FILE")]
    pub store: Option<std::path::PathBuf>,
    #[command(flatten)]
    pub solver: SolverArgs,
}

/// Plays `text` from `game` ([`solvo_games::play_text`]); the error names the first
/// move that is not legal and lists the legal ones.
pub fn play_moves<G: Game>(game: &G, text: &str) -> Result<G, CliError> {
    solvo_games::play_text(game, text).map_err(|e| CliError(format!("--moves: {e}")))
}

fn print_report(r: &GameReport, json: bool) {
    if json {
        out!("{}", report_json(r));
        return;
    }
    let s = &r.stats;
    out!(
        "{} with {}: {} ({} to move)",
        r.label,
        r.algo,
        verdict_text(r.verdict),
        if r.root_player == 0 { "first player" } else { "second player" }
    );
    out!("result: {}", r.result);
    if let Some(m) = &r.best_move {
        if r.verdict.side_to_move_wins() == Some(true) {
            out!("winning move: {m}");
        } else {
            out!("best move: {m} (no move wins for the side to move)");
        }
    }
    out!("nodes: {}  time: {:.3} s", s.nodes, s.time.as_secs_f64());
    out!(
        "tt: probes {} hits {} cutoffs {} stores {} overwrites {}{}",
        s.tt_probes,
        s.tt_hits,
        s.tt_cutoffs,
        s.tt_stores,
        s.tt_overwrites,
        if s.tt_lost > 0 { format!(" lost {}", s.tt_lost) } else { String::new() }
    );
    if s.iterations > 0 {
        out!("iterations: {}", s.iterations);
    }
    if s.playouts > 0 {
        out!("playouts: {}  mc tree nodes: {}  mc time: {:.3} s", s.playouts, s.mc_nodes, s.mc_time.as_secs_f64());
    }
    if let Some((moves, nodes)) = &r.line {
        out!("line ({} plies, {} more nodes): {}", moves.len(), nodes, moves.join(" "));
    }
}

struct SolveAction {
    config: SolverConfig,
    opening: u32,
    seed: u64,
    moves: Option<String>,
    line: bool,
    store: Option<solvo_solve::proof_store::ProofStore>,
}

impl GameAction for SolveAction {
    type Output = Result<GameReport, CliError>;
    fn run<G: Game>(mut self, game: G, label: String) -> Result<GameReport, CliError> {
        let g = solvo_core::random_opening(&game, self.opening, self.seed);
        let label =
            if self.opening > 0 { format!("{label} (opening {} seed {})", self.opening, self.seed) } else { label };
        let (g, label) = match &self.moves {
            Some(text) => (play_moves(&g, text)?, format!("{label} after {}", text.trim())),
            None => (g, label),
        };
        let proven = self.store.as_mut().map(|s| s as &mut dyn solvo_search::proven::ProvenPositions);
        let r: SolverAnswer<G::Move> = solve_with_proofs(&g, &self.config, proven);
        let first = r.best_move;
        let mut report = report_of(&g, label, &self.config, r);
        if self.line && report.verdict != Verdict::Unknown {
            report.line =
                Some(play_out(&g, first, &self.config, self.store.as_mut().map(|s| s as &mut dyn ProvenPositions)));
        }
        if let Some(store) = &mut self.store {
            store.flush().map_err(|e| CliError(format!("--store {}: {e}", store.path().display())))?;
        }
        Ok(report)
    }
}

/// Opens the proof store of `--store` for the game `identity`, with progress lines on
/// stderr (unless `quiet`).
fn open_proof_store(
    path: &std::path::Path,
    identity: &str,
    algo: Algorithm,
    quiet: bool,
) -> Result<solvo_solve::proof_store::ProofStore, CliError> {
    if !algo.keeps_proofs() {
        return Err(CliError(format!(
            "--store keeps the proofs of the alpha-beta solvers (ab-tt, id-ab-tt, ab-tt-mc, id-ab-tt-mc) and of dfpn, not of {algo}"
        )));
    }
    let mut store = solvo_solve::proof_store::ProofStore::open(path, identity)
        .map_err(|e| CliError(format!("--store {}: {e}", path.display())))?;
    if store.damaged() > 0 {
        eprintln!(
            "warning: {}: {} records fail their checksum and are ignored (the others are used)",
            path.display(),
            store.damaged()
        );
    }
    if !quiet {
        eprintln!("proof store {}: {} proven positions", path.display(), store.len());
        store.set_progress(Box::new(|p, elapsed| {
            let secs = elapsed.as_secs_f64().max(1e-9);
            eprintln!(
                "proving... {:.0} s, {} nodes ({:.2} M/s), {} proven positions ({} new, {} reused)",
                secs,
                p.nodes,
                p.nodes as f64 / secs / 1e6,
                p.proven,
                p.recorded,
                p.reused
            );
        }));
        store.set_root_report(Box::new(|mv, value, bound, nodes| {
            let relation = match bound {
                solvo_search::tt::Bound::Exact => "=",
                solvo_search::tt::Bound::Lower => ">=",
                solvo_search::tt::Bound::Upper => "<=",
            };
            let how = if nodes == 0 { "read from the store".to_string() } else { format!("{nodes} nodes") };
            eprintln!("root move {mv}: value {relation} {value} for the side to move ({how})");
        }));
    }
    Ok(store)
}

/// Parses `key=value` options.
pub fn parse_options(list: &[String]) -> Result<GameOptions, CliError> {
    let mut o = GameOptions::new();
    for pair in list {
        o.push_pair(pair).map_err(|e| CliError(format!("--option {pair}: {e}")))?;
    }
    Ok(o)
}

/// Runs `solvo game`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    match args.what {
        What::List => {
            for s in solvo_games::list() {
                if common.json {
                    out!(
                        "{}",
                        json!({"game": s.name, "description": s.description, "default_size": format!("{}x{}", s.default_rows, s.default_cols), "options": s.options})
                    );
                } else {
                    out!(
                        "{:<22} {}x{:<4} {}  [options: {}]",
                        s.name,
                        s.default_rows,
                        s.default_cols,
                        s.description,
                        s.options
                    );
                }
            }
            if common.json {
                out!(
                    "{}",
                    json!({"game": "othello", "description": "Othello from the start (exact disc difference)", "default_size": "8x8", "options": "none"})
                );
            } else {
                out!(
                    "{:<22} {}x{:<4} {}",
                    "othello",
                    8,
                    8,
                    "Othello from the start (exact disc difference; sizes 4x4, 6x6, 8x8)"
                );
            }
            Ok(())
        }
        What::SemiStrong(a) => super::game_semi::run(a, common),
        What::Solve(a) => {
            let (rows, cols) = size_of(&a.game, a.board.as_deref())?;
            let options = parse_options(&a.options)?;
            let store = match &a.store {
                Some(path) => Some(open_proof_store(
                    path,
                    &solvo_games::proof_store_identity(&a.game, rows, cols, &options),
                    a.solver.algo,
                    common.json,
                )?),
                None => None,
            };
            let action = SolveAction {
                config: a.solver.config()?,
                opening: a.random_opening,
                seed: a.opening_seed,
                moves: a.moves.clone(),
                line: a.line,
                store,
            };
            let report = with_game(&a.game, rows, cols, &options, action)??;
            print_report(&report, common.json);
            Ok(())
        }
    }
}
