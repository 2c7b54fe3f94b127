//! `solvo train`: make evaluation weights. `data` turns game databases into labelled
//! samples (resumable: one sample file per input file, skipped when present); `fit`
//! fits a weight file on sample files and reports the accuracy per stage.

use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_train::fit::{fit, FitOptions};
use solvo_train::games::{extract_file, ExtractOptions};
use solvo_train::sample::{read_samples, write_samples, Sample};
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Arguments of `solvo train`.
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
    /// Fit a weight file on sample files.
    Fit(FitArgs),
    /// Measure Multi-ProbCut statistics of a weight file on WTHOR positions.
    Mpc(crate::commands::train_mpc::MpcArgs),
}

/// Arguments of `solvo train data`.
#[derive(clap::Args, Debug)]
pub struct DataArgs {
    /// Game files (`.wtb`).
    #[arg(required = true)]
    pub files: Vec<PathBuf>,
    /// Where the sample files go (`<name>.samples`; existing ones are kept: resume).
    #[arg(long)]
    pub out_dir: PathBuf,
    /// Positions with at most this many empties get exact labels (solved).
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(0..=20))]
    pub exact_empties: u32,
    /// One game in this many is held out for validation (0: none).
    #[arg(long, default_value_t = 20)]
    pub validation_every: u64,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
}

/// Arguments of `solvo train fit`.
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
    /// Free text stored in the weight file (how it was made).
    #[arg(long, default_value = "")]
    pub description: String,
    /// Threads (default: all cores).
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub threads: Option<u64>,
}

/// Runs `solvo train`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    match args.step {
        Step::Data(a) => data(a, common),
        Step::Fit(a) => fit_command(a, common),
        Step::Mpc(a) => crate::commands::train_mpc::run(a, common),
    }
}

fn set_threads(threads: Option<u64>) {
    if let Some(t) = threads {
        let _ = rayon::ThreadPoolBuilder::new().num_threads(t as usize).build_global();
    }
}

fn data(args: DataArgs, common: Common) -> Result<(), CliError> {
    set_threads(args.threads);
    let options =
        ExtractOptions { exact_empties: args.exact_empties, validation_every: args.validation_every, hash_mb: 8 };
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
        write_samples(&out, &samples).map_err(CliError)?;
        let secs = t.elapsed().as_secs_f64();
        if common.json {
            out!(
                "{}",
                json!({"file": name, "games": stats.games, "bad_games": stats.bad_games, "samples": stats.samples,
                       "exact": stats.exact, "solver_nodes": stats.nodes, "seconds": secs, "out": out.display().to_string()})
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
    let options =
        FitOptions { iterations: args.iterations as usize, lambda: args.lambda, window: args.window as usize };
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
    let (mut weights, _reports) = fit(&samples, common.variant, &options, &|r| {
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
    });
    weights.description = args.description.clone();
    std::fs::write(&args.out, weights.to_bytes())
        .map_err(|e| CliError(format!("cannot write {}: {e}", args.out.display())))?;
    if !json {
        out!("wrote {} in {:.1} s", args.out.display(), start.elapsed().as_secs_f64());
    }
    Ok(())
}
