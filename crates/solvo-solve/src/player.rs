//! The perfect player: exact values and value-keeping moves, from the solution store
//! when it knows the position exactly, else from the exact endgame solver.
//!
//! Guarantee: [`Player::choose`] returns a move whose resulting position has, for the
//! mover, exactly the value of the current position. So the mover's guaranteed result
//! never drops, and every opponent mistake (a move lowering the opponent's value) is
//! kept as a gain: the player never does worse than the game-theoretic value and
//! punishes every mistake.

use crate::store::Store;
use solvo_endgame::{solve, SolveOptions, Window};
use solvo_othello::{Board, BoardSize, Position, Square, Variant};
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

/// A stored exact value and its best move when legal on the asked board.
struct StoredExact {
    value: i32,
    best: Option<Square>,
}

/// A perfect player for one board size and variant.
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

    fn position(&self, board: &Board) -> Position {
        Position { board: *board, side: solvo_othello::Color::Black, size: self.size, variant: self.variant }
    }

    fn stored(&self, board: &Board) -> Result<Option<StoredExact>, String> {
        let Some(store) = &self.store else { return Ok(None) };
        let r = store.get(board).map_err(|e| e.to_string())?;
        Ok(r.and_then(|r| {
            let v = r.value()?;
            let legal = r.best_move.is_some_and(|m| board.moves(self.size) & m.bit() != 0);
            Some(StoredExact { value: v as i32, best: if legal { r.best_move } else { None } })
        }))
    }

    fn solved(&self, board: &Board) -> Result<Choice, String> {
        let mut opts = self.options.clone();
        opts.window = Window::FULL;
        let r = solve(&self.position(board), &opts);
        let v = r.score().ok_or_else(|| format!("the solver stopped with bounds [{}, {}]", r.lower, r.upper))?;
        Ok(Choice { mv: r.best_move, value: v, source: Source::Solver { nodes: r.nodes, time: r.time } })
    }

    /// The exact value of `board` for its side to move (any position: finished games
    /// give their final score, a forced pass the negated value after it).
    pub fn value(&self, board: &Board) -> Result<(i32, Source), String> {
        if board.moves(self.size) == 0 {
            let passed = board.pass();
            if passed.moves(self.size) == 0 {
                return Ok((self.variant.apply(board.final_score(self.size)), Source::Rules));
            }
            let (v, s) = self.value(&passed)?;
            return Ok((-v, s));
        }
        if let Some(r) = self.stored(board)? {
            return Ok((r.value, Source::Store));
        }
        self.solved(board).map(|c| (c.value, c.source))
    }

    /// A value-keeping move for the side to move of `board` (`mv: None` when it must
    /// pass); an error on a finished game.
    pub fn choose(&self, board: &Board) -> Result<Choice, String> {
        let moves = board.moves(self.size);
        if moves == 0 {
            if board.pass().moves(self.size) == 0 {
                return Err("the game is over".into());
            }
            let (v, source) = self.value(board)?;
            return Ok(Choice { mv: None, value: v, source });
        }
        if let Some(r) = self.stored(board)? {
            if let Some(m) = r.best {
                return Ok(Choice { mv: Some(m), value: r.value, source: Source::Store });
            }
            // Exact value without a usable move: find a child keeping the value.
            for sq in Square::iter(moves) {
                let child = board.play(sq, self.size).expect("legal move");
                if -self.value(&child)?.0 == r.value {
                    return Ok(Choice { mv: Some(sq), value: r.value, source: Source::Store });
                }
            }
            return Err("the store's value is not reached by any move (inconsistent store)".into());
        }
        self.solved(board)
    }
}
