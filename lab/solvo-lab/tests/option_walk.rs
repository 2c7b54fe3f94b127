//! Every option of `solvo-lab` fed bad values, by the walk of `solvo`'s own
//! (`crates/solvo-cli/tests/option_walk/walk.rs`, included, not copied).

/// The binary walked.
const BIN: &str = env!("CARGO_BIN_EXE_solvo-lab");
/// At least this many leaf commands: study tune, match, six train steps, bench games,
/// pipeline published.
const MIN_COMMANDS: usize = 10;
/// More than this many runs.
const MIN_CASES: usize = 60;

#[path = "../../../crates/solvo-cli/tests/option_walk/walk.rs"]
mod walk;
