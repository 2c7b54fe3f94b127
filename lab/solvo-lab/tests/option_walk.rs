//! Every option of `solvo-lab` fed bad values, by the walk of `solvo`'s own
//! (`crates/solvo-cli/tests/option_walk.rs`, included, not copied: it walks `solvo-lab`
//! when included here).

#[path = "../../../crates/solvo-cli/tests/option_walk.rs"]
mod walk;
