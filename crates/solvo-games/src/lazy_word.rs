//! [`LazyWord`]: a value computed on first use and kept in one atomic word, for facts
//! a position caches about itself (its key, its tactics' verdict).

use std::sync::atomic::{AtomicU64, Ordering};

/// A 64-bit value computed on first use and kept (0 means "not yet": a value that is
/// 0 is computed again each time). Threads that ask at once may both compute it; the
/// computation must give the same value every time. No lock and no wait: a `OnceLock`
/// cost 7% of a Knightthrough solve's time in its initialisation path alone.
#[derive(Debug, Default)]
pub struct LazyWord(AtomicU64);

impl Clone for LazyWord {
    fn clone(&self) -> Self {
        LazyWord(AtomicU64::new(self.0.load(Ordering::Relaxed)))
    }
}

impl LazyWord {
    /// The value, computed by `compute` if it is not known yet.
    #[inline]
    pub fn get_or_init(&self, compute: impl FnOnce() -> u64) -> u64 {
        let word = self.0.load(Ordering::Relaxed);
        if word != 0 {
            return word;
        }
        let value = compute();
        self.0.store(value, Ordering::Relaxed);
        value
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computes_once_and_clones_keep_the_value() {
        let w = LazyWord::default();
        let mut calls = 0;
        assert_eq!(
            w.get_or_init(|| {
                calls += 1;
                42
            }),
            42
        );
        assert_eq!(w.get_or_init(|| unreachable!("computed twice")), 42);
        assert_eq!(w.clone().get_or_init(|| unreachable!("not kept by the clone")), 42);
        assert_eq!(calls, 1);
        // Zero is never kept.
        let z = LazyWord::default();
        assert_eq!(z.get_or_init(|| 0), 0);
        assert_eq!(z.get_or_init(|| 7), 7);
    }
}
