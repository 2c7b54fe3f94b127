//! The study's players as match contestants: alpha-beta on the feature evaluation
//! (with or without pre-sorting) and MCTS with random playouts.

use crate::alphabeta::{AlphaBeta, Leaf};
use crate::features::FeatureWeights;
use crate::mcts::mcts_move;
use solvo_core::rng::Rng;
use solvo_engine::arena::Contestant;
use solvo_engine::{MoveTime, Session};
use solvo_othello::formats::transcript::Ply;
use solvo_othello::BoardSize;
use std::time::Duration;

fn check_8x8(game: &Session) -> Result<(), String> {
    if game.size() == BoardSize::Eight {
        Ok(())
    } else {
        Err(format!("the study's players play 8x8, not {}", game.size()))
    }
}

/// The report's endgame: 10 plies on the disc difference alone from move 50 (10 empty
/// squares) on.
pub const REPORT_ENDGAME: u32 = 10;

/// Depth-limited alpha-beta on the feature evaluation, and the report's disc-difference
/// search near the end.
pub struct FeaturePlayer {
    /// The evaluation.
    pub weights: FeatureWeights,
    /// Search depth in plies (at least 1).
    pub depth: u32,
    /// Pre-sort moves by the children's evaluation.
    pub presort: bool,
    /// Alpha-beta cut-offs (`false`: plain minimax, the same moves at a higher cost).
    pub prune: bool,
    /// The report's endgame: from this many empty squares on, search this many plies
    /// on the disc difference alone (10: the report's 10 plies after move 50; 0: never).
    pub endgame: u32,
    /// Its name in records.
    pub label: String,
}

impl Contestant for FeaturePlayer {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&mut self, game: &Session, _: Option<MoveTime>, _: Option<Duration>) -> Result<Ply, String> {
        check_8x8(game)?;
        let pos = game.position();
        let (leaf, depth) = if self.endgame > 0 && pos.empties() <= self.endgame {
            (Leaf::Discs, self.endgame)
        } else {
            (Leaf::Features, self.depth.max(1))
        };
        let mut search = AlphaBeta::new(&self.weights, pos.variant, self.presort, leaf);
        search.prune = self.prune;
        Ok(search.best_move(&pos.board, depth).map_or(Ply::Pass, |(sq, _)| Ply::Move(sq)))
    }
}

/// UCT with random playouts.
pub struct MctsPlayer {
    /// Playouts per move.
    pub playouts: u32,
    /// The generator (seeded: a match is reproducible).
    pub rng: Rng,
    /// Its name in records.
    pub label: String,
}

impl Contestant for MctsPlayer {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&mut self, game: &Session, _: Option<MoveTime>, _: Option<Duration>) -> Result<Ply, String> {
        check_8x8(game)?;
        let pos = game.position();
        Ok(mcts_move(&pos.board, pos.variant, self.playouts, &mut self.rng).map_or(Ply::Pass, Ply::Move))
    }
}
