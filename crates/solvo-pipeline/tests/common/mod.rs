//! Test helpers shared by the suites.
pub mod pg;
