//! Plain negamax: the exact value by full-width search, no pruning.

use solvo_core::{Game, Status};

/// The exact negamax value of `game` (from the side to move's point of view), by
/// visiting the whole game tree. Only for small trees: the reference every pruning
/// search is tested against.
pub fn negamax<G: Game>(game: &G) -> i32 {
    match game.status() {
        Status::Over(v) => v,
        Status::MustPass => -negamax(&game.pass().expect("status MustPass guarantees a pass")),
        Status::ToMove => {
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            moves.iter().map(|&m| -negamax(&game.play(m))).max().expect("ToMove has a move")
        }
    }
}
