//! The [`Game`] trait.

use std::fmt::Debug;
use std::hash::Hash;

/// Whether a position is still being played, and if not, its final value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Status {
    /// The side to move has at least one legal move.
    ToMove,
    /// The side to move has no legal move but the game is not over: it must pass
    /// ([`Game::pass`] returns the position after the pass).
    MustPass,
    /// The game is over; the value is from the point of view of the side to move.
    Over(i32),
}

/// A two-player, zero-sum, perfect-information game, seen from the side to move.
///
/// Guarantees an implementation must give (the generic algorithms rely on them):
/// - [`Game::status`] is `ToMove` exactly when [`Game::generate_moves`] appends at least
///   one move, `MustPass` exactly when it appends none and [`Game::pass`] returns
///   `Some`, `Over(v)` exactly when the game has ended — or when a rule the game
///   documents decides the position's true value `v` without search (then it is over
///   for the solvers too; such rules must never change a value);
/// - `generate_moves` may leave out moves that a documented rule proves useless (a
///   move is left out only if a listed move is at least as good), so every listed move
///   is legal and the negamax value over the listed moves is the true value;
/// - values are negamax values: the value of a position is the maximum over its
///   children of the negated child value (a pass is a child too);
/// - every value lies in `-max_value()..=max_value()`;
/// - `hash_key` is equal for equal positions (it may collide for different ones).
pub trait Game: Clone + Send + Sync {
    /// A move of the side to move (a pass is not a move: see [`Game::pass`]).
    type Move: Copy + Eq + Hash + Debug + Send + Sync;

    /// Appends the legal moves of the side to move to `moves` (does not clear it).
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// The position after the side to move plays `mv`; `mv` must be legal.
    fn play(&self, mv: Self::Move) -> Self;

    /// Where the game stands: moves available, a forced pass, or over with a value.
    fn status(&self) -> Status;

    /// The position after the side to move passes, if passing is the rule here
    /// (`Some` exactly when `status()` is `MustPass`).
    fn pass(&self) -> Option<Self> {
        None
    }

    /// An upper bound of the absolute value of any position of this game.
    fn max_value(&self) -> i32;

    /// A 64-bit hash of the position (side to move included), for transposition tables.
    fn hash_key(&self) -> u64;

    /// An exact encoding of the position, for stores that must never confuse two
    /// positions (a [`Game::hash_key`] may collide): `None` when the game has none (the
    /// default; such a game cannot be kept in a semi-strong solution store).
    ///
    /// Guarantee an implementation must give: two positions of one game (same size and
    /// rule options) with equal encodings are the same position for the rules: the same
    /// [`Game::status`], the same [`Game::generate_moves`] list in the same order, and
    /// children (and passed positions) with equal encodings again. Everything the rules
    /// depend on (side to move, history where it limits moves, move counts where the
    /// game has a limit) is in it; what they do not depend on may be left out (Othello
    /// leaves out the colour: the value is the side to move's either way).
    fn encode(&self) -> Option<Vec<u8>> {
        None
    }

    /// The positions equivalent to this one under the game's symmetries, itself
    /// included. The default is no symmetry: just `self`.
    fn symmetric_images(&self) -> Vec<Self> {
        vec![self.clone()]
    }

    /// Whether a game of this kind can end in a draw (value 0). `false` promises that
    /// every final value is non-zero, so "not a win" for one side is a win for the other;
    /// the default (`true`) never overclaims: a proof that only bounds the value (df-pn,
    /// MCTS-Solver) is then reported as such, never as a win.
    fn draws_possible(&self) -> bool {
        true
    }

    /// Which player is to move: 0 for the player who moved first in the game, 1 for the
    /// other. Lets callers report "first player wins" and keep per-player statistics.
    /// The default (0) suits callers that never ask.
    fn player_to_move(&self) -> u8 {
        0
    }

    /// A code for `mv` in `0..self.move_code_count()`, the same for moves that a playout
    /// policy should treat alike (PPAF: Playout Policy Adaptation with move Features).
    /// It should include the player to move and may include cheap features of the move
    /// (a capture, a winning move, ...). The default gives every move code 0.
    fn move_code(&self, _mv: Self::Move) -> u32 {
        0
    }

    /// An upper bound (exclusive) of every [`Game::move_code`] of this game at this size.
    fn move_code_count(&self) -> u32 {
        1
    }

    /// Cheap domain knowledge for move ordering: moves with a higher priority are tried
    /// first (for example a move that wins at once). The default is 0 for every move.
    fn move_priority(&self, _mv: Self::Move) -> i32 {
        0
    }
}
