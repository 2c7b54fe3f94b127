//! The allowed range of every numeric command-line option, in one place: clap value
//! parsers that reject a value out of range with a message naming the value and the
//! range (clap adds the option's name), so no command ever sees a thread count it cannot
//! spawn, a table larger than the machine, or a duration that cannot exist.
//!
//! Guarantees of the parsers here: they never panic; they accept exactly the documented
//! range; memory sizes are checked against the machine's physical memory.

use std::fmt::Display;
use std::str::FromStr;

/// The most search threads any command starts (far above any useful count, far below
/// what makes thread creation fail).
pub const MAX_THREADS: usize = 256;

/// The longest time limit accepted, in seconds (30 days).
pub const MAX_SECONDS: f64 = 30.0 * 24.0 * 3600.0;

/// Parses `text` as a `T` in `lo..=hi`; the error names the range.
pub fn in_range<T>(text: &str, lo: T, hi: T) -> Result<T, String>
where
    T: FromStr + PartialOrd + Display + Copy,
{
    let expected = || format!("expected a whole number from {lo} to {hi}");
    let value: T = text.trim().parse().map_err(|_| expected())?;
    if value < lo || value > hi {
        return Err(expected());
    }
    Ok(value)
}

/// Search threads: 1 to [`MAX_THREADS`].
pub fn threads(text: &str) -> Result<usize, String> {
    in_range(text, 1, MAX_THREADS)
}

/// Threads where 0 means "every core": 0 to [`MAX_THREADS`].
pub fn threads_or_all(text: &str) -> Result<usize, String> {
    in_range(text, 0, MAX_THREADS)
}

/// The most Monte Carlo playouts a command runs (minutes of work on 8x8).
pub const MAX_PLAYOUTS: u32 = 10_000_000;

/// A number of Monte Carlo playouts: 0 to [`MAX_PLAYOUTS`].
pub fn playouts(text: &str) -> Result<u32, String> {
    in_range(text, 0, MAX_PLAYOUTS)
}

/// The largest node budget accepted (10^15 nodes: weeks of search on any machine).
pub const MAX_NODES: u64 = 1_000_000_000_000_000;

/// A node budget: 1 to [`MAX_NODES`].
pub fn nodes(text: &str) -> Result<u64, String> {
    in_range(text, 1, MAX_NODES)
}

/// An engine level: 1 to [`solvo_engine::MAX_LEVEL`].
pub fn level(text: &str) -> Result<u32, String> {
    in_range(text, 1, solvo_engine::MAX_LEVEL)
}

/// The most random openings a match makes.
pub const MAX_OPENINGS: usize = 1_000_000;

/// A number of random openings: 1 to [`MAX_OPENINGS`].
pub fn openings(text: &str) -> Result<usize, String> {
    in_range(text, 1, MAX_OPENINGS)
}

/// Tuning rounds (generations or annealing steps): 1 to 100,000.
pub fn rounds(text: &str) -> Result<u32, String> {
    in_range(text, 1, 100_000)
}

/// A genetic algorithm's population: 4 to 10,000.
pub fn population(text: &str) -> Result<usize, String> {
    in_range(text, 4, 10_000)
}

/// Plies of the study's disc-difference endgame search (and the empties it starts
/// at): 0 (off) to 16 (its full-width search grows too fast beyond).
pub fn endgame_plies(text: &str) -> Result<u32, String> {
    in_range(text, 0, 16)
}

/// A number of plies of an opening: 0 to 60.
pub fn plies(text: &str) -> Result<u32, String> {
    in_range(text, 0, 60)
}

/// Repetitions of a benchmark run: 1 to 1000.
pub fn repetitions(text: &str) -> Result<usize, String> {
    in_range(text, 1, 1000)
}

/// A count that must be at least 1 (every N-th, repetitions, ...).
pub fn at_least_one(text: &str) -> Result<usize, String> {
    in_range(text, 1, usize::MAX)
}

/// The deepest perft: 128 plies, more than any Othello game has (60 moves and their
/// passes), so a deeper request only repeats the count of whole games.
pub fn perft_depth(text: &str) -> Result<u32, String> {
    in_range(text, 0, 128)
}

/// A commit interval in milliseconds: 0 (commit at every record) to 1 hour (longer
/// risks an hour of work).
pub fn commit_ms(text: &str) -> Result<u64, String> {
    in_range(text, 0, 3_600_000)
}

/// A Multi-ProbCut selectivity level in percent (a trailing `%` allowed): 73, 87, 95,
/// 98, 99 or 100 (no cuts).
pub fn selectivity(text: &str) -> Result<u32, String> {
    text.trim_end_matches('%')
        .parse::<u32>()
        .ok()
        .filter(|&p| solvo_othello_search::Selectivity::from_percent(p).is_some())
        .ok_or_else(|| format!("expected one of 73, 87, 95, 98, 99, 100 (percent), not {text:?}"))
}

/// How many plies before the end the selective ladder stops: 1 to 20 (at 0 it would
/// be the exact solve itself).
pub fn ladder_depth_cut(text: &str) -> Result<u32, String> {
    in_range(text, 1, 20)
}

/// When the selective ladder runs: `off`, `auto`, or a selectivity percent (73, 87,
/// 95, 98, 99).
pub fn ladder_mode(text: &str) -> Result<solvo_othello_search::LadderMode, String> {
    use solvo_othello_search::LadderMode;
    match text.trim() {
        "off" => Ok(LadderMode::Off),
        "auto" => Ok(LadderMode::Auto),
        t => t
            .trim_end_matches('%')
            .parse::<u32>()
            .ok()
            .filter(|&p| p < 100)
            .and_then(solvo_othello_search::Selectivity::from_percent)
            .map(LadderMode::Level)
            .ok_or_else(|| format!("expected off, auto, 73, 87, 95, 98 or 99, not {text:?}")),
    }
}

/// A number of empty squares (pipeline task and leaf depths): 0 to 60.
pub fn empties(text: &str) -> Result<u32, String> {
    in_range(text, 0, 60)
}

/// The depth of an estimate's search (plies): 0 to 12.
pub fn estimate_depth(text: &str) -> Result<u32, String> {
    in_range(text, 0, 12)
}

/// Discs a leaf window is widened by on each side: 0 to 8.
pub fn window_margin(text: &str) -> Result<i32, String> {
    in_range(text, 0, 8)
}

/// A lease in seconds: 1 to 86,400 (a day).
pub fn lease_seconds(text: &str) -> Result<u64, String> {
    in_range(text, 1, 86_400)
}

/// Claims of one job before it is parked: 1 to 100.
pub fn attempts(text: &str) -> Result<i32, String> {
    in_range(text, 1, 100)
}

/// Half width of an aspiration window in discs: 0 (none) to 64.
pub fn aspiration(text: &str) -> Result<u32, String> {
    in_range(text, 0, 64)
}

/// A final disc difference (a score, a guess): -64 to 64.
pub fn score(text: &str) -> Result<i32, String> {
    in_range(text, -64, 64)
}

/// Published tasks sampled for expansion: 0 to 100,000 (the list has 2,587).
pub fn task_sample(text: &str) -> Result<usize, String> {
    in_range(text, 0, 100_000)
}

/// Workers a projection spreads over: 1 to 1e12.
pub fn workers(text: &str) -> Result<u64, String> {
    in_range(text, 1, 1_000_000_000_000)
}

/// Leaves an expansion job may solve itself: 0 to 10,000,000.
pub fn batch_leaves(text: &str) -> Result<u64, String> {
    in_range(text, 0, 10_000_000)
}

/// Positions checked per number of empties (0: all): 0 to 1,000,000,000.
pub fn per_empties(text: &str) -> Result<usize, String> {
    in_range(text, 0, 1_000_000_000)
}

/// A pipeline's first hypothesis: `None` for the estimates' prediction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hypothesis(pub Option<i32>);

/// A pipeline's first hypothesis: `estimate` (the estimates' prediction) or an even root
/// value from -64 to 64.
pub fn hypothesis(text: &str) -> Result<Hypothesis, String> {
    if text.trim() == "estimate" {
        return Ok(Hypothesis(None));
    }
    let v = score(text).map_err(|e| format!("{e} (or `estimate`)"))?;
    if v % 2 != 0 {
        return Err(format!("a hypothesis is an even value (a board's value), not {v}"));
    }
    Ok(Hypothesis(Some(v)))
}

/// The machine's physical memory in MiB (at least 1; 1 TiB when it cannot be read).
pub fn physical_memory_mib() -> usize {
    // SAFETY: sysconf only reads system configuration values.
    let (pages, page_size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    if pages <= 0 || page_size <= 0 {
        return 1 << 20;
    }
    ((pages as u128 * page_size as u128) >> 20).clamp(1, usize::MAX as u128) as usize
}

/// A memory size in MiB: 1 to the machine's physical memory.
pub fn memory_mib(text: &str) -> Result<usize, String> {
    let max = physical_memory_mib();
    in_range(text, 1, max).map_err(|e| format!("{e} (MiB; this machine has {max} MiB of memory)"))
}

/// The one memory rule of every command, checked once its options are parsed: the
/// tables it can hold at once, `tables` of `mib` MiB each (their size set by `option`;
/// `how` says where the count comes from, e.g. "2 tables" or "8 searches at once x 2
/// tables"), must fit in the machine's physical memory ([`memory_mib`] checks one table
/// alone). The error names the need, the memory and the largest size that fits.
pub fn check_tables(option: &str, mib: usize, tables: u128, how: &str) -> Result<(), crate::error::CliError> {
    let memory = physical_memory_mib() as u128;
    let need = (mib as u128).saturating_mul(tables);
    check_memory(option, mib, need, &format!("{how} of {mib} MiB"), memory / tables.max(1))
}

/// The memory rule ([`check_tables`]) for a midgame searcher's `--hash-mb`: it holds
/// [`solvo_othello_search::TABLES_PER_SEARCHER`] tables of that size.
pub fn check_searcher_tables(mib: usize) -> Result<(), crate::error::CliError> {
    let tables = solvo_othello_search::TABLES_PER_SEARCHER as u128;
    let how = if tables == 1 { "one table".to_string() } else { format!("{tables} tables") };
    check_tables("--hash-mb", mib, tables, &how)
}

/// The memory rule ([`check_tables`]) for tables of several sizes: `need` MiB in all,
/// `most` the largest `option` that fits.
pub fn check_memory(
    option: &str,
    value: usize,
    need: u128,
    how: &str,
    most: u128,
) -> Result<(), crate::error::CliError> {
    let memory = physical_memory_mib() as u128;
    if need <= memory {
        return Ok(());
    }
    let fix = if most == 0 { "fewer tables".to_string() } else { format!("{option} at most {most}") };
    Err(crate::error::CliError(format!(
        "{option} {value}: {how} need up to {need} MiB, more than this machine's {memory} MiB of memory; use {fix}"
    )))
}

/// A duration in seconds: a finite number above 0 and at most [`MAX_SECONDS`].
pub fn seconds(text: &str) -> Result<f64, String> {
    let expected = || format!("expected a number of seconds above 0 and at most {MAX_SECONDS}");
    let value: f64 = text.trim().parse().map_err(|_| expected())?;
    if !value.is_finite() || value <= 0.0 || value > MAX_SECONDS {
        return Err(expected());
    }
    Ok(value)
}

/// log2 of the bucket count of the generic solvers' table: from
/// [`solvo_search::tt::MIN_BITS`] up to [`solvo_search::tt::MAX_BITS`] and to what fits in
/// the machine's physical memory.
pub fn table_bits(text: &str) -> Result<u32, String> {
    use solvo_search::tt::{BUCKET_BYTES, MAX_BITS, MIN_BITS};
    let memory = (physical_memory_mib() as u128) << 20;
    let max = (MIN_BITS..=MAX_BITS).rev().find(|&b| (BUCKET_BYTES as u128) << b <= memory).unwrap_or(MIN_BITS);
    in_range(text, MIN_BITS, max)
        .map_err(|e| format!("{e} (a table of 2^bits buckets must fit in this machine's memory)"))
}

/// Entries of the generic solvers' table: 16 up to what fits in the machine's physical
/// memory (16 bytes an entry).
pub fn table_entries(text: &str) -> Result<usize, String> {
    let max = ((physical_memory_mib() as u128) << 20) / 16;
    let max = max.min(usize::MAX as u128) as usize;
    in_range(text, 16, max).map_err(|e| format!("{e} (16 bytes an entry must fit in this machine's memory)"))
}

/// The playouts a GRAVE node needs before it orders a solver's moves: 0 to
/// [`MAX_PLAYOUTS`].
pub fn min_visits(text: &str) -> Result<u32, String> {
    in_range(text, 0, MAX_PLAYOUTS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn out_of_range_and_malformed_values_are_refused() {
        for bad in ["0", "-1", "nan", "1e300", "18446744073709551615", "100000", ""] {
            assert!(threads(bad).is_err(), "{bad}");
        }
        assert_eq!(threads("4"), Ok(4));
        assert_eq!(threads_or_all("0"), Ok(0));
        for bad in ["0", "-5", "nan", "inf", "-inf", "1e300", "18446744073709551615e9"] {
            assert!(seconds(bad).is_err(), "{bad}");
        }
        assert_eq!(seconds("0.5"), Ok(0.5));
        assert!(memory_mib("18446744073709551615").is_err());
        assert!(memory_mib(&(physical_memory_mib() + 1).to_string()).is_err());
        assert_eq!(memory_mib("16"), Ok(16));
        assert!(table_bits("3").is_err() && table_bits("4").is_ok() && table_bits("31").is_err());
    }

    /// The memory rule counts every table: one table of half the memory fits, two of
    /// them fit, three do not, and the error says the largest size that fits.
    #[test]
    fn the_memory_rule_counts_every_table_a_command_holds() {
        let half = physical_memory_mib() / 2;
        assert!(check_tables("--hash-mb", half, 1, "1 table").is_ok());
        assert!(check_tables("--hash-mb", half, 2, "2 tables").is_ok());
        let e = check_tables("--hash-mb", half, 3, "3 tables").unwrap_err().0;
        let most = physical_memory_mib() / 3;
        assert!(e.contains(&format!("--hash-mb at most {most}")) && e.contains("3 tables"), "{e}");
        assert!(check_tables("--hash-mb", usize::MAX, u128::MAX, "many").is_err());
    }
}
