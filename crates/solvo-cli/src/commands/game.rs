//! `solvo game`: the small games of solvo-games (and Othello) solved by the generic
//! solvers of solvo-search: `list`, `solve`.
//!
//! The board size is a positional `RxC` argument (`solvo game solve domineering 7x7`):
//! the global `--size` option is Othello's board size (4, 6 or 8).

use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_core::{Game, Status};
use solvo_games::{GameOptions, GameVisitor};
use solvo_othello::{BoardSize, Position, Variant};
use solvo_search::budget::Budget;
use solvo_search::grave::GraveParams;
use solvo_search::{solve_with_proofs, Algorithm, GameResult, SolveResult, SolverConfig, Verdict};
use std::time::Duration;

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
}

/// Options of one solver run.
#[derive(clap::Args, Debug, Clone)]
pub struct SolverArgs {
    /// Algorithm: ab-tt, id-ab-tt, ab-tt-mc, id-ab-tt-mc, pn2, dfpn, mcts-solver.
    #[arg(long, default_value = "ab-tt")]
    pub algo: Algorithm,
    /// Playouts of the Monte Carlo ordering search (the -mc algorithms).
    #[arg(long, default_value_t = 10_000, value_parser = crate::option_ranges::playouts, allow_negative_numbers = true)]
    pub playouts: u32,
    /// Node limit (the result is unknown when it is reached).
    #[arg(long)]
    pub nodes: Option<u64>,
    /// Time limit in seconds (the result is unknown when it is reached).
    #[arg(long, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// log2 of the number of transposition-table buckets (two entries each).
    #[arg(long, default_value_t = 22, value_parser = crate::option_ranges::table_bits, allow_negative_numbers = true)]
    pub tt_bits: u32,
    /// Random seed of the Monte Carlo searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Enhanced transposition cutoff in the alpha-beta solvers.
    #[arg(long)]
    pub etc: bool,
    /// Threshold of pn2/dfpn/mcts-solver (and of the alpha-beta solvers with
    /// --null-window): prove "value >= T" (1: "the side to move wins").
    #[arg(long, default_value_t = 1, allow_hyphen_values = true)]
    pub threshold: i32,
    #[command(flatten)]
    pub ab: AbArgs,
}

/// Options of the alpha-beta solvers only (ab-tt, id-ab-tt and their -mc forms).
#[derive(clap::Args, Debug, Clone)]
pub struct AbArgs {
    /// Replacement scheme of the table: cost (two entries a bucket, the costlier kept),
    /// two-tier (depth-preferred + always), depth (one entry, deeper kept), always (one
    /// entry, always replaced: the study's baseline with --tt-entries 1048575).
    #[arg(long, default_value = "cost")]
    pub tt_scheme: solvo_search::tt::Replacement,
    /// Entries of the table (overrides --tt-bits; the study: 1048575).
    #[arg(long, value_parser = crate::option_ranges::table_entries, allow_negative_numbers = true)]
    pub tt_entries: Option<usize>,
    /// Count look-ups that miss a position stored earlier (keeps every stored key: for
    /// measurements).
    #[arg(long)]
    pub tt_track_lost: bool,
    /// Ask only "value >= --threshold?" with a null window at the root (the study's
    /// setting) instead of the exact value.
    #[arg(long)]
    pub null_window: bool,
    /// Killer moves (two per ply).
    #[arg(long)]
    pub killers: bool,
    /// Killer moves, tried before the game's priority moves instead of after them
    /// (implies --killers; pays in misère Domineering, not in games with tactical
    /// priorities).
    #[arg(long)]
    pub killers_first: bool,
    /// The history heuristic.
    #[arg(long)]
    pub history: bool,
    /// Search threads sharing the table (lazy SMP); node counts of more than one
    /// thread vary from run to run.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// A Monte Carlo tree node orders moves by its playout counts only with more than
    /// this many playouts, else the learned policy does (the study: 100).
    #[arg(long, default_value_t = solvo_search::mc_ordering::TREE_MIN_VISITS, value_parser = crate::option_ranges::min_visits, allow_negative_numbers = true)]
    pub mc_min_visits: u32,
}

impl Default for AbArgs {
    /// The solver's own defaults ([`SolverConfig::new`]): cost-based table of --tt-bits,
    /// full window, no killers or history, one thread.
    fn default() -> Self {
        let c = SolverConfig::new(Algorithm::AbTt);
        AbArgs {
            tt_scheme: c.tt_scheme,
            tt_entries: c.tt_entries,
            tt_track_lost: c.tt_track_lost,
            null_window: c.null_window,
            killers: c.killers,
            killers_first: c.killers_first,
            history: c.history,
            threads: c.threads,
            mc_min_visits: c.mc_min_visits,
        }
    }
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

impl SolverArgs {
    /// The solver configuration these arguments describe.
    pub fn config(&self) -> Result<SolverConfig, CliError> {
        let time_limit = match self.time_limit {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
            Some(s) => return Err(CliError(format!("--time-limit: expected a positive number of seconds, got {s}"))),
        };
        let mut c = SolverConfig::new(self.algo);
        c.budget = Budget { max_nodes: self.nodes, time_limit };
        c.tt_bits = self.tt_bits;
        c.threshold = self.threshold;
        c.etc = self.etc;
        c.grave = GraveParams { playouts: self.playouts, seed: self.seed, ..GraveParams::default() };
        c.tt_scheme = self.ab.tt_scheme;
        c.tt_entries = self.ab.tt_entries;
        c.tt_track_lost = self.ab.tt_track_lost;
        c.null_window = self.ab.null_window;
        c.killers = self.ab.killers;
        c.killers_first = self.ab.killers_first;
        c.history = self.ab.history;
        c.threads = self.ab.threads;
        c.mc_min_visits = self.ab.mc_min_visits;
        Ok(c)
    }
}

/// What one solve found, ready to print.
#[derive(Clone, Debug)]
pub struct Report {
    /// The game's name and size.
    pub label: String,
    /// The algorithm.
    pub algo: Algorithm,
    /// The verdict at the root.
    pub verdict: Verdict,
    /// What the verdict proves about the game's result, from the first player's side
    /// (the same mapping for every algorithm).
    pub result: GameResult,
    /// The best or winning move, if any (debug form of the move).
    pub best_move: Option<String>,
    /// The solver's result statistics.
    pub stats: solvo_search::SolverStats,
    /// The player to move at the root (0 = first player).
    pub root_player: u8,
    /// With `--line`: the line played out from the root (debug forms of the moves,
    /// `pass` for a pass) and the nodes its solves took after the root's.
    pub line: Option<(Vec<String>, u64)>,
}

/// Solves `game` with `config` and summarises the result.
pub fn solve_game<G: Game>(game: &G, label: String, config: &SolverConfig) -> Report {
    solve_game_with_proofs(game, label, config, None)
}

/// [`solve_game`] reading and recording proven positions in `proven`.
fn solve_game_with_proofs<G: Game>(
    game: &G,
    label: String,
    config: &SolverConfig,
    proven: Option<&mut dyn solvo_search::proven::ProvenPositions>,
) -> Report {
    let r: SolveResult<G::Move> = solve_with_proofs(game, config, proven);
    report_of(game, label, config, r)
}

/// The report of result `r` of solving `game`.
fn report_of<G: Game>(game: &G, label: String, config: &SolverConfig, r: SolveResult<G::Move>) -> Report {
    let root_player = game.player_to_move();
    let result = GameResult::from_verdict(r.verdict, root_player, game.draws_possible());
    Report {
        label,
        algo: config.algorithm,
        verdict: r.verdict,
        result,
        best_move: r.best_move.map(|m| format!("{m:?}")),
        stats: r.stats,
        root_player,
        line: None,
    }
}

/// Plays `text` (moves separated by spaces or commas, each written as the game prints
/// it, case-insensitive) from `game`; the error names the first move that is not legal
/// and lists the legal ones.
pub fn play_moves<G: Game>(game: &G, text: &str) -> Result<G, CliError> {
    let mut pos = game.clone();
    for (i, token) in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).enumerate() {
        if pos.status() == Status::MustPass && token.eq_ignore_ascii_case("pass") {
            pos = pos.pass().expect("MustPass has a pass");
            continue;
        }
        let mut legal = Vec::new();
        if pos.status() == Status::ToMove {
            pos.generate_moves(&mut legal);
        }
        match legal.iter().find(|m| format!("{m:?}").eq_ignore_ascii_case(token)) {
            Some(&m) => pos = pos.play(m),
            None => {
                let names: Vec<String> = legal.iter().map(|m| format!("{m:?}")).collect();
                return Err(CliError(format!(
                    "--moves: move {} '{token}' is not legal there (legal: {})",
                    i + 1,
                    if names.is_empty() { "none, the game is over".to_string() } else { names.join(" ") }
                )));
            }
        }
    }
    Ok(pos)
}

/// In a win/loss game, a move of `pos` the store answers without a search: one that
/// ends the game won or whose position is proven lost for its side to move (the mover
/// wins); else, when every move is proven to lose, the first of them, so that the line
/// goes on where the store knows the winner's answers. `None`: the turn needs a search.
fn proven_move<G: Game>(pos: &G, store: &mut solvo_solve::proof_store::ProofStore) -> Option<G::Move> {
    use solvo_search::proven::ProvenPositions;
    use solvo_search::tt::Bound;
    if pos.max_value() != 1 {
        return None;
    }
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    let mut losing = None;
    let mut all_lose = true;
    for &m in &legal {
        let child = pos.play(m);
        let proof = match child.status() {
            Status::Over(v) => Some((v, Bound::Exact)),
            _ => store.proven(child.hash_key()),
        };
        match proof {
            Some((v, Bound::Upper | Bound::Exact)) if v <= -1 => return Some(m),
            Some((v, Bound::Lower | Bound::Exact)) if v >= 1 => losing = losing.or(Some(m)),
            _ => all_lose = false,
        }
    }
    losing.filter(|_| all_lose)
}

/// The line from `game` when every turn plays the move the solver finds best (`first`
/// at the root, already known), each turn solved with `config` and `proven`: the moves
/// and the nodes spent. A turn whose solve names no move plays its first legal move; a
/// turn the budget leaves undecided ends the line.
fn play_out<G: Game>(
    game: &G,
    first: Option<G::Move>,
    config: &SolverConfig,
    mut proven: Option<&mut solvo_solve::proof_store::ProofStore>,
) -> (Vec<String>, u64) {
    let (mut line, mut nodes, mut pos, mut next) = (Vec::new(), 0, game.clone(), first);
    loop {
        match pos.status() {
            Status::Over(_) => break,
            Status::MustPass => {
                pos = pos.pass().expect("MustPass has a pass");
                line.push("pass".to_string());
                continue;
            }
            Status::ToMove => {}
        }
        let known = match proven.as_deref_mut() {
            Some(store) if next.is_none() => proven_move(&pos, store),
            _ => None,
        };
        let m = match next.take().or(known) {
            Some(m) => m,
            None => {
                let store = proven.as_deref_mut().map(|s| s as &mut dyn solvo_search::proven::ProvenPositions);
                let r = solve_with_proofs(&pos, config, store);
                nodes += r.stats.nodes;
                if r.verdict == Verdict::Unknown {
                    break;
                }
                let mut legal = Vec::new();
                pos.generate_moves(&mut legal);
                match r.best_move.or(legal.first().copied()) {
                    Some(m) => m,
                    None => break,
                }
            }
        };
        line.push(format!("{m:?}"));
        pos = pos.play(m);
    }
    (line, nodes)
}

fn verdict_text(v: Verdict) -> String {
    match v {
        Verdict::Exact(x) => format!("value {x}"),
        Verdict::AtLeast(t) => format!("value >= {t}"),
        Verdict::Below(t) => format!("value < {t}"),
        Verdict::Unknown => "unknown (budget exhausted)".to_string(),
    }
}

/// The JSON object of a report.
pub fn report_json(r: &Report) -> serde_json::Value {
    let s = &r.stats;
    json!({
        "game": r.label,
        "algo": r.algo.name(),
        "result": r.result.code(),
        "winner": r.result.winner(),
        "verdict": verdict_text(r.verdict),
        "value": match r.verdict { Verdict::Exact(v) => Some(v), _ => None },
        "best_move": r.best_move,
        "nodes": s.nodes,
        "seconds": s.time.as_secs_f64(),
        "tt_probes": s.tt_probes,
        "tt_hits": s.tt_hits,
        "tt_cutoffs": s.tt_cutoffs,
        "tt_stores": s.tt_stores,
        "tt_overwrites": s.tt_overwrites,
        "tt_lost": s.tt_lost,
        "iterations": s.iterations,
        "playouts": s.playouts,
        "mc_nodes": s.mc_nodes,
        "mc_seconds": s.mc_time.as_secs_f64(),
        "line": r.line.as_ref().map(|(moves, _)| moves.join(" ")),
        "line_nodes": r.line.as_ref().map(|(_, n)| n),
    })
}

fn print_report(r: &Report, json: bool) {
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

/// A generic action run on a game position: the bridge from [`GameVisitor`] (and
/// Othello) to the solvers.
pub trait GameAction {
    /// What the action returns.
    type Output;
    /// Runs the action.
    fn run<G: Game>(self, game: G, label: String) -> Self::Output;
}

struct Visit<A> {
    action: A,
    label: String,
}

impl<A: GameAction> GameVisitor for Visit<A> {
    type Output = A::Output;
    fn visit<G: Game + std::fmt::Display + 'static>(self, game: G) -> A::Output {
        self.action.run(game, self.label)
    }
}

/// Builds game `name` (a catalogue game, or `othello`) on `rows x cols` and runs `action`.
pub fn with_game<A: GameAction>(
    name: &str,
    rows: usize,
    cols: usize,
    options: &GameOptions,
    action: A,
) -> Result<A::Output, CliError> {
    let label = format!("{name} {rows}x{cols}");
    if name.eq_ignore_ascii_case("othello") {
        let size = match (rows, cols) {
            (4, 4) => BoardSize::Four,
            (6, 6) => BoardSize::Six,
            (8, 8) => BoardSize::Eight,
            _ => return Err(CliError(format!("othello: unsupported size {rows}x{cols} (expected 4x4, 6x6 or 8x8)"))),
        };
        return Ok(action.run(Position::start(size, Variant::Normal), label));
    }
    solvo_games::dispatch_with(name, rows, cols, options, Visit { action, label }).map_err(|e| CliError(e.to_string()))
}

/// The size `RxC` given, or the game's default.
pub fn size_of(name: &str, board: Option<&str>) -> Result<(usize, usize), CliError> {
    match board {
        Some(text) => solvo_games::parse_size(text).map_err(|e| CliError(format!("board size: {e}"))),
        None if name.eq_ignore_ascii_case("othello") => Ok((8, 8)),
        None => solvo_games::find(name)
            .map(|s| (s.default_rows, s.default_cols))
            .ok_or_else(|| CliError(format!("unknown game '{name}' (see `solvo game list`)"))),
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
    type Output = Result<Report, CliError>;
    fn run<G: Game>(mut self, game: G, label: String) -> Result<Report, CliError> {
        let g = solvo_core::random_opening(&game, self.opening, self.seed);
        let label =
            if self.opening > 0 { format!("{label} (opening {} seed {})", self.opening, self.seed) } else { label };
        let (g, label) = match &self.moves {
            Some(text) => (play_moves(&g, text)?, format!("{label} after {}", text.trim())),
            None => (g, label),
        };
        let proven = self.store.as_mut().map(|s| s as &mut dyn solvo_search::proven::ProvenPositions);
        let r: SolveResult<G::Move> = solve_with_proofs(&g, &self.config, proven);
        let first = r.best_move;
        let mut report = report_of(&g, label, &self.config, r);
        if self.line && report.verdict != Verdict::Unknown {
            report.line = Some(play_out(&g, first, &self.config, self.store.as_mut()));
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

/// Options that only choose the order of the moves: a proof holds whatever order found
/// it, so they are not part of a proof store's identity (a solve may resume with
/// another order).
const ORDERING_ONLY_OPTIONS: [&str; 1] = ["ordering"];

/// What a proof store records as its game: name, size, rule options (those that can
/// change a value or a key, not [`ORDERING_ONLY_OPTIONS`]) and key scheme.
fn store_identity(name: &str, rows: usize, cols: usize, options: &GameOptions) -> String {
    let mut pairs: Vec<String> = options
        .pairs()
        .iter()
        .filter(|(k, _)| !ORDERING_ONLY_OPTIONS.contains(&k.as_str()))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    pairs.sort();
    format!("{} {rows}x{cols} [{}] keys-1", name.to_ascii_lowercase(), pairs.join(","))
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
        What::Solve(a) => {
            let (rows, cols) = size_of(&a.game, a.board.as_deref())?;
            let options = parse_options(&a.options)?;
            let store = match &a.store {
                Some(path) => Some(open_proof_store(
                    path,
                    &store_identity(&a.game, rows, cols, &options),
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A store made with one move order is the same store for another; a rule or key
    /// option makes another store.
    #[test]
    fn store_identity_ignores_ordering_only_options() {
        let with = |pairs: &[&str]| parse_options(&pairs.iter().map(|p| p.to_string()).collect::<Vec<_>>()).unwrap();
        let plain = store_identity("knightthrough", 7, 6, &with(&[]));
        assert_eq!(store_identity("Knightthrough", 7, 6, &with(&["ordering=safety"])), plain);
        assert_ne!(store_identity("knightthrough", 7, 6, &with(&["symmetry=off"])), plain);
        assert_ne!(store_identity("knightthrough", 7, 6, &with(&["ordering=safety", "tactics=off"])), plain);
        assert_ne!(store_identity("knightthrough", 6, 7, &with(&[])), plain);
    }
}
