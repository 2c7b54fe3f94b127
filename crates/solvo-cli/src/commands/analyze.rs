//! `solvo analyze`: the midgame search (evaluation, alpha-beta, Multi-ProbCut) on a
//! position or on every position of an OBF file: best move, score in discs, depth and
//! selectivity reached, principal variation, nodes, time; every move's score with
//! `--all-moves`.

use crate::commands::eval::{load_weights, positions_of};
use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_midgame::{MidgameSearch, SearchLimits, SearchResult, Selectivity};
use solvo_othello::formats::board_string::format_position;
use solvo_othello::{BoardSize, Square};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

/// Search options shared by `solvo analyze` and `solvo bench hard`.
#[derive(clap::Args, Debug, Clone)]
pub struct SearchArgs {
    /// Search depth in plies (at or beyond the empties: exact solve).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Multi-ProbCut selectivity in percent: 73, 87, 95, 98, 99 or 100 (no cuts).
    #[arg(long, default_value_t = 100, value_parser = crate::option_ranges::selectivity)]
    pub selectivity: u32,
    /// Time limit per position in seconds (the last completed iteration is reported).
    #[arg(long, value_parser = parse_seconds)]
    pub time: Option<f64>,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub threads: u64,
    /// Transposition table size in MiB (the exact solver gets another of this size).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    pub hash_mb: u64,
    /// Solve exactly from this many empties (0: only when the depth reaches the end).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub exact_from: u32,
    /// Weight file to use instead of the embedded weights of the variant.
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

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

fn parse_seconds(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|t| t.is_finite() && *t > 0.0 && *t <= 1e7)
        .ok_or_else(|| format!("{s}: expected a number of seconds greater than 0"))
}

impl SearchArgs {
    /// The searcher (weights of `--eval-file` or embedded) and the limits.
    pub fn searcher(&self, common: Common, all_moves: bool) -> Result<(MidgameSearch, SearchLimits), CliError> {
        let weights = load_weights(self.eval_file.as_deref(), common)?;
        let selectivity = Selectivity::from_percent(self.selectivity)
            .ok_or_else(|| CliError(format!("--selectivity {}: not a level", self.selectivity)))?;
        let search = MidgameSearch::new(Arc::new(weights), self.hash_mb as usize);
        if self.selectivity < 100 && !search.has_mpc() {
            eprintln!("note: the weights carry no Multi-ProbCut statistics: searching without selectivity");
        }
        let limits = SearchLimits {
            depth: self.depth,
            selectivity,
            time: self.time.map(Duration::from_secs_f64),
            threads: self.threads as usize,
            all_moves,
            exact_from: self.exact_from,
        };
        Ok((search, limits))
    }
}

/// A move's name, `pass` for none.
pub fn move_name(m: Option<Square>) -> String {
    m.map_or_else(|| "pass".to_string(), |s| s.to_string())
}

/// Nodes per second of a result.
pub fn nps(r: &SearchResult) -> f64 {
    r.nodes as f64 / r.time.as_secs_f64().max(1e-9)
}

/// Runs `solvo analyze`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let positions = positions_of(&args.input, common)?;
    if let Some((line, pos)) = positions.iter().find(|(_, p)| p.size != BoardSize::Eight) {
        return Err(CliError(format!("line {line}: the midgame search is for 8x8 boards, not {}", pos.size)));
    }
    let (mut search, limits) = args.search.searcher(common, args.all_moves)?;
    for (line, pos) in positions {
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
