//! The study's players as match contestants: alpha-beta on the feature evaluation
//! (with or without pre-sorting) and MCTS with random playouts.

use crate::alphabeta::AlphaBeta;
use crate::features::FeatureWeights;
use crate::mcts::mcts_move;
use solvo_core::rng::Rng;
use solvo_engine::arena::Contestant;
use solvo_engine::Session;
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

/// Depth-limited alpha-beta on the feature evaluation.
pub struct FeaturePlayer {
    /// The evaluation.
    pub weights: FeatureWeights,
    /// Search depth in plies (at least 1).
    pub depth: u32,
    /// Pre-sort moves by the children's evaluation.
    pub presort: bool,
    /// Its name in records.
    pub label: String,
}

impl Contestant for FeaturePlayer {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&mut self, game: &Session, _: Option<Duration>, _: Option<Duration>) -> Result<Ply, String> {
        check_8x8(game)?;
        let pos = game.position();
        let mut search = AlphaBeta { weights: &self.weights, variant: pos.variant, presort: self.presort, nodes: 0 };
        Ok(search.best_move(&pos.board, self.depth.max(1)).map_or(Ply::Pass, |(sq, _)| Ply::Move(sq)))
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

    fn choose(&mut self, game: &Session, _: Option<Duration>, _: Option<Duration>) -> Result<Ply, String> {
        check_8x8(game)?;
        let pos = game.position();
        Ok(mcts_move(&pos.board, pos.variant, self.playouts, &mut self.rng).map_or(Ply::Pass, Ply::Move))
    }
}
