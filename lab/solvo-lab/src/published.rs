//! The published 8x8 run's task list (Takizawa's 2,587 positions with 50 empties, file
//! `empty50_tasklist_edax_knowledge.csv`): reading it, checking Algorithm 1's invariant
//! (the tasks' hypotheses, if proven, prove the start is a draw), comparing solvo's
//! estimates with the published Edax scores. The WTHOR frequency map that breaks ties in
//! the selection is the product's (`solvo_pipeline::select::wthor_frequency_in_years`).

use solvo_othello::formats::board_string::parse_position;
use solvo_othello::{Board, BoardSize, Variant};
use solvo_pipeline::estimate::Estimator;
use solvo_pipeline::goal::Bounds;
use solvo_pipeline::proof::Prover;
use std::collections::HashMap;

/// One published task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PublishedTask {
    /// The position (side to move = player), as listed.
    pub board: Board,
    /// How often it occurs in the WTHOR games the run used (its tie-break).
    pub count: u64,
    /// The published Edax estimate.
    pub score: i32,
    /// What must be proven: the window `(alpha, beta)`.
    pub alpha: i32,
    /// See `alpha`.
    pub beta: i32,
}

impl PublishedTask {
    /// The bounds the task's hypothesis claims, by the published check rule: score <=
    /// alpha claims `value <= alpha`, score >= beta claims `value >= beta`, otherwise the
    /// value is claimed exactly (the published PV position, solved exactly to its score).
    pub fn claimed(&self) -> Bounds {
        if self.score <= self.alpha {
            Bounds { lower: -64, upper: self.alpha }
        } else if self.score >= self.beta {
            Bounds { lower: self.beta, upper: 64 }
        } else {
            Bounds { lower: self.score, upper: self.score }
        }
    }
}

/// Reads the task list (`obf,count,score,alpha,beta` with a header line); errors name the
/// line.
pub fn parse_task_list(text: &str) -> Result<Vec<PublishedTask>, String> {
    let mut tasks = Vec::new();
    for (i, line) in text.lines().enumerate().skip(1).filter(|(_, l)| !l.trim().is_empty()) {
        let bad = |what: String| format!("task list line {}: {what}", i + 1);
        let f: Vec<&str> = line.split(',').collect();
        if f.len() != 5 {
            return Err(bad(format!("expected 5 fields, found {}", f.len())));
        }
        let head = f[0].split(';').next().unwrap_or("");
        let pos = parse_position(head, Some(BoardSize::Eight), Variant::Normal).map_err(|e| bad(e.to_string()))?;
        let num = |s: &str| s.trim().parse::<i64>().map_err(|_| bad(format!("{s:?} is not a number")));
        tasks.push(PublishedTask {
            board: pos.board,
            count: num(f[1])?.max(0) as u64,
            score: num(f[2])? as i32,
            alpha: num(f[3])? as i32,
            beta: num(f[4])? as i32,
        });
    }
    Ok(tasks)
}

/// Algorithm 1's invariant over `tasks`: with only the bounds the hypotheses claim at 50
/// empties, is the start proven `>= 0` and `<= 0` (a draw)? Returns both answers and the
/// proof positions examined.
pub fn invariant_holds(tasks: &[PublishedTask]) -> (bool, bool, u64) {
    let knowledge: HashMap<Board, Bounds> = tasks.iter().map(|t| (t.board.canonical(), t.claimed())).collect();
    let mut prover = Prover::new(BoardSize::Eight, 50, knowledge);
    let start = Board::start();
    let ge = prover.proves_ge(&start, 0);
    let le = prover.proves_le(&start, 0);
    (ge, le, prover.nodes)
}

/// solvo's estimates against the published Edax scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EstimateComparison {
    /// Positions compared.
    pub positions: usize,
    /// Mean absolute difference, discs.
    pub mean_abs_diff: f64,
    /// Pearson correlation.
    pub correlation: f64,
    /// Positions whose estimate lies on the same side of the task's window as the
    /// published score (so the task's goal would be the same).
    pub same_side: usize,
}

/// Estimates every task with `estimator` and compares with the published scores.
pub fn compare_estimates(tasks: &[PublishedTask], estimator: &Estimator) -> EstimateComparison {
    let pairs: Vec<(f64, f64)> =
        tasks.iter().map(|t| (f64::from(estimator.estimate(&t.board)), f64::from(t.score))).collect();
    let n = pairs.len().max(1) as f64;
    let mean = |f: &dyn Fn(&(f64, f64)) -> f64| pairs.iter().map(f).sum::<f64>() / n;
    let (mx, my) = (mean(&|p| p.0), mean(&|p| p.1));
    let cov = mean(&|p| (p.0 - mx) * (p.1 - my));
    let (vx, vy) = (mean(&|p| (p.0 - mx).powi(2)), mean(&|p| (p.1 - my).powi(2)));
    let side = |v: f64, t: &PublishedTask| (v <= f64::from(t.alpha), v >= f64::from(t.beta));
    EstimateComparison {
        positions: pairs.len(),
        mean_abs_diff: mean(&|p| (p.0 - p.1).abs()),
        correlation: if vx > 0.0 && vy > 0.0 { cov / (vx * vy).sqrt() } else { 0.0 },
        same_side: pairs.iter().zip(tasks).filter(|(p, t)| side(p.0, t) == side(p.1, t)).count(),
    }
}
