//! The generic game solvers' options and reports, shared by `solvo game` and the lab's
//! `solvo-lab bench games`: the solver's command-line options ([`SolverArgs`],
//! [`AbArgs`]), one solve summarised ([`GameReport`], [`solve_game`], [`report_json`]), and
//! the bridge from a game's name and size to the solvers ([`GameAction`], [`with_game`],
//! [`size_of`]).

use crate::error::CliError;
use serde_json::json;
use solvo_core::Game;
use solvo_games::{GameOptions, GameVisitor};
use solvo_othello::{BoardSize, Position, Variant};
use solvo_search::budget::Budget;
use solvo_search::grave::GraveParams;
use solvo_search::{solve_with_proofs, Algorithm, GameResult, SolverAnswer, SolverConfig, Verdict};
use std::time::Duration;

/// Options of one solver run.
#[derive(clap::Args, Debug, Clone)]
pub struct SolverArgs {
    /// Algorithm: ab-tt, id-ab-tt, ab-tt-mc, id-ab-tt-mc, pn2, dfpn, dfpn-mc, mcts-solver,
    /// sb-mcts (score-bounded MCTS: exact values), pp (product propagation).
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
    /// Threshold of pn2/dfpn/dfpn-mc/mcts-solver/pp (and of the alpha-beta solvers with
    /// --null-window): prove "value >= T" (1: "the side to move wins").
    #[arg(long, default_value_t = 1, allow_hyphen_values = true)]
    pub threshold: i32,
    /// The alpha-beta solvers' own options.
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

impl SolverArgs {
    /// The solver configuration these arguments describe.
    pub fn config(&self) -> Result<SolverConfig, CliError> {
        let time_limit = match self.time_limit {
            None => None,
            Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
            Some(s) => return Err(CliError(format!("--time-limit: expected a positive number of seconds, got {s}"))),
        };
        let mut c = SolverConfig::new(self.algo);
        c.budget = Budget { max_nodes: self.nodes, time_limit, stop: None };
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
pub struct GameReport {
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
pub fn solve_game<G: Game>(game: &G, label: String, config: &SolverConfig) -> GameReport {
    solve_game_with_proofs(game, label, config, None)
}

/// [`solve_game`] reading and recording proven positions in `proven`.
pub fn solve_game_with_proofs<G: Game>(
    game: &G,
    label: String,
    config: &SolverConfig,
    proven: Option<&mut dyn solvo_search::proven::ProvenPositions>,
) -> GameReport {
    let r: SolverAnswer<G::Move> = solve_with_proofs(game, config, proven);
    report_of(game, label, config, r)
}

/// The report of result `r` of solving `game`.
pub fn report_of<G: Game>(game: &G, label: String, config: &SolverConfig, r: SolverAnswer<G::Move>) -> GameReport {
    let root_player = game.player_to_move();
    let result = GameResult::from_verdict(r.verdict, root_player, game.draws_possible());
    GameReport {
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

/// A verdict in words: `value 3`, `value >= 1`, `value < 1`, or `unknown (budget
/// exhausted)`.
pub fn verdict_text(v: Verdict) -> String {
    match v {
        Verdict::Exact(x) => format!("value {x}"),
        Verdict::AtLeast(t) => format!("value >= {t}"),
        Verdict::Below(t) => format!("value < {t}"),
        Verdict::Unknown => "unknown (budget exhausted)".to_string(),
    }
}

/// The JSON object of a report.
pub fn report_json(r: &GameReport) -> serde_json::Value {
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
