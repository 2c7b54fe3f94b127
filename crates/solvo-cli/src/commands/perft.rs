//! `solvo position perft`: leaf counts of the game tree.

use crate::error::CliError;
use crate::input::parse_input;
use crate::shared::timed_perft;
use crate::Common;
use serde_json::json;
use solvo_othello::formats::board_string::format_position;
use solvo_othello::perft::PerftMode;
use solvo_othello::{BoardSize, Square};

/// Arguments of `solvo position perft`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Depth in plies (0 to 128).
    #[arg(value_parser = crate::option_ranges::perft_depth, allow_negative_numbers = true)]
    pub depth: u32,
    /// Start from this position (board string, OBF line or transcript) instead of the
    /// standard start.
    #[arg(long, allow_hyphen_values = true)]
    pub from: Option<String>,
    /// Counting convention: pass-ply-end-counted (a, default, Bik), pass-ply-end-not-counted
    /// (b, PanicSheep / OEIS A124004), pass-no-ply-end-counted (c, Egaroucid mode 2).
    #[arg(long, default_value = "pass-ply-end-counted")]
    pub mode: PerftMode,
    /// Threads (0 = all cores).
    #[arg(long, default_value_t = 0, value_parser = crate::option_ranges::threads_or_all, allow_negative_numbers = true)]
    pub threads: usize,
    /// Also print the count below each legal move of the root.
    #[arg(long)]
    pub divide: bool,
}

/// Runs `solvo position perft`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let pos = match &args.from {
        Some(text) => parse_input(text, common)?.position,
        None => solvo_othello::Position::start(common.size.unwrap_or(BoardSize::Eight), common.variant),
    };
    let threads =
        if args.threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { args.threads };
    let mut divide = Vec::new();
    if args.divide && args.depth > 0 {
        let moves = pos.moves();
        if moves == 0 {
            let t = timed_perft(pos.board.pass(), pos.size, args.depth - 1, args.mode, threads);
            divide.push(("pass".to_string(), t.leaves));
        }
        for sq in Square::iter(moves) {
            let child = pos.board.play_with_flips(sq, pos.board.flips(sq));
            divide.push((sq.to_string(), timed_perft(child, pos.size, args.depth - 1, args.mode, threads).leaves));
        }
    }
    let t = timed_perft(pos.board, pos.size, args.depth, args.mode, threads);
    let rate = t.leaves as f64 / t.seconds.max(1e-9);
    if common.json {
        let out = json!({
            "from": format_position(&pos),
            "size": pos.size.side(),
            "depth": args.depth,
            "mode": args.mode,
            "threads": threads,
            "leaves": t.leaves,
            "time_ms": t.seconds * 1e3,
            "leaves_per_second": rate,
            "divide": if args.divide { Some(divide.iter().map(|(m, n)| json!({"move": m, "leaves": n})).collect::<Vec<_>>()) } else { None },
        });
        out!("{out}");
    } else {
        for (m, n) in &divide {
            out!("{m:>4} {n}");
        }
        out!(
            "perft({}) = {} leaves  [{} {}, {}]  {:.3} s, {:.1} M leaves/s, {} thread{}",
            args.depth,
            t.leaves,
            pos.size,
            pos.variant,
            args.mode.name(),
            t.seconds,
            rate / 1e6,
            threads,
            if threads == 1 { "" } else { "s" }
        );
    }
    Ok(())
}
