use solvo_othello::perft::{perft, perft_parallel, PerftMode};
use solvo_othello::{Board, BoardSize};
fn main() {
    let d: u32 = std::env::args().nth(1).map_or(11, |s| s.parse().unwrap());
    let t: usize = std::env::args().nth(2).map_or(1, |s| s.parse().unwrap());
    let start = std::time::Instant::now();
    let n = if t == 1 {
        perft(Board::start(), BoardSize::Eight, d, PerftMode::PassPlyEndCounted)
    } else {
        perft_parallel(Board::start(), BoardSize::Eight, d, PerftMode::PassPlyEndCounted, t)
    };
    let s = start.elapsed().as_secs_f64();
    println!("{n} {s:.3}s {:.1} M/s", n as f64 / s / 1e6);
}
