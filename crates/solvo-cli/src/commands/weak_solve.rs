//! `solvo solution weak`: the value of the start position and a proven principal
//! variation, with the size of the search that proved it.

use crate::error::CliError;
use crate::shared::options;
use crate::shared::peak_rss_kib;
use crate::Common;
use serde_json::json;
use solvo_othello::BoardSize;
use solvo_solve::weak::weak_solve;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Arguments of `solvo solution weak` (board from the global `--size`: 4 or 6).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Transposition table size in MiB.
    #[arg(long, default_value_t = 1024, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
    /// Expected value (black's final disc difference): search only the window
    /// [guess, guess] first (a wrong guess costs a second search, never a wrong answer).
    #[arg(long, allow_hyphen_values = true, value_parser = crate::option_ranges::score)]
    pub guess: Option<i32>,
    /// No progress line on stderr.
    #[arg(long)]
    pub quiet: bool,
    /// Search switches, `name=value` (repeatable), as for `solvo solve --tune` (e.g.
    /// `eval_order=0` to solve without the 6x6 evaluation ordering the moves).
    #[arg(long, value_parser = crate::shared::parse_tune)]
    pub tune: Vec<(String, u32)>,
}

/// Runs `solvo solution weak`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let size = common.size.ok_or_else(|| CliError("weak-solve needs --size 4 or --size 6".into()))?;
    if size == BoardSize::Eight {
        return Err(CliError("weak-solve: 8x8 is out of reach here; use --size 4 or --size 6".into()));
    }
    let mut opts = options(args.threads, args.hash_mb, None)?;
    crate::shared::apply_tune(&mut opts, &args.tune)?;
    let done = AtomicBool::new(false);
    let result = std::thread::scope(|scope| {
        if !args.quiet && !common.json {
            let (done, progress) = (&done, &opts.progress);
            scope.spawn(move || {
                let start = Instant::now();
                let mut last_print = Duration::ZERO;
                while !done.load(Ordering::Relaxed) {
                    std::thread::sleep(Duration::from_millis(100));
                    let t = start.elapsed();
                    if t >= last_print + Duration::from_secs(1) {
                        last_print = t;
                        let n = progress.load(Ordering::Relaxed) as f64;
                        let s = t.as_secs_f64();
                        eprint!("\r  weak solve... {s:.0} s, {n:.3e} nodes, {:.1} M nodes/s   ", n / s / 1e6);
                    }
                }
                if last_print > Duration::ZERO {
                    eprint!("\r{:80}\r", "");
                }
            });
        }
        let r = weak_solve(size, common.variant, &opts, args.guess);
        done.store(true, Ordering::Relaxed);
        r
    })
    .map_err(|e| CliError(format!("weak-solve {size}: {e}")))?;
    let pv: Vec<String> = result.pv.iter().map(|m| m.map_or("pa".to_string(), |s| s.to_string())).collect();
    let secs = result.time().as_secs_f64();
    if common.json {
        let steps: Vec<_> = result
            .steps
            .iter()
            .map(|s| json!({"first_move": s.root_move.map(|m| m.to_string()), "window_black": [-s.window.hi, -s.window.lo],
                             "lower_black": -s.upper, "upper_black": -s.lower, "nodes": s.nodes, "seconds": s.time.as_secs_f64()}))
            .collect();
        out!(
            "{}",
            json!({"size": size.side(), "variant": common.variant, "value": result.value,
                   "final_discs": [result.final_discs.0, result.final_discs.1], "pv": pv,
                   "nodes": result.nodes(), "seconds": secs, "threads": args.threads, "hash_mb": args.hash_mb,
                   "steps": steps, "tt": result.last.tt, "peak_rss_kib": peak_rss_kib()})
        );
    } else {
        out!(
            "{size} {} start: value {:+} for black (final discs {}-{}), proven",
            common.variant,
            result.value,
            result.final_discs.0,
            result.final_discs.1
        );
        out!("principal variation (replayed and checked): {}", pv.join(" "));
        for s in &result.steps {
            out!(
                "  after {}: window [{:+}, {:+}] -> black's value in [{:+}, {:+}], {} nodes, {:.3} s",
                s.root_move.map_or("-".to_string(), |m| m.to_string()),
                -s.window.hi,
                -s.window.lo,
                -s.upper,
                -s.lower,
                s.nodes,
                s.time.as_secs_f64()
            );
        }
        out!(
            "proof size: {} nodes in {:.3} s ({:.1} M nodes/s) on {} thread(s), {} MiB table ({:.0}% full)",
            result.nodes(),
            secs,
            result.nodes() as f64 / secs.max(1e-9) / 1e6,
            args.threads,
            args.hash_mb,
            result.last.tt.occupancy * 100.0
        );
    }
    Ok(())
}
