//! A quick, rough value for positions too far from the end to solve at once on boards
//! without a trained evaluation (6x6 and 4x4): the mean final disc difference of
//! uniformly random games from the position. Only a first picture while the exact
//! solve runs; never exact, never used by the solver.

use crate::rules::Rules;
use solvo_core::rng::Rng;
use solvo_othello::flips::flips;
use solvo_othello::moves::legal_moves;
use solvo_othello::{Position, Square};
use std::sync::atomic::{AtomicBool, Ordering};

/// The mean final disc difference, for the side to move in `pos`, of `playouts` random
/// games from `pos` (each legal move equally likely; deterministic for `seed`), or
/// `None` when `stop` was raised before the first one ended. Stops early (with the mean
/// so far) when `stop` is raised.
pub fn playout_mean(pos: &Position, playouts: u32, seed: u64, stop: &AtomicBool) -> Option<f64> {
    let rules = Rules::new(pos.size, pos.variant);
    let mut rng = Rng::new(seed);
    let (mut sum, mut done) = (0i64, 0u32);
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
        let score = rules.final_score(p, o);
        sum += i64::from(if ours { score } else { -score });
        done += 1;
    }
    (done > 0).then(|| sum as f64 / f64::from(done))
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
}
