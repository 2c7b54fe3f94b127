//! `solvo-lab pipeline figures`: Figures 2, 3 and 4 and Table 1 of "Othello is solved"
//! from a pipeline store and the published task list, drawn as SVG. Thin: the figures'
//! data is `solvo_lab::othello_solved`'s, the drawing `solvo_lab::figures`'.

use crate::error::CliError;
use crate::Common;
use serde_json::{json, Value};
use solvo_lab::figures::{draw_nodes_by_estimate, draw_opening_tree, draw_sorted_nodes};
use solvo_lab::othello_solved::{leaf_costs, nodes_by_estimate, opening_tree, sorted_profile, table_one, top_share};
use solvo_lab::published::parse_task_list;
use solvo_othello::BoardSize;
use solvo_pipeline::estimate::Estimator;
use std::path::PathBuf;
use std::time::Instant;

/// Options of `solvo-lab pipeline figures`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Directory the SVG files are written to (made if missing).
    #[arg(long)]
    pub out_dir: PathBuf,
    /// File names start with this.
    #[arg(long, default_value = "othello-solved")]
    pub prefix: String,
    /// A pipeline store (SQLite) whose solved leaves make Figures 2 and 3 and Table 1
    /// (the board size is the common --size, default 8).
    #[arg(long)]
    pub db: Option<PathBuf>,
    /// Depth of the estimate of each leaf (Figure 3's horizontal axis; published: 2).
    #[arg(long, default_value_t = 2, value_parser = crate::option_ranges::estimate_depth, allow_negative_numbers = true)]
    pub estimate_depth: u32,
    /// Ranks plotted in Figure 2 (the paper: 1,000).
    #[arg(long, default_value_t = 1000, value_parser = crate::option_ranges::at_least_one, allow_negative_numbers = true)]
    pub points: usize,
    /// CPU seconds the run's solves took (Table 1's capability row; with --ghz).
    #[arg(long, value_parser = crate::option_ranges::seconds, allow_negative_numbers = true)]
    pub cpu_seconds: Option<f64>,
    /// The machine's clock, GHz (Table 1's capability row; with --cpu-seconds).
    #[arg(long, value_parser = ghz, allow_negative_numbers = true)]
    pub ghz: Option<f64>,
    /// The published task list (`obf,count,score,alpha,beta`) whose claims make Figure 4,
    /// e.g. ../shared/data/takizawa/empty50_tasklist_edax_knowledge.csv.
    #[arg(long)]
    pub tasks: Option<PathBuf>,
    /// The tasks' depth (published: 50 empties).
    #[arg(long, default_value_t = 50, value_parser = crate::option_ranges::empties, allow_negative_numbers = true)]
    pub task_empties: u32,
    /// Plies of the opening tree drawn (every ply is counted).
    #[arg(long, default_value_t = 5, value_parser = crate::option_ranges::plies, allow_negative_numbers = true)]
    pub plies: u32,
}

fn ghz(text: &str) -> Result<f64, String> {
    let v: f64 = text.trim().parse().map_err(|_| "expected a clock in GHz, 0.1 to 10".to_string())?;
    if !(0.1..=10.0).contains(&v) {
        return Err("expected a clock in GHz, 0.1 to 10".into());
    }
    Ok(v)
}

/// Runs `solvo-lab pipeline figures`.
pub fn run(args: Args, common: Common) -> Result<(), CliError> {
    if args.db.is_none() && args.tasks.is_none() {
        return Err(CliError("pipeline figures: give --db (Figures 2, 3, Table 1) or --tasks (Figure 4)".into()));
    }
    std::fs::create_dir_all(&args.out_dir).map_err(|e| CliError(format!("{}: {e}", args.out_dir.display())))?;
    let file = |name: &str| args.out_dir.join(format!("{}-{name}.svg", args.prefix));
    let mut out = serde_json::Map::new();
    let say = |text: String| {
        if !common.json {
            out!("{text}");
        }
    };
    if let Some(db) = &args.db {
        let size = common.size.unwrap_or(BoardSize::Eight);
        let t = Instant::now();
        let costs = leaf_costs(db, &Estimator::new(size, args.estimate_depth)).map_err(CliError)?;
        if costs.is_empty() {
            return Err(CliError(format!("{}: no solved leaf in the store", db.display())));
        }
        let t1 = table_one(&costs, args.cpu_seconds.zip(args.ghz));
        say(format!(
            "Table 1: problems (leaves solved) {}; positions (solver nodes over the leaves) {} = {:.3e} ({:.3e} per leaf); capability {} ({:.1} s to read and estimate)",
            t1.problems,
            t1.positions,
            t1.positions as f64,
            t1.positions as f64 / t1.problems as f64,
            t1.per_ghz_core_second.map_or("- (give --cpu-seconds and --ghz)".into(), |r| format!("{r:.3e} nodes per GHz per core per second")),
            t.elapsed().as_secs_f64()
        ));
        let profile = sorted_profile(&costs, args.points);
        let shares: Vec<(f64, f64)> = [0.001, 0.01, 0.1, 0.5].iter().map(|&f| (f, top_share(&costs, f))).collect();
        say(format!(
            "Figure 2: the costliest leaf {} nodes, the median {} , the cheapest {}; the costliest {} of the leaves take {} of the nodes",
            profile.first().map_or(0, |p| p.nodes),
            profile.get(profile.len() / 2).map_or(0, |p| p.nodes),
            profile.last().map_or(0, |p| p.nodes),
            shares.iter().map(|(f, _)| format!("{:.1}%", 100.0 * f)).collect::<Vec<_>>().join(" / "),
            shares.iter().map(|(_, s)| format!("{:.1}%", 100.0 * s)).collect::<Vec<_>>().join(" / ")
        ));
        let f2 = file("fig2");
        draw_sorted_nodes(&f2, &profile, &format!("{} leaves of a {size} pipeline run, sorted by nodes", costs.len()))
            .map_err(CliError)?;
        let bins = nodes_by_estimate(&costs);
        let total = t1.positions.max(1) as f64;
        let row = |(e, (n, s)): (&i32, &(u64, u64))| {
            format!("{e:+}: {n} leaves, {s} nodes ({:.1}%)", 100.0 * *s as f64 / total)
        };
        say(format!("Figure 3 (estimate: leaves, nodes): {}", bins.iter().map(row).collect::<Vec<_>>().join("; ")));
        let f3 = file("fig3");
        draw_nodes_by_estimate(&f3, &bins, &format!("nodes by the leaf's estimate (depth {})", args.estimate_depth))
            .map_err(CliError)?;
        say(format!("wrote {} and {}", f2.display(), f3.display()));
        out.insert(
            "table1".into(),
            json!({"problems": t1.problems, "positions": t1.positions,
            "per_ghz_core_second": t1.per_ghz_core_second}),
        );
        out.insert("top_shares".into(), json!(shares));
        out.insert("by_estimate".into(), Value::Array(bins.iter().map(|(e, (n, s))| json!([e, n, s])).collect()));
    }
    if let Some(path) = &args.tasks {
        let named = |e: &dyn std::fmt::Display| CliError(format!("{}: {e}", path.display()));
        let text = std::fs::read_to_string(path).map_err(|e| named(&e))?;
        let tasks = parse_task_list(&text).map_err(|e| named(&e))?;
        let t = Instant::now();
        let tree = opening_tree(&tasks, args.task_empties);
        let per_ply = tree.per_ply();
        let draws = tree.draws_per_ply();
        let mut player_moves = vec![0usize; per_ply.len()];
        for n in &tree.nodes {
            player_moves[n.ply as usize] += n.moves.iter().filter(|m| m.2).count();
        }
        say(format!(
            "Figure 4: the {} tasks' claims prove the start >= 0: {}, <= 0: {}; the perfect player's opening tree, positions per ply from the start: {:?} ({} in all), of which proven draws: {:?}; the player's own moves per ply: {:?} ({} proof positions, {:.1} s)",
            tasks.len(),
            tree.proven[0],
            tree.proven[1],
            per_ply,
            tree.nodes.len(),
            draws,
            player_moves,
            tree.prover_nodes,
            t.elapsed().as_secs_f64()
        ));
        let f4 = file("fig4");
        draw_opening_tree(
            &f4,
            &tree,
            args.plies,
            &format!(
                "the perfect player's opening tree from the {} tasks' claims, first {} plies",
                tasks.len(),
                args.plies
            ),
        )
        .map_err(CliError)?;
        say(format!("wrote {}", f4.display()));
        out.insert(
            "opening_tree".into(),
            json!({"per_ply": per_ply, "draws_per_ply": draws,
            "player_moves_per_ply": player_moves, "proven": tree.proven, "prover_nodes": tree.prover_nodes}),
        );
    }
    if common.json {
        out!("{}", Value::Object(out));
    }
    Ok(())
}
