//! The value and best move of one position from a solution store, or solved on demand
//! when the store does not hold it exactly (below its threshold, only a bound, or
//! missing), saying which: what `solvo query` answers.

use crate::exact::exact_value;
use crate::semistrong::stored_min_empties;
use crate::store::{kind, Store, StoreError};
use solvo_endgame::SolveOptions;
use solvo_othello::{Position, Square};

/// Where a looked-up value came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LookupSource {
    /// The game is over: the final score.
    GameOver,
    /// An exact record of the store, with its node kinds (names).
    Store {
        /// The record's node kinds, as [`kind::names`] writes them.
        kinds: String,
    },
    /// The exact solver, and why the store could not answer.
    Solved {
        /// Why: below the store's threshold, only a bound stored, or not stored.
        why: String,
    },
}

/// A position's exact value and best move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lookup {
    /// The exact value for the side to move of the position asked about.
    pub value: i32,
    /// A best move; when the side to move must pass, the opponent's best move after
    /// the pass. `None` when the game is over.
    pub best_move: Option<Square>,
    /// True when the side to move must pass (the value is the negated value after
    /// the pass).
    pub passed: bool,
    /// Where the value came from.
    pub source: LookupSource,
}

/// Looks `pos` up in `store` (of its size and variant), solving it with `options` when
/// the store holds no exact record. Guarantee: the value is exact either way.
pub fn lookup(store: &Store, pos: &Position, options: &mut SolveOptions) -> Result<Lookup, StoreError> {
    let passed = pos.moves() == 0 && !pos.is_game_over();
    let pos = if passed { pos.passed() } else { *pos };
    let sign = if passed { -1 } else { 1 };
    if pos.is_game_over() {
        return Ok(Lookup { value: sign * pos.final_score(), best_move: None, passed, source: LookupSource::GameOver });
    }
    let record = store.get(&pos.board)?;
    if let Some(r) = record.filter(|r| r.is_exact()) {
        let source = LookupSource::Store { kinds: kind::names(r.kinds) };
        return Ok(Lookup { value: sign * r.lower as i32, best_move: r.best_move, passed, source });
    }
    let why = match (stored_min_empties(store)?, record) {
        (Some(e), _) if pos.empties() <= e => format!("{} empties <= store threshold {e}", pos.empties()),
        (_, Some(r)) => format!("store has only the bound {r}"),
        _ => "not in the store".to_string(),
    };
    let (value, best_move, _) = exact_value(&pos, options);
    Ok(Lookup { value: sign * value, best_move, passed, source: LookupSource::Solved { why } })
}
