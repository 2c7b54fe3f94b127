//! [`GameError`]: every way a game name, size, option or move text can be wrong.

use std::fmt;

/// What was wrong with a request to build a game or to read a move. Every variant names
/// the offending input, so that a caller can show it to the user as is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameError {
    /// No game of this name in the catalogue ([`crate::catalog::list`]).
    UnknownGame {
        /// The name that was asked for.
        name: String,
        /// The names the catalogue knows.
        known: Vec<&'static str>,
    },
    /// The size text could not be read (expected `RxC`, e.g. `7x7`).
    BadSizeText(String),
    /// The game cannot be played on a board of this size.
    UnsupportedSize {
        /// The game's name.
        game: &'static str,
        /// Rows asked for.
        rows: usize,
        /// Columns asked for.
        cols: usize,
        /// Why the size is refused.
        reason: String,
    },
    /// An option was unknown to the game or had a value that could not be used.
    BadOption {
        /// The game's name.
        game: &'static str,
        /// The option as given (`key=value`).
        option: String,
        /// Why it is refused, and what is accepted.
        reason: String,
    },
    /// A position given piece by piece (for tests and puzzles) is not a position of the game.
    BadPosition {
        /// The game's name.
        game: &'static str,
        /// What is wrong with it.
        reason: String,
    },
    /// A move text could not be read or the move is not legal in the position.
    BadMove {
        /// The move text as given.
        text: String,
        /// Why it is refused.
        reason: String,
    },
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::UnknownGame { name, known } => {
                write!(f, "unknown game '{name}' (known games: {})", known.join(", "))
            }
            GameError::BadSizeText(text) => {
                write!(f, "cannot read board size '{text}': expected ROWSxCOLS with positive numbers, e.g. 7x7")
            }
            GameError::UnsupportedSize { game, rows, cols, reason } => {
                write!(f, "{game} cannot be played on {rows}x{cols}: {reason}")
            }
            GameError::BadOption { game, option, reason } => {
                write!(f, "{game}: bad option '{option}': {reason}")
            }
            GameError::BadPosition { game, reason } => write!(f, "{game}: bad position: {reason}"),
            GameError::BadMove { text, reason } => write!(f, "bad move '{text}': {reason}"),
        }
    }
}

impl std::error::Error for GameError {}
