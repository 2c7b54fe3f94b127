//! A perft count with its wall time, for the commands that print leaves per second
//! (`position perft`, `bench perft`).

use solvo_othello::perft::{perft, perft_parallel, PerftMode};
use solvo_othello::{Board, BoardSize};
use std::time::Instant;

/// A perft result with its timing.
pub struct Timed {
    /// Leaves counted.
    pub leaves: u64,
    /// Wall time in seconds.
    pub seconds: f64,
}

/// Runs perft and times it.
pub fn timed_perft(board: Board, size: BoardSize, depth: u32, mode: PerftMode, threads: usize) -> Timed {
    let start = Instant::now();
    let leaves =
        if threads == 1 { perft(board, size, depth, mode) } else { perft_parallel(board, size, depth, mode, threads) };
    Timed { leaves, seconds: start.elapsed().as_secs_f64() }
}
