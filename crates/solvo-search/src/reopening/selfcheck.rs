//! The self-check of a semi-strong store: the perfect player (the store's designated
//! moves, nothing solved on demand) against every reply, from random positions of the
//! solution. Along every game the player's value (the stored exact value from its side)
//! must never drop, each of its moves must keep it exactly, every position where it is
//! to move must be in the store, and the final result must be at least the value it had
//! when the check started: the store is a semi-strong solution, not a weak one.

use super::keys::lookup;
use super::{moves_of, play_folded, Next, SemiError, SolutionStore};
use solvo_core::rng::Rng;
use solvo_core::Game;

/// What a self-check saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Starting positions drawn.
    pub samples: u64,
    /// Games played to the end.
    pub games: u64,
    /// Player moves made (each position of the tree once per game through it).
    pub player_moves: u64,
    /// Opponent moves made.
    pub opponent_moves: u64,
    /// Opponent moves that raised the player's value (mistakes punished).
    pub mistakes: u64,
    /// Games cut short by the per-sample game limit.
    pub truncated: u64,
    /// What went wrong (empty when the check passes).
    pub failures: Vec<String>,
}

/// Draws `samples` positions of the solution of `root` (random games in which one side,
/// drawn at random, plays the store's moves and the other random moves, each cut at a
/// ply drawn uniformly among those its game reaches before its end, so no sample falls
/// past the end), then from each plays the stored player against every reply of the
/// other side (at most `max_games` games per sample): a check of `samples > 0` plays at
/// least one game unless `root` is over or it fails. Errors: the store's.
pub fn self_check<G: Game>(
    root: &G,
    store: &mut dyn SolutionStore,
    samples: u64,
    seed: u64,
    max_games: u64,
) -> Result<CheckReport, SemiError> {
    let mut rng = Rng::new(seed);
    let mut report = CheckReport::default();
    for _ in 0..samples {
        report.samples += 1;
        let side = rng.below(2) as u8;
        // The random walk to the end (the store's move for `side`, a random one for
        // the other), keeping every position on it where someone can move: the sample
        // is one of them, so it is drawn from the plies this game reaches.
        let mut reached = Vec::new();
        let mut g = root.clone();
        while let Some((h, _)) = super::fold_passes(g)? {
            let mv = if h.player_to_move() == side {
                lookup(store, &h)?.and_then(|r| r.best)
            } else {
                Some(rng.pick(&moves_of(&h)))
            };
            reached.push(h.clone());
            let Some(mv) = mv else { break };
            g = h.play(mv);
        }
        if reached.is_empty() {
            continue;
        }
        let start = reached.swap_remove(rng.below(reached.len()));
        let engine = side;
        let mut left = max_games;
        let value = match stored_value(store, &start)? {
            Some(v) => v,
            None => {
                report.failures.push(format!("sample position {:016x} is not in the store", start.hash_key()));
                continue;
            }
        };
        let v = if engine == start.player_to_move() { value } else { -value };
        walk(store, &start, engine, v, v, &mut left, &mut report)?;
    }
    Ok(report)
}

/// The exact stored value of `g`, if any.
fn stored_value<G: Game>(store: &mut dyn SolutionStore, g: &G) -> Result<Option<i32>, SemiError> {
    Ok(lookup(store, g)?.and_then(|r| r.value()))
}

/// Plays on from `g` (its side to move can move), the player being `engine`, whose value
/// here is `v` (from its side) and was `start` at the sample.
fn walk<G: Game>(
    store: &mut dyn SolutionStore,
    g: &G,
    engine: u8,
    v: i32,
    start: i32,
    left: &mut u64,
    report: &mut CheckReport,
) -> Result<(), SemiError> {
    if *left == 0 {
        report.truncated += 1;
        return Ok(());
    }
    let key = g.hash_key();
    let (moves, is_engine) = if g.player_to_move() == engine {
        let rec = lookup(store, g)?;
        let Some(m) = rec.filter(|r| r.has_designated_move()).and_then(|r| r.best) else {
            report.failures.push(format!("player position {key:016x} has no designated move in the store"));
            return Ok(());
        };
        report.player_moves += 1;
        (vec![m], true)
    } else {
        (moves_of(g), false)
    };
    for m in moves {
        if !is_engine {
            report.opponent_moves += 1;
        }
        match play_folded(g, m)? {
            Next::End(x) => {
                // x is for the mover; the player's result:
                let result = if is_engine { x } else { -x };
                report.games += 1;
                *left = left.saturating_sub(1);
                if (is_engine && result != v) || result < v {
                    report
                        .failures
                        .push(format!("position {key:016x}: move {m:?} ends the game at {result}, value was {v}"));
                }
                if result < start {
                    report.failures.push(format!("a game from a sample worth {start} ended at {result}"));
                }
            }
            Next::Position { game, .. } => {
                let Some(w) = stored_value(store, &game)? else {
                    report.failures.push(format!("position {:016x} after {m:?} is not in the store", game.hash_key()));
                    continue;
                };
                let nv = if game.player_to_move() == engine { w } else { -w };
                if is_engine && nv != v {
                    report
                        .failures
                        .push(format!("position {key:016x}: the player's move {m:?} changes its value {v} -> {nv}"));
                }
                if nv < v {
                    report
                        .failures
                        .push(format!("position {key:016x}: reply {m:?} drops the player's value {v} -> {nv}"));
                }
                if !is_engine && nv > v {
                    report.mistakes += 1;
                }
                walk(store, &game, engine, nv, start, left, report)?;
            }
        }
        if *left == 0 {
            break;
        }
    }
    Ok(())
}
