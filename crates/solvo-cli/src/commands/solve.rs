//! `solvo solve`: exact values of positions (board, transcript, OBF line or file).

use crate::error::{context, CliError};
use crate::input::parse_input;
use crate::shared::{
    apply_tune, describe, options, ordering_eval, parse_tune, parse_window, result_move, solve_with_progress,
    table_mib_for,
};
use crate::Common;
use serde_json::{json, Value};
use solvo_othello::formats::board_string::format_position;
use solvo_othello::formats::obf::{parse_obf, ObfProblem};
use solvo_othello::Position;
use solvo_othello_search::{SolveResult, Window};
use std::time::Duration;

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
    /// `table_mib_for`: 8 MiB up to 18 empties, doubling per empty, 128 MiB from 22).
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
    pub ladder: crate::shared::LadderArgs,
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
        "best_move": result_move(r, pos.size.squares() as i32).1.map(|m| m.to_string()),
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
    // The ladder first: it checks that both tables fit before either is made.
    let ladder = args.ladder.ladder(args.threads, args.eval_file.as_deref(), common)?;
    let mut opts = options(args.threads, hash_mb, args.window)?;
    opts.time_limit = args.time_limit.map(Duration::from_secs_f64);
    opts.node_budget = args.node_limit.unwrap_or(u64::MAX);
    apply_tune(&mut opts, &args.tune)?;
    opts.eval = ordering_eval(args.eval_file.as_deref(), common)?;
    opts.mc_playouts = args.mc_playouts;
    opts.ladder = std::sync::Arc::new(ladder);
    let mut mismatches = 0;
    for (line, problem, pos) in &problems {
        let r = solve_with_progress(pos, &opts, args.quiet || common.json);
        let full = opts.window == Window::FULL && r.score().is_some();
        let check = if full { problem.as_ref().and_then(|p| p.check(r.score(), r.best_move)) } else { None };
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
            let (what, mv) = result_move(&r, max);
            out!(
                "{}{} score {}  {what} {}  pv {}",
                if problems.len() > 1 { format!("#{line:<3} ") } else { String::new() },
                format_position(pos),
                describe(&r, max),
                mv.map_or("--".to_string(), |m| m.to_string()),
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
                    let moves: Vec<String> = p.best_moves().iter().map(|m| m.to_string()).collect();
                    let score = p.best_score().map_or_else(|| "no score".to_string(), |s| format!("{s:+}"));
                    if moves.is_empty() {
                        out!("     MISMATCH: the file says {score}");
                    } else {
                        out!("     MISMATCH: the file says {score} with {}", moves.join(" "));
                    }
                }
            }
        }
    }
    if mismatches > 0 {
        return Err(CliError(format!("{mismatches} position(s) disagree with the scores in the file")));
    }
    Ok(())
}
