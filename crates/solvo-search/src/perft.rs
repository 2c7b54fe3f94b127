//! Generic perft (leaf counting) over any [`Game`].

use solvo_core::{Game, Status};

/// How passes and early game ends count; the names follow the Othello literature.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct PassRule {
    /// A forced pass consumes one ply of depth.
    pub pass_is_ply: bool,
    /// A game that ends before the depth runs out counts as one leaf.
    pub count_ended_games: bool,
}

/// The number of leaves `depth` plies below `game`, written as plainly as possible
/// (no bulk counting): the reference the fast, game-specific versions are held to.
pub fn perft<G: Game>(game: &G, depth: u32, rule: PassRule) -> u64 {
    if depth == 0 {
        return 1;
    }
    match game.status() {
        Status::Over(_) => u64::from(rule.count_ended_games),
        Status::MustPass => {
            let passed = game.pass().expect("status MustPass guarantees a pass");
            perft(&passed, if rule.pass_is_ply { depth - 1 } else { depth }, rule)
        }
        Status::ToMove => {
            let mut moves = Vec::new();
            game.generate_moves(&mut moves);
            moves.iter().map(|&m| perft(&game.play(m), depth - 1, rule)).sum()
        }
    }
}
