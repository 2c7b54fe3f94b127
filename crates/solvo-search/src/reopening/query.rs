//! Store-or-solve for one position of a game: the value and a best move from a
//! semi-strong store's exact record, else from the solver, saying which.

use super::keys::lookup;
use super::{fold_passes, kind, Oracle, SemiError, SolutionStore};
use solvo_core::{Game, Status};

/// A position's exact value and best move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer<M> {
    /// The exact value for the side to move of the position asked about.
    pub value: i32,
    /// A best move (after the forced pass when `passed`); `None` when the game is over.
    pub best_move: Option<M>,
    /// The side to move must pass first (the value is the negation of the value after
    /// the pass).
    pub passed: bool,
    /// Where it came from: `game over`, `store (kinds P,A')`, or `solved (why)`.
    pub source: String,
}

/// Answers `g` from `store`'s exact record when it has one with a designated move,
/// else by `oracle`. Guarantee: the value is exact either way and the move legal.
pub fn answer<G: Game>(
    store: Option<&mut dyn SolutionStore>,
    oracle: &mut dyn Oracle<G>,
    g: &G,
) -> Result<Answer<G::Move>, SemiError> {
    let (h, passed, why) = match stored(store, g)? {
        Stored::Answer(a) => return Ok(a),
        Stored::Missing { position, passed, why } => (position, passed, why),
    };
    let sign = if passed { -1 } else { 1 };
    let (v, m) = oracle.exact(&h)?;
    Ok(Answer { value: sign * v, best_move: Some(m), passed, source: format!("solved ({why})") })
}

/// Answers `g` from `store` alone: `None` when the game goes on and the store holds no
/// exact record with a designated move for it (nothing is solved).
pub fn answer_from_store<G: Game>(store: &mut dyn SolutionStore, g: &G) -> Result<Option<Answer<G::Move>>, SemiError> {
    Ok(match stored(Some(store), g)? {
        Stored::Answer(a) => Some(a),
        Stored::Missing { .. } => None,
    })
}

/// What a store says about a position.
enum Stored<G: Game> {
    /// The game is over, or the store answers.
    Answer(Answer<G::Move>),
    /// The store cannot answer: the position after the forced passes, whether there
    /// were any, and why.
    Missing { position: G, passed: bool, why: String },
}

fn stored<G: Game>(store: Option<&mut dyn SolutionStore>, g: &G) -> Result<Stored<G>, SemiError> {
    let Some((h, passed)) = fold_passes(g.clone())? else {
        let value = match g.status() {
            Status::Over(v) => v,
            _ => match g.pass().map(|p| p.status()) {
                Some(Status::Over(v)) => -v,
                _ => return Err(SemiError::Internal("a finished game without a final value".into())),
            },
        };
        return Ok(Stored::Answer(Answer { value, best_move: None, passed: false, source: "game over".into() }));
    };
    let sign = if passed { -1 } else { 1 };
    let why = match store {
        None => "no store".to_string(),
        Some(store) => match lookup(store, &h)? {
            Some(r) if r.has_designated_move() => {
                let source = format!("store (kinds {})", kind::names(r.kinds));
                return Ok(Stored::Answer(Answer { value: sign * r.lower, best_move: r.best, passed, source }));
            }
            Some(r) => format!("the store holds only {r}"),
            None => "not in the store".to_string(),
        },
    };
    Ok(Stored::Missing { position: h, passed, why })
}
