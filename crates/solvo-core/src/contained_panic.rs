//! Panics that code catches on purpose (from a library that panics on bad input, such as
//! a database reading a damaged file), told apart from every other panic.
//!
//! A program may install a panic hook that ends the process at once on any panic (the
//! `solvo` command line does: one line on stderr, exit code 101, no thread left
//! running). [`catch`] marks the current thread while it runs its closure, and such a
//! hook asks [`is_caught_here`] first: a panic inside [`catch`] is then returned to the
//! caller as an error message instead of ending the process.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f`; a panic inside it (on this thread) becomes `Err(message)`. Guarantees: the
/// mark is removed when `f` ends either way, and nested calls work.
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    DEPTH.with(|d| d.set(d.get() + 1));
    let result = catch_unwind(AssertUnwindSafe(f));
    DEPTH.with(|d| d.set(d.get() - 1));
    result.map_err(|payload| message(payload.as_ref()))
}

/// Whether the current thread is inside [`catch`] (a panic hook should then stay quiet
/// and let the panic unwind to it).
pub fn is_caught_here() -> bool {
    DEPTH.with(|d| d.get() > 0)
}

/// The text of a panic payload (`&str` or `String`; anything else: "unknown panic").
pub fn message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic".to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_caught_panic_is_an_error_and_the_mark_is_removed() {
        let r: Result<(), String> = catch(|| panic!("bad page {}", 7));
        assert_eq!(r, Err("bad page 7".to_string()));
        assert!(!is_caught_here());
        assert_eq!(catch(|| catch(is_caught_here)), Ok(Ok(true)));
    }
}
