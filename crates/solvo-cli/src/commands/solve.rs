//! `solvo solve`: exact values of positions (board, transcript, OBF line or file).

use crate::error::{context, CliError};
use crate::input::parse_input;
use crate::Common;
use serde_json::{json, Value};
use solvo_endgame::{SolveOptions, SolveResult, Window};
use solvo_midgame::ladder::{Ladder, LadderMode, LadderOptions};
use solvo_othello::formats::board_string::format_position;
use solvo_othello::formats::obf::{parse_obf, ObfProblem};
use solvo_othello::formats::transcript::Ply;
use solvo_othello::Position;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// Arguments of `solvo solve`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A board string, transcript or OBF line, or the path of an OBF file. (A board
    /// string may start with `-`: anything that is not one of the options is read as
    /// the input.)
    #[arg(allow_hyphen_values = true)]
    pub input: String,
    /// Only values in `a..=b` matter: outside it, a bound is returned (e.g. `--window -1,1`
    /// asks only for win/draw/loss).
    #[arg(long, value_parser = parse_window, allow_hyphen_values = true)]
    pub window: Option<Window>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Transposition table size in MiB (default: sized by the problem, see
    /// `table_mib_for`: 4 MiB up to 18 empties, doubling per empty, 256 MiB from 24).
    #[arg(long, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: Option<usize>,
    /// Stop after this many seconds and report the bounds proven so far.
    #[arg(long, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true)]
    pub time_limit: Option<f64>,
    /// Stop after about this many nodes and report bounds.
    #[arg(long)]
    pub node_limit: Option<u64>,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Search switches for measurements, `name=value` (repeatable): shallow_empties,
    /// etc, stability, etc_min_empties, split_min_empties, shallow_order_empties,
    /// shallow_order_step. Every setting keeps the result exact.
    #[arg(long, value_parser = parse_tune)]
    pub tune: Vec<(String, u32)>,
    /// Monte Carlo move ordering: run this many GRAVE + PPAF playouts before the solve
    /// and use what they learn to order moves high in the tree (0: off).
    #[arg(long, default_value_t = 0, value_parser = crate::option_ranges::playouts, allow_negative_numbers = true)]
    pub mc_playouts: u32,
    /// Weight file whose evaluation orders the moves (default: the embedded weights of
    /// the variant). Values never depend on it.
    #[arg(long)]
    pub eval_file: Option<std::path::PathBuf>,
    /// The selective ladder.
    #[command(flatten)]
    pub ladder: LadderArgs,
}

/// The evaluation for move ordering chosen by `--eval-file` (`None`: the embedded one).
pub fn ordering_eval(
    file: Option<&std::path::Path>,
    common: Common,
) -> Result<Option<std::sync::Arc<solvo_eval::Weights>>, CliError> {
    file.map(|f| crate::commands::eval::load_weights(Some(f), common).map(std::sync::Arc::new)).transpose()
}

/// Options of the selective ladder before exact solves (`solve`, `bench ffo`).
#[derive(clap::Args, Debug, Clone)]
pub struct LadderArgs {
    /// Selective ladder before each exact solve: a Multi-ProbCut search on the
    /// evaluation almost to the end, whose table's moves order the exact search and
    /// whose value centres its first window (values never change). `auto`: at 73% from
    /// 18 empties on 8x8 when the weights carry Multi-ProbCut statistics (the normal
    /// weights do); a percent (73, 87, 95, 98, 99): at that level; `off`. Not used with a
    /// time or node limit. Its nodes count as ordering nodes, its time in the solve's.
    #[arg(long, default_value = "auto", value_parser = crate::option_ranges::ladder_mode)]
    pub ladder: LadderMode,
    /// The ladder's search stops this many plies before the end of the game.
    #[arg(long, default_value_t = 2, value_parser = crate::option_ranges::ladder_depth_cut, allow_negative_numbers = true)]
    pub ladder_depth_cut: u32,
    /// Half width in discs of the first window around the ladder's estimate (0: the
    /// whole window at once).
    #[arg(long, default_value_t = solvo_midgame::ladder::ASPIRATION as u32, value_parser = crate::option_ranges::aspiration, allow_negative_numbers = true)]
    pub aspiration: u32,
}

impl LadderArgs {
    /// The ladder these options describe, with the weights of `eval_file` (else the
    /// embedded ones for the variant; none when the variant has no embedded set).
    pub fn ladder(
        &self,
        hash_mb: usize,
        threads: usize,
        eval_file: Option<&std::path::Path>,
        common: Common,
    ) -> Result<Ladder, CliError> {
        let weights = match (self.ladder, eval_file) {
            (LadderMode::Off, _) => None,
            (_, Some(_)) => Some(std::sync::Arc::new(crate::commands::eval::load_weights(eval_file, common)?)),
            (_, None) => solvo_eval::embedded_shared(common.variant).ok(),
        };
        let options = LadderOptions { depth_cut: self.ladder_depth_cut, hash_mb, threads, ..LadderOptions::default() };
        Ok(Ladder { mode: self.ladder, weights, options, aspiration: self.aspiration as i32 })
    }
}

/// Parses `name=value` for `--tune` (the name is checked when applied).
pub fn parse_tune(s: &str) -> Result<(String, u32), String> {
    let (name, value) = s.split_once('=').ok_or_else(|| format!("search option {s:?}: expected name=value"))?;
    let value = value.trim().parse().map_err(|_| format!("search option {name}: value {value:?} is not a number"))?;
    let mut probe = solvo_endgame::search::SearchConfig::default();
    probe.set(name.trim(), value)?;
    Ok((name.trim().to_string(), value))
}

/// Applies `--tune` settings to `opts`.
pub fn apply_tune(opts: &mut SolveOptions, tune: &[(String, u32)]) -> Result<(), CliError> {
    for (name, value) in tune {
        opts.config.set(name, *value).map_err(CliError)?;
    }
    Ok(())
}

/// Parses `a,b` into an inclusive window.
pub fn parse_window(s: &str) -> Result<Window, String> {
    let (a, b) = s.split_once(',').ok_or_else(|| format!("window {s:?}: expected two numbers a,b"))?;
    let lo: i32 = a.trim().parse().map_err(|_| format!("window lower end {a:?} is not an integer"))?;
    let hi: i32 = b.trim().parse().map_err(|_| format!("window upper end {b:?} is not an integer"))?;
    if lo > hi || lo < -64 || hi > 64 {
        return Err(format!("window {lo},{hi}: expected -64 <= a <= b <= 64"));
    }
    Ok(Window { lo, hi })
}

/// The default table size for a solve of `empties` empty squares, in MiB: 4 MiB up to
/// 18 empties, doubling with each further empty, 256 MiB from 24 empties on (what the
/// searches of those sizes fill; a larger table only costs the time to map and touch
/// it: 0.5 s instead of 0.12 s for a 20-empty solve at 256 MiB), and never more than a
/// quarter of the machine's memory.
pub fn table_mib_for(empties: u32) -> usize {
    let mib = 4usize << empties.saturating_sub(18).min(6);
    mib.min((crate::option_ranges::physical_memory_mib() / 4).max(1))
}

/// Solver options from the command line; a table the system cannot allocate is an
/// error, not an abort.
pub fn options(threads: usize, hash_mb: usize, window: Option<Window>) -> Result<SolveOptions, CliError> {
    let mut opts = SolveOptions::try_new(hash_mb)?;
    opts.threads = threads.max(1);
    opts.window = window.unwrap_or(Window::FULL);
    Ok(opts)
}

/// Words for a result: `+18`, `>= 4`, `<= -2`, `in [-6, 10]`.
pub fn describe(r: &SolveResult, max: i32) -> String {
    match r.score() {
        Some(v) => format!("{v:+}"),
        None if r.upper >= max => format!(">= {:+}", r.lower),
        None if r.lower <= -max => format!("<= {:+}", r.upper),
        None => format!("in [{:+}, {:+}]", r.lower, r.upper),
    }
}

/// The principal variation as a transcript-like string (`a2 b1 pa c3`).
pub fn pv_string(r: &SolveResult) -> String {
    r.pv.iter().map(|m| m.map_or("pa".to_string(), |s| s.to_string())).collect::<Vec<_>>().join(" ")
}

/// A result as JSON (`score` when exact, else `lower`/`upper`).
pub fn result_json(pos: &Position, r: &SolveResult) -> Value {
    let secs = r.time.as_secs_f64();
    let mut v = json!({
        "board": format_position(pos),
        "empties": pos.empties(),
        "best_move": r.best_move.map(|m| m.to_string()),
        "pv": r.pv.iter().map(|m| m.map_or("pa".to_string(), |s| s.to_string())).collect::<Vec<_>>(),
        "nodes": r.nodes,
        "ordering_nodes": r.ordering_nodes,
        "time_ms": secs * 1e3,
        "nodes_per_second": r.nodes as f64 / secs.max(1e-9),
        "stopped": r.stopped,
        "tt": r.tt,
        "mc_playouts": r.mc_playouts,
        "mc_time_ms": r.mc_time.as_secs_f64() * 1e3,
    });
    match r.score() {
        Some(s) => v["score"] = json!(s),
        None => {
            v["lower"] = json!(r.lower);
            v["upper"] = json!(r.upper);
        }
    }
    v
}

/// Solves (climbing `ladder` first when it applies) with a progress line on stderr
/// every second (unless `quiet`).
pub fn solve_with_progress(pos: &Position, opts: &SolveOptions, ladder: &Ladder, quiet: bool) -> SolveResult {
    with_progress(opts, quiet, || ladder.solve(pos, opts).0)
}

/// Runs `work` (solves with `opts`) with a progress line on stderr every second
/// (unless `quiet`), read from `opts.progress`.
fn with_progress(opts: &SolveOptions, quiet: bool, work: impl FnOnce() -> SolveResult) -> SolveResult {
    opts.progress.store(0, Ordering::Relaxed);
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        if !quiet {
            let (done, progress) = (&done, &opts.progress);
            scope.spawn(move || {
                let start = Instant::now();
                let mut shown = false;
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    let t = start.elapsed().as_secs_f64();
                    if t >= 1.0 && ((t * 10.0) as u64).is_multiple_of(10) {
                        let n = progress.load(Ordering::Relaxed);
                        eprint!(
                            "\r  solving... {:.0} s, {:.2e} nodes, {:.1} M nodes/s   ",
                            t,
                            n as f64,
                            n as f64 / t / 1e6
                        );
                        shown = true;
                    }
                }
                if shown {
                    eprint!("\r{:100}\r", "");
                }
            });
        }
        let r = work();
        done.store(true, Ordering::Relaxed);
        r
    })
}

/// Checks a result against an OBF line's listed scores: (score ok, best move listed with that score).
pub fn check_against(problem: &ObfProblem, r: &SolveResult) -> Option<(bool, bool)> {
    let expected = problem.best_score()?;
    let score_ok = r.score() == Some(expected);
    let best = problem.best_moves();
    let move_ok = match r.best_move {
        Some(m) => best.contains(&Ply::Move(m)),
        None => best.is_empty() || best.contains(&Ply::Pass),
    };
    Some((score_ok, move_ok))
}

/// Runs `solvo solve`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let problems: Vec<(usize, Option<ObfProblem>, Position)> = if let Some(text) =
        crate::input_file::file_text_if_path(&args.input)?
    {
        let name = args.input.trim();
        let problems: Vec<_> = parse_obf(&text, common.size, common.variant)
            .map_err(context(name))?
            .into_iter()
            .map(|(line, p)| (line, Some(p.clone()), p.position))
            .collect();
        if problems.is_empty() {
            return Err(CliError(format!("{name}: no position in the file (an OBF file has one problem per line)")));
        }
        problems
    } else {
        let parsed = parse_input(&args.input, common)?;
        let problem = if args.input.contains(';') {
            Some(solvo_othello::formats::obf::parse_obf_line(args.input.trim(), common.size, common.variant)?)
        } else {
            None
        };
        vec![(1, problem, parsed.position)]
    };
    let most_empties = problems.iter().map(|(_, _, p)| p.empties()).max().unwrap_or(0);
    let hash_mb = args.hash_mb.unwrap_or_else(|| table_mib_for(most_empties));
    let mut opts = options(args.threads, hash_mb, args.window)?;
    opts.time_limit = args.time_limit.map(Duration::from_secs_f64);
    opts.node_budget = args.node_limit.unwrap_or(u64::MAX);
    apply_tune(&mut opts, &args.tune)?;
    opts.eval = ordering_eval(args.eval_file.as_deref(), common)?;
    opts.mc_playouts = args.mc_playouts;
    let ladder = args.ladder.ladder(hash_mb, args.threads, args.eval_file.as_deref(), common)?;
    let mut mismatches = 0;
    for (line, problem, pos) in &problems {
        let r = solve_with_progress(pos, &opts, &ladder, args.quiet || common.json);
        let full = opts.window == Window::FULL && r.score().is_some();
        let check = if full { problem.as_ref().and_then(|p| check_against(p, &r)) } else { None };
        if check.is_some_and(|(s, m)| !s || !m) {
            mismatches += 1;
        }
        if common.json {
            let mut v = result_json(pos, &r);
            v["line"] = json!(line);
            if let (Some(p), Some((s, m))) = (problem, check) {
                v["expected"] = json!(p.best_score());
                v["ok"] = json!(s && m);
            }
            out!("{v}");
        } else {
            let secs = r.time.as_secs_f64();
            let max = pos.size.squares() as i32;
            out!(
                "{}{} score {}  {} {}  pv {}",
                if problems.len() > 1 { format!("#{line:<3} ") } else { String::new() },
                format_position(pos),
                describe(&r, max),
                if r.stopped { "best so far" } else { "best" },
                r.best_move.map_or("--".to_string(), |m| m.to_string()),
                pv_string(&r)
            );
            out!(
                "     {} empties, {} nodes (+{} ordering), {:.3} s, {:.1} M nodes/s; TT {} probes, {} hits, {} cutoffs, {} stores, {} overwrites, {:.0}% full{}",
                pos.empties(),
                r.nodes,
                r.ordering_nodes,
                secs,
                r.nodes as f64 / secs.max(1e-9) / 1e6,
                r.tt.probes,
                r.tt.hits,
                r.tt.cutoffs,
                r.tt.stores,
                r.tt.overwrites,
                r.tt.occupancy * 100.0,
                if r.stopped { "; stopped early: bounds only" } else { "" }
            );
            if r.mc_playouts > 0 {
                out!(
                    "     Monte Carlo ordering: {} playouts in {:.3} s (included above)",
                    r.mc_playouts,
                    r.mc_time.as_secs_f64()
                );
            }
            if let (Some(p), Some((s, m))) = (problem, check) {
                if !(s && m) {
                    out!("     MISMATCH: the file says {:?} with {:?}", p.best_score(), p.best_moves());
                }
            }
        }
    }
    if mismatches > 0 {
        return Err(CliError(format!("{mismatches} position(s) disagree with the scores in the file")));
    }
    Ok(())
}
