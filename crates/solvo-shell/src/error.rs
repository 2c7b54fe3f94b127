//! The command line's error type: a message for stderr.

use std::fmt;

/// An error to report to the user; `main` prints it to stderr and exits with 1.
#[derive(Debug)]
pub struct CliError(pub String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for CliError {
    fn from(s: String) -> Self {
        CliError(s)
    }
}

impl From<solvo_othello::formats::ParseError> for CliError {
    fn from(e: solvo_othello::formats::ParseError) -> Self {
        CliError(e.to_string())
    }
}

impl From<solvo_core::hugemem::AllocError> for CliError {
    fn from(e: solvo_core::hugemem::AllocError) -> Self {
        CliError(e.to_string())
    }
}

/// Adds context (which input or file) in front of an error.
pub fn context<E: fmt::Display>(what: impl fmt::Display) -> impl FnOnce(E) -> CliError {
    move |e| CliError(format!("{what}: {e}"))
}
