//! A zeroed array of atomic words for the transposition table, backed by transparent
//! huge pages where the system offers them.
//!
//! The table is probed at random addresses over hundreds of MiB; with 4 KiB pages almost
//! every probe also misses the TLB and walks the page tables. On Linux the buffer is a
//! private anonymous mapping aligned to 2 MiB and marked `MADV_HUGEPAGE`, so the kernel
//! backs it with 2 MiB pages when it can (it silently falls back to small pages when it
//! cannot: the buffer works either way). Elsewhere it is a plain zeroed `Vec`.

use std::ops::Deref;
use std::sync::atomic::AtomicU64;

/// The system refused the memory of a table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AllocError {
    /// The size asked for.
    pub bytes: usize,
}

impl std::fmt::Display for AllocError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cannot allocate a table of {} MiB (not enough free memory: ask for a smaller one)", self.bytes >> 20)
    }
}

impl std::error::Error for AllocError {}

/// A fixed-length, zero-initialised slice of `AtomicU64`, huge-page backed when possible.
pub struct WordBuffer {
    inner: Inner,
}

enum Inner {
    Vec(Vec<AtomicU64>),
    #[cfg(target_os = "linux")]
    Mapped(mapped::Mapping),
}

impl WordBuffer {
    /// `len` words, all zero. Panics if the memory cannot be had (see [`Self::try_zeroed`]).
    pub fn zeroed(len: usize) -> WordBuffer {
        Self::try_zeroed(len).unwrap_or_else(|e| panic!("{e}"))
    }

    /// `len` words, all zero, or an error (never an abort) when the system refuses the
    /// memory.
    pub fn try_zeroed(len: usize) -> Result<WordBuffer, AllocError> {
        #[cfg(target_os = "linux")]
        if let Some(m) = mapped::Mapping::new(len) {
            return Ok(WordBuffer { inner: Inner::Mapped(m) });
        }
        let mut v = Vec::new();
        v.try_reserve_exact(len).map_err(|_| AllocError { bytes: len.saturating_mul(8) })?;
        v.resize_with(len, || AtomicU64::new(0));
        Ok(WordBuffer { inner: Inner::Vec(v) })
    }

    /// Whether the buffer is a huge-page-advised mapping (not whether the kernel granted
    /// huge pages: see `AnonHugePages` in `/proc/self/smaps`).
    pub fn huge_page_advised(&self) -> bool {
        !matches!(self.inner, Inner::Vec(_))
    }
}

impl Deref for WordBuffer {
    type Target = [AtomicU64];

    #[inline(always)]
    fn deref(&self) -> &[AtomicU64] {
        match &self.inner {
            Inner::Vec(v) => v,
            #[cfg(target_os = "linux")]
            Inner::Mapped(m) => m.words(),
        }
    }
}

#[cfg(target_os = "linux")]
mod mapped {
    use std::sync::atomic::AtomicU64;

    const HUGE_PAGE: usize = 2 << 20;

    /// An anonymous mapping of at least `len` words, the words starting on a 2 MiB
    /// boundary.
    pub struct Mapping {
        base: *mut libc::c_void,
        map_len: usize,
        words: *const AtomicU64,
        len: usize,
    }

    // SAFETY: the mapping is owned exclusively by this value and only accessed through
    // `&[AtomicU64]`, whose elements are safe to share and send between threads.
    unsafe impl Send for Mapping {}
    // SAFETY: as above: shared access goes through atomics only.
    unsafe impl Sync for Mapping {}

    impl Mapping {
        /// `None` when the mapping cannot be made (the caller falls back to a `Vec`).
        pub fn new(len: usize) -> Option<Mapping> {
            let bytes = len.checked_mul(8)?;
            if bytes < HUGE_PAGE {
                return None;
            }
            let map_len = bytes.checked_add(HUGE_PAGE)?;
            // SAFETY: a fresh private anonymous mapping: no existing memory is touched;
            // the result is checked against MAP_FAILED before use.
            let base = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    map_len,
                    libc::PROT_READ | libc::PROT_WRITE,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS,
                    -1,
                    0,
                )
            };
            if base == libc::MAP_FAILED {
                return None;
            }
            let offset = (HUGE_PAGE - (base as usize) % HUGE_PAGE) % HUGE_PAGE;
            // SAFETY: offset < HUGE_PAGE, and offset + bytes <= map_len, so the aligned
            // start and the `bytes` after it lie inside the mapping.
            let aligned = unsafe { (base as *mut u8).add(offset) };
            // SAFETY: advice on a range inside our own mapping; failure is harmless
            // (small pages), so the result is ignored on purpose.
            unsafe {
                libc::madvise(aligned as *mut libc::c_void, bytes, libc::MADV_HUGEPAGE);
            }
            Some(Mapping { base, map_len, words: aligned as *const AtomicU64, len })
        }

        /// The words: zero-filled by the kernel, 8-byte aligned (2 MiB aligned in fact).
        #[inline(always)]
        pub fn words(&self) -> &[AtomicU64] {
            // SAFETY: `words` points to `len` readable and writable 8-byte-aligned words
            // of zeroed anonymous memory that live as long as `self`; AtomicU64 has the
            // layout of u64 and any bit pattern is valid; all mutation goes through the
            // atomics, so handing out shared references is sound.
            unsafe { std::slice::from_raw_parts(self.words, self.len) }
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: unmaps exactly the mapping made in `new`; no reference to it
            // outlives `self` (`words` borrows `self`).
            unsafe {
                libc::munmap(self.base, self.map_len);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn buffers_are_zeroed_writable_and_sized() {
        for len in [1usize, 1000, (4 << 20) / 8, (6 << 20) / 8 + 3] {
            let b = WordBuffer::zeroed(len);
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|w| w.load(Relaxed) == 0));
            b[0].store(7, Relaxed);
            b[len - 1].store(u64::MAX, Relaxed);
            assert_eq!(b[len - 1].load(Relaxed), u64::MAX);
            assert_eq!(b[0].load(Relaxed), if len == 1 { u64::MAX } else { 7 });
        }
        #[cfg(target_os = "linux")]
        assert!(WordBuffer::zeroed((4 << 20) / 8).huge_page_advised());
    }
}
