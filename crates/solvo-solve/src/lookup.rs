//! The value and best move of one position from a solution store, or solved on demand
//! when the store does not hold it exactly (below its threshold, only a bound, or
//! missing, or no store at all), saying which: the one place that does store-or-solve,
//! for `solvo solution query` and for the perfect player ([`crate::player::Player`]).

use crate::exact::exact_value_or_stop;
use crate::semistrong::stored_min_empties;
use crate::store::{kind, Store, StoreError};
use solvo_othello::{Position, Square};
use solvo_othello_search::SolveOptions;
use std::time::{Duration, Instant};

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
        /// Why: below the store's threshold, only a bound stored, not stored, or no
        /// store.
        why: String,
        /// Solver nodes.
        nodes: u64,
        /// Wall time of the solve.
        time: Duration,
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
    lookup_in(Some(store), pos, options)
}

/// [`lookup`] with the store optional (without one every position is solved).
/// Errors: the store's, and a solve ended by a budget or the stop flag of `options`.
/// Guarantees: the value is exact; the best move is legal in the position asked about
/// (after the pass when `passed`) and keeps its value: a store record whose move is
/// missing or not legal there has its move found among the children, by looking each
/// up in turn until one keeps the value.
pub fn lookup_in(store: Option<&Store>, pos: &Position, options: &mut SolveOptions) -> Result<Lookup, StoreError> {
    let passed = pos.moves() == 0 && !pos.is_game_over();
    let pos = if passed { pos.passed() } else { *pos };
    let sign = if passed { -1 } else { 1 };
    if pos.is_game_over() {
        return Ok(Lookup { value: sign * pos.final_score(), best_move: None, passed, source: LookupSource::GameOver });
    }
    let record = match store {
        Some(store) => store.get(&pos.board)?,
        None => None,
    };
    if let Some(r) = record.filter(|r| r.is_exact()) {
        let value = r.lower as i32;
        let best_move = match r.best_move.filter(|m| pos.moves() & m.bit() != 0) {
            Some(m) => m,
            None => value_keeping_move(store, &pos, value, options)?,
        };
        let source = LookupSource::Store { kinds: kind::names(r.kinds) };
        return Ok(Lookup { value: sign * value, best_move: Some(best_move), passed, source });
    }
    let why = match store {
        None => "no store".to_string(),
        Some(store) => match (stored_min_empties(store)?, record) {
            (Some(e), _) if pos.empties() <= e => format!("{} empties <= store threshold {e}", pos.empties()),
            (_, Some(r)) => format!("store has only the bound {r}"),
            _ => "not in the store".to_string(),
        },
    };
    let started = Instant::now();
    let (value, best_move, nodes) = exact_value_or_stop(&pos, options, 0).map_err(|s| {
        StoreError::Other(format!("the solver stopped with bounds [{}, {}] after {} nodes", s.lower, s.upper, s.nodes))
    })?;
    let source = LookupSource::Solved { why, nodes, time: started.elapsed() };
    Ok(Lookup { value: sign * value, best_move, passed, source })
}

/// A move of `pos` (which has moves) whose child has, for the mover, the exact `value`.
fn value_keeping_move(
    store: Option<&Store>,
    pos: &Position,
    value: i32,
    options: &mut SolveOptions,
) -> Result<Square, StoreError> {
    for sq in Square::iter(pos.moves()) {
        let child = pos.play(sq).expect("a legal move");
        if -lookup_in(store, &child, options)?.value == value {
            return Ok(sq);
        }
    }
    Err(StoreError::Other(format!("the stored value {value} is reached by no move (inconsistent store)")))
}
