//! Othello file and text formats: board strings, OBF problem lines, move transcripts,
//! GGF game records and WTHOR databases. Every parser returns a [`ParseError`] naming
//! where the input is wrong and what was expected; none panics on any input.

pub mod board_string;
mod error;
pub mod ggf;
pub mod obf;
pub mod recognize;
pub mod transcript;
pub mod wthor;

pub use error::ParseError;
