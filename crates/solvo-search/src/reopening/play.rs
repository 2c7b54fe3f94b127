//! Moves with forced passes folded in: the positions of a semi-strong solution are
//! positions whose side to move can move.

use super::SemiError;
use solvo_core::{Game, Status};

/// What playing a move leads to.
#[derive(Clone, Debug)]
pub enum Next<G> {
    /// A position whose side to move can move. `negate` is true when its value is the
    /// negation of the value for the mover (no pass); false when the opponent had to
    /// pass, so the mover moves again (same value) and the kind steps once more.
    Position {
        /// The position reached.
        game: G,
        /// True unless a pass was folded in.
        negate: bool,
    },
    /// The game is over: its value for the side that made the move.
    End(i32),
}

/// `g` itself when its side to move can move (with `false`), else the position after
/// its forced pass when that side can move (with `true`: `g`'s value is the negation of
/// the returned position's); `None` when the game is over (`Err` when a passed position
/// must pass again, which the [`Game`] rules exclude).
pub fn fold_passes<G: Game>(g: G) -> Result<Option<(G, bool)>, SemiError> {
    match g.status() {
        Status::ToMove => Ok(Some((g, false))),
        Status::Over(_) => Ok(None),
        Status::MustPass => {
            let passed = g.pass().ok_or_else(|| SemiError::Internal("MustPass without a pass".into()))?;
            match passed.status() {
                Status::ToMove => Ok(Some((passed, true))),
                Status::Over(_) => Ok(None),
                Status::MustPass => Err(SemiError::Internal("both sides must pass, yet the game is not over".into())),
            }
        }
    }
}

/// Plays `mv` (legal in `g`) and folds a forced pass.
pub fn play_folded<G: Game>(g: &G, mv: G::Move) -> Result<Next<G>, SemiError> {
    let child = g.play(mv);
    match child.status() {
        Status::ToMove => Ok(Next::Position { game: child, negate: true }),
        Status::Over(v) => Ok(Next::End(-v)),
        Status::MustPass => {
            let passed = child.pass().ok_or_else(|| SemiError::Internal("MustPass without a pass".into()))?;
            match passed.status() {
                Status::ToMove => Ok(Next::Position { game: passed, negate: false }),
                Status::Over(v) => Ok(Next::End(v)),
                Status::MustPass => Err(SemiError::Internal("both sides must pass, yet the game is not over".into())),
            }
        }
    }
}
