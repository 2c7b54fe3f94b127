//! How many files a k-way merge may open at once: the process's open-file limit
//! (`RLIMIT_NOFILE`, soft) less a margin for everything else the process has open.

/// Descriptors left for the rest of the process (standard streams, the store, level
/// files, the thread pool, libraries).
pub const MARGIN: u64 = 32;

/// The most run files one merge pass may open: the soft open-file limit less
/// [`MARGIN`], at least 2 (a merge of two files always fits), at most 4096 (more gives
/// no speed and a large heap). When the limit cannot be read, 256.
pub fn merge_fan_in() -> usize {
    let mut limit = libc::rlimit { rlim_cur: 0, rlim_max: 0 };
    // SAFETY: getrlimit writes the limit into the struct we own; no other effect.
    let ok = unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0;
    if !ok {
        return 256;
    }
    #[allow(clippy::unnecessary_cast)] // rlim_t is not u64 on every platform
    let soft = if limit.rlim_cur == libc::RLIM_INFINITY { u64::MAX } else { limit.rlim_cur as u64 };
    soft.saturating_sub(MARGIN).clamp(2, 4096) as usize
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_fan_in_is_within_its_bounds() {
        assert!((2..=4096).contains(&super::merge_fan_in()));
    }
}
