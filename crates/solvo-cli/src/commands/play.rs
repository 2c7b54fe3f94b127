//! `solvo play`: a terminal game against the engine (8x8: search with the trained
//! evaluation at a level or time control; 6x6 and 4x4: perfect play, from a store or
//! solved on demand), with undo; and `--self-check`, which plays the perfect player
//! against every reply (4x4) or random replies (6x6) and checks that its guaranteed
//! value never drops.

use crate::error::{context, CliError};
use crate::shared::EngineArgs;
use crate::shared::{move_names, status_line};
use crate::Common;
use serde_json::json;
use solvo_core::rng::Rng;
use solvo_engine::{SearchResult, Session};
use solvo_othello::formats::board_string::diagram;
use solvo_othello::formats::transcript::Ply;
use solvo_othello::{Board, BoardSize, Color, Position, Square};
use solvo_othello_search::SolveOptions;
use solvo_pipeline::player::{ChoiceSource, TablePlayer};
use solvo_solve::player::Player;
use solvo_solve::selfcheck::{check_exhaustive, check_random_game, random_position, CheckReport};
use solvo_solve::store::Store;
use std::io::BufRead;
use std::time::Instant;

/// Arguments of `solvo play` (board from the global `--size`, default 8).
#[derive(clap::Args, Debug)]
pub struct Args {
    /// The colour you play: black (moves first) or white.
    #[arg(long, default_value = "black", value_parser = parse_color)]
    pub human: Color,
    /// Instead of a game: check that the perfect player never loses value against every
    /// reply (4x4, both colours) or random replies (6x6).
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
    /// Play from a weak-solve pipeline's proof: its store (SQLite file or postgres:// URL)
    /// or a table file written by `solvo pipeline table`. Positions the proof covers are
    /// played from it (never below the proven value); the others by the engine (the
    /// exact solver on 6x6/4x4, near the end on 8x8), as the published player does.
    #[arg(long)]
    pub table: Option<String>,
    /// The engine (level, time control, threads, table, --store for 6x6/4x4).
    #[command(flatten)]
    pub engine: EngineArgs,
}

/// The player over `--table` (see [`TablePlayer::open_proof`]); errors name the option
/// and the file.
fn open_table(arg: &str, size: Option<BoardSize>, hash_mb: usize) -> Result<TablePlayer, CliError> {
    let opts = SolveOptions::try_new(hash_mb)?;
    let bytes = if solvo_pipeline::is_postgres(arg) {
        Vec::new()
    } else {
        crate::input_file::read_bytes(std::path::Path::new(arg)).map_err(|e| CliError(format!("--table {}", e.0)))?
    };
    let (player, bad) = TablePlayer::open_proof(arg, &bytes, size, opts).map_err(|e| {
        let hint = if e.contains("needs a board size") { " (give --size)" } else { "" };
        CliError(format!("--table {arg}: {e}{hint}"))
    })?;
    if let Some(first) = bad.first() {
        eprintln!("warning: --table {arg}: {} damaged row(s) left out, first: {first}", bad.len());
    }
    Ok(player)
}

fn parse_color(s: &str) -> Result<Color, String> {
    match s.to_ascii_lowercase().as_str() {
        "black" | "b" | "x" => Ok(Color::Black),
        "white" | "w" | "o" => Ok(Color::White),
        _ => Err(format!("colour {s:?}: expected black or white")),
    }
}

/// The perfect player of the self-check (4x4 or 6x6), from the first store given.
fn make_player(args: &Args, common: Common) -> Result<(Player, BoardSize), CliError> {
    let size = common.size.unwrap_or(BoardSize::Four);
    if size == BoardSize::Eight {
        return Err(CliError("play --self-check: 8x8 is not solved; use --size 4 or --size 6".into()));
    }
    let store = match args.engine.store.first() {
        Some(path) => {
            let store = Store::open_existing(path).map_err(|e| CliError(e.to_string()))?;
            if (store.size(), store.variant()) != (size, common.variant) {
                return Err(CliError(format!(
                    "store {}: holds {} positions under {} rules, not {size} under {}",
                    path.display(),
                    store.size(),
                    store.variant(),
                    common.variant
                )));
            }
            Some(store)
        }
        None => None,
    };
    let mut opts = SolveOptions::try_new(args.engine.hash_mb)?;
    opts.threads = args.engine.threads.max(1);
    Ok((Player::new(size, common.variant, store, opts), size))
}

/// Runs `solvo play`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    if args.self_check && args.table.is_some() {
        return Err(CliError(
            "play: --self-check checks the solution-store player; a --table player is checked by the pipeline tests"
                .into(),
        ));
    }
    if args.self_check {
        let (player, size) = make_player(&args, common)?;
        self_check(&args, common, &player, size)
    } else {
        let stdin = std::io::stdin();
        game(&args, common, &mut stdin.lock())
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
    Undo,
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
        "undo" | "u" => Ok(Input::Undo),
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

/// What the engine's answer says, for people.
fn answer_text(r: &SearchResult) -> String {
    let depth = if r.exact {
        "exact".to_string()
    } else if r.selectivity < 100 {
        format!("depth {}@{}%", r.depth, r.selectivity)
    } else {
        format!("depth {}", r.depth)
    };
    let value = if r.exact { format!("is sure of {:+}", r.score) } else { format!("estimates {:+.2}", r.score) };
    format!("{value} ({depth}, {} nodes, {:.2} s)", r.nodes, r.time.as_secs_f64())
}

fn game(args: &Args, common: Common, input: &mut dyn BufRead) -> Result<(), CliError> {
    let mut table = match &args.table {
        Some(_) if common.variant != solvo_othello::Variant::Normal => {
            return Err(CliError("play --table: the pipeline proves normal-rules games only".into()))
        }
        Some(arg) => Some(open_table(arg, common.size, args.engine.hash_mb)?),
        None => None,
    };
    let size = common.size.or(table.as_ref().map(|t| t.size())).unwrap_or(BoardSize::Eight);
    let mut engine = args.engine.engine(common)?;
    let mut session = Session::new(size, common.variant);
    let mut clock = engine.settings().time.new_clock();
    let side = args.human.opposite();
    if size == BoardSize::Eight {
        out!("solvo plays {side} on {size} ({} rules) at level {}", common.variant, engine.settings().level);
    } else {
        out!(
            "solvo plays {side} on {size} ({} rules), perfectly: it never does worse than the game's value",
            common.variant
        );
        out!("and keeps every point you give away.");
        if args.engine.store.is_empty() && size == BoardSize::Six {
            out!("(no --store: positions are solved on demand; early 6x6 positions can take minutes)");
        }
    }
    out!("Type a move like c4, pass when you must, undo to take back your last move, or quit.");
    // The engine's exact value after its last move, to spot the human's mistakes.
    let mut engine_value: Option<f64> = None;
    loop {
        let pos = session.position();
        out!("{}", diagram(&pos).trim_end());
        out!("{}", status_line(&pos));
        if pos.is_game_over() {
            let black = pos.black_score();
            let result = if side == Color::Black { black } else { -black };
            out!("solvo's result: {result:+}");
            return Ok(());
        }
        let proof_move = match &mut table {
            Some(t) if pos.side == side => t.from_proof(&pos.board),
            _ => None,
        };
        if let Some(c) = proof_move.filter(|c| c.source == ChoiceSource::Proof) {
            let m = c.mv.expect("a proof move is a move");
            out!("solvo ({side}) plays {m}: the proof guarantees it at least {:+}", c.guaranteed);
            session.play_ply(Ply::Move(m)).map_err(|e| CliError(format!("the proof chose an illegal move: {e}")))?;
            engine_value = None;
            continue;
        }
        if pos.side == side {
            let time = engine.move_time(&pos, clock.as_ref());
            if let Some(c) = &mut clock {
                c.start();
            }
            let r = engine.best_move(&pos, time, &mut |_| {}).map_err(|e| CliError(format!("solvo: {e}")))?;
            if let Some(c) = &mut clock {
                c.stop();
            }
            if let (Some(before), true) = (engine_value, r.exact) {
                if r.score > before {
                    out!(
                        "your last move was a mistake: solvo's guaranteed result rose from {before:+} to {:+}",
                        r.score
                    );
                }
            }
            engine_value = r.exact.then_some(r.score);
            let what = r.best_move.map_or("passes".to_string(), |m| format!("plays {m}"));
            out!("solvo ({side}) {what}: it {}", answer_text(&r));
            let ply = r.best_move.map_or(Ply::Pass, Ply::Move);
            session.play_ply(ply).map_err(|e| CliError(format!("solvo chose an illegal move: {e}")))?;
            continue;
        }
        loop {
            eprint!("your move ({}): ", args.human);
            let mut line = String::new();
            let n = input.read_line(&mut line).map_err(context("reading your move"))?;
            if n == 0 {
                out!("end of input: game abandoned");
                return Ok(());
            }
            match parse_human(&line, &pos) {
                Ok(Input::Move(m)) => {
                    session.play_ply(m.map_or(Ply::Pass, Ply::Move)).map_err(CliError)?;
                    break;
                }
                Ok(Input::Undo) => {
                    // Back to the human's previous turn: the plies since then.
                    let before = session.plies().len();
                    while session.undo().is_some() {
                        let p = session.position();
                        if p.side == args.human && p.moves() != 0 {
                            break;
                        }
                    }
                    if session.plies().len() == before || session.position().side != args.human {
                        out!("nothing to undo");
                        while session.redo().is_some() {}
                    } else {
                        engine_value = None;
                    }
                    break;
                }
                Ok(Input::Quit) => {
                    out!("game abandoned");
                    return Ok(());
                }
                Ok(Input::Help) => {
                    out!("{}; type a move like c4, pass (only when you have no move), undo, or quit", status_line(&pos))
                }
                Err(e) => out!("error: {e}"),
            }
        }
    }
}
