//! The error every parser in [`crate::formats`] returns.

use std::fmt;

/// What is wrong with an input and where: 1-based line and column (columns count
/// characters, not bytes). `line`/`column` are 0 when the problem is not tied to a
/// place (e.g. a binary file that is too short names a byte offset in `message`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line of the offending input (0 = not applicable).
    pub line: usize,
    /// 1-based column, in characters (0 = not applicable).
    pub column: usize,
    /// What was found and what was expected.
    pub message: String,
}

impl ParseError {
    /// An error at `line`, `column`.
    pub fn at(line: usize, column: usize, message: impl Into<String>) -> ParseError {
        ParseError { line, column, message: message.into() }
    }

    /// An error not tied to a text position.
    pub fn general(message: impl Into<String>) -> ParseError {
        ParseError { line: 0, column: 0, message: message.into() }
    }

    /// The same error moved by `lines` lines and, when it is on the first line,
    /// `columns` columns: for errors found in a slice of a larger text.
    pub fn shifted(mut self, lines: usize, columns: usize) -> ParseError {
        if self.line != 0 {
            if self.line == 1 {
                self.column += columns;
            }
            self.line += lines;
        }
        self
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.line, self.column) {
            (0, _) => f.write_str(&self.message),
            (l, 0) => write!(f, "line {l}: {}", self.message),
            (l, c) => write!(f, "line {l}, column {c}: {}", self.message),
        }
    }
}

impl std::error::Error for ParseError {}
