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
use solvo_othello::formats::transcript::{Ply, Replay};
use solvo_othello::Color;

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

/// Samples labelled with their game's result, the way Egaroucid's accuracy table is
/// measured: every position of every finished game (not the final one) with the final
/// disc difference (empties to the winner) for its side to move. Games that stop
/// before the end (resignation, time) give nothing. Not flagged exact.
pub fn result_samples_from_games(games: &[Replay]) -> Vec<Sample> {
    let mut out = Vec::new();
    for game in games {
        let end = game.end();
        if !end.is_game_over() {
            continue;
        }
        let black = end.black_score();
        for pos in std::iter::once(&game.start).chain(&game.positions).filter(|p| !p.is_game_over()) {
            let label = if pos.side == Color::Black { black } else { -black };
            out.push(Sample { player: pos.board.player, opponent: pos.board.opponent, label: label as i8, flags: 0 });
        }
    }
    out
}

/// Mean absolute error (discs) of `weights` per number of empties on the weights'
/// board size: `(empties, count, mae)` for every empties count present, ascending.
/// Samples with more discs than the board has squares are left out (the caller checks
/// the samples' size, see [`crate::sample::check_size`]).
pub fn mae_by_empties(weights: &Weights, samples: &[Sample]) -> Vec<(u32, usize, f64)> {
    let squares = weights.size().squares();
    let mut sums = vec![(0usize, 0.0f64); squares as usize + 1];
    for s in samples.iter().filter(|s| s.discs() <= squares) {
        let e = squares - s.discs();
        let v = f64::from(weights.evaluate(s.player, s.opponent)) / f64::from(SCALE);
        sums[e as usize].0 += 1;
        sums[e as usize].1 += (v - f64::from(s.label)).abs();
    }
    sums.iter().enumerate().filter(|(_, &(n, _))| n > 0).map(|(e, &(n, sum))| (e as u32, n, sum / n as f64)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::formats::transcript::parse_transcript;
    use solvo_othello::{BoardSize, Position, Variant};

    #[test]
    fn game_results_label_every_position_of_finished_games_only() {
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        // The shortest game: Black wipes White out after 9 plies (Black +64).
        let finished = parse_transcript("f5d6c5f4e3f6g5e6e7", &start).unwrap();
        assert!(finished.end().is_game_over());
        let unfinished = parse_transcript("f5d6c3", &start).unwrap();
        let samples = result_samples_from_games(&[finished.clone(), unfinished]);
        assert_eq!(samples.len(), 9);
        for (s, pos) in samples.iter().zip(std::iter::once(&finished.start).chain(&finished.positions)) {
            let expected = if pos.side == Color::Black { 64 } else { -64 };
            assert_eq!(i32::from(s.label), expected);
            assert!(!s.is_exact());
        }
    }
}
