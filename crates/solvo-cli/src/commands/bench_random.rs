//! `solvo bench random`: exact solves of positions from seeded random games, for either
//! variant and any `--size`: one row per position, then totals. Measures search switches (`--tune`) and
//! evaluations (`--eval-file`) where no problem set exists (Reversed Reversi).

use crate::error::CliError;
use crate::shared::{apply_tune, ordering_eval, solve_with_progress};
use crate::Common;
use serde_json::json;
use solvo_core::rng::Rng;
use solvo_othello::formats::board_string::format_position;
use solvo_othello::{BoardSize, Position, Square};

/// Arguments of `solvo bench random`.
#[derive(clap::Args, Debug)]
pub struct RandomArgs {
    /// Empty squares of every position.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=40))]
    pub empties: u32,
    /// Number of positions.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub count: u64,
    /// Seed of the random games.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Search threads.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Transposition table size in MiB (cleared between positions).
    #[arg(long, default_value_t = 64, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
    /// Search switches, `name=value` (repeatable), as for `solvo solve --tune`.
    #[arg(long, value_parser = crate::shared::parse_tune)]
    pub tune: Vec<(String, u32)>,
    /// Weight file whose evaluation orders the moves (default: the embedded one).
    #[arg(long)]
    pub eval_file: Option<std::path::PathBuf>,
    /// No progress line.
    #[arg(long)]
    pub quiet: bool,
    /// The selective ladder.
    #[command(flatten)]
    pub ladder: crate::shared::LadderArgs,
}

/// `count` positions with `empties` empties (side to move has a move) from seeded
/// uniformly random games on `size` under `variant`; `empties` must be below the
/// board's squares minus 4 (the caller checks).
pub fn random_positions(
    count: usize,
    size: BoardSize,
    empties: u32,
    seed: u64,
    variant: solvo_othello::Variant,
) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = Position::start(size, variant);
        while pos.empties() > empties && !pos.is_game_over() {
            let moves = pos.moves();
            if moves == 0 {
                pos = pos.passed();
                continue;
            }
            let squares: Vec<Square> = Square::iter(moves).collect();
            pos = pos.play(rng.pick(&squares)).expect("a legal move");
        }
        if pos.empties() == empties && pos.moves() != 0 {
            out.push(pos);
        }
    }
    out
}

/// Runs `solvo bench random`.
pub fn run(args: RandomArgs, common: Common) -> Result<(), CliError> {
    let mut opts = crate::shared::options(args.threads, args.hash_mb, None)?;
    apply_tune(&mut opts, &args.tune)?;
    opts.eval = ordering_eval(args.eval_file.as_deref(), common)?;
    opts.ladder = std::sync::Arc::new(args.ladder.ladder(args.threads, args.eval_file.as_deref(), common)?);
    let size = common.size.unwrap_or(BoardSize::Eight);
    if args.empties >= size.squares() - 4 {
        return Err(CliError(format!(
            "--empties {}: a {size} game has fewer than {} empties after its first move",
            args.empties,
            size.squares() - 4
        )));
    }
    let positions = random_positions(args.count as usize, size, args.empties, args.seed, common.variant);
    let (mut nodes, mut ordering, mut secs) = (0u64, 0u64, 0.0f64);
    if !common.json {
        out!(
            "{} positions with {} empties from random {size} games (seed {}), {} rules",
            positions.len(),
            args.empties,
            args.seed,
            common.variant
        );
        out!("{:>4} {:>6} {:>5} {:>14} {:>12} {:>9}", "#", "score", "move", "nodes", "+ordering", "seconds");
    }
    for (i, pos) in positions.iter().enumerate() {
        opts.tt.clear();
        let r = solve_with_progress(pos, &opts, args.quiet || common.json);
        let score = r.score().ok_or_else(|| CliError(format!("position {} was not solved exactly", i + 1)))?;
        let t = r.time.as_secs_f64();
        nodes += r.nodes;
        ordering += r.ordering_nodes;
        secs += t;
        let best = r.best_move.map_or("--".to_string(), |m| m.to_string());
        if common.json {
            out!(
                "{}",
                json!({"bench": "random", "index": i + 1, "board": format_position(pos), "score": score,
                              "best_move": best, "nodes": r.nodes, "ordering_nodes": r.ordering_nodes, "time_ms": t * 1e3})
            );
        } else {
            out!("{:>4} {:>+6} {:>5} {:>14} {:>12} {:>9.3}", i + 1, score, best, r.nodes, r.ordering_nodes, t);
        }
    }
    if common.json {
        out!(
            "{}",
            json!({"bench": "random", "positions": positions.len(), "empties": args.empties, "variant": common.variant.name(),
                          "total_nodes": nodes, "total_ordering_nodes": ordering, "total_time_ms": secs * 1e3})
        );
    } else {
        out!(
            "total: {nodes} nodes + {ordering} ordering nodes, {secs:.3} s, {:.1} M nodes/s",
            nodes as f64 / secs.max(1e-9) / 1e6
        );
    }
    Ok(())
}
