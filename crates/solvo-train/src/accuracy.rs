//! Accuracy of an evaluation against exact values: mean absolute error per number of
//! empty squares.
//!
//! Exact test positions come from OBF problem files whose lines score every legal
//! move (Edax's `hard-20`/`hard-25`): the position itself (its best move score) and
//! each child after a scored move (minus that move's score). They are not taken from
//! the training games.

use crate::sample::Sample;
use solvo_eval::{Weights, SCALE};
use solvo_othello::formats::obf::ObfProblem;
use solvo_othello::formats::transcript::Ply;

/// Exact samples from OBF problems: each problem's position labelled with its best
/// listed score, and each child after a listed move with minus that move's score.
/// Problems without listed moves give nothing; a listed pass gives the passed position.
pub fn exact_samples_from_problems(problems: &[ObfProblem]) -> Vec<Sample> {
    let mut out = Vec::new();
    for p in problems {
        let Some(best) = p.best_score() else { continue };
        let b = p.position.board;
        out.push(Sample { player: b.player, opponent: b.opponent, label: best as i8, flags: Sample::EXACT });
        for &(ply, score) in &p.move_scores {
            let child = match ply {
                Ply::Move(sq) => b.play(sq, p.position.size),
                Ply::Pass => Some(b.pass()),
            };
            if let Some(c) = child {
                out.push(Sample {
                    player: c.player,
                    opponent: c.opponent,
                    label: (-score) as i8,
                    flags: Sample::EXACT,
                });
            }
        }
    }
    out
}

/// Mean absolute error (discs) of `weights` per number of empties: `(empties, count,
/// mae)` for every empties count present, ascending.
pub fn mae_by_empties(weights: &Weights, samples: &[Sample]) -> Vec<(u32, usize, f64)> {
    let mut sums = vec![(0usize, 0.0f64); 61];
    for s in samples {
        let e = 64 - s.discs();
        let v = f64::from(weights.evaluate(s.player, s.opponent)) / f64::from(SCALE);
        sums[e as usize].0 += 1;
        sums[e as usize].1 += (v - f64::from(s.label)).abs();
    }
    sums.iter().enumerate().filter(|(_, &(n, _))| n > 0).map(|(e, &(n, sum))| (e as u32, n, sum / n as f64)).collect()
}
