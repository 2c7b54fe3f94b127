//! Option values from Python checked by the command line's own range checks
//! (`solvo_shell::option_ranges`), so that a bad value is refused with the same message,
//! the option named as its keyword argument. Counts are taken as signed integers, so
//! that a negative one is refused with the same message rather than by the conversion.

use crate::errors::{Failure, Fallible};
use solvo_shell::option_ranges;
use std::time::Duration;

/// `value` checked by the command line's parser `parse` for the option `name`.
pub fn checked<T: std::fmt::Display, U>(name: &str, value: T, parse: fn(&str) -> Result<U, String>) -> Fallible<U> {
    parse(&value.to_string()).map_err(|e| Failure::input(format!("{name}={value}: {e}")))
}

/// Search threads: 1 to the command line's most.
pub fn threads(n: i64) -> Fallible<usize> {
    checked("threads", n, option_ranges::threads)
}

/// A table size in MiB: 1 to the machine's memory.
pub fn hash_mb(name: &str, mib: i64) -> Fallible<usize> {
    checked(name, mib, option_ranges::memory_mib)
}

/// A time limit in seconds (above 0, at most 30 days).
pub fn seconds(name: &str, s: Option<f64>) -> Fallible<Option<Duration>> {
    s.map(|s| checked(name, s, option_ranges::seconds).map(Duration::from_secs_f64)).transpose()
}

/// A node limit (1 to 10^15).
pub fn nodes(name: &str, n: Option<i64>) -> Fallible<Option<u64>> {
    n.map(|n| checked(name, n, option_ranges::nodes)).transpose()
}
