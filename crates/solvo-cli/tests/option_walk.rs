//! Every option of `solvo` fed bad values: the walk is `option_walk/walk.rs`, shared
//! with `solvo-lab`'s.

/// The binary walked.
const BIN: &str = env!("CARGO_BIN_EXE_solvo");
/// At least this many leaf commands.
const MIN_COMMANDS: usize = 18;
/// More than this many runs.
const MIN_CASES: usize = 200;

#[path = "option_walk/walk.rs"]
mod walk;
