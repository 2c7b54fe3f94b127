//! `solvo bench hard`: move quality of the midgame search on OBF files whose lines
//! score every legal move exactly (the Edax "hard" sets): per position and in total,
//! `best_rate` (share of positions where the chosen move is optimal), `mean_loss`
//! (discs lost by the chosen move against the best), `mae` (mean absolute error of
//! the reported score against the exact value), nodes and time.

use crate::error::{context, CliError};
use crate::shared::{move_name, SearchArgs};
use crate::Common;
use serde_json::json;
use solvo_othello::formats::obf::{parse_obf, ObfProblem};
use solvo_othello::formats::transcript::Ply;
use solvo_othello::BoardSize;
use std::path::PathBuf;
use std::time::Duration;

/// Arguments of `solvo bench hard`.
#[derive(clap::Args, Debug)]
pub struct HardArgs {
    /// OBF file: every line lists every legal move with its exact score.
    pub file: PathBuf,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Only the first this many positions.
    #[arg(long)]
    pub limit: Option<usize>,
}

/// The problems of an OBF file (line number, problem), each listing every legal move
/// (Edax's `--:-127;` terminators are read by the OBF parser).
pub(crate) fn read_problems(file: &std::path::Path, common: Common) -> Result<Vec<(usize, ObfProblem)>, CliError> {
    let text = crate::input_file::read_text(file)?;
    let problems = parse_obf(&text, Some(BoardSize::Eight), common.variant).map_err(context(file.display()))?;
    for (line, problem) in &problems {
        let legal = problem.position.moves().count_ones() as usize;
        let listed = problem.move_scores.iter().filter(|(m, _)| matches!(m, Ply::Move(_))).count();
        if legal == 0 || listed != legal {
            return Err(CliError(format!(
                "{} line {line}: lists {listed} of the {legal} legal moves; every legal move needs an exact score",
                file.display()
            )));
        }
    }
    if problems.is_empty() {
        return Err(CliError(format!("{}: no positions in this file", file.display())));
    }
    Ok(problems)
}

/// Runs `solvo bench hard`.
pub fn run(args: HardArgs, common: Common) -> Result<(), CliError> {
    let mut problems = read_problems(&args.file, common)?;
    if let Some(n) = args.limit {
        problems.truncate(n.max(1));
    }
    let (mut search, limits) = args.search.searcher(common, false)?;
    let (mut best_count, mut loss_sum, mut err_sum, mut nodes, mut time) = (0usize, 0i64, 0f64, 0u64, Duration::ZERO);
    for (k, (line, problem)) in problems.iter().enumerate() {
        let r = search.search(&problem.position, &limits).map_err(|e| CliError(format!("line {line}: {e}")))?;
        let best = problem.best_score().unwrap_or(0);
        let chosen = r.best_move.and_then(|m| problem.move_scores.iter().find(|(p, _)| *p == Ply::Move(m)));
        let Some(&(_, chosen_score)) = chosen else {
            return Err(CliError(format!(
                "line {line}: the search chose {}, not a listed move",
                move_name(r.best_move)
            )));
        };
        let loss = best - chosen_score;
        let err = (r.score - f64::from(best)).abs();
        best_count += usize::from(loss == 0);
        loss_sum += i64::from(loss);
        err_sum += err;
        nodes += r.nodes;
        time += r.time;
        if common.json {
            out!(
                "{}",
                json!({"n": k + 1, "line": line, "move": move_name(r.best_move), "score": r.score, "exact_best": best,
                       "move_exact": chosen_score, "loss": loss, "error": err, "depth": r.depth,
                       "selectivity": r.selectivity, "nodes": r.nodes, "seconds": r.time.as_secs_f64()})
            );
        } else {
            out!(
                "#{:<4} {:>4} {:+7.2}  best {:+3}  move {:+3}  loss {:>2}  err {:5.2}  {:>11} nodes {:8.3} s",
                k + 1,
                move_name(r.best_move),
                r.score,
                best,
                chosen_score,
                loss,
                err,
                r.nodes,
                r.time.as_secs_f64()
            );
        }
    }
    let n = problems.len() as f64;
    let secs = time.as_secs_f64();
    let (best_rate, mean_loss, mae) = (best_count as f64 / n, loss_sum as f64 / n, err_sum / n);
    let nps = nodes as f64 / secs.max(1e-9);
    if common.json {
        out!(
            "{}",
            json!({"total": true, "file": args.file.display().to_string(), "positions": problems.len(),
                   "depth": args.search.depth, "selectivity": args.search.selectivity, "threads": args.search.threads,
                   "best_rate": best_rate, "mean_loss": mean_loss, "mae": mae, "nodes": nodes, "seconds": secs,
                   "nodes_per_second": nps})
        );
    } else {
        out!(
            "total {} positions depth {}@{}%: best_rate {:.1}%  mean_loss {:.2}  mae {:.2}  nodes {}  time {:.1} s  ({:.2} M nodes/s)",
            problems.len(),
            args.search.depth,
            args.search.selectivity,
            100.0 * best_rate,
            mean_loss,
            mae,
            nodes,
            secs,
            nps / 1e6
        );
    }
    Ok(())
}
