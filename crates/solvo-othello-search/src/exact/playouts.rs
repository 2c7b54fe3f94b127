//! A quick, rough value for positions too far from the end to solve at once on boards
//! without a trained evaluation (6x6 and 4x4): the mean final disc difference of
//! uniformly random games from the position. Only a first picture while the exact
//! solve runs; never exact, never used by the solver.

use solvo_core::rng::Rng;
use solvo_othello::flips::flips;
use solvo_othello::moves::legal_moves;
use solvo_othello::rules::Rules;
use solvo_othello::{Position, Square};
use std::sync::atomic::{AtomicBool, Ordering};

/// The mean final disc difference, for the side to move in `pos`, of `playouts` random
/// games from `pos` (each legal move equally likely; deterministic for `seed`), or
/// `None` when `stop` was raised before the first one ended. Stops early (with the mean
/// so far) when `stop` is raised.
#[cfg(test)]
pub fn playout_mean(pos: &Position, playouts: u32, seed: u64, stop: &AtomicBool) -> Option<f64> {
    playout_estimate(pos, playouts, seed, stop).map(|e| e.mean)
}

/// What random games from a position say of its value, with how far to trust it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayoutEstimate {
    /// The mean final disc difference for the side to move.
    pub mean: f64,
    /// The standard error of that mean (the games' standard deviation over the square
    /// root of their number; 0 for a single game or when every game ended alike): two
    /// estimates closer than a few of these are told apart by nothing but chance.
    pub std_error: f64,
    /// The games played.
    pub games: u32,
}

/// [`playout_mean`] with the standard error of the mean and the number of games played
/// (the same games, so the same mean).
pub fn playout_estimate(pos: &Position, playouts: u32, seed: u64, stop: &AtomicBool) -> Option<PlayoutEstimate> {
    let rules = Rules::new(pos.size, pos.variant);
    let mut rng = Rng::new(seed);
    let (mut sum, mut squares, mut done) = (0i64, 0i64, 0u32);
    while done < playouts.max(1) {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let (mut p, mut o, mut ours) = (pos.board.player, pos.board.opponent, true);
        loop {
            let moves = legal_moves(p, o, rules.mask);
            if moves == 0 {
                if legal_moves(o, p, rules.mask) == 0 {
                    break;
                }
                std::mem::swap(&mut p, &mut o);
                ours = !ours;
                continue;
            }
            let sq = Square::iter(moves).nth(rng.below(moves.count_ones() as usize)).expect("a move");
            let f = flips(sq.index(), p, o);
            (p, o) = (o ^ f, p ^ f ^ sq.bit());
            ours = !ours;
        }
        let score = i64::from(rules.final_score(p, o));
        let score = if ours { score } else { -score };
        sum += score;
        squares += score * score;
        done += 1;
    }
    (done > 0).then(|| {
        let n = f64::from(done);
        let mean = sum as f64 / n;
        let variance = if done > 1 { ((squares as f64 - n * mean * mean) / (n - 1.0)).max(0.0) } else { 0.0 };
        PlayoutEstimate { mean, std_error: (variance / n).sqrt(), games: done }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::{BoardSize, Variant};

    #[test]
    fn random_games_give_a_mean_within_the_board_and_a_finished_game_its_score() {
        let stop = AtomicBool::new(false);
        for size in [BoardSize::Four, BoardSize::Six] {
            let pos = Position::start(size, Variant::Normal);
            let m = playout_mean(&pos, 200, 1, &stop).unwrap();
            let max = size.squares() as f64;
            assert!(m.abs() <= max, "{m}");
            assert_eq!(playout_mean(&pos, 200, 1, &stop), Some(m), "deterministic");
        }
        stop.store(true, Ordering::Relaxed);
        assert_eq!(playout_mean(&Position::start(BoardSize::Six, Variant::Normal), 10, 1, &stop), None);
    }

    #[test]
    fn the_standard_error_is_the_spread_of_the_games_over_the_root_of_their_number() {
        let stop = AtomicBool::new(false);
        let pos = Position::start(BoardSize::Six, Variant::Normal);
        let e = playout_estimate(&pos, 400, 3, &stop).unwrap();
        assert_eq!((e.games, Some(e.mean)), (400, playout_mean(&pos, 400, 3, &stop)));
        // Random 6x6 games end anywhere from a rout to a rout: a spread of several discs.
        assert!(e.std_error > 2.0 / 20.0 && e.std_error < 36.0 / 20.0, "{e:?}");
        // Four times the games, half the error (within the sampling of the spread).
        let more = playout_estimate(&pos, 1600, 3, &stop).unwrap();
        let ratio = e.std_error / more.std_error;
        assert!((1.7..2.3).contains(&ratio), "{e:?} {more:?}");
        // One game: nothing to measure a spread with.
        assert_eq!(playout_estimate(&pos, 1, 3, &stop).unwrap().std_error, 0.0);
    }
}
