//! Solves a small game with a plain memoized win/loss negamax, for measuring values
//! outside the test suite (the real solvers live in solvo-search).
//!
//! Usage: `cargo run --release -p solvo-games --example memo_solve -- GAME RxC [key=value,...]`
//! e.g. `... -- misere-breakthrough 4x5 no-move=win` or `... -- go 3x3 komi=9.5`.

use solvo_core::{Game, Status};
use solvo_games::{dispatch_with, parse_size, GameOptions, GameVisitor};
use std::collections::HashMap;
use std::time::Instant;

struct Memo {
    table: HashMap<u64, i32>,
    nodes: u64,
}

impl Memo {
    fn value<G: Game>(&mut self, g: &G) -> i32 {
        self.nodes += 1;
        match g.status() {
            Status::Over(v) => return v,
            Status::MustPass => return -self.value(&g.pass().expect("MustPass has a pass")),
            Status::ToMove => {}
        }
        let key = g.hash_key();
        if let Some(&v) = self.table.get(&key) {
            return v;
        }
        let mut moves = Vec::new();
        g.generate_moves(&mut moves);
        moves.sort_by_key(|&m| -g.move_priority(m));
        let mut best = -g.max_value() - 1;
        for m in moves {
            best = best.max(-self.value(&g.play(m)));
            if best >= g.max_value() {
                break;
            }
        }
        self.table.insert(key, best);
        best
    }
}

struct Solve;

impl GameVisitor for Solve {
    type Output = ();
    fn visit<G: Game + std::fmt::Display + 'static>(self, game: G) {
        print!("{game}");
        let start = Instant::now();
        let mut memo = Memo { table: HashMap::new(), nodes: 0 };
        let v = memo.value(&game);
        let verdict = match v {
            1 => "first player wins",
            -1 => "second player wins",
            _ => "draw",
        };
        println!(
            "value {v} ({verdict}); {} nodes, {} positions stored, {:.2} s",
            memo.nodes,
            memo.table.len(),
            start.elapsed().as_secs_f64()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.len() < 2 {
        eprintln!("usage: memo_solve GAME RxC [key=value,...]");
        std::process::exit(2);
    }
    let run = || -> Result<(), solvo_games::GameError> {
        let (rows, cols) = parse_size(&args[1])?;
        let options = GameOptions::parse(args.get(2).map(String::as_str).unwrap_or(""))?;
        dispatch_with(&args[0], rows, cols, &options, Solve)
    };
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
