//! The match command of both binaries (`solvo engine match`, `solvo-lab match`): two engines
//! play every opening of a list twice, colours swapped: internal configurations
//! (`solvo:level=10`), external programs over GTP or NBoard (`gtp:<command line>`,
//! `nboard:<command line>`), and the kinds a binary adds ([`MoreContestants`]: the lab's
//! study players). Several games at once, live
//! progress on stderr, every game appended to a GGF record file (a killed match
//! resumes from it), and the result: wins, draws, losses, mean disc difference, score
//! rate, Elo difference with its 95% interval.

use crate::error::CliError;
use crate::shared::EngineArgs;
use crate::Common;
use serde_json::json;
use solvo_engine::arena::{ClockStats, Contestant, EngineContestant, MatchStats, Sprt};
use solvo_engine::external::{GtpContestant, NBoardContestant};
use solvo_engine::match_record::{read_match_record, record_line, FinishedGame};
use solvo_engine::openings::{parse_openings, random_openings};
use solvo_engine::tournament::{first_is_black, run_match, MatchGame, MatchPlan};
use solvo_engine::{Engine, Level};
use solvo_othello::{BoardSize, Position};
use std::collections::HashSet;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

/// Arguments of the match command.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// An engine, twice: `solvo`, `solvo:level=N`, `solvo:level=N,eval=FILE,book=FILE`,
    /// `gtp:<command line>` or `nboard:<command line>` (an NBoard engine is given `set
    /// depth` with --level, and its time left in each game record, as the NBoard GUI does;
    /// `solvo-lab match` also takes the Reversed Reversi study's `ab:...` and `mcts:...`
    /// players).
    #[arg(long = "engine", num_args = 1, required = true)]
    pub engines: Vec<String>,
    /// Openings: one transcript a line (as ../shared/data/xot/xot-small.txt).
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Without --openings: this many random openings of --random-plies plies.
    #[arg(long, default_value_t = 10, value_parser = crate::option_ranges::openings, allow_negative_numbers = true)]
    pub random_openings: usize,
    /// Plies of each random opening.
    #[arg(long, default_value_t = 8, value_parser = crate::option_ranges::plies, allow_negative_numbers = true)]
    pub random_plies: u32,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Games to play (each opening twice, colours swapped; default: all of them).
    #[arg(long, value_parser = crate::option_ranges::at_least_one, allow_negative_numbers = true)]
    pub games: Option<usize>,
    /// Games played at once (default: the number of cores).
    #[arg(long, value_parser = crate::option_ranges::threads, allow_negative_numbers = true)]
    pub parallel: Option<usize>,
    /// Stop early by a sequential probability ratio test: `ELO0,ELO1` (H0: the first
    /// engine is ELO0 stronger, H1: ELO1), error rates 5% each.
    #[arg(long, value_parser = parse_sprt, allow_negative_numbers = true)]
    pub sprt: Option<(f64, f64)>,
    /// GGF record file: every game is appended; games already in it are not replayed.
    #[arg(long)]
    pub record: Option<PathBuf>,
    /// Options of the internal engines (level, time control, threads, table, stores).
    #[command(flatten)]
    pub engine: EngineArgs,
}

fn parse_sprt(text: &str) -> Result<(f64, f64), String> {
    let bad = || format!("expected ELO0,ELO1 with ELO0 < ELO1 (Elo differences of at most 1000), not {text:?}");
    let (a, b) = text.split_once(',').ok_or_else(bad)?;
    let (a, b): (f64, f64) = (a.trim().parse().map_err(|_| bad())?, b.trim().parse().map_err(|_| bad())?);
    if !(a.abs() <= 1000.0 && b.abs() <= 1000.0 && a < b) {
        return Err(bad());
    }
    Ok((a, b))
}

/// Makes a contestant of a kind a binary adds (called once per worker, again after a
/// forfeit).
pub type MakeContestant = Box<dyn Fn() -> Result<Box<dyn Contestant>, String> + Send + Sync>;

/// The contestant kinds a binary adds to the match beyond solvo's engine and external
/// programs.
pub struct MoreContestants<'a> {
    /// How the added kinds are written, for the error that lists the kinds (e.g.
    /// `ab:depth=N, mcts:playouts=N`); empty for none.
    pub syntax: &'a str,
    /// Parses `kind:settings`: `None` when `kind` is not one of the added kinds, else the
    /// contestant's maker or why the settings are wrong.
    #[allow(clippy::type_complexity)]
    pub parse: &'a dyn Fn(&str, &str, Common) -> Option<Result<MakeContestant, String>>,
}

impl MoreContestants<'static> {
    /// No added kinds: the engine and external programs only.
    pub const NONE: MoreContestants<'static> = MoreContestants { syntax: "", parse: &|_, _, _| None };
}

/// An engine as the command line names it.
enum Spec {
    Internal { level: u32, eval: Option<PathBuf>, book: Option<PathBuf> },
    More(MakeContestant),
    Gtp(String),
    NBoard(String),
}

fn parse_spec(text: &str, default_level: u32, common: Common, more: &MoreContestants) -> Result<Spec, CliError> {
    let bad = |m: String| CliError(format!("--engine {text:?}: {m}"));
    let (kind, rest) = text.split_once(':').unwrap_or((text, ""));
    match kind {
        "solvo" => {
            let (mut level, mut eval, mut book) = (default_level, None, None);
            for item in rest.split(',').filter(|s| !s.is_empty()) {
                match item.split_once('=') {
                    Some(("level", v)) => level = v.parse::<Level>().map_err(bad)?.number(),
                    Some(("eval", v)) => eval = Some(PathBuf::from(v)),
                    Some(("book", v)) => book = Some(PathBuf::from(v)),
                    _ => return Err(bad(format!("unknown setting {item:?} (level=N, eval=FILE, book=FILE)"))),
                }
            }
            Ok(Spec::Internal { level, eval, book })
        }
        "gtp" | "nboard" if rest.trim().is_empty() => Err(bad("expected a command line after the colon".into())),
        "gtp" => Ok(Spec::Gtp(rest.trim().to_string())),
        "nboard" => Ok(Spec::NBoard(rest.trim().to_string())),
        _ => match (more.parse)(kind, rest, common) {
            Some(made) => made.map(Spec::More).map_err(bad),
            None if more.syntax.is_empty() => {
                Err(bad("expected solvo[:level=N], gtp:<command> or nboard:<command>".into()))
            }
            None => Err(bad(format!("expected solvo[:level=N], {}, gtp:<command> or nboard:<command>", more.syntax))),
        },
    }
}

fn contestant(spec: &Spec, args: &EngineArgs, common: Common) -> Result<Box<dyn Contestant>, String> {
    match spec {
        Spec::Internal { level, eval, book } => {
            let mut args = args.clone();
            args.level = *level;
            if eval.is_some() {
                args.eval_file.clone_from(eval);
            }
            if book.is_some() {
                args.book.clone_from(book);
            }
            let engine: Engine = args.engine(common).map_err(|e| e.0)?;
            let mut label = format!("solvo:level={level}");
            if let Some(e) = eval {
                label.push_str(&format!(",eval={}", e.display()));
            }
            if let Some(b) = book {
                label.push_str(&format!(",book={}", b.display()));
            }
            Ok(Box::new(EngineContestant { engine, label }))
        }
        Spec::More(make) => make(),
        Spec::Gtp(cmd) => Ok(Box::new(GtpContestant::start(cmd)?)),
        // The NBoard GUI sets a depth before any `go`: the match's level.
        Spec::NBoard(cmd) => Ok(Box::new(NBoardContestant::start(cmd, args.level)?)),
    }
}

/// The games of a record file (none when it does not exist yet or is empty).
fn recorded(path: &PathBuf, common: Common) -> Result<Vec<FinishedGame>, CliError> {
    if !path.exists() || std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.len() == 0) {
        return Ok(Vec::new());
    }
    let text = crate::input_file::read_text(path)?;
    read_match_record(&text, common.variant).map_err(|e| CliError(format!("{}: {e}", path.display())))
}

fn summary(stats: &MatchStats, names: &[String; 2], sprt: Option<&str>, clock: &ClockStats, json: bool) -> String {
    let (elo, lo, hi) = stats.elo();
    let least = clock.least_left.map(|d| d.as_secs_f64());
    let ms = clock.thought.map(|t| t.per_move().map(|d| d.as_secs_f64() * 1000.0));
    if json {
        json!({"first": names[0], "second": names[1], "games": stats.games(), "wins": stats.wins,
               "draws": stats.draws, "losses": stats.losses, "mean_discs": stats.mean_discs(),
               "score_rate": stats.score_rate(), "elo": finite(elo), "elo_low": finite(lo), "elo_high": finite(hi),
               "sprt": sprt, "lost_on_time": clock.lost_on_time, "least_time_left": least,
               "ms_per_move": ms})
        .to_string()
    } else {
        let clock_text = least.map_or(String::new(), |l| {
            format!("; clock: {} lost on time, least time left {l:.2} s", clock.lost_on_time)
        });
        let time_text = match ms {
            [Some(a), Some(b)] => format!("; time a move {a:.1} ms / {b:.1} ms"),
            _ => String::new(),
        };
        format!(
            "{} vs {}: {} games, +{} ={} -{}, mean disc difference {:+.2}, score {:.1}%, Elo {:+.0} [{:+.0}, {:+.0}]{}{clock_text}{time_text}",
            names[0],
            names[1],
            stats.games(),
            stats.wins,
            stats.draws,
            stats.losses,
            stats.mean_discs(),
            100.0 * stats.score_rate(),
            elo,
            lo,
            hi,
            sprt.map_or(String::new(), |v| format!(", SPRT {v} accepted"))
        )
    }
}

/// Infinite Elo (every game won or lost) as JSON `null`.
fn finite(x: f64) -> Option<f64> {
    x.is_finite().then_some(x)
}

/// Runs the match command with the contestant kinds `more` adds.
pub fn run(args: Args, common: Common, more: &MoreContestants) -> Result<(), CliError> {
    if args.engines.len() != 2 {
        return Err(CliError(format!("--engine: expected exactly two engines, got {}", args.engines.len())));
    }
    let specs = [
        parse_spec(&args.engines[0], args.engine.level, common, more)?,
        parse_spec(&args.engines[1], args.engine.level, common, more)?,
    ];
    let size = common.size.unwrap_or(BoardSize::Eight);
    let start = Position::start(size, common.variant);
    let openings = match &args.openings {
        Some(path) => {
            let text = crate::input_file::read_text(path)?;
            parse_openings(&text, &start).map_err(|e| CliError(format!("{}: {e}", path.display())))?
        }
        None => random_openings(&start, args.random_openings, args.random_plies, args.seed),
    };
    let total = args.games.unwrap_or(openings.len() * 2).min(openings.len() * 2);
    let parallel = args.parallel.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let plan = MatchPlan { openings, games: total, parallel, time: args.engine.time_control() };
    let mut stats = MatchStats::default();
    let mut clock = ClockStats::default();
    let mut done = HashSet::new();
    if let Some(path) = &args.record {
        for game in recorded(path, common)? {
            if game.index < total && done.insert(game.index) {
                stats.add(game.first_score);
                clock.add(game.least_left, game.lost_on_time);
                clock.add_thought(game.thought);
            }
        }
        if !done.is_empty() {
            eprintln!("resuming: {} games already in {}", done.len(), path.display());
        }
    }
    let file = match &args.record {
        Some(path) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(path)
                .map_err(|e| CliError(format!("{}: {e}", path.display())))?,
        ),
        None => None,
    };
    let file = Mutex::new(file);
    let names = Mutex::new([String::new(), String::new()]);
    let state = Mutex::new((stats, None::<String>, None::<String>, clock));
    let started = Instant::now();
    let make = |i: usize| {
        let spec = &specs[i];
        let engine = &args.engine;
        move || contestant(spec, engine, common)
    };
    let (first, second) = (make(0), make(1));
    let on_game = |g: &MatchGame| -> bool {
        let mut st = state.lock().unwrap_or_else(|e| e.into_inner());
        st.0.add(g.first_score());
        let finished = FinishedGame::of(g);
        st.3.add(finished.least_left, finished.lost_on_time);
        st.3.add_thought(finished.thought);
        let mut n = names.lock().unwrap_or_else(|e| e.into_inner());
        let (a, b) = if first_is_black(g.index) { (&g.black, &g.white) } else { (&g.white, &g.black) };
        *n = [a.clone(), b.clone()];
        if let Some(f) = file.lock().unwrap_or_else(|e| e.into_inner()).as_mut() {
            if let Err(e) = writeln!(f, "{}", record_line(g)).and_then(|_| f.flush()) {
                st.1.get_or_insert(format!("writing the record: {e}"));
            }
        }
        let forfeit = g.record.forfeit.as_ref().map_or(String::new(), |(s, why)| format!(" ({s} forfeits: {why})"));
        let least =
            finished.least_left.map_or(String::new(), |d| format!(", least time left {:.2} s", d.as_secs_f64()));
        eprintln!(
            "game {} ({}/{total}, {:.0} s): {} - {} {:+}{forfeit}{least}; first: +{} ={} -{}",
            g.index + 1,
            st.0.games(),
            started.elapsed().as_secs_f64(),
            g.black,
            g.white,
            g.record.black_score,
            st.0.wins,
            st.0.draws,
            st.0.losses
        );
        if let (Some((e0, e1)), None) = (args.sprt, &st.2) {
            let verdict = st.0.sprt(e0, e1, 0.05, 0.05);
            if verdict != Sprt::Continue {
                eprintln!("SPRT: {verdict:?} accepted; no new games start");
                st.2 = Some(format!("{verdict:?}"));
            }
        }
        st.2.is_none()
    };
    run_match(&plan, &first, &second, &done, &on_game).map_err(CliError)?;
    let (stats, write_error, sprt, clock) = state.into_inner().unwrap_or_else(|e| e.into_inner());
    if let Some(e) = write_error {
        return Err(CliError(e));
    }
    let mut names = names.into_inner().unwrap_or_else(|e| e.into_inner());
    for (i, n) in names.iter_mut().enumerate() {
        if n.is_empty() {
            n.clone_from(&args.engines[i]);
        }
    }
    out!("{}", summary(&stats, &names, sprt.as_deref(), &clock, common.json));
    Ok(())
}
