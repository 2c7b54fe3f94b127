//! `solvo-lab bench games`: the Monte Carlo Game Solver study's tables regenerated (game
//! x algorithm: result, nodes, time, Monte Carlo budget) with the study's figures beside
//! ours, as text or Markdown (optionally written into a Markdown file's marked tables), the
//! Nogo winner grid of its table 3, and the comparison of transposition-table
//! replacement schemes (`--schemes`).

use crate::error::CliError;
use crate::Common;
use serde_json::json;
use solvo_core::Game;
use solvo_games::GameOptions;
use solvo_lab::mc_study::{
    rows_of, study_game_options, thousands, StudyCell, StudyPart, StudyRow, NOGO_GRID, STUDY_COLUMNS,
};
use solvo_search::tt::{Replacement, TableShape};
use solvo_search::{Algorithm, GameResult};
use solvo_shell::games::{report_json, size_of, solve_game, with_game, AbArgs, GameAction, GameReport, SolverArgs};
use std::fmt::Write as _;
use std::path::PathBuf;

/// The default cells without `--table`: one instance of each study game.
pub const BENCH_SET: &[(&str, &str)] = &[
    ("domineering", "7x7"),
    ("misere-domineering", "7x7"),
    ("nogo", "7x3"),
    ("nogo", "5x4"),
    ("atarigo", "5x5"),
    ("go", "3x3"),
    ("knightthrough", "6x6"),
    ("misere-breakthrough", "4x5"),
    ("breakthrough", "5x5"),
];

/// Arguments of `solvo-lab bench games`.
#[derive(clap::Args, Debug)]
pub struct BenchArgs {
    /// Regenerate the study's table N (1-10; 3 is the Nogo winner grid): its instances,
    /// its five algorithms and df-pn, its Monte Carlo budgets, its figures beside ours.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=10), allow_negative_numbers = true)]
    pub table: Option<u32>,
    /// Cells game:RxC, comma-separated (default: the study's instances of --table, else
    /// one instance of each game); with --table, a cell that is one of its rows is shown
    /// with the study's figures.
    #[arg(long, value_delimiter = ',')]
    pub games: Vec<String>,
    /// Algorithms, comma-separated (default: all; with --table, the study's five and
    /// dfpn).
    #[arg(long, value_delimiter = ',')]
    pub algos: Vec<Algorithm>,
    /// Time limit per cell in seconds.
    #[arg(long, default_value_t = 60.0, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true)]
    pub cell_time: f64,
    /// Node limit per cell.
    #[arg(long)]
    pub cell_nodes: Option<u64>,
    /// Playouts of the Monte Carlo ordering search (default: the study's budget of the
    /// row with --table, else 10,000).
    #[arg(long, value_parser = crate::option_ranges::playouts, allow_negative_numbers = true)]
    pub playouts: Option<u32>,
    /// log2 of the number of transposition-table buckets.
    #[arg(long, default_value_t = 22, value_parser = crate::option_ranges::table_bits, allow_negative_numbers = true)]
    pub tt_bits: u32,
    /// Random seed of the Monte Carlo searches.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Enhanced transposition cutoff in the alpha-beta solvers.
    #[arg(long)]
    pub etc: bool,
    /// The study's own settings in place of solvo's, to put node savings down to their
    /// cause: `table` (1,048,575 entries always replaced, iterative deepening with a
    /// null window, no symmetric keys), `ordering` (the study's Algorithms 4 and 5, no
    /// heuristic for Nogo and Domineering), `tactics` (none); comma-separated, as
    /// `--study-settings=table,ordering`; the flag alone is all three.
    #[arg(long, value_delimiter = ',', num_args = 0.., require_equals = true)]
    pub study_settings: Option<Vec<StudyPart>>,
    /// Compare the table replacement schemes instead (always, depth, two-tier, cost)
    /// with --schemes-entries entries each, for the first algorithm of --algos
    /// (default id-ab-tt-mc): probes, hits, cutoffs, stores, overwrites, lost.
    #[arg(long)]
    pub schemes: bool,
    /// Table entries in the --schemes comparison (equal memory for every scheme).
    #[arg(long, default_value_t = 1_048_575, value_parser = crate::option_ranges::table_entries, allow_negative_numbers = true)]
    pub schemes_entries: usize,
    /// Largest board (cells) of the Nogo grid (table 3) that is solved.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=100), allow_negative_numbers = true)]
    pub grid_max_cells: u32,
    /// Also write the result as Markdown to this file.
    #[arg(long)]
    pub markdown: Option<PathBuf>,
    /// Rewrite the table in this Markdown file (e.g. docs/results/mc-game-solver.md)
    /// between the lines `<!-- bench games table N -->` and `<!-- end bench games table
    /// N -->`, leaving the rest of the file as it was (needs --table).
    #[arg(long, alias = "update-readme", value_name = "FILE")]
    pub rewrite_tables: Option<PathBuf>,
}

struct Plain {
    config: solvo_search::SolverConfig,
}

impl GameAction for Plain {
    type Output = GameReport;
    fn run<G: Game>(self, game: G, label: String) -> GameReport {
        solve_game(&game, label, &self.config)
    }
}

/// One instance to run: the game, its size, the study's row if any.
struct Cell {
    game: String,
    size: String,
    study: Option<&'static StudyRow>,
}

impl BenchArgs {
    fn cells(&self) -> Result<Vec<Cell>, CliError> {
        if !self.games.is_empty() {
            return self
                .games
                .iter()
                .map(|c| {
                    // With --table, a cell that is one of the table's rows keeps its figures.
                    let study =
                        |g: &str, s: &str| self.table.and_then(|t| rows_of(t).find(|r| r.game == g && r.size == s));
                    c.split_once(':')
                        .map(|(g, s)| Cell { game: g.to_string(), size: s.to_string(), study: study(g, s) })
                        .ok_or_else(|| CliError(format!("--games: expected game:RxC, got '{c}'")))
                })
                .collect();
        }
        Ok(match self.table {
            Some(t) => rows_of(t).map(|r| Cell { game: r.game.into(), size: r.size.into(), study: Some(r) }).collect(),
            None => BENCH_SET.iter().map(|&(g, s)| Cell { game: g.into(), size: s.into(), study: None }).collect(),
        })
    }

    fn algos(&self) -> Vec<Algorithm> {
        if !self.algos.is_empty() {
            return self.algos.clone();
        }
        if self.table.is_some() {
            let mut v: Vec<Algorithm> = STUDY_COLUMNS.iter().map(|n| n.parse().expect("a solver name")).collect();
            v.push(Algorithm::Dfpn);
            return v;
        }
        Algorithm::ALL.to_vec()
    }

    /// The options that change results, as typed (for captions).
    fn flags(&self) -> String {
        let mut f = format!(" --cell-time {}", self.cell_time);
        if let Some(n) = self.cell_nodes {
            f += &format!(" --cell-nodes {n}");
        }
        if let Some(p) = self.playouts {
            f += &format!(" --playouts {p}");
        }
        if self.tt_bits != 22 {
            f += &format!(" --tt-bits {}", self.tt_bits);
        }
        if self.etc {
            f += " --etc";
        }
        if let Some(parts) = &self.study_settings {
            let names: Vec<&str> = self.study_parts().iter().map(|p| p.name()).collect();
            f += &if parts.is_empty() {
                " --study-settings".to_string()
            } else {
                format!(" --study-settings={}", names.join(","))
            };
        }
        if self.seed != 1 {
            f += &format!(" --seed {}", self.seed);
        }
        f
    }

    /// The parts of the study's settings asked for (the flag alone: all).
    fn study_parts(&self) -> Vec<StudyPart> {
        match &self.study_settings {
            None => Vec::new(),
            Some(parts) if parts.is_empty() => StudyPart::ALL.to_vec(),
            Some(parts) => parts.clone(),
        }
    }

    /// The game options of a cell of `game` solved by `algo` under the study's settings
    /// asked for.
    fn game_options(&self, game: &str, algo: Algorithm) -> GameOptions {
        let mut options = GameOptions::new();
        for (key, value) in study_game_options(game, algo.uses_mc(), &self.study_parts()) {
            options.set(key, value);
        }
        options
    }

    /// The solver of one cell.
    fn solver(&self, algo: Algorithm, study: Option<&StudyRow>) -> SolverArgs {
        let mut ab = AbArgs::default();
        if self.study_parts().contains(&StudyPart::Table) {
            ab.tt_scheme = Replacement::AlwaysReplace;
            ab.tt_entries = Some(TableShape::STUDY.entries);
            ab.null_window = matches!(algo, Algorithm::IdAbTt | Algorithm::IdAbTtMc);
        }
        SolverArgs {
            algo,
            playouts: self.playouts.or(study.map(|r| r.playouts)).unwrap_or(10_000),
            nodes: self.cell_nodes,
            time_limit: Some(self.cell_time),
            tt_bits: self.tt_bits,
            seed: self.seed,
            etc: self.etc,
            threshold: 1,
            ab,
        }
    }
}

/// Runs one solve.
fn run_cell(game: &str, size: &str, options: &GameOptions, solver: &SolverArgs) -> Result<GameReport, CliError> {
    let (rows, cols) = size_of(game, Some(size))?;
    with_game(game, rows, cols, options, Plain { config: solver.config()? })
}

/// `first_player_win` -> `Won`, as the study writes results.
fn study_word(r: GameResult) -> &'static str {
    match r {
        GameResult::FirstPlayerWins => "Won",
        GameResult::SecondPlayerWins => "Lost",
        GameResult::Draw => "Draw",
        _ => r.code(),
    }
}

/// Runs `solvo-lab bench games`.
pub fn run(args: BenchArgs, common: Common) -> Result<(), CliError> {
    if args.rewrite_tables.is_some() && args.table.is_none() {
        // Said before any cell runs, not after.
        return Err(CliError("--rewrite-tables needs --table".into()));
    }
    if args.table == Some(3) && args.games.is_empty() {
        return nogo_grid(&args, common);
    }
    if args.schemes {
        return schemes(&args, common);
    }
    let cells = args.cells()?;
    let algos = args.algos();
    let mut md = String::new();
    if let Some(t) = args.table {
        let _ = writeln!(
            md,
            "Study table {t}: ours (`solvo-lab bench games --table {t}{}`) beside the study's figures (moves / seconds; \"> N G\": stopped unsolved).\n",
            args.flags()
        );
    }
    let _ = writeln!(md, "| game | algorithm | result | nodes | time | playouts | study |");
    let _ = writeln!(md, "|---|---|---|---|---|---|---|");
    if !common.json {
        out!(
            "per-cell limit: {} s{}; seed {}{}",
            args.cell_time,
            args.cell_nodes.map_or(String::new(), |n| format!(", {n} nodes")),
            args.seed,
            match args.study_parts().as_slice() {
                [] => String::new(),
                parts =>
                    format!("; the study's settings: {}", parts.iter().map(|p| p.name()).collect::<Vec<_>>().join(", ")),
            }
        );
        out!(
            "{:<28} {:<12} {:<21} {:>14} {:>10} {:>10}  {}",
            "game",
            "algorithm",
            "result",
            "nodes",
            "seconds",
            "playouts",
            "study (moves / s)"
        );
    }
    for cell in &cells {
        let mut best: Option<(Algorithm, u64)> = None;
        for &algo in &algos {
            let solver = args.solver(algo, cell.study);
            let r = run_cell(&cell.game, &cell.size, &args.game_options(&cell.game, algo), &solver)?;
            let study =
                cell.study.and_then(|row| STUDY_COLUMNS.iter().position(|&c| c == algo.name()).map(|i| row.cells[i]));
            let solved = r.result.winner().is_some();
            if let Some(row) = cell.study {
                if solved && (r.result == GameResult::FirstPlayerWins) != row.first_player_wins {
                    return Err(CliError(format!(
                        "{} with {algo}: {} contradicts the study's {}",
                        r.label,
                        r.result,
                        if row.first_player_wins { "Won" } else { "Lost" }
                    )));
                }
            }
            if solved && best.is_none_or(|(_, n)| r.stats.nodes < n) {
                best = Some((algo, r.stats.nodes));
            }
            let study_text = study.map_or("-".to_string(), |c| c.to_string());
            let playouts = if algo.uses_mc() { thousands(r.stats.playouts) } else { "-".into() };
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} | {:.2} s | {} | {} |",
                r.label,
                algo.name(),
                if solved { study_word(r.result) } else { "unsolved" },
                thousands(r.stats.nodes),
                r.stats.time.as_secs_f64(),
                playouts,
                study_text
            );
            if common.json {
                out!(
                    "{}",
                    json!({"bench": "games", "table": args.table, "result": report_json(&r), "study": study.map(|c| c.to_string())})
                );
            } else {
                out!(
                    "{:<28} {:<12} {:<21} {:>14} {:>10.3} {:>10}  {}",
                    r.label,
                    algo.name(),
                    r.result.code(),
                    r.stats.nodes,
                    r.stats.time.as_secs_f64(),
                    r.stats.playouts,
                    study_text
                );
            }
        }
        if let Some(row) = cell.study {
            let study_best = row
                .cells
                .iter()
                .zip(STUDY_COLUMNS)
                .filter_map(|(c, name)| match c {
                    StudyCell::Solved(n, _) => Some((*n, name)),
                    _ => None,
                })
                .min();
            let line = match (best, study_best) {
                (Some((a, n)), Some((s, sa))) => format!(
                    "{} {}: our best {} nodes ({a}) vs the study's best {} moves ({sa}): {}",
                    cell.game,
                    cell.size,
                    thousands(n),
                    thousands(s),
                    if n < s { format!("{:.1}x fewer", s as f64 / n.max(1) as f64) } else { "not fewer".into() }
                ),
                (None, _) => format!("{} {}: unsolved within the cell limit", cell.game, cell.size),
                (Some((a, n)), None) => format!("{} {}: our best {} nodes ({a})", cell.game, cell.size, thousands(n)),
            };
            let line = match row.reading() {
                Some(reading) => format!("{line} ({reading})"),
                None => line,
            };
            let _ = writeln!(md, "| **{}** | | | | | | |", line.replace('|', "/"));
            if !common.json {
                out!("  {line}");
            }
        }
    }
    write_markdown(&args, &md)
}

/// Writes `md` where --markdown and --rewrite-tables ask.
fn write_markdown(args: &BenchArgs, md: &str) -> Result<(), CliError> {
    if let Some(path) = &args.markdown {
        std::fs::write(path, md).map_err(|e| CliError(format!("--markdown {}: {e}", path.display())))?;
    }
    if let Some(path) = &args.rewrite_tables {
        let t = args.table.ok_or_else(|| CliError("--rewrite-tables needs --table".into()))?;
        let text =
            std::fs::read_to_string(path).map_err(|e| CliError(format!("--rewrite-tables {}: {e}", path.display())))?;
        let (open, close) = (format!("<!-- bench games table {t} -->"), format!("<!-- end bench games table {t} -->"));
        let (Some(a), Some(b)) = (text.find(&open), text.find(&close)) else {
            return Err(CliError(format!(
                "--rewrite-tables {}: the lines '{open}' and '{close}' are not both there",
                path.display()
            )));
        };
        if b < a {
            return Err(CliError(format!("--rewrite-tables {}: '{close}' comes before '{open}'", path.display())));
        }
        let new = format!("{}{open}\n{md}{}", &text[..a], &text[b..]);
        std::fs::write(path, new).map_err(|e| CliError(format!("--rewrite-tables {}: {e}", path.display())))?;
    }
    Ok(())
}

/// Table 3: the Nogo winner of every size the study lists, up to --grid-max-cells.
fn nogo_grid(args: &BenchArgs, common: Common) -> Result<(), CliError> {
    let algo = args.algos.first().copied().unwrap_or(Algorithm::AbTtMc);
    let mut md = format!(
        "Study table 3, Nogo winner by size (rows x columns; 1: first player, 2: second): ours / study, `solvo-lab bench games --table 3 --algos {algo}{} --grid-max-cells {}` (\"?\": not solved within the cell limit; \"·\": larger than the grid limit, not run).\n\n",
        args.flags(), args.grid_max_cells
    );
    let _ = writeln!(md, "| | {} |", (1..=10).map(|c| c.to_string()).collect::<Vec<_>>().join(" | "));
    let _ = writeln!(md, "|---|{}", "---|".repeat(10));
    let mut disagreements = Vec::new();
    for r in 1..=10usize {
        let mut row = Vec::new();
        for c in 1..=10usize {
            let Some(study) = NOGO_GRID[r - 1][c - 1] else {
                row.push(String::new());
                continue;
            };
            if (r * c) as u32 > args.grid_max_cells {
                row.push(format!("· / {study}"));
                continue;
            }
            let report =
                run_cell("nogo", &format!("{r}x{c}"), &args.game_options("nogo", algo), &args.solver(algo, None))?;
            let ours = match report.result {
                GameResult::FirstPlayerWins => "1",
                GameResult::SecondPlayerWins => "2",
                _ => "?",
            };
            if ours != "?" && ours != study.to_string() {
                disagreements.push(format!("{r}x{c}: ours {ours}, study {study}"));
            }
            if common.json {
                out!(
                    "{}",
                    json!({"bench": "games", "table": 3, "size": format!("{r}x{c}"), "ours": ours, "study": study, "nodes": report.stats.nodes, "seconds": report.stats.time.as_secs_f64()})
                );
            } else {
                out!(
                    "nogo {r}x{c}: ours {ours}, study {study}  ({} nodes, {:.2} s)",
                    report.stats.nodes,
                    report.stats.time.as_secs_f64()
                );
            }
            row.push(format!("{ours} / {study}"));
        }
        let _ = writeln!(md, "| **{r}** | {} |", row.join(" | "));
    }
    let summary = if disagreements.is_empty() {
        "Every size solved agrees with the study.".to_string()
    } else {
        format!("Disagreements: {}.", disagreements.join("; "))
    };
    let _ = writeln!(md, "\n{summary}");
    if !common.json {
        out!("{summary}");
    }
    write_markdown(args, &md)
}

/// The replacement schemes compared with equal memory on each cell.
fn schemes(args: &BenchArgs, common: Common) -> Result<(), CliError> {
    let algo = args.algos.first().copied().unwrap_or(Algorithm::IdAbTtMc);
    let cells = args.cells()?;
    let mut md = format!(
        "Transposition-table replacement schemes, {} entries each, {algo} (`solvo-lab bench games --schemes --algos {algo} --schemes-entries {}{}`); \"lost\": look-ups that missed a position stored earlier.\n\n",
        thousands(args.schemes_entries as u64),
        args.schemes_entries,
        args.flags()
    );
    let _ = writeln!(
        md,
        "| game | scheme | result | nodes | time | probes | hits | cutoffs | stores | overwrites | lost |"
    );
    let _ = writeln!(md, "|---|---|---|---|---|---|---|---|---|---|---|");
    if !common.json {
        out!(
            "{:<24} {:<9} {:<18} {:>12} {:>8} {:>12} {:>12} {:>11} {:>11} {:>11} {:>11}",
            "game",
            "scheme",
            "result",
            "nodes",
            "seconds",
            "probes",
            "hits",
            "cutoffs",
            "stores",
            "overwrites",
            "lost"
        );
    }
    for cell in &cells {
        for scheme in Replacement::ALL {
            let mut solver = args.solver(algo, cell.study);
            solver.ab.tt_scheme = scheme;
            solver.ab.tt_entries = Some(args.schemes_entries);
            solver.ab.tt_track_lost = true;
            let r = run_cell(&cell.game, &cell.size, &GameOptions::new(), &solver)?;
            let s = &r.stats;
            let _ = writeln!(
                md,
                "| {} | {scheme} | {} | {} | {:.2} s | {} | {} | {} | {} | {} | {} |",
                r.label,
                r.result.code(),
                thousands(s.nodes),
                s.time.as_secs_f64(),
                thousands(s.tt_probes),
                thousands(s.tt_hits),
                thousands(s.tt_cutoffs),
                thousands(s.tt_stores),
                thousands(s.tt_overwrites),
                thousands(s.tt_lost)
            );
            if common.json {
                out!("{}", json!({"bench": "games-schemes", "scheme": scheme.name(), "result": report_json(&r)}));
            } else {
                out!(
                    "{:<24} {:<9} {:<18} {:>12} {:>8.2} {:>12} {:>12} {:>11} {:>11} {:>11} {:>11}",
                    r.label,
                    scheme.name(),
                    r.result.code(),
                    s.nodes,
                    s.time.as_secs_f64(),
                    s.tt_probes,
                    s.tt_hits,
                    s.tt_cutoffs,
                    s.tt_stores,
                    s.tt_overwrites,
                    s.tt_lost
                );
            }
        }
    }
    write_markdown(args, &md)
}
