//! Exact-solver options from the command line: the table size for a problem, the
//! options themselves, `--tune` settings, the ordering evaluation, and a solve with a
//! progress line on stderr.

use crate::error::CliError;
use crate::shared::weights::load_weights;
use crate::Common;
use solvo_othello::Position;
use solvo_othello::Square;
use solvo_othello_search::{SolveOptions, SolveResult, Window};
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

/// The default table size for a solve of `empties` empty squares, in MiB: 8 MiB up to
/// 18 empties, doubling with each further empty, 128 MiB from 22 empties on, and never
/// more than a quarter of the machine's memory. The selective ladder's climb searches on
/// this table too (it had a table of the solve's size beside it): FFO #40-#49, 1 thread,
/// 0.94 G nodes with one table of 64 MiB, 0.85 G with one of 128 MiB as with the two
/// tables of 64 MiB each (docs/results/one-search.md). A larger table is slower per node (each
/// probe of a big table misses the address-translation caches, and on a virtual machine
/// the walk is two-dimensional) while saving few nodes: on a 2-core VM, 1 thread, FFO
/// #45-#49 took 23.6-24.0 s at 64 MiB against 26.3-26.6 s at 256 MiB (same nodes within
/// 0.1%), #56 (29 empties) 35.4 s / 37.0 s / 39.5 s / 48.6 s at 64 / 128 / 256 / 1024
/// MiB (nodes within 0.4%), #57-#58 (30 empties) 233 s at 64 MiB against 258 s at 256
/// (4.6% more nodes); 32 MiB lost again (#50-#51: 15% more nodes).
pub fn table_mib_for(empties: u32) -> usize {
    let mib = 8usize << empties.saturating_sub(18).min(4);
    mib.min((crate::option_ranges::physical_memory_mib() / 4).max(1))
}

/// Solver options from the command line; a table the system cannot allocate is an
/// error, not an abort.
pub fn options(threads: usize, hash_mb: usize, window: Option<Window>) -> Result<SolveOptions, CliError> {
    let mut opts = SolveOptions::try_new(hash_mb)?;
    opts.threads = threads.max(1);
    opts.window = window.unwrap_or(Window::FULL);
    Ok(opts)
}

/// Parses `name=value` for `--tune` (the name is checked when applied).
pub fn parse_tune(s: &str) -> Result<(String, u32), String> {
    let (name, value) = s.split_once('=').ok_or_else(|| format!("search option {s:?}: expected name=value"))?;
    let value = value.trim().parse().map_err(|_| format!("search option {name}: value {value:?} is not a number"))?;
    let mut probe = solvo_othello_search::ExactConfig::default();
    probe.set(name.trim(), value)?;
    Ok((name.trim().to_string(), value))
}

/// Applies `--tune` settings to `opts`.
pub fn apply_tune(opts: &mut SolveOptions, tune: &[(String, u32)]) -> Result<(), CliError> {
    for (name, value) in tune {
        opts.config.set(name, *value).map_err(CliError)?;
    }
    Ok(())
}

/// The evaluation for move ordering chosen by `--eval-file` (`None`: the embedded one).
pub fn ordering_eval(
    file: Option<&std::path::Path>,
    common: Common,
) -> Result<Option<std::sync::Arc<solvo_eval::Weights>>, CliError> {
    file.map(|f| load_weights(Some(f), common).map(std::sync::Arc::new)).transpose()
}

/// Solves (climbing `opts.ladder` first when it applies) with a progress line on
/// stderr every second (unless `quiet`).
pub fn solve_with_progress(pos: &Position, opts: &SolveOptions, quiet: bool) -> SolveResult {
    with_progress(opts, quiet, || solvo_othello_search::solve(pos, opts))
}

/// Runs `work` (solves with `opts`) with a progress line on stderr every second
/// (unless `quiet`), read from `opts.progress`.
fn with_progress(opts: &SolveOptions, quiet: bool, work: impl FnOnce() -> SolveResult) -> SolveResult {
    opts.progress.store(0, Ordering::Relaxed);
    let done = std::sync::atomic::AtomicBool::new(false);
    std::thread::scope(|scope| {
        if !quiet {
            let (done, progress) = (&done, &opts.progress);
            scope.spawn(move || {
                let start = Instant::now();
                let mut shown = false;
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    let t = start.elapsed().as_secs_f64();
                    if t >= 1.0 && ((t * 10.0) as u64).is_multiple_of(10) {
                        let n = progress.load(Ordering::Relaxed);
                        eprint!(
                            "\r  solving... {:.0} s, {:.2e} nodes, {:.1} M nodes/s   ",
                            t,
                            n as f64,
                            n as f64 / t / 1e6
                        );
                        shown = true;
                    }
                }
                if shown {
                    eprint!("\r{:100}\r", "");
                }
            });
        }
        let r = work();
        done.store(true, Ordering::Relaxed);
        r
    })
}

/// Parses `a,b` into an inclusive window.
pub fn parse_window(s: &str) -> Result<Window, String> {
    let (a, b) = s.split_once(',').ok_or_else(|| format!("window {s:?}: expected two numbers a,b"))?;
    let lo: i32 = a.trim().parse().map_err(|_| format!("window lower end {a:?} is not an integer"))?;
    let hi: i32 = b.trim().parse().map_err(|_| format!("window upper end {b:?} is not an integer"))?;
    if lo > hi || lo < -64 || hi > 64 {
        return Err(format!("window {lo},{hi}: expected -64 <= a <= b <= 64"));
    }
    Ok(Window { lo, hi })
}

/// Words for a result: `+18`, `>= 4`, `<= -2`, `in [-6, 10]`.
pub fn describe(r: &SolveResult, max: i32) -> String {
    match r.score() {
        Some(v) => format!("{v:+}"),
        None if r.upper >= max => format!(">= {:+}", r.lower),
        None if r.lower <= -max => format!("<= {:+}", r.upper),
        None => format!("in [{:+}, {:+}]", r.lower, r.upper),
    }
}

/// The move a result can vouch for, and what it is in words (for every front end that
/// shows a solve: the command line, the Python package): the best move when the
/// value is exact ("best so far" when stopped); after a fail high (the value is above
/// the window) the move that proved it, which is not necessarily the best; after a fail
/// low (below the window) none, as every move was refuted and none is known best.
pub fn result_move(r: &SolveResult, max: i32) -> (&'static str, Option<Square>) {
    match r.score() {
        _ if r.stopped => ("best so far", r.best_move),
        Some(_) => ("best", r.best_move),
        None if r.lower > -max => ("a move reaching the window", r.best_move),
        None => ("best", None),
    }
}
