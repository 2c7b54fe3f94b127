//! `solvo game semi-strong`: semi-strong solutions of the catalogue's games by the
//! generic reopening alpha-beta (`solvo_search::reopening`) in a store on disk
//! (`solvo_solve::game_store`): `build`, `query`, `verify`, `count`, `play`.
//! Othello has its own, faster commands (`solvo solution semi-strong`, ...).

use super::game::{parse_options, play_moves};
use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_core::Game;
use solvo_games::{GameOptions, GameVisitor};
use solvo_search::grave::GraveParams;
use solvo_search::mc_ordering::McOrdering;
use solvo_search::proven::ProvenPositions;
use solvo_search::reopening::count::{count_exhaustive, count_visited, Learned};
use solvo_search::reopening::query::answer;
use solvo_search::reopening::selfcheck::self_check;
use solvo_search::reopening::verify::{verify_resumable, FileCheckpoint};
use solvo_search::reopening::{semi_strong_lanes, McOracle, SemiConfig, SemiError, SolutionStore, SolverOracle};
use solvo_search::tt::Bound;
use solvo_search::Budget;
use solvo_shell::games::size_of;
use solvo_solve::game_store::{GameStore, META_ROOT_VALUE};
use solvo_solve::proof_store::ProofStore;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Arguments of `solvo game semi-strong`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

/// The `game semi-strong` subcommands.
#[derive(clap::Subcommand, Debug)]
pub enum What {
    /// Build (or resume) the semi-strong solution of a game from its start into a store:
    /// kill it at any time, rerun the same command to resume.
    Build(Target),
    /// The value and best move of a position (the start, or after --moves): from the
    /// store, or solved when the store does not hold it.
    Query(QueryArgs),
    /// Check a store ply by ply from the start (every required position exact, its
    /// designated move right, the other moves' bounds proved again): 0 violations
    /// means the store is a semi-strong solution.
    Verify(VerifyArgs),
    /// Count the unique positions plain alpha-beta, reopening alpha-beta and the rules
    /// (exhaustive) visit, per ply (as the published Table 3); no store.
    Count(CountArgs),
    /// Play against the perfect player of a store in the terminal.
    Play(PlayArgs),
}

/// The game and the store.
#[derive(clap::Args, Debug, Clone)]
pub struct Target {
    /// The game (see `solvo game list`).
    pub game: String,
    /// Board size RxC; default: the game's default size.
    pub board: Option<String>,
    /// Rule options key=value (see `solvo game list`). The value-preserving shortcuts
    /// that declare positions decided (Domineering's bounds, the tactics of
    /// Breakthrough, Knightthrough and Atarigo) end games early: with them on, the
    /// solution covers the games up to where they decide.
    #[arg(long = "option", value_name = "KEY=VALUE")]
    pub options: Vec<String>,
    /// The store (default: data/semi-<game>-<RxC>.redb).
    #[arg(long, value_name = "FILE")]
    pub store: Option<PathBuf>,
    /// log2 of the solver table's buckets (two entries each).
    #[arg(long, default_value_t = 20, value_parser = crate::option_ranges::table_bits, allow_negative_numbers = true)]
    pub tt_bits: u32,
    /// build: a proof store (as `solvo game solve --store`) the walk's solver reads and
    /// records proven positions in, shared by the lanes: a build killed inside a long
    /// solve resumes that solve from its proofs.
    #[arg(long, value_name = "FILE")]
    pub proofs: Option<PathBuf>,
    /// Threads. build: walk lanes, each with a one-thread solver over the shared table
    /// (they split the tree's subtrees); query and verify: the solver's threads (lazy
    /// SMP over its table).
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// build: the walk's solver with the enhanced transposition cutoff (as `solvo game
    /// solve --etc`; costs change, never values).
    #[arg(long)]
    pub etc: bool,
    /// build: order the walk's solver's moves by a Monte Carlo search of this many
    /// playouts from the start, learned once (as `--algo ab-tt-mc`); 0: no such ordering.
    #[arg(long, default_value_t = 0)]
    pub playouts: u32,
    /// build: commit the records found at least this often, in seconds (a kill loses
    /// at most this much work; each commit is a durable write).
    #[arg(long, default_value_t = 3.0, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true)]
    pub commit_every: f64,
}

/// Arguments of `query`.
#[derive(clap::Args, Debug)]
pub struct QueryArgs {
    #[command(flatten)]
    pub target: Target,
    /// Play these moves from the start first (as the game prints them).
    #[arg(long, value_name = "MOVES")]
    pub moves: Option<String>,
}

/// Arguments of `verify`.
#[derive(clap::Args, Debug)]
pub struct VerifyArgs {
    #[command(flatten)]
    pub target: Target,
    /// Do not prove the stored bounds again (faster; then only the exact records and
    /// their relations are checked).
    #[arg(long)]
    pub trust_bounds: bool,
    /// Also run the self-check: this many random positions of the solution, the
    /// store's player against every reply from each, at most 2,000 games from each
    /// (0: none).
    #[arg(long, default_value_t = 200, value_parser = self_check_samples, allow_negative_numbers = true)]
    pub self_check: u64,
    /// Seed of the self-check's positions.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// The verify's progress, saved after every ply (default: the store's path with
    /// `.verify` added; removed when the verify finishes): a verify stopped at any
    /// point and rerun with the same command resumes at the ply it was checking.
    #[arg(long, value_name = "FILE")]
    pub checkpoint: Option<PathBuf>,
}

/// Arguments of `count`.
#[derive(clap::Args, Debug)]
pub struct CountArgs {
    #[command(flatten)]
    pub target: Target,
    /// Stop counting the positions the rules reach before more than this many.
    #[arg(long, default_value_t = 20_000_000, value_parser = max_positions, allow_negative_numbers = true)]
    pub max_positions: u64,
}

/// Arguments of `play`.
#[derive(clap::Args, Debug)]
pub struct PlayArgs {
    #[command(flatten)]
    pub target: Target,
    /// Which side you play: first or second.
    #[arg(long, default_value = "first")]
    pub human: String,
}

/// Self-check positions: 0 to 1,000,000.
fn self_check_samples(text: &str) -> Result<u64, String> {
    crate::option_ranges::in_range(text, 0, 1_000_000)
}

/// Positions the exhaustive count may hold (in memory): 1 to 10^10.
fn max_positions(text: &str) -> Result<u64, String> {
    crate::option_ranges::in_range(text, 1, 10_000_000_000)
}

/// The store file of a target.
fn store_path(t: &Target, rows: usize, cols: usize) -> PathBuf {
    t.store.clone().unwrap_or_else(|| PathBuf::from(format!("data/semi-{}-{rows}x{cols}.redb", t.game.to_lowercase())))
}

/// What a store records as its game.
fn identity(t: &Target, rows: usize, cols: usize, options: &GameOptions) -> String {
    solvo_games::semi_strong_identity(&t.game, rows, cols, options)
}

/// One proof store behind the solvers of every lane.
struct SharedProofs(Arc<Mutex<ProofStore>>);

impl ProvenPositions for SharedProofs {
    fn proven(&mut self, key: u64) -> Option<(i32, Bound)> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).proven(key)
    }
    fn record(&mut self, key: u64, value: i32, bound: Bound, nodes: u64) {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).record(key, value, bound, nodes)
    }
    fn checkpoint(&mut self, nodes: u64) -> bool {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).checkpoint(nodes)
    }
}

fn semi_err(e: SemiError) -> CliError {
    CliError(e.to_string())
}

fn open_store(path: &Path, identity: &str, max: i32, create: bool) -> Result<GameStore, CliError> {
    if !create && !path.exists() {
        return Err(CliError(format!(
            "--store {}: no such file (build it with `solvo game semi-strong build`)",
            path.display()
        )));
    }
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| CliError(format!("--store {}: {e}", path.display())))?;
    }
    GameStore::open(path, identity, max).map_err(|e| CliError(format!("--store {}: {e}", path.display())))
}

fn oracle(t: &Target) -> SolverOracle {
    SolverOracle::new(t.tt_bits, t.threads, Budget::UNLIMITED)
}

/// Runs `solvo game semi-strong`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let target = match &args.what {
        What::Build(t) => t,
        What::Query(a) => &a.target,
        What::Verify(a) => &a.target,
        What::Count(a) => &a.target,
        What::Play(a) => &a.target,
    }
    .clone();
    if target.game.eq_ignore_ascii_case("othello") {
        return Err(CliError(
            "othello has its own semi-strong commands: solvo solution semi-strong / query / verify, solvo play --store"
                .into(),
        ));
    }
    let (rows, cols) = size_of(&target.game, target.board.as_deref())?;
    let options = parse_options(&target.options)?;
    let action = Action { what: args.what, common, rows, cols, options: options.clone() };
    solvo_games::dispatch_with(&target.game, rows, cols, &options, action).map_err(|e| CliError(e.to_string()))?
}

struct Action {
    what: What,
    common: Common,
    rows: usize,
    cols: usize,
    options: GameOptions,
}

impl GameVisitor for Action {
    type Output = Result<(), CliError>;
    fn visit<G: Game + std::fmt::Display + 'static>(self, root: G) -> Result<(), CliError> {
        if root.encode().is_none() {
            return Err(semi_err(SemiError::NoEncoding));
        }
        let json = self.common.json;
        let (rows, cols) = (self.rows, self.cols);
        let label = |t: &Target| format!("{} {rows}x{cols}", t.game.to_lowercase());
        match self.what {
            What::Build(t) => {
                let identities = (
                    identity(&t, rows, cols, &self.options),
                    solvo_games::proof_store_identity(&t.game, rows, cols, &self.options),
                );
                build(&root, &t, &label(&t), identities, store_path(&t, rows, cols), json)
            }
            What::Query(a) => {
                let t = &a.target;
                let path = store_path(t, rows, cols);
                let mut store = open_store(&path, &identity(t, rows, cols, &self.options), root.max_value(), false)?;
                let g = match &a.moves {
                    Some(m) => play_moves(&root, m)?,
                    None => root.clone(),
                };
                let start = Instant::now();
                let r = answer(Some(&mut store as &mut dyn SolutionStore), &mut oracle(t), &g).map_err(semi_err)?;
                let best = r.best_move.as_ref().map(solvo_games::move_name::<G>);
                if json {
                    out!(
                        "{}",
                        json!({"game": label(t), "moves": a.moves, "value": r.value, "best_move": best, "passed": r.passed, "source": r.source, "seconds": start.elapsed().as_secs_f64()})
                    );
                } else {
                    out!("{g}");
                    out!(
                        "value {:+} for the side to move; best move {}; from {}",
                        r.value,
                        best.as_deref().unwrap_or("-"),
                        r.source
                    );
                }
                Ok(())
            }
            What::Verify(a) => {
                let t = &a.target;
                let path = store_path(t, rows, cols);
                let mut store = open_store(&path, &identity(t, rows, cols, &self.options), root.max_value(), false)?;
                let mut o = oracle(t);
                let start = Instant::now();
                let mut layer_line = |ply: usize, l: &solvo_search::reopening::verify::LayerReport| {
                    if !json {
                        eprintln!(
                            "ply {ply:>3}: {} positions (P {}, A' {}, P' {}), {} bounds, {} violations",
                            l.checked, l.p, l.a_prime, l.p_prime, l.bounds, l.violations
                        );
                    }
                };
                let oracle_ref: Option<&mut dyn solvo_search::reopening::Oracle<G>> =
                    if a.trust_bounds { None } else { Some(&mut o) };
                let records = store.len().map_err(semi_err)?;
                let cp_path = a.checkpoint.clone().unwrap_or_else(|| {
                    let mut p = path.as_os_str().to_owned();
                    p.push(".verify");
                    PathBuf::from(p)
                });
                let cp_identity = format!(
                    "{}; {records} records; bounds {}",
                    identity(t, rows, cols, &self.options),
                    if a.trust_bounds { "trusted" } else { "proved again" }
                );
                if cp_path.exists() && !json {
                    eprintln!("resuming from {}", cp_path.display());
                }
                let mut cp = FileCheckpoint::new(&cp_path, cp_identity);
                let report = verify_resumable(&root, &mut store, oracle_ref, 20, &mut layer_line, Some(&mut cp))
                    .map_err(semi_err)?;
                let check = if a.self_check > 0 {
                    let c = self_check(&root, &mut store, a.self_check, a.seed, 2_000).map_err(semi_err)?;
                    if c.games == 0 && c.failures.is_empty() {
                        return Err(CliError(format!(
                            "--self-check {}: {} positions drawn but 0 games played, so nothing was checked",
                            a.self_check, c.samples
                        )));
                    }
                    Some(c)
                } else {
                    None
                };
                cp.remove().map_err(semi_err)?;
                let violations = report.violations() + check.as_ref().map_or(0, |c| c.failures.len() as u64);
                if json {
                    out!(
                        "{}",
                        json!({"game": label(t), "store": path, "value": report.value, "checked": report.checked(), "reproved_bounds": report.reproved,
                               "violations": report.violations(), "first": report.first,
                               "self_check": check.as_ref().map(|c| json!({"samples": c.samples, "games": c.games, "player_moves": c.player_moves, "opponent_moves": c.opponent_moves, "mistakes": c.mistakes, "truncated": c.truncated, "failures": c.failures})),
                               "seconds": start.elapsed().as_secs_f64()})
                    );
                } else {
                    out!(
                        "{}: {} positions checked in {} plies, {} bounds proved again, {} violations ({:.1} s)",
                        label(t),
                        report.checked(),
                        report.layers.len(),
                        report.reproved,
                        report.violations(),
                        start.elapsed().as_secs_f64()
                    );
                    for f in &report.first {
                        out!("  {f}");
                    }
                    if let Some(c) = &check {
                        out!(
                            "self-check: {} positions, {} games against every reply, {} player moves, {} opponent moves ({} mistakes punished), {} failures",
                            c.samples, c.games, c.player_moves, c.opponent_moves, c.mistakes, c.failures.len()
                        );
                        for f in c.failures.iter().take(20) {
                            out!("  {f}");
                        }
                    }
                }
                if violations > 0 {
                    return Err(CliError(format!("{violations} violations: the store is not a semi-strong solution")));
                }
                Ok(())
            }
            What::Count(a) => count(&root, &a, &label(&a.target), json),
            What::Play(a) => {
                play(&root, &a, &identity(&a.target, rows, cols, &self.options), store_path(&a.target, rows, cols))
            }
        }
    }
}

fn build<G: Game>(
    root: &G,
    t: &Target,
    label: &str,
    (identity, proof_identity): (String, String),
    path: PathBuf,
    json: bool,
) -> Result<(), CliError> {
    let mut store = open_store(&path, &identity, root.max_value(), true)?;
    let before = store.len().map_err(semi_err)?;
    if !json {
        eprintln!("store {}: {before} records", path.display());
    }
    let proofs = match &t.proofs {
        None => None,
        Some(p) => {
            let store = solvo_solve::proof_store::ProofStore::open(p, &proof_identity)
                .map_err(|e| CliError(format!("--proofs {}: {e}", p.display())))?;
            if !json {
                eprintln!("proof store {}: {} proven positions", p.display(), store.len());
            }
            Some(Arc::new(Mutex::new(store)))
        }
    };
    let with_proofs = |o: SolverOracle| match &proofs {
        Some(p) => o.with_proofs(Box::new(SharedProofs(Arc::clone(p)))),
        None => o,
    };
    let base = SolverOracle::new(t.tt_bits, 1, Budget::UNLIMITED).with_etc(t.etc);
    let mut plain_lanes: Vec<SolverOracle> = Vec::new();
    let mut mc_lanes: Vec<McOracle<G::Move>> = Vec::new();
    if t.playouts > 0 {
        let params = GraveParams { playouts: t.playouts, ..GraveParams::default() };
        let ordering = McOrdering::learn(root, &params, Budget::UNLIMITED);
        if !json {
            eprintln!(
                "move ordering: {} playouts, {} tree nodes, {:.1} s",
                ordering.playouts,
                ordering.tree_nodes,
                ordering.time.as_secs_f64()
            );
        }
        let first = base.with_ordering(Arc::new(ordering));
        mc_lanes = (1..t.threads).map(|_| first.sibling()).collect();
        mc_lanes.insert(0, first);
        mc_lanes = mc_lanes
            .into_iter()
            .map(|o| match &proofs {
                Some(p) => o.with_proofs(Box::new(SharedProofs(Arc::clone(p)))),
                None => o,
            })
            .collect();
    } else {
        plain_lanes = (1..t.threads).map(|_| base.sibling()).collect();
        plain_lanes.insert(0, base);
        plain_lanes = plain_lanes.into_iter().map(with_proofs).collect();
    }
    let mut oracles: Vec<&mut (dyn solvo_search::reopening::Oracle<G> + Send)> = Vec::new();
    oracles.extend(plain_lanes.iter_mut().map(|o| o as &mut (dyn solvo_search::reopening::Oracle<G> + Send)));
    oracles.extend(mc_lanes.iter_mut().map(|o| o as &mut (dyn solvo_search::reopening::Oracle<G> + Send)));
    let start = Instant::now();
    let mut progress = |s: &solvo_search::reopening::SemiStats| {
        if !json && s.commits % 10 == 1 {
            let exact: u64 = s.exact.iter().sum();
            let bounds: u64 = s.bounds.iter().sum();
            eprintln!(
                "{:.0} s: {exact} exact and {bounds} bound records written, {} reused, {} solves ({} nodes), depth {}",
                s.elapsed.as_secs_f64(),
                s.reused,
                s.solves,
                s.solver_nodes,
                s.exact.len()
            );
        }
    };
    let config =
        SemiConfig { commit_every: std::time::Duration::from_secs_f64(t.commit_every), ..SemiConfig::default() };
    let out = semi_strong_lanes(root, &mut store, &mut oracles, &config, &mut progress).map_err(semi_err)?;
    let secs = start.elapsed().as_secs_f64();
    store.put_meta(META_ROOT_VALUE, out.value.to_string().as_bytes()).map_err(semi_err)?;
    let records = store.records().map_err(semi_err)?;
    let kinds = |k: u8| records.iter().filter(|(_, r)| r.kinds & k != 0).count();
    use solvo_search::reopening::kind;
    let bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
    let first_value = if root.player_to_move() == 0 { out.value } else { -out.value };
    let best = out.best_move.as_ref().map(solvo_games::move_name::<G>);
    let (p, a, pp, c, aa) =
        (kinds(kind::P), kinds(kind::A_PRIME), kinds(kind::P_PRIME), kinds(kind::C), kinds(kind::A));
    if json {
        out!(
            "{}",
            json!({"game": label, "store": path, "value_first_player": first_value, "best_move": best, "records_before": before, "records": records.len(),
                   "p": p, "a_prime": a, "p_prime": pp, "c": c, "a": aa, "store_bytes": bytes, "seconds": secs,
                   "solves": out.stats.solves, "solver_nodes": out.stats.solver_nodes, "threads": t.threads})
        );
    } else {
        out!(
            "{label}: value {first_value:+} for the first player, best move {}; {} records (P {p}, A' {a}, P' {pp}, C {c}, A {aa}), store {} bytes; {:.1} s this run, {} solves, {} solver nodes",
            best.as_deref().unwrap_or("-"),
            records.len(),
            bytes,
            secs,
            out.stats.solves,
            out.stats.solver_nodes
        );
    }
    Ok(())
}

fn count<G: Game>(root: &G, a: &CountArgs, label: &str, json: bool) -> Result<(), CliError> {
    let start = Instant::now();
    let mut o = oracle(&a.target);
    let mut learned = Learned::default();
    let (plain, v) = count_visited(root, false, &mut o, &mut learned).map_err(semi_err)?;
    let (reop, _) = count_visited(root, true, &mut o, &mut learned).map_err(semi_err)?;
    let (all, complete) = count_exhaustive(root, a.max_positions).map_err(semi_err)?;
    let plies = plain.len().max(reop.len()).max(all.len());
    let at = |c: &[u64], i: usize| c.get(i).copied().unwrap_or(0);
    let (tp, tr): (u64, u64) = (plain.iter().sum(), reop.iter().sum());
    let ta: u64 = all.iter().sum();
    if json {
        out!(
            "{}",
            json!({"game": label, "value": v, "plain": plain, "reopening": reop, "exhaustive": all, "exhaustive_complete": complete,
                   "total_plain": tp, "total_reopening": tr, "total_exhaustive": complete.then_some(ta), "ratio": tr as f64 / tp.max(1) as f64,
                   "depth": plies, "seconds": start.elapsed().as_secs_f64()})
        );
        return Ok(());
    }
    out!("{label}: value {v:+} for the side to move at the start");
    out!("{:>4} {:>14} {:>14} {:>16}", "ply", "alpha-beta", "reopening", "exhaustive");
    for i in 0..plies {
        let e = if i < all.len() { at(&all, i).to_string() } else { "-".into() };
        out!("{i:>4} {:>14} {:>14} {e:>16}", at(&plain, i), at(&reop, i));
    }
    let te = if complete { ta.to_string() } else { format!("> {ta}") };
    out!("{:>4} {tp:>14} {tr:>14} {te:>16}", "all");
    out!(
        "reopening / alpha-beta = {:.2} (the published estimate: about the search depth, here {} plies); {:.1} s",
        tr as f64 / tp.max(1) as f64,
        plies,
        start.elapsed().as_secs_f64()
    );
    Ok(())
}

fn play<G: Game + std::fmt::Display>(root: &G, a: &PlayArgs, identity: &str, path: PathBuf) -> Result<(), CliError> {
    let human = match a.human.to_ascii_lowercase().as_str() {
        "first" => 0u8,
        "second" => 1,
        other => return Err(CliError(format!("--human: expected first or second, got '{other}'"))),
    };
    let mut store = open_store(&path, identity, root.max_value(), false)?;
    let mut o = oracle(&a.target);
    let mut g = root.clone();
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    loop {
        out!("{g}");
        let r = answer(Some(&mut store as &mut dyn SolutionStore), &mut o, &g).map_err(semi_err)?;
        let Some(_) = r.best_move else {
            let mine = if g.player_to_move() == human { r.value } else { -r.value };
            out!(
                "game over: {}",
                if mine > 0 {
                    "you win"
                } else if mine < 0 {
                    "you lose"
                } else {
                    "a draw"
                }
            );
            return Ok(());
        };
        if r.passed {
            out!("pass (forced)");
            g = g.pass().expect("a forced pass");
            continue;
        }
        let yours = if g.player_to_move() == human { r.value } else { -r.value };
        out!("perfect play from here gives you {yours:+}");
        if g.player_to_move() == human {
            let mut line = String::new();
            out!("your move (or quit):");
            if input.read_line(&mut line).map_err(|e| CliError(format!("reading your move: {e}")))? == 0 {
                return Ok(());
            }
            let text = line.trim();
            if text.eq_ignore_ascii_case("quit") {
                return Ok(());
            }
            // Not `play_moves`: its errors name the option `--moves`; here the
            // message names the move typed and the legal ones.
            match solvo_games::play_text(&g, text) {
                Ok(next) => g = next,
                Err(e) => out!("{e}"),
            }
        } else {
            let m = r.best_move.expect("checked above");
            out!("perfect player: {m:?} ({})", r.source);
            g = g.play(m);
        }
    }
}
