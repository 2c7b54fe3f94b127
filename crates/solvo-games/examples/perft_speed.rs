//! Move-generation speed of a game: counts the leaves `depth` plies deep (status,
//! generate_moves and play at every node) and reports nodes per second.
//!
//! Usage: `cargo run --release -p solvo-games --example perft_speed -- GAME RxC DEPTH [key=value,...]`

use solvo_core::{Game, Status};
use solvo_games::{dispatch_with, parse_size, GameOptions, GameVisitor};
use std::time::Instant;

fn walk<G: Game>(g: &G, depth: u32, nodes: &mut u64) -> u64 {
    *nodes += 1;
    if depth == 0 {
        return 1;
    }
    match g.status() {
        Status::Over(_) => 1,
        Status::MustPass => walk(&g.pass().expect("MustPass has a pass"), depth - 1, nodes),
        Status::ToMove => {
            let mut moves = Vec::new();
            g.generate_moves(&mut moves);
            moves.iter().map(|&m| walk(&g.play(m), depth - 1, nodes)).sum()
        }
    }
}

struct Speed(u32);

impl GameVisitor for Speed {
    type Output = ();
    fn visit<G: Game + std::fmt::Display + 'static>(self, game: G) {
        let start = Instant::now();
        let mut nodes = 0;
        let leaves = walk(&game, self.0, &mut nodes);
        let secs = start.elapsed().as_secs_f64();
        println!(
            "depth {}: {leaves} leaves, {nodes} nodes, {secs:.2} s, {:.1} M nodes/s",
            self.0,
            nodes as f64 / secs / 1e6
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 3 {
        eprintln!("usage: perft_speed GAME RxC DEPTH [key=value,...]");
        std::process::exit(2);
    }
    let run = || -> Result<(), String> {
        let (rows, cols) = parse_size(&args[1]).map_err(|e| e.to_string())?;
        let depth: u32 = args[2].parse().map_err(|_| format!("bad depth '{}'", args[2]))?;
        let options = GameOptions::parse(args.get(3).map(String::as_str).unwrap_or("")).map_err(|e| e.to_string())?;
        dispatch_with(&args[0], rows, cols, &options, Speed(depth)).map_err(|e| e.to_string())
    };
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
