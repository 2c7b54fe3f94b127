//! `solvo play`: a terminal game against the perfect player, and `--self-check`, which
//! plays the engine against every reply (4x4) or random replies (6x6) and checks that
//! its guaranteed value never drops.

use crate::commands::show::{move_names, status_line};
use crate::error::{context, CliError};
use crate::Common;
use serde_json::json;
use solvo_core::rng::Rng;
use solvo_endgame::SolveOptions;
use solvo_othello::formats::board_string::diagram;
use solvo_othello::{Board, BoardSize, Color, Position, Square};
use solvo_solve::player::{Choice, Player, Source};
use solvo_solve::selfcheck::{check_exhaustive, check_random_game, random_position, CheckReport};
use solvo_solve::store::Store;
use std::io::BufRead;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `solvo play` (board from the global `--size`: 4 or 6, default 4).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// A solution store to take values and moves from (positions it lacks are solved).
    #[arg(long)]
    pub store: Option<PathBuf>,
    /// The colour you play: black (moves first) or white.
    #[arg(long, default_value = "black", value_parser = parse_color)]
    pub human: Color,
    /// Instead of a game: check that the engine never loses value against every reply
    /// (4x4, both colours) or random replies (6x6).
    #[arg(long)]
    pub self_check: bool,
    /// Self-check on 6x6: number of random games.
    #[arg(long, default_value_t = 10)]
    pub games: u64,
    /// Self-check on 6x6: games start from a random position with at most this many
    /// empties (early 6x6 positions take minutes to solve without a store).
    #[arg(long, default_value_t = 20)]
    pub from_empties: u32,
    /// Self-check on 6x6: random seed.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Solver threads.
    #[arg(long, default_value_t = 1, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub threads: usize,
    /// Solver table size in MiB.
    #[arg(long, default_value_t = 256, value_parser = crate::option_ranges::memory_mib, allow_negative_numbers = true)]
    pub hash_mb: usize,
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Ok(Color::Black),
        "white" | "w" | "o" => Ok(Color::White),
        _ => Err(format!("colour {s:?}: expected black or white")),
    }
}

fn make_player(args: &Args, common: Common) -> Result<(Player, BoardSize), CliError> {
    let size = common.size.unwrap_or(BoardSize::Four);
    if size == BoardSize::Eight {
        return Err(CliError("play: 8x8 is not solved; use --size 4 or --size 6".into()));
    }
    let store = match &args.store {
        Some(path) if !path.exists() => {
            return Err(CliError(format!("store {}: no such file", path.display())));
        }
        Some(path) => Some(Store::open(path, size, common.variant).map_err(context(path.display()))?),
        None => None,
    };
    let mut opts = SolveOptions::try_new(args.hash_mb)?;
    opts.threads = args.threads.max(1);
    Ok((Player::new(size, common.variant, store, opts), size))
}

/// Runs `solvo play`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    let (player, size) = make_player(&args, common)?;
    if args.self_check {
        self_check(&args, common, &player, size)
    } else {
        let stdin = std::io::stdin();
        game(&args, common, &player, size, &mut stdin.lock())
    }
}

fn source_text(s: &Source) -> String {
    match s {
        Source::Rules => "by the rules".into(),
        Source::Store => "from the store".into(),
        Source::Solver { nodes, .. } => format!("solved, {nodes} nodes"),
    }
}

fn print_report(label: &str, r: &CheckReport, secs: f64, json: bool) {
    if json {
        out!(
            "{}",
            json!({"check": label, "ok": true, "games": r.games, "engine_moves": r.engine_moves,
                   "opponent_moves": r.opponent_moves, "mistakes_punished": r.mistakes,
                   "worst_margin": r.worst_margin, "seconds": secs})
        );
    } else {
        out!(
            "{label}: ok, {} games, {} engine moves, {} opponent moves, {} mistakes punished, worst (result - start value) {:+}, {secs:.2} s",
            r.games,
            r.engine_moves,
            r.opponent_moves,
            r.mistakes,
            r.worst_margin
        );
    }
}

fn self_check(args: &Args, common: Common, player: &Player, size: BoardSize) -> Result<(), CliError> {
    let fail = |e: String| CliError(format!("self-check FAILED: {e}"));
    if size == BoardSize::Four {
        for (engine_first, label) in
            [(true, "engine black, every white reply"), (false, "engine white, every black reply")]
        {
            let t = Instant::now();
            let r = check_exhaustive(player, Board::start(), engine_first).map_err(fail)?;
            print_report(label, &r, t.elapsed().as_secs_f64(), common.json);
        }
        return Ok(());
    }
    let most = size.squares() - 4;
    if args.from_empties > most {
        return Err(CliError(format!(
            "--from-empties {}: expected at most {most} (the empties of the {size} start)",
            args.from_empties
        )));
    }
    let mut rng = Rng::new(args.seed);
    let mut total = CheckReport::default();
    let t = Instant::now();
    for game in 0..args.games {
        let start = random_position(player, Board::start(), args.from_empties, &mut rng);
        let engine_first = game % 2 == 0;
        check_random_game(player, start, engine_first, &mut rng, &mut total)
            .map_err(|e| fail(format!("game {}: {e}", game + 1)))?;
    }
    let label = format!("{} random games from positions with <= {} empties", args.games, args.from_empties);
    print_report(&label, &total, t.elapsed().as_secs_f64(), common.json);
    Ok(())
}

/// What the human typed.
enum Input {
    Move(Option<Square>),
    Quit,
    Help,
}

/// Reads one human ply; errors are messages to show before asking again.
fn parse_human(line: &str, pos: &Position) -> Result<Input, String> {
    let word = line.trim().to_ascii_lowercase();
    let moves = pos.moves();
    match word.as_str() {
        "quit" | "q" | "exit" => Ok(Input::Quit),
        "help" | "?" | "" => Ok(Input::Help),
        "pass" | "pa" if moves == 0 => Ok(Input::Move(None)),
        "pass" | "pa" => Err(format!("you cannot pass: you have legal moves ({})", move_names(moves).join(" "))),
        _ => {
            let sq = Square::parse(&word)
                .ok_or_else(|| format!("{:?} is not a square (type a move like c4, pass, or quit)", line.trim()))?;
            if moves == 0 {
                Err("you have no legal move: type pass".into())
            } else if moves & sq.bit() == 0 {
                Err(format!("{sq} is not a legal move here; legal moves: {}", move_names(moves).join(" ")))
            } else {
                Ok(Input::Move(Some(sq)))
            }
        }
    }
}

fn game(
    args: &Args,
    common: Common,
    player: &Player,
    size: BoardSize,
    input: &mut dyn BufRead,
) -> Result<(), CliError> {
    let mut pos = Position::start(size, common.variant);
    let engine = args.human.opposite();
    out!(
        "solvo plays {engine} on {size} ({} rules), perfectly: it never does worse than the game's value",
        common.variant
    );
    out!("and keeps every point you give away. Type a move like c4, pass when you must, or quit.");
    if args.store.is_none() && size == BoardSize::Six {
        out!("(no --store: positions are solved on demand; early 6x6 positions can take minutes)");
    }
    // The engine's guaranteed result after its last move, to spot the human's mistakes.
    let mut engine_value: Option<i32> = None;
    loop {
        out!("{}", diagram(&pos).trim_end());
        out!("{}", status_line(&pos));
        if pos.is_game_over() {
            let black = pos.black_score();
            let engine_result = if engine == Color::Black { black } else { -black };
            out!(
                "solvo's result: {engine_result:+}{}",
                engine_value.map_or(String::new(), |v| format!(" (its guaranteed value was {v:+})"))
            );
            return Ok(());
        }
        if pos.side == engine {
            let t = Instant::now();
            let choice: Choice = player.choose(&pos.board).map_err(|e| CliError(format!("solvo: {e}")))?;
            if let Some(before) = engine_value {
                if choice.value > before {
                    out!(
                        "your last move was a mistake: solvo's guaranteed result rose from {before:+} to {:+}",
                        choice.value
                    );
                }
            }
            engine_value = Some(choice.value);
            let what = choice.mv.map_or("passes".to_string(), |m| format!("plays {m}"));
            out!(
                "solvo ({engine}) {what}: it is sure of {:+} ({}, {:.2} s)",
                choice.value,
                source_text(&choice.source),
                t.elapsed().as_secs_f64()
            );
            pos = match choice.mv {
                Some(m) => pos.play(m).ok_or_else(|| CliError(format!("solvo chose an illegal move {m}")))?,
                None => pos.passed(),
            };
            continue;
        }
        let mv = loop {
            eprint!("your move ({}): ", args.human);
            let mut line = String::new();
            let n = input.read_line(&mut line).map_err(context("reading your move"))?;
            if n == 0 {
                out!("end of input: game abandoned");
                return Ok(());
            }
            match parse_human(&line, &pos) {
                Ok(Input::Move(m)) => break m,
                Ok(Input::Quit) => {
                    out!("game abandoned");
                    return Ok(());
                }
                Ok(Input::Help) => {
                    out!("{}; type a move like c4, pass (only when you have no move), or quit", status_line(&pos))
                }
                Err(e) => out!("error: {e}"),
            }
        };
        pos = match mv {
            Some(m) => pos.play(m).expect("checked legal"),
            None => pos.passed(),
        };
    }
}
