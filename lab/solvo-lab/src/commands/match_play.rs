//! `solvo-lab match`: the product's match ([`solvo_shell::matches`]: openings, parallel
//! games, record file, statistics) with the Reversed Reversi study's players as
//! contestants beside the engine and external programs: `ab:depth=N,sort=0|1,prune=0|1,
//! end=N,weights=hand|FILE,emph=FEATURE:K` (depth-limited alpha-beta, or minimax with
//! `prune=0`, on the study's feature
//! evaluation) and `mcts:playouts=N,seed=S` (UCT with random playouts).

use crate::error::CliError;
use crate::Common;
use solvo_shell::matches::{MakeContestant, MoreContestants};
use solvo_study::features::FeatureWeights;
use solvo_study::players::{FeaturePlayer, MctsPlayer, REPORT_ENDGAME};

pub use solvo_shell::matches::Args;

/// The study's players.
const STUDY_PLAYERS: MoreContestants<'static> = MoreContestants {
    syntax: "ab:depth=N, mcts:playouts=N",
    parse: &|kind, rest, common| match kind {
        "ab" => Some(parse_feature(rest, common)),
        "mcts" => Some(parse_mcts(rest)),
        _ => None,
    },
};

/// Runs `solvo-lab match`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    solvo_shell::matches::run(args, common, &STUDY_PLAYERS)
}

/// The study's UCT player: `playouts=N` (default 10,000), `seed=S`.
fn parse_mcts(rest: &str) -> Result<MakeContestant, String> {
    let (mut playouts, mut seed) = (10_000, 1);
    for item in rest.split(',').filter(|s| !s.is_empty()) {
        match item.split_once('=') {
            Some(("playouts", v)) => playouts = crate::option_ranges::playouts(v)?.max(1),
            Some(("seed", v)) => seed = v.parse().map_err(|_| format!("seed {v:?}: not a number"))?,
            _ => return Err(format!("unknown setting {item:?} (playouts=N, seed=S)")),
        }
    }
    Ok(Box::new(move || {
        Ok(Box::new(MctsPlayer {
            playouts,
            rng: solvo_core::rng::Rng::new(seed),
            label: format!("mcts:playouts={playouts}"),
        }))
    }))
}

/// The study's alpha-beta player: `depth=N`, `sort=0|1` (pre-sorting, default on),
/// `prune=0|1` (alpha-beta cut-offs, default on; 0: plain minimax),
/// `end=N` (the disc-difference search of N plies from N empties; default the
/// report's 10, 0 for none), `weights=hand|FILE` (a tuned weight line),
/// `emph=FEATURE:FACTOR` (repeatable).
fn parse_feature(rest: &str, common: Common) -> Result<MakeContestant, String> {
    let (mut depth, mut presort, mut weights) = (4, true, FeatureWeights::hand_set(common.variant));
    let mut endgame = REPORT_ENDGAME;
    let mut prune = true;
    let mut label = Vec::new();
    for item in rest.split(',').filter(|s| !s.is_empty()) {
        match item.split_once('=') {
            Some(("depth", v)) => depth = crate::option_ranges::plies(v)?.max(1),
            Some(("sort", v)) => presort = v != "0" && v != "off",
            Some(("prune", v)) => prune = v != "0" && v != "off",
            Some(("end", v)) => endgame = crate::option_ranges::endgame_plies(v)?,
            Some(("weights", "hand")) => {}
            Some(("weights", v)) => {
                let text = crate::input_file::read_text(std::path::Path::new(v)).map_err(|e| e.0)?;
                let line = text.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
                // A tuning log line ends with the weights: take the last numbers.
                let words: Vec<&str> = line.split_whitespace().collect();
                let n = solvo_study::features::WEIGHTS;
                let tail = words.get(words.len().saturating_sub(n)..).unwrap_or(&[]).join(" ");
                weights = tail.parse().map_err(|e| format!("{v}: {e}"))?;
            }
            Some(("emph", v)) => {
                let (name, factor) = v.split_once(':').unwrap_or((v, "3"));
                let factor: i32 = factor.parse().map_err(|_| format!("emph {v:?}: expected FEATURE:FACTOR"))?;
                weights = weights.emphasised(name, factor)?;
            }
            _ => {
                return Err(format!(
                    "unknown setting {item:?} (depth=N, sort=0|1, prune=0|1, end=N, weights=hand|FILE, emph=F:K)"
                ))
            }
        }
        label.push(item.to_string());
    }
    let label = if label.is_empty() { "ab".to_string() } else { format!("ab:{}", label.join(",")) };
    Ok(Box::new(move || {
        Ok(Box::new(FeaturePlayer { weights: weights.clone(), depth, presort, prune, endgame, label: label.clone() }))
    }))
}
