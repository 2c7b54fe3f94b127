//! The perfect player: exact values and value-keeping moves, from the solution store
//! when it knows the position exactly, else from the exact endgame solver.
//!
//! Guarantee: [`Player::choose`] returns a move whose resulting position has, for the
//! mover, exactly the value of the current position. So the mover's guaranteed result
//! never drops, and every opponent mistake (a move lowering the opponent's value) is
//! kept as a gain: the player never does worse than the game-theoretic value and
//! punishes every mistake.

use crate::lookup::{lookup_in, LookupSource};
use crate::store::Store;
use solvo_othello::{Board, BoardSize, Position, Square, Variant};
use solvo_othello_search::SolveOptions;
use std::time::Duration;

/// Where a value came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// The game is over (final score) or a forced pass led to a known value.
    Rules,
    /// An exact record of the solution store.
    Store,
    /// The exact solver, with the nodes and time it took.
    Solver {
        /// Nodes searched.
        nodes: u64,
        /// Wall time.
        time: Duration,
    },
}

/// A move chosen by the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Choice {
    /// The move (`None` for a forced pass).
    pub mv: Option<Square>,
    /// The exact value of the position for the side to move, kept by the move.
    pub value: i32,
    /// Where the value and move came from.
    pub source: Source,
}

/// A perfect player for one board size and variant: its answers are
/// [`lookup_in`]'s (the store when it knows the position exactly, else the solver).
pub struct Player {
    size: BoardSize,
    variant: Variant,
    store: Option<Store>,
    options: SolveOptions,
}

impl Player {
    /// True when the player answers from a store.
    pub fn has_store(&self) -> bool {
        self.store.is_some()
    }

    /// Stops each solve it runs after about `nodes` nodes (`u64::MAX`: no limit); a
    /// solve stopped so is an error (no exact value).
    pub fn set_node_budget(&mut self, nodes: u64) {
        self.options.node_budget = nodes;
    }

    /// Stops each solve it runs after `limit` (`None`: no limit); a solve stopped so is
    /// an error (no exact value), as with a node budget.
    pub fn set_time_limit(&mut self, limit: Option<Duration>) {
        self.options.time_limit = limit;
    }

    /// True when the store holds `board` (black to move; when it must pass, the
    /// position after the pass) exactly, or the game is over: [`Player::choose`] and
    /// [`Player::value`] then answer without solving. A store that cannot be read
    /// counts as not knowing.
    pub fn knows(&self, board: &Board) -> bool {
        let pos = Position { board: *board, side: solvo_othello::Color::Black, size: self.size, variant: self.variant };
        let pos = if pos.moves() == 0 { pos.passed() } else { pos };
        if pos.is_game_over() {
            return true;
        }
        let record = self.store.as_ref().and_then(|s| s.get(&pos.board).ok().flatten());
        record.is_some_and(|r| r.is_exact())
    }

    /// A player using `store` when given (it must be of this size and variant) and the
    /// solver with `options` (threads, table) otherwise.
    pub fn new(size: BoardSize, variant: Variant, store: Option<Store>, options: SolveOptions) -> Player {
        Player { size, variant, store, options }
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The store-or-solve answer for `board` (black to move: values are colour-less).
    fn lookup(&self, board: &Board) -> Result<(crate::lookup::Lookup, Source), String> {
        let pos = Position { board: *board, side: solvo_othello::Color::Black, size: self.size, variant: self.variant };
        let mut options = self.options.clone();
        let found = lookup_in(self.store.as_ref(), &pos, &mut options).map_err(|e| e.to_string())?;
        let source = match found.source {
            LookupSource::GameOver => Source::Rules,
            LookupSource::Store { .. } => Source::Store,
            LookupSource::Solved { nodes, time, .. } => Source::Solver { nodes, time },
        };
        Ok((found, source))
    }

    /// The exact value of `board` for its side to move (any position: finished games
    /// give their final score, a forced pass the negated value after it).
    pub fn value(&self, board: &Board) -> Result<(i32, Source), String> {
        self.lookup(board).map(|(found, source)| (found.value, source))
    }

    /// A value-keeping move for the side to move of `board` (`mv: None` when it must
    /// pass); an error on a finished game.
    pub fn choose(&self, board: &Board) -> Result<Choice, String> {
        let (found, source) = self.lookup(board)?;
        if source == Source::Rules && !found.passed {
            return Err("the game is over".into());
        }
        let mv = if found.passed { None } else { found.best_move };
        Ok(Choice { mv, value: found.value, source })
    }
}
