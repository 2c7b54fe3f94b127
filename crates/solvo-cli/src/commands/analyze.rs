//! `solvo analyze`: the midgame search (evaluation, alpha-beta, Multi-ProbCut) on a
//! position or on every position of an OBF file: best move, score in discs, depth and
//! selectivity reached, principal variation, nodes, time; every move's score with
//! `--all-moves`.

use crate::error::CliError;
use crate::shared::positions_of;
use crate::shared::{move_name, nps, SearchArgs};
use crate::Common;
use serde_json::json;
use solvo_othello::formats::board_string::format_position;
use solvo_othello::BoardSize;

/// Arguments of `solvo analyze`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A board string, transcript or OBF line, or the path of an OBF file.
    #[arg(allow_hyphen_values = true)]
    pub input: String,
    #[command(flatten)]
    pub search: SearchArgs,
    /// Score every legal move (each with a full window: slower).
    #[arg(long)]
    pub all_moves: bool,
}

/// Runs `solvo analyze`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let positions = positions_of(&args.input, common)?;
    if let Some((line, pos)) = positions.iter().find(|(_, p)| p.size != BoardSize::Eight) {
        return Err(CliError(format!("line {line}: the midgame search is for 8x8 boards, not {}", pos.size)));
    }
    let (mut search, limits) = args.search.searcher(common, args.all_moves)?;
    for (line, pos) in positions {
        if pos.is_game_over() {
            // Nothing to search: the result is the disc count.
            let score = pos.final_score();
            if common.json {
                out!(
                    "{}",
                    json!({"line": line, "board": format_position(&pos), "empties": pos.empties(),
                           "game_over": true, "best_move": null, "score": score, "exact": true, "pv": [], "moves": []})
                );
            } else {
                out!("{}", format_position(&pos));
                out!("game over: {score:+}");
            }
            continue;
        }
        let r = search.search(&pos, &limits).map_err(|e| CliError(format!("line {line}: {e}")))?;
        let pv: Vec<String> = r.pv.iter().map(|&m| move_name(m)).collect();
        if common.json {
            let moves: Vec<_> =
                r.move_scores.iter().map(|m| json!({"move": m.square.to_string(), "score": m.score})).collect();
            out!(
                "{}",
                json!({"line": line, "board": format_position(&pos), "empties": pos.empties(),
                       "best_move": move_name(r.best_move), "score": r.score, "depth": r.depth,
                       "selectivity": r.selectivity, "exact": r.exact, "pv": pv, "nodes": r.nodes,
                       "seconds": r.time.as_secs_f64(), "nodes_per_second": nps(&r), "stopped": r.stopped,
                       "moves": moves})
            );
        } else {
            out!("{}", format_position(&pos));
            out!(
                "best {}  score {:+.2}{}  depth {}@{}%  nodes {}  time {:.3} s  ({:.2} M nodes/s){}",
                move_name(r.best_move),
                r.score,
                if r.exact { " (exact)" } else { "" },
                r.depth,
                r.selectivity,
                r.nodes,
                r.time.as_secs_f64(),
                nps(&r) / 1e6,
                if r.stopped { "  [stopped by the time limit]" } else { "" }
            );
            out!("pv {}", pv.join(" "));
            if !r.move_scores.is_empty() {
                let all: Vec<String> = r.move_scores.iter().map(|m| format!("{}:{:+.2}", m.square, m.score)).collect();
                out!("moves {}", all.join(" "));
            }
        }
    }
    Ok(())
}
