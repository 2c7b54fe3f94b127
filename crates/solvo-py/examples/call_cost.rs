//! The cost of one exact solve called from Rust, for the call-cost comparison of
//! docs/results/python.md: `cargo run --release -p solvo-py --example call_cost -- BOARD
//! [CALLS]` solves BOARD (a board string) CALLS times (default 1000) as `solvo.solve` does
//! (a table sized by the empties, made for each call) and with one table kept, and prints
//! the mean time per call.

use solvo_othello::formats::board_string::parse_position;
use solvo_othello::Variant;
use solvo_othello_search::{solve, SolveOptions};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(board) = args.get(1) else {
        eprintln!("usage: call_cost BOARD [CALLS]");
        std::process::exit(2);
    };
    let calls: u32 = args.get(2).and_then(|c| c.parse().ok()).unwrap_or(1000);
    let pos = parse_position(board, None, Variant::Normal).unwrap_or_else(|e| {
        eprintln!("{board}: {e}");
        std::process::exit(2);
    });
    let mib = solvo_shell::shared::table_mib_for(pos.empties());
    let start = Instant::now();
    let mut score = None;
    for _ in 0..calls {
        let options = SolveOptions::try_new(mib).expect("a table");
        score = solve(&pos, &options).score();
    }
    let fresh = start.elapsed().as_secs_f64() / f64::from(calls);
    let options = SolveOptions::try_new(mib).expect("a table");
    let start = Instant::now();
    for _ in 0..calls {
        score = solve(&pos, &options).score();
    }
    let kept = start.elapsed().as_secs_f64() / f64::from(calls);
    println!(
        "{} empties, score {:?}: {:.1} us per call with a new {mib} MiB table, {:.1} us with one table kept",
        pos.empties(),
        score,
        fresh * 1e6,
        kept * 1e6
    );
}
