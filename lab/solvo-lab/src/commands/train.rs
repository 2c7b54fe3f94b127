//! `solvo-lab train`: make evaluation weights. `data` turns game databases into labelled
//! samples (resumable: one sample file per input file, skipped when present),
//! `selfplay` generates them (any `--size` with features: 8x8, 6x6); `fit` fits a
//! weight file for `--size` on sample files and reports the accuracy per stage.

use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_train::fit::{fit_size, FitOptions};
use solvo_train::games::{extract_file, ExtractOptions};
use solvo_train::sample::{read_samples, write_samples, Sample};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

/// Arguments of `solvo-lab train`.
#[derive(clap::Args, Debug)]
pub struct Args {
    #[command(subcommand)]
    pub step: Step,
}

/// The training steps.
#[derive(clap::Subcommand, Debug)]
pub enum Step {
    /// Labelled samples from WTHOR-format game files (one `.samples` file per input).
    Data(DataArgs),
    /// Labelled samples from generated games: random moves and a rule of thumb (for
    /// variants and sizes without a game database: `--variant reversed`, `--size 6`;
    /// the rest left for a bootstrapped fit), or with `--search-depth` games solvo plays
    /// with its own search (8x8: game results or search scores as labels); exact labels
    /// near the end.
    Selfplay(SelfplayArgs),
    /// Fit a weight file on sample files (of `--size`: 8x8 or 6x6).
    Fit(FitArgs),
    /// Fit a residual network (8x8) on the errors of a linear weight file: the output
    /// file holds the linear weights plus the network, whose correction the evaluation
    /// adds. Multi-ProbCut statistics are dropped (the evaluation changed): measure them
    /// again with `train mpc`.
    FitNet(FitNetArgs),
    /// Measure Multi-ProbCut statistics of a weight file on WTHOR positions.
    Mpc(crate::commands::train_mpc::MpcArgs),
    /// Mean absolute error of a weight file per number of empties, against exact values:
    /// OBF files scoring every move (positions and their children) and the exact,
    /// held-out samples of sample files.
    Check(CheckArgs),
}

/// Arguments of `solvo-lab train check`.
#[derive(clap::Args, Debug)]
pub struct CheckArgs {
    /// OBF files (`.obf`: exact values), game records (`.ggf`: every position of each
    /// finished game against its result), sample files or directories of them.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Weight file (default: the embedded weights).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
}

/// The labelling options `data` and `selfplay` share.
#[derive(clap::Args, Debug)]
pub struct LabelArgs {
    /// Positions with at most this many empties get exact labels (solved). 8x8 solves
    /// past 20 empties take seconds each; 6x6 ones take milliseconds up to about 22.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=26))]
    pub exact_empties: u32,
    /// One game in this many is held out for validation (0: none).
    #[arg(long, default_value_t = 20)]
    pub validation_every: u64,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
}

/// Arguments of `solvo-lab train data`.
#[derive(clap::Args, Debug)]
pub struct DataArgs {
    /// Game files (`.wtb`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Where the sample files go (`<name>.samples`; existing ones are kept: resume).
    #[arg(long)]
    pub out_dir: PathBuf,
    /// Labels, validation split and threads.
    #[command(flatten)]
    pub labels: LabelArgs,
    /// Keep only the positions with exact labels (for sources whose game results are
    /// noisy, such as online games).
    #[arg(long)]
    pub exact_only: bool,
    /// Also the positions after every move the games did not play, solved, where they
    /// have this many empties: `A..B` (inclusive, within --exact-empties), e.g. `10..14`.
    #[arg(long, value_parser = parse_sibling_range)]
    pub siblings: Option<std::ops::RangeInclusive<u32>>,
}

/// `A..B` or `A..=B` (both inclusive) with `lo <= A <= B <= hi`; errors name `what`.
fn parse_range(s: &str, what: &str, lo: usize, hi: usize) -> Result<std::ops::RangeInclusive<usize>, String> {
    let (a, b) = s.split_once("..").ok_or_else(|| format!("{what} {s:?}: expected A..B"))?;
    let a: usize = a.trim().parse().map_err(|_| format!("{what}: {a:?} is not a number"))?;
    let b: usize = b.trim().trim_start_matches('=').parse().map_err(|_| format!("{what}: {b:?} is not a number"))?;
    if a < lo || a > b || b > hi {
        return Err(format!("{what} {a}..{b}: expected {lo} <= A <= B <= {hi}"));
    }
    Ok(a..=b)
}

fn parse_sibling_range(s: &str) -> Result<std::ops::RangeInclusive<u32>, String> {
    parse_range(s, "siblings", 1, 20).map(|r| *r.start() as u32..=*r.end() as u32)
}

/// Arguments of `solvo-lab train selfplay`.
#[derive(clap::Args, Debug)]
pub struct SelfplayArgs {
    /// The sample file to write (kept if it exists: resume).
    #[arg(long)]
    pub out: PathBuf,
    /// Number of games.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub games: u64,
    /// Seed of every random choice.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Probability of a random move (else the variant's greedy rule of thumb, or the
    /// search with --search-depth, which plays random moves only above the exact region).
    /// Default: 0.5, or 0.2 with --search-depth.
    #[arg(long)]
    pub random_move: Option<f64>,
    /// With --search-depth, random moves are played only at positions with more empties
    /// than this (an opening phase; a result label is kept only after the last one).
    #[arg(long, default_value_t = 40, value_parser = clap::value_parser!(u32).range(0..=60))]
    pub random_above: u32,
    /// Play every move by solvo's midgame search of this depth (1-20) on the weights
    /// of --eval-file or the embedded ones, solving exactly from --exact-empties on:
    /// 8x8 only. 0: random moves and a rule of thumb, positions above the exact region
    /// unlabelled (for a bootstrapped fit).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub search_depth: u32,
    /// Multi-ProbCut selectivity of that search (percent: 73, 87, 95, 98, 99, 100).
    #[arg(long, default_value_t = 73, value_parser = crate::option_ranges::selectivity)]
    pub selectivity: u32,
    /// With --search-depth, the label of a position above the exact region: `result`
    /// (the game's final disc difference) or `search` (the search's score).
    #[arg(long, default_value = "result", value_parser = parse_game_label)]
    pub label: solvo_train::search_play::GameLabel,
    /// With --search-depth, the weight file that plays (default: the embedded weights).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// A file of opening transcripts, one per line (e.g. the XOT list); default: the start.
    #[arg(long)]
    pub openings: Option<PathBuf>,
    /// Labels, validation split and threads.
    #[command(flatten)]
    pub labels: LabelArgs,
}

/// Arguments of `solvo-lab train fit`.
#[derive(clap::Args, Debug)]
pub struct FitArgs {
    /// Sample files, or directories whose `.samples` files are all read.
    #[arg(required = true)]
    pub samples: Vec<PathBuf>,
    /// The weight file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// Conjugate-gradient iterations per stage.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    pub iterations: u64,
    /// Ridge penalty.
    #[arg(long, default_value_t = 4.0)]
    pub lambda: f64,
    /// Neighbouring stages on each side whose samples also train a stage.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(0..=10))]
    pub window: u64,
    /// Label the samples without exact labels by an alpha-beta search of this depth on
    /// the stages fitted so far (from the last stage back; 0: use their labels).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=6))]
    pub bootstrap_depth: u32,
    /// Weight of a sample with an exact label (solved) against 1 for a game result or
    /// search score: 1 to 100.
    #[arg(long, default_value_t = 1.0, value_parser = parse_exact_weight)]
    pub exact_weight: f64,
    /// Rounds of iteratively reweighted least squares after the plain fit (a Huber loss:
    /// labels more than --robust-delta discs off pull linearly, not quadratically).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=10))]
    pub robust_rounds: u64,
    /// The residual in discs beyond which the robust fit's loss is linear (0.5 to 64).
    #[arg(long, default_value_t = 4.0, value_parser = parse_robust_delta)]
    pub robust_delta: f64,
    /// Fit only the stages `a..=b` (the others stay zero; for experiments).
    #[arg(long, value_parser = parse_stages)]
    pub stages: Option<std::ops::RangeInclusive<usize>>,
    /// Free text stored in the weight file (how it was made).
    #[arg(long, default_value = "")]
    pub description: String,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
}

/// Arguments of `solvo-lab train fit-net`.
#[derive(clap::Args, Debug)]
pub struct FitNetArgs {
    /// Sample files, or directories whose `.samples` files are all read.
    #[arg(required = true)]
    pub samples: Vec<PathBuf>,
    /// The weight file to write.
    #[arg(long)]
    pub out: PathBuf,
    /// The linear weights the network corrects (default: the embedded weights, without
    /// their network if they have one).
    #[arg(long)]
    pub eval_file: Option<PathBuf>,
    /// Passes over the samples.
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub epochs: u64,
    /// Adam's learning rate (halved every two epochs), in (0, 0.1].
    #[arg(long, default_value_t = 1e-3, value_parser = parse_learning_rate)]
    pub learning_rate: f32,
    /// The residual in discs beyond which the loss is linear (0.5 to 64).
    #[arg(long, default_value_t = 4.0, value_parser = parse_robust_delta)]
    pub delta: f64,
    /// Seed of the initial network and the sample order.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Free text stored in the weight file (how it was made).
    #[arg(long, default_value = "")]
    pub description: String,
}

fn parse_learning_rate(s: &str) -> Result<f32, String> {
    let v: f32 = s.parse().map_err(|_| format!("{s:?} is not a number"))?;
    if v > 0.0 && v <= 0.1 {
        Ok(v)
    } else {
        Err(format!("{v}: expected a learning rate in (0, 0.1]"))
    }
}

fn fit_net_command(args: FitNetArgs, common: Common) -> Result<(), CliError> {
    let mut base = crate::shared::load_weights(args.eval_file.as_deref(), common)?;
    if base.size() != solvo_othello::BoardSize::Eight {
        return Err(CliError(format!("a residual network is for 8x8 weights; these are for {}", base.size())));
    }
    let start = Instant::now();
    let files = sample_files(&args.samples)?;
    let samples = load_all(&files)?;
    eprintln!("{} samples from {} files, read in {:.1} s", samples.len(), files.len(), start.elapsed().as_secs_f64());
    let options = solvo_train::fit_net::NetFitOptions {
        epochs: args.epochs as usize,
        learning_rate: args.learning_rate,
        delta: args.delta as f32,
        seed: args.seed,
        ..Default::default()
    };
    let json = common.json;
    let net = solvo_train::fit_net::fit_net(&base, &samples, &options, |r| {
        if json {
            out!(
                "{}",
                json!({"epoch": r.epoch, "train_loss": r.train_loss, "held_linear_mae": r.held_linear_mae,
                       "held_net_mae": r.held_net_mae, "held_samples": r.held_samples, "seconds": r.seconds})
            );
        } else {
            out!(
                "epoch {}: train loss {:.3}, held-out exact MAE {:.3} -> {:.3} ({} positions), {:.0} s",
                r.epoch,
                r.train_loss,
                r.held_linear_mae,
                r.held_net_mae,
                r.held_samples,
                r.seconds
            );
        }
    })
    .map_err(CliError)?;
    let net = solvo_eval::residual::ResidualNet::quantize(&net).map_err(|e| CliError(e.to_string()))?;
    base.set_residual(Some(net)).map_err(|e| CliError(e.to_string()))?;
    base.mpc.clear();
    write_weights(base, &args.description, &args.out, start, json)
}

/// Writes a fitted weight file with its description, and says so unless `json`.
fn write_weights(
    mut weights: solvo_eval::Weights,
    description: &str,
    out: &Path,
    start: Instant,
    json: bool,
) -> Result<(), CliError> {
    weights.description = description.to_string();
    std::fs::write(out, weights.to_bytes()).map_err(|e| CliError(format!("cannot write {}: {e}", out.display())))?;
    if !json {
        out!("wrote {} in {:.1} s", out.display(), start.elapsed().as_secs_f64());
    }
    Ok(())
}

/// Runs `solvo-lab train`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    match args.step {
        Step::Data(a) => data(a, common),
        Step::Selfplay(a) => selfplay(a, common),
        Step::Fit(a) => fit_command(a, common),
        Step::FitNet(a) => fit_net_command(a, common),
        Step::Mpc(a) => crate::commands::train_mpc::run(a, common),
        Step::Check(a) => check(a, common),
    }
}

fn parse_stages(s: &str) -> Result<std::ops::RangeInclusive<usize>, String> {
    parse_range(s, "stages", 0, solvo_eval::NUM_STAGES - 1)
}

fn set_threads(threads: Option<u64>) {
    if let Some(t) = threads {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(t as usize).build_global();
    }
}

fn data(args: DataArgs, common: Common) -> Result<(), CliError> {
    let size = common.size.unwrap_or(solvo_othello::BoardSize::Eight);
    if size != solvo_othello::BoardSize::Eight {
        return Err(CliError(format!(
            "train data reads WTHOR games, which are 8x8; for {} samples use train selfplay --size {}",
            size,
            size.side()
        )));
    }
    set_threads(args.labels.threads);
    let options = ExtractOptions {
        exact_empties: args.labels.exact_empties,
        validation_every: args.labels.validation_every,
        hash_mb: 8,
        exact_only: args.exact_only,
        siblings: args.siblings.clone(),
    };
    if let Some(r) = &options.siblings {
        if *r.end() > options.exact_empties {
            return Err(CliError(format!(
                "--siblings {}..{}: siblings are solved, so they need at most --exact-empties {} empties",
                r.start(),
                r.end(),
                options.exact_empties
            )));
        }
    }
    let start = Instant::now();
    for file in &args.files {
        let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "games".into());
        let out = args.out_dir.join(format!("{stem}.samples"));
        if out.exists() {
            read_samples(&out).map_err(CliError)?;
            eprintln!("{}: kept (already done)", out.display());
            continue;
        }
        let t = Instant::now();
        let name = file.display().to_string();
        let (samples, stats) = extract_file(file, &options, &|done, total| {
            eprintln!("{name}: {done}/{total} exact solves, {:.0} s", t.elapsed().as_secs_f64());
        })
        .map_err(CliError)?;
        for reason in &stats.bad_game_reasons {
            eprintln!("warning: {name}: game skipped: {reason}");
        }
        write_samples(&out, &samples).map_err(CliError)?;
        let secs = t.elapsed().as_secs_f64();
        if common.json {
            out!(
                "{}",
                json!({"file": name, "games": stats.games, "bad_games": stats.bad_games, "samples": stats.samples,
                       "exact": stats.exact, "siblings": stats.siblings, "solver_nodes": stats.nodes, "seconds": secs, "out": out.display().to_string()})
            );
        } else {
            out!(
                "{name}: {} games ({} unreadable), {} samples, {} exact ({} solver nodes), {secs:.1} s -> {}",
                stats.games,
                stats.bad_games,
                stats.samples,
                stats.exact,
                stats.nodes,
                out.display()
            );
        }
    }
    if !common.json {
        out!("done in {:.1} s", start.elapsed().as_secs_f64());
    }
    Ok(())
}

fn parse_exact_weight(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|w| (1.0..=100.0).contains(w))
        .ok_or_else(|| format!("expected a weight from 1 to 100, not {s:?}"))
}

fn parse_robust_delta(s: &str) -> Result<f64, String> {
    s.parse::<f64>()
        .ok()
        .filter(|d| (0.5..=64.0).contains(d))
        .ok_or_else(|| format!("expected a number of discs from 0.5 to 64, not {s:?}"))
}

fn parse_game_label(s: &str) -> Result<solvo_train::search_play::GameLabel, String> {
    use solvo_train::search_play::GameLabel;
    match s {
        "result" => Ok(GameLabel::Result),
        "search" => Ok(GameLabel::Search),
        _ => Err(format!("expected result or search, not {s:?}")),
    }
}

fn selfplay(args: SelfplayArgs, common: Common) -> Result<(), CliError> {
    let size = common.size.unwrap_or(solvo_othello::BoardSize::Eight);
    let random_move = args.random_move.unwrap_or(if args.search_depth > 0 { 0.2 } else { 0.5 });
    if !(0.0..=1.0).contains(&random_move) {
        return Err(CliError(format!("--random-move {random_move}: expected a probability in 0..=1")));
    }
    if args.search_depth > 0 && size != solvo_othello::BoardSize::Eight {
        return Err(CliError(format!(
            "--search-depth plays with the midgame search, which is 8x8 only; for {size} samples leave it at 0"
        )));
    }
    if args.search_depth == 0 && args.eval_file.is_some() {
        return Err(CliError("--eval-file chooses the weights that play: it needs --search-depth".into()));
    }
    if args.out.exists() {
        let kept = read_samples(&args.out).map_err(CliError)?;
        out!("{}: kept ({} samples, already done)", args.out.display(), kept.len());
        return Ok(());
    }
    set_threads(args.labels.threads);
    let start_pos = solvo_othello::Position::start(size, common.variant);
    let mut openings = Vec::new();
    if let Some(path) = &args.openings {
        let text =
            std::fs::read_to_string(path).map_err(|e| CliError(format!("cannot read {}: {e}", path.display())))?;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let replay = solvo_othello::formats::transcript::parse_transcript(line.trim(), &start_pos)
                .map_err(|e| CliError(format!("{} line {}: {e}", path.display(), i + 1)))?;
            openings.push(replay.end());
        }
    }
    let t = Instant::now();
    let (samples, nodes) = if args.search_depth > 0 {
        let weights = crate::shared::load_weights(args.eval_file.as_deref(), common)?;
        let options = solvo_train::search_play::SearchPlayOptions {
            games: args.games as usize,
            seed: args.seed,
            depth: args.search_depth,
            selectivity: solvo_othello_search::Selectivity::from_percent(args.selectivity)
                .ok_or_else(|| CliError(format!("--selectivity {}: not a level", args.selectivity)))?,
            exact_empties: args.labels.exact_empties,
            random_move,
            random_above: args.random_above,
            label: args.label,
            validation_every: args.labels.validation_every,
            hash_mb: 16,
        };
        solvo_train::search_play::search_play_samples(&openings, Arc::new(weights), &options, &|done, total| {
            eprintln!("{done}/{total} games, {:.0} s", t.elapsed().as_secs_f64());
        })
        .map_err(CliError)?
    } else {
        let options = solvo_train::selfplay::SelfPlayOptions {
            size,
            games: args.games as usize,
            seed: args.seed,
            random_move,
            exact_empties: args.labels.exact_empties,
            validation_every: args.labels.validation_every,
            hash_mb: 8,
        };
        solvo_train::selfplay::self_play_samples(&openings, common.variant, &options, &|done, total| {
            if done.is_multiple_of(65536) || done == total {
                eprintln!("{done}/{total} exact solves, {:.0} s", t.elapsed().as_secs_f64());
            }
        })
        .map_err(CliError)?
    };
    write_samples(&args.out, &samples).map_err(CliError)?;
    let exact = samples.iter().filter(|s| s.is_exact()).count();
    let secs = t.elapsed().as_secs_f64();
    if common.json {
        out!(
            "{}",
            json!({"games": args.games, "samples": samples.len(), "exact": exact, "solver_nodes": nodes, "seconds": secs})
        );
    } else {
        out!(
            "{} games, {} samples, {exact} exact ({nodes} solver nodes), {secs:.1} s -> {}",
            args.games,
            samples.len(),
            args.out.display()
        );
    }
    Ok(())
}

fn sample_files(inputs: &[PathBuf]) -> Result<Vec<PathBuf>, CliError> {
    let mut files = Vec::new();
    for input in inputs {
        if input.is_dir() {
            let mut found: Vec<PathBuf> = std::fs::read_dir(input)
                .map_err(|e| CliError(format!("cannot list {}: {e}", input.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "samples"))
                .collect();
            found.sort();
            if found.is_empty() {
                return Err(CliError(format!("{}: no .samples files in this directory", input.display())));
            }
            files.extend(found);
        } else {
            files.push(input.clone());
        }
    }
    Ok(files)
}

fn load_all(files: &[PathBuf]) -> Result<Vec<Sample>, CliError> {
    let mut all = Vec::new();
    for f in files {
        all.extend(read_samples(Path::new(f)).map_err(CliError)?);
    }
    Ok(all)
}

fn fit_command(args: FitArgs, common: Common) -> Result<(), CliError> {
    let size = common.size.unwrap_or(solvo_othello::BoardSize::Eight);
    if !(args.lambda.is_finite() && args.lambda > 0.0 && args.lambda <= 1e9) {
        return Err(CliError(format!("--lambda {}: expected a number in (0, 1e9]", args.lambda)));
    }
    set_threads(args.threads);
    let start = Instant::now();
    let files = sample_files(&args.samples)?;
    let samples = load_all(&files)?;
    let validation = samples.iter().filter(|s| s.is_validation()).count();
    eprintln!(
        "{} samples from {} files ({validation} held out), read in {:.1} s",
        samples.len(),
        files.len(),
        start.elapsed().as_secs_f64()
    );
    let options = FitOptions {
        iterations: args.iterations as usize,
        lambda: args.lambda,
        window: args.window as usize,
        stages: args.stages.clone().unwrap_or(0..=solvo_eval::NUM_STAGES - 1),
        bootstrap_depth: args.bootstrap_depth,
        exact_weight: args.exact_weight,
        robust_rounds: args.robust_rounds as usize,
        robust_delta: args.robust_delta,
    };
    let json = common.json;
    if !json {
        out!(
            "{:>5} {:>6} {:>9} {:>10} {:>7} {:>8} {:>7} {:>9}",
            "stage",
            "discs",
            "rows",
            "train rms",
            "held",
            "held mae",
            "exact",
            "exact mae"
        );
    }
    let (weights, _reports) = fit_size(&samples, size, common.variant, &options, &|r| {
        let discs = 4 + 2 * r.stage;
        if json {
            out!(
                "{}",
                json!({"stage": r.stage, "discs": discs, "train_rows": r.train_rows, "train_rmse": r.train_rmse,
                       "validation": r.validation, "validation_mae": r.validation_mae,
                       "validation_exact": r.validation_exact, "validation_exact_mae": r.validation_exact_mae,
                       "seconds": start.elapsed().as_secs_f64()})
            );
        } else {
            out!(
                "{:>5} {:>6} {:>9} {:>10.2} {:>7} {:>8.2} {:>7} {:>9.2}",
                r.stage,
                format!("{discs}-{}", discs + 1),
                r.train_rows,
                r.train_rmse,
                r.validation,
                r.validation_mae,
                r.validation_exact,
                r.validation_exact_mae
            );
        }
    })
    .map_err(CliError)?;
    write_weights(weights, &args.description, &args.out, start, json)
}

fn check(args: CheckArgs, common: Common) -> Result<(), CliError> {
    let weights = crate::shared::load_weights(args.eval_file.as_deref(), common)?;
    let size = weights.size();
    let mut obf = Vec::new();
    let mut held = Vec::new();
    let mut results = Vec::new();
    for input in &args.inputs {
        if input.extension().is_some_and(|x| x == "ggf") {
            let text = crate::input_file::read_text(input)?;
            let games = solvo_othello::formats::ggf::parse_ggf(&text, common.variant)
                .map_err(|e| CliError(format!("{}: {e}", input.display())))?;
            let replays: Vec<_> = games.into_iter().map(|g| g.replay).collect();
            results.extend(solvo_train::accuracy::result_samples_from_games(&replays));
        } else if input.extension().is_some_and(|x| x == "obf") {
            let text = crate::input_file::read_text(input)?;
            let problems = solvo_othello::formats::obf::parse_obf(&text, Some(size), common.variant)
                .map_err(|e| CliError(format!("{}: {e}", input.display())))?;
            let problems: Vec<_> = problems.into_iter().map(|(_, p)| p).collect();
            obf.extend(solvo_train::accuracy::exact_samples_from_problems(&problems));
        } else {
            for f in sample_files(std::slice::from_ref(input))? {
                let samples = read_samples(&f).map_err(CliError)?;
                solvo_train::sample::check_size(&samples, size)
                    .map_err(|e| CliError(format!("{}: {e}", f.display())))?;
                held.extend(samples.into_iter().filter(|s| s.is_validation() && s.is_exact()));
            }
        }
    }
    for (name, set) in [("obf", &obf), ("held-out exact", &held), ("game results", &results)] {
        if set.is_empty() {
            continue;
        }
        let rows = solvo_train::accuracy::mae_by_empties(&weights, set);
        let (n, sum) = rows.iter().fold((0, 0.0), |(n, s), &(_, k, m)| (n + k, s + m * k as f64));
        if common.json {
            for &(e, k, m) in &rows {
                out!("{}", json!({"set": name, "empties": e, "positions": k, "mae": m}));
            }
            out!("{}", json!({"set": name, "positions": n, "mae": sum / n.max(1) as f64}));
        } else {
            out!("{name}: {n} positions, MAE {:.3} discs", sum / n.max(1) as f64);
            for &(e, k, m) in &rows {
                out!("  {e:>2} empties {k:>7} positions  MAE {m:.3}");
            }
        }
    }
    Ok(())
}
