//! `solvo bench`: benchmarks that print figures (never pass/fail).

use crate::commands::perft::timed_perft;
use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_othello::perft::PerftMode;
use solvo_othello::{Board, BoardSize};

/// Arguments of `solvo bench`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub what: What,
}

/// The benchmarks.
#[derive(clap::Subcommand, Debug)]
pub enum What {
    /// perft from the 8x8 start at each depth on each thread count: time and leaves/s.
    Perft {
        /// Depths to run.
        #[arg(long, value_delimiter = ',', default_value = "11,12")]
        depths: Vec<u32>,
        /// Thread counts to run.
        #[arg(long, value_delimiter = ',', default_value = "1,2")]
        threads: Vec<usize>,
        /// Repetitions of each run (the best time is reported).
        #[arg(long, default_value_t = 1)]
        repeat: u32,
    },
}

/// Peak resident memory of this process in KiB (Linux `VmHWM`), if known.
pub fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// Runs `solvo bench`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    match args.what {
        What::Perft { depths, threads, repeat } => {
            let size = common.size.unwrap_or(BoardSize::Eight);
            if !common.json {
                out!("perft from the {size} start, mode pass-ply-end-counted, best of {repeat}");
                out!("{:>5} {:>7} {:>16} {:>10} {:>14}", "depth", "threads", "leaves", "seconds", "M leaves/s");
            }
            for &depth in &depths {
                for &t in &threads {
                    let best = (0..repeat.max(1))
                        .map(|_| timed_perft(Board::start(), size, depth, PerftMode::PassPlyEndCounted, t.max(1)))
                        .min_by(|a, b| a.seconds.total_cmp(&b.seconds))
                        .expect("at least one repetition");
                    let rate = best.leaves as f64 / best.seconds.max(1e-9);
                    if common.json {
                        out!(
                            "{}",
                            json!({"bench": "perft", "size": size.side(), "depth": depth, "threads": t,
                                   "leaves": best.leaves, "time_ms": best.seconds * 1e3, "leaves_per_second": rate})
                        );
                    } else {
                        out!("{depth:>5} {t:>7} {:>16} {:>10.3} {:>14.1}", best.leaves, best.seconds, rate / 1e6);
                    }
                }
            }
            let rss = peak_rss_kib();
            if common.json {
                out!("{}", json!({"bench": "perft", "peak_rss_kib": rss}));
            } else if let Some(kib) = rss {
                out!("peak RSS: {:.1} MiB", kib as f64 / 1024.0);
            }
            Ok(())
        }
    }
}
