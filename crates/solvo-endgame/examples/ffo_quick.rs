use solvo_endgame::{solve, SolveOptions};
use solvo_othello::formats::board_string::parse_position;
use solvo_othello::Variant;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = &args[1];
    let from: usize = args.get(2).map_or(1, |s| s.parse().unwrap());
    let to: usize = args.get(3).map_or(99, |s| s.parse().unwrap());
    let threads: usize = args.get(4).map_or(1, |s| s.parse().unwrap());
    let text = std::fs::read_to_string(file).unwrap();
    let mut opts = SolveOptions::new(256);
    opts.threads = threads;
    if let Ok(v) = std::env::var("SHALLOW") {
        opts.config.shallow_empties = v.parse().unwrap();
    }
    if let Ok(v) = std::env::var("ETC") {
        opts.config.etc_min_empties = v.parse().unwrap();
    }
    if let Ok(v) = std::env::var("SORD") {
        opts.config.shallow_order_empties = v.parse().unwrap();
    }
    if let Ok(v) = std::env::var("SSTEP") {
        opts.config.shallow_order_step = v.parse().unwrap();
    }
    if std::env::var("NOSTAB").is_ok() {
        opts.config.stability = false;
    }
    let (mut tn, mut tt) = (0u64, 0f64);
    for (i, line) in text.lines().enumerate() {
        let k = i + 1;
        if k < from || k > to || line.trim().is_empty() {
            continue;
        }
        let board = &line[..line.find(';').unwrap()];
        let pos = parse_position(board, None, Variant::Normal).unwrap();
        opts.tt.clear();
        let r = solve(&pos, &opts);
        let best = line.split(';').nth(1).unwrap().trim().to_string();
        let s = r.time.as_secs_f64();
        tn += r.nodes;
        tt += s;
        println!(
            "{k:3} e{:2} score {:?} move {:?} (file {best}) nodes {:>12} {:8.3}s {:6.1} Mn/s cut {}",
            pos.empties(),
            r.score(),
            r.best_move.map(|m| m.to_string()),
            r.nodes,
            s,
            r.nodes as f64 / s / 1e6,
            r.tt.cutoffs
        );
    }
    println!("total nodes {tn} time {tt:.3}s {:.1} Mn/s", tn as f64 / tt / 1e6);
}
