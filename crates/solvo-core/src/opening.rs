//! Random openings for any game: a seeded sequence of random legal moves.

use crate::game::{Game, Status};
use crate::rng::Rng;

/// Plays `moves` random moves (passes when forced) from `game`, seeded.
pub fn random_opening<G: Game>(game: &G, moves: u32, seed: u64) -> G {
    let mut rng = Rng::new(seed);
    let mut g = game.clone();
    let mut list = Vec::new();
    for _ in 0..moves {
        match g.status() {
            Status::Over(_) => break,
            Status::MustPass => g = g.pass().expect("MustPass has a pass"),
            Status::ToMove => {
                list.clear();
                g.generate_moves(&mut list);
                g = g.play(list[rng.below(list.len())]);
            }
        }
    }
    g
}
