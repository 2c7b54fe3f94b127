//! `solvo`: the command line of the solvo engine.
//!
//! Every command prints text for people by default and one JSON object per result
//! with `--json`. Errors go to stderr with a non-zero exit code (1 for bad input or
//! failed work, 2 for bad command-line usage).

#[macro_use]
extern crate solvo_shell;

/// The memory allocator: mimalloc, whose threads allocate from their own heaps. The
/// generic game solvers allocate move lists at every node; with the system allocator two
/// search threads contended for its lock (Knightthrough 6x6, `ab-tt-mc --etc`: 2 threads
/// 11.3 s against 4.6 s on one, 15% of the time waking waiters of the allocator's lock).
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

mod commands;
mod shared;

use clap::{Parser, Subcommand};
use error::CliError;
pub use solvo_shell::{error, input, input_file, option_ranges, Common};

/// solvo — perfect play for Othello (Reversi) and other small games.
#[derive(Parser, Debug)]
#[command(name = "solvo", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    #[command(flatten)]
    common: solvo_shell::CommonArgs,
}

/// The top-level commands: the friendliest entry points, then one group per thing they
/// front. The commands' older flat names stay as hidden aliases of the same code, so
/// command lines that worked before keep working.
#[derive(Subcommand, Debug)]
enum Command {
    /// Solve positions exactly: score (final disc difference for the side to move, empties
    /// to the winner), best move, principal variation, nodes, time, TT statistics.
    Solve(commands::solve::Args),
    /// Midgame search (evaluation, alpha-beta, Multi-ProbCut): best move, score, PV.
    Analyze(commands::analyze::Args),
    /// Play against the engine or the perfect player in the terminal, or self-check the
    /// perfect player (--self-check).
    Play(commands::play::Args),
    /// Serve the web front end (a board with every move's value, play, game analysis,
    /// WTHOR browser) and its JSON API on a local port.
    Serve(commands::serve::Args),
    /// Positions and game files: show, convert, eval, perft, wthor.
    #[command(subcommand)]
    Position(Position),
    /// Whole-board solutions of small boards: enumerate, weak, strong, semi-strong, query,
    /// verify, salvage.
    #[command(subcommand)]
    Solution(Solution),
    /// The engine for other programs: gtp, nboard, match, book.
    #[command(subcommand)]
    Engine(Engine),
    /// The weak-solve pipeline over a work queue (SQLite or PostgreSQL): init, enumerate,
    /// estimate, select, expand, solve, status, verify, table, run, worker.
    Pipeline(commands::pipeline::Args),
    /// Small games (Domineering, Nogo, Go, ...) solved by the generic solvers: `list`,
    /// `solve <game> [RxC] --algo ...`.
    Game(commands::game::Args),
    /// Benchmarks that print figures (time, leaves or nodes per second, peak memory).
    Bench(commands::bench::Args),

    /// The command line's definition as JSON (for the option-walking test).
    #[command(hide = true)]
    InternalOptions,
    /// Moved to the lab: `solvo-lab train`.
    #[command(hide = true, disable_help_flag = true)]
    Train(commands::moved::Args),
    /// Moved to the lab: `solvo-lab study`.
    #[command(hide = true, disable_help_flag = true)]
    Study(commands::moved::Args),

    // The older flat names, hidden: each runs the same code as its grouped form.
    /// The older name of `solvo position show` (the same command and options).
    #[command(hide = true)]
    Show(commands::show::Args),
    /// The older name of `solvo position perft` (the same command and options).
    #[command(hide = true)]
    Perft(commands::perft::Args),
    /// The older name of `solvo position convert` (the same command and options).
    #[command(hide = true)]
    Convert(commands::convert::Args),
    /// The older name of `solvo position wthor` (the same command and options).
    #[command(hide = true)]
    Wthor(commands::wthor::Args),
    /// The older name of `solvo position eval` (the same command and options).
    #[command(hide = true)]
    Eval(commands::eval::Args),
    /// The older name of `solvo solution semi-strong` (the same command and options).
    #[command(hide = true)]
    SemiStrong(commands::semistrong::Args),
    /// The older name of `solvo solution query` (the same command and options).
    #[command(hide = true)]
    Query(commands::query::Args),
    /// The older name of `solvo solution verify` (the same command and options).
    #[command(hide = true)]
    VerifyStore(commands::verify_store::Args),
    /// The older name of `solvo solution salvage` (the same command and options).
    #[command(hide = true)]
    SalvageStore(commands::salvage_store::Args),
    /// The older name of `solvo solution enumerate` (the same command and options).
    #[command(hide = true)]
    Enumerate(commands::enumerate::Args),
    /// The older name of `solvo solution weak` (the same command and options).
    #[command(hide = true)]
    WeakSolve(commands::weak_solve::Args),
    /// The older name of `solvo solution strong` (the same command and options).
    #[command(hide = true)]
    StrongSolve(commands::strong_solve::Args),
    /// The older name of `solvo engine gtp` (the same command and options).
    #[command(hide = true)]
    Gtp(commands::gtp::Args),
    /// The older name of `solvo engine nboard` (the same command and options).
    #[command(hide = true)]
    Nboard(commands::nboard::Args),
    /// The older name of `solvo engine match` (the same command and options).
    #[command(name = "match", hide = true)]
    Match(commands::match_engines::Args),
    /// The older name of `solvo engine book` (the same command and options).
    #[command(hide = true)]
    Book(commands::book::Args),
    /// The older name of `solvo pipeline worker` (the same command and options).
    #[command(hide = true)]
    Worker(commands::pipeline::WorkerArgs),
}

/// `solvo position`: one position or a file of games.
#[derive(Subcommand, Debug)]
enum Position {
    /// Show a position (board string, OBF line or transcript such as f5d6c3): the board,
    /// side to move, legal moves, disc counts.
    Show(commands::show::Args),
    /// Convert between formats: board string, OBF, transcript, GGF.
    Convert(commands::convert::Args),
    /// Static evaluation of positions (trained weights), in discs for the side to move.
    Eval(commands::eval::Args),
    /// Count the leaves of the game tree to a depth (move-generator check and benchmark).
    Perft(commands::perft::Args),
    /// Read a WTHOR database (.wtb): list games, replay one, export transcripts.
    Wthor(commands::wthor::Args),
}

/// `solvo solution`: whole-board solutions (4x4, 6x6) and their stores.
#[derive(Subcommand, Debug)]
enum Solution {
    /// Count the unique positions (up to symmetry, side to move can move) per disc count.
    Enumerate(commands::enumerate::Args),
    /// Weakly solve a small board: the start's value and a proven principal variation.
    #[command(alias = "weak-solve")]
    Weak(commands::weak_solve::Args),
    /// Strongly solve 4x4: the value and a best move of every reachable position.
    #[command(alias = "strong-solve")]
    Strong(commands::strong_solve::Args),
    /// Semi-strong solution (4x4, 6x6) by reopening alpha-beta into a resumable store.
    SemiStrong(commands::semistrong::Args),
    /// Value and best move of a position from a solution store (or solved on demand).
    Query(commands::query::Args),
    /// Consistency check of a semi-strong store, layer by layer (exit code 1 on violation).
    #[command(alias = "verify-store")]
    Verify(commands::verify_store::Args),
    /// Copy every intact record of a damaged store (truncated, or with damaged records)
    /// into a new store; the damaged file is only read.
    #[command(alias = "salvage-store")]
    Salvage(commands::salvage_store::Args),
}

/// `solvo engine`: the engine spoken to by other programs, and its book.
#[derive(Subcommand, Debug)]
enum Engine {
    /// Speak GTP (the Othello dialect of the Go Text Protocol) on stdin/stdout, for
    /// match tools and GUIs.
    Gtp(commands::gtp::Args),
    /// Speak the NBoard protocol on stdin/stdout, for the NBoard GUI.
    Nboard(commands::nboard::Args),
    /// Two engines (internal levels, or external GTP/NBoard programs) play every opening
    /// twice, colours swapped: wins, draws, losses, score rate, Elo with its interval.
    #[command(name = "match")]
    Match(commands::match_engines::Args),
    /// Build an opening book from WTHOR games, valued by search (play from it with --book).
    Book(commands::book::Args),
}

fn run(cli: Cli) -> Result<(), CliError> {
    let common = Common::from(cli.common);
    match cli.command {
        Command::Solve(args) => commands::solve::run(args, common),
        Command::Analyze(args) => commands::analyze::run(args, common),
        Command::Play(args) => commands::play::run(args, common),
        Command::Serve(args) => commands::serve::run(args, common),
        Command::Position(Position::Show(args)) | Command::Show(args) => commands::show::run(args, common),
        Command::Position(Position::Convert(args)) | Command::Convert(args) => commands::convert::run(args, common),
        Command::Position(Position::Eval(args)) | Command::Eval(args) => commands::eval::run(args, common),
        Command::Position(Position::Perft(args)) | Command::Perft(args) => commands::perft::run(args, common),
        Command::Position(Position::Wthor(args)) | Command::Wthor(args) => commands::wthor::run(args, common),
        Command::Solution(Solution::Enumerate(args)) | Command::Enumerate(args) => {
            commands::enumerate::run(args, common)
        }
        Command::Solution(Solution::Weak(args)) | Command::WeakSolve(args) => commands::weak_solve::run(args, common),
        Command::Solution(Solution::Strong(args)) | Command::StrongSolve(args) => {
            commands::strong_solve::run(args, common)
        }
        Command::Solution(Solution::SemiStrong(args)) | Command::SemiStrong(args) => {
            commands::semistrong::run(args, common)
        }
        Command::Solution(Solution::Query(args)) | Command::Query(args) => commands::query::run(args, common),
        Command::Solution(Solution::Verify(args)) | Command::VerifyStore(args) => {
            commands::verify_store::run(args, common)
        }
        Command::Solution(Solution::Salvage(args)) | Command::SalvageStore(args) => {
            commands::salvage_store::run(args, common)
        }
        Command::Engine(Engine::Gtp(args)) | Command::Gtp(args) => commands::gtp::run(args, common),
        Command::Engine(Engine::Nboard(args)) | Command::Nboard(args) => commands::nboard::run(args, common),
        Command::Engine(Engine::Match(args)) | Command::Match(args) => commands::match_engines::run(args, common),
        Command::Engine(Engine::Book(args)) | Command::Book(args) => commands::book::run(args, common),
        Command::Pipeline(args) => commands::pipeline::run(args, common),
        Command::Worker(args) => commands::pipeline::run_worker(args, common),
        Command::Game(args) => commands::game::run(args, common),
        Command::Bench(args) => commands::bench::run(args, common),
        Command::InternalOptions => {
            solvo_shell::option_dump::run::<Cli>();
            Ok(())
        }
        Command::Train(args) => args.moved("train", common),
        Command::Study(args) => args.moved("study", common),
    }
}

fn main() {
    solvo_shell::main_with(run);
}
