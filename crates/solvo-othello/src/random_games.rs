//! Positions of seeded random games: test and benchmark samples that cover every stage.

use crate::board::Board;
use crate::moves::legal_moves;
use crate::square::Square;
use solvo_core::rng::Rng;

/// The first `n` positions met in 8x8 games of uniformly random legal moves (passes
/// skipped: only positions with a move to make), game after game, from `seed`. The
/// same seed always gives the same positions.
pub fn random_game_boards(n: usize, seed: u64) -> Vec<Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(n);
    while out.len() < n {
        let mut b = Board::start();
        while out.len() < n {
            let moves = legal_moves(b.player, b.opponent, u64::MAX);
            if moves == 0 {
                if legal_moves(b.opponent, b.player, u64::MAX) == 0 {
                    break;
                }
                b = b.pass();
                continue;
            }
            out.push(b);
            let squares: Vec<Square> = Square::iter(moves).collect();
            let sq = rng.pick(&squares);
            b = b.play_with_flips(sq, b.flips(sq));
        }
    }
    out
}
