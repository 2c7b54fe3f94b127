//! G50 (Algorithm 1): which task positions to prove. Over predicted values of every
//! position at the task depth (estimates, corrected by what is already proven), the root's
//! predicted value `v` becomes the goal `value == v`; walking down, a goal
//! `value >= lo` needs only the best predicted child (ties broken by a frequency, e.g.
//! how often the position occurs in WTHOR games, then by square order) and a goal
//! `value <= hi` needs every child. Goals met at the task depth are the tasks. If every
//! task meets its goal, the root's value is `v`: the predictions are consistent with the
//! goals by construction, so the invariant holds whatever the predictions are.
//!
//! Re-selection after a refuted task ([`Selector::with_known`]): the proven bounds of the
//! task positions answer proof questions above the task depth, so a hypothesis the
//! tasks do not refute is kept, and a `>=` goal skips a child the tasks already refute
//! (one proven to meet the goal comes first). A selection therefore never asks again
//! for a goal the knowledge refutes unless the root's hypothesis itself is refuted, and
//! then the new hypothesis lies inside the root's proven bounds.
//!
//! With a [`ChoiceOracle`] ([`Selector::with_oracle`]) a `>=` goal goes through the move
//! an exact solve of the position proves reaches it, where the oracle answers: near an
//! extreme goal the best predicted child may be one whose goal holds but costs far more
//! to prove, or does not hold at all. Still ordering only: the tasks prove the root.

use crate::expand::ChoiceOracle;
use crate::goal::{Bounds, Goal};
use crate::node::{child_index, node, Node};
use crate::proof::Prover;
use solvo_othello::{Board, BoardSize};
use std::collections::{HashMap, HashSet};

/// Selects tasks over predictions of the positions at the task depth.
pub struct Selector<'a> {
    size: BoardSize,
    task_empties: u32,
    predictions: &'a HashMap<Board, i32>,
    frequency: &'a HashMap<Board, u64>,
    memo: HashMap<Board, i32>,
    tasks: HashMap<Board, Goal>,
    seen: HashSet<(Board, Goal)>,
    known: Option<Prover<HashMap<Board, Bounds>>>,
    oracle: Option<&'a mut dyn ChoiceOracle>,
    /// Task-depth positions the predictions did not cover (predicted 0).
    pub missing: u64,
}

impl<'a> Selector<'a> {
    /// A selector over `predictions` (canonical task-depth boards) and `frequency`
    /// (canonical boards, any depth; absent = 0).
    pub fn new(
        size: BoardSize,
        task_empties: u32,
        predictions: &'a HashMap<Board, i32>,
        frequency: &'a HashMap<Board, u64>,
    ) -> Selector<'a> {
        Selector {
            size,
            task_empties,
            predictions,
            frequency,
            memo: HashMap::new(),
            tasks: HashMap::new(),
            seen: HashSet::new(),
            known: None,
            oracle: None,
            missing: 0,
        }
    }

    /// The same selector reading `known`, the proven bounds of task positions (canonical):
    /// a hypothesis they refute is replaced by the prediction clamped into the root's
    /// proven bounds, and a `>=` goal never goes through a child they refute while another
    /// child is left.
    pub fn with_known(mut self, known: HashMap<Board, Bounds>) -> Selector<'a> {
        self.known = Some(Prover::new(self.size, self.task_empties, known));
        self
    }

    /// The same selector choosing the child of a `>=` goal by the move `oracle` proves
    /// reaches it, where the oracle answers (after a child the known bounds prove).
    pub fn with_oracle(mut self, oracle: &'a mut dyn ChoiceOracle) -> Selector<'a> {
        self.oracle = Some(oracle);
        self
    }

    /// The predicted value of `b` (negamax over the predictions at the task depth).
    pub fn predicted(&mut self, b: &Board) -> i32 {
        if b.empties(self.size) <= self.task_empties {
            return match node(b, self.size) {
                Node::Over(score) => score,
                // The enumeration stores a forced pass's board after the pass.
                Node::Pass(p) => -self.prediction_of(&p),
                Node::Moves(_) => self.prediction_of(b),
            };
        }
        let key = b.canonical();
        if let Some(&v) = self.memo.get(&key) {
            return v;
        }
        let v = match node(b, self.size) {
            Node::Over(score) => score,
            Node::Pass(p) => -self.predicted(&p),
            Node::Moves(children) => children.iter().map(|c| -self.predicted(c)).max().unwrap_or(0),
        };
        self.memo.insert(key, v);
        v
    }

    /// The stored prediction of task-depth board `b` (one whose side to move can move);
    /// 0, counted as missing, when there is none.
    fn prediction_of(&mut self, b: &Board) -> i32 {
        match self.predictions.get(&b.canonical()) {
            Some(&v) => v,
            None => {
                self.missing += 1;
                0
            }
        }
    }

    /// The tasks proving `root`'s value `hypothesis` (default, or when the known bounds
    /// refute it: the predicted value clamped into the root's proven bounds), with that
    /// value.
    pub fn select(mut self, root: &Board, hypothesis: Option<i32>) -> (i32, Vec<(Board, Goal)>, u64) {
        let predicted = self.predicted(root);
        let v = match (hypothesis, self.known.as_mut()) {
            (Some(h), Some(p)) => {
                if p.refutes(root, Goal::exact(h)) {
                    p.proven_bounds(root).clamp_estimate(predicted)
                } else {
                    h
                }
            }
            (Some(h), None) => h,
            (None, Some(p)) => p.proven_bounds(root).clamp_estimate(predicted),
            (None, None) => predicted,
        };
        self.walk(root, Goal::exact(v));
        let mut tasks: Vec<_> = self.tasks.into_iter().collect();
        tasks.sort_by_key(|(b, g)| (*b, g.lo, g.hi));
        (v, tasks, self.missing)
    }

    fn walk(&mut self, b: &Board, goal: Goal) {
        if !self.seen.insert((b.canonical(), goal)) {
            return;
        }
        let m = self.size.squares() as i32;
        if b.empties(self.size) <= self.task_empties {
            if !matches!(node(b, self.size), Node::Over(_)) {
                let e = self.tasks.entry(b.canonical()).or_insert(goal);
                *e = e.merged(goal);
            }
            return;
        }
        match node(b, self.size) {
            Node::Over(_) => {}
            Node::Pass(p) => self.walk(&p, goal.negated()),
            Node::Moves(children) => {
                let chosen = if goal.lo > -m { self.choose(b, &children, goal.lo) } else { None };
                for (i, c) in children.iter().enumerate() {
                    if let Some(sub) = goal.for_child(Some(i) == chosen, m) {
                        self.walk(c, sub);
                    }
                }
            }
        }
    }

    /// The child of `b` (its `children`, in square order) carrying `value >= lo`: one the
    /// known bounds prove `<= -lo` if any; else the move the oracle proves reaches `lo`;
    /// else the best predicted among those the known bounds do not refute (ties: higher
    /// frequency, then square order); the best predicted of all when every child is
    /// refuted.
    fn choose(&mut self, b: &Board, children: &[Board], lo: i32) -> Option<usize> {
        let mut refuted = vec![false; children.len()];
        if let Some(p) = self.known.as_mut() {
            for (i, c) in children.iter().enumerate() {
                if p.proves_le(c, -lo) {
                    return Some(i);
                }
                refuted[i] = p.proves_ge(c, -lo + 2);
            }
        }
        if let Some(sq) = self.oracle.as_mut().and_then(|oracle| oracle.move_reaching(b, lo)) {
            if let Some(i) = child_index(b, self.size, sq) {
                return Some(i);
            }
        }
        let open = refuted.iter().any(|r| !r);
        let mut best: Option<(i32, u64, usize)> = None;
        for (i, c) in children.iter().enumerate() {
            if open && refuted[i] {
                continue;
            }
            let v = -self.predicted(c);
            let f = self.frequency.get(&c.canonical()).copied().unwrap_or(0);
            if best.is_none_or(|(bv, bf, _)| v > bv || (v == bv && f > bf)) {
                best = Some((v, f, i));
            }
        }
        best.map(|(_, _, i)| i)
    }
}

/// How often positions occur in WTHOR games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct WthorFrequency {
    /// Canonical position -> games reaching it.
    pub counts: HashMap<Board, u64>,
    /// Whole games read (damaged records are listed in `problems` instead).
    pub games: u64,
    /// Files that could not be read as game files, and damaged game records (skipped,
    /// none of their positions counted), with why.
    pub problems: Vec<String>,
}

/// How often each position with `empties` empties (canonical) occurs in the WTHOR game
/// files (`.wtb`) of `dir`: the selection's tie-break. Unreadable files are skipped and
/// listed in `problems`; an unreadable directory is an error.
pub fn wthor_frequency(dir: &std::path::Path, empties: u32) -> Result<WthorFrequency, String> {
    wthor_frequency_between(dir, empties, empties)
}

/// [`wthor_frequency`] for every position with `lo..=hi` empties at once (the
/// selection breaks ties at every depth between the root and the tasks).
pub fn wthor_frequency_between(dir: &std::path::Path, lo: u32, hi: u32) -> Result<WthorFrequency, String> {
    wthor_frequency_in_years(dir, lo, hi, None)
}

/// The year of a WTHOR game file named `WTH_YYYY.wtb` (any case), if it is so named.
pub fn wthor_file_year(path: &std::path::Path) -> Option<u32> {
    let stem = path.file_stem()?.to_str()?;
    let year = stem.get(..4).filter(|p| p.eq_ignore_ascii_case("WTH_")).and(stem.get(4..))?;
    year.parse().ok()
}

/// [`wthor_frequency_between`] over the files of the years `years` (inclusive) only,
/// named `WTH_YYYY.wtb` (the published run counted 2001-2020); `None`: every `.wtb`
/// file.
pub fn wthor_frequency_in_years(
    dir: &std::path::Path,
    lo: u32,
    hi: u32,
    years: Option<(u32, u32)>,
) -> Result<WthorFrequency, String> {
    let mut out = WthorFrequency::default();
    let in_years =
        |p: &std::path::Path| years.is_none_or(|(a, b)| wthor_file_year(p).is_some_and(|y| a <= y && y <= b));
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")) && in_years(p))
        .collect();
    files.sort();
    for path in files {
        let file = match std::fs::read(&path)
            .map_err(|e| e.to_string())
            .and_then(|b| solvo_othello::formats::wthor::parse_wtb(&b).map_err(|e| e.to_string()))
        {
            Ok(f) => f,
            Err(e) => {
                out.problems.push(format!("{}: {e}", path.display()));
                continue;
            }
        };
        for (_, damage) in &file.damaged {
            out.problems.push(format!("{}: damaged record skipped: {damage}", path.display()));
        }
        for (_, game) in file.whole_games() {
            out.games += 1;
            let Ok(replay) = game.replay() else { continue };
            let mut last = None;
            for p in std::iter::once(replay.start).chain(replay.positions.iter().copied()) {
                let e = p.empties();
                // Once per game and depth (a pass repeats the empties).
                if (lo..=hi).contains(&e) && last != Some(e) && !p.is_game_over() && p.moves() != 0 {
                    *out.counts.entry(p.board.canonical()).or_insert(0) += 1;
                    last = Some(e);
                }
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::goal::Bounds;

    /// A prediction of 0 for every position `root` leads to at `task_empties` empties.
    fn zero_predictions(size: BoardSize, root: &Board, task_empties: u32) -> HashMap<Board, i32> {
        crate::stages::enumerate_positions(size, root, task_empties).iter().map(|b| (*b, 0)).collect()
    }

    /// A re-selection keeps a hypothesis the tasks' bounds do not refute, and never again
    /// asks a task for a goal its proven bounds refute.
    #[test]
    fn reselection_keeps_the_hypothesis_and_avoids_refuted_tasks() {
        let pos = crate::test_positions::six_by_six_after(&crate::test_positions::OPTIMAL_12);
        let root = pos.board;
        let predictions = zero_predictions(BoardSize::Six, &root, 18);
        let none = HashMap::new();
        let (v, first, _) = Selector::new(BoardSize::Six, 18, &predictions, &none).select(&root, Some(-4));
        assert_eq!(v, -4);
        // The main-line task (exact goal) turns out wrong: its value is above the goal.
        let &(pv, g) = first.iter().find(|(_, g)| g.lo == g.hi).expect("a main-line task");
        let known: HashMap<Board, Bounds> = [(pv, Bounds { lower: g.hi + 2, upper: 36 })].into();
        let (v, again, _) =
            Selector::new(BoardSize::Six, 18, &predictions, &none).with_known(known.clone()).select(&root, Some(-4));
        assert_eq!(v, -4, "one refuted task does not refute the root");
        assert_ne!(again, first);
        for (b, g) in &again {
            let k = known.get(b).copied().unwrap_or(Bounds::unknown(36));
            assert!(!k.refutes(*g), "task {b:?} asked for {g:?}, refuted by {k:?}");
        }
    }

    /// Exact answers by full-window solves of each child (not the pipeline's null-window
    /// solve of the parent), so the choices are checked another way.
    struct ExactChildren(solvo_othello_search::SolveOptions);

    impl ExactChildren {
        fn value(&mut self, b: &Board) -> i32 {
            solvo_othello_search::solve(&crate::node::solver_position(b, BoardSize::Six), &self.0).score().unwrap()
        }
    }

    impl ChoiceOracle for ExactChildren {
        fn at_most(&mut self, b: &Board, bound: i32) -> Option<bool> {
            Some(self.value(b) <= bound)
        }

        fn move_reaching(&mut self, b: &Board, lo: i32) -> Option<solvo_othello::Square> {
            let moves = b.moves(BoardSize::Six);
            solvo_othello::Square::iter(moves).find(|&sq| -self.value(&b.play_with_flips(sq, b.flips(sq))) >= lo)
        }
    }

    /// With an oracle, every `>=` goal goes through a child that meets it, so when the
    /// hypothesis is the true value every task's goal holds, whatever the predictions
    /// (all 0 here, which without the oracle sends the main line through a child that
    /// falls short).
    #[test]
    fn exact_choices_select_only_tasks_whose_goals_hold() {
        let pos = crate::test_positions::six_by_six_after(&crate::test_positions::OPTIMAL_12);
        let root = pos.board;
        let predictions = zero_predictions(BoardSize::Six, &root, 16);
        let none = HashMap::new();
        let mut oracle = ExactChildren(solvo_othello_search::SolveOptions::new(16));
        let holds = |oracle: &mut ExactChildren, tasks: &[(Board, Goal)]| {
            tasks.iter().all(|(b, g)| {
                let v = oracle.value(b);
                g.lo <= v && v <= g.hi
            })
        };
        let (v, plain, _) = Selector::new(BoardSize::Six, 16, &predictions, &none).select(&root, Some(-4));
        assert_eq!(v, -4);
        assert!(!holds(&mut oracle, &plain), "the zero predictions choose a wrong child somewhere");
        let mut exact = ExactChildren(solvo_othello_search::SolveOptions::new(16));
        let (v, chosen, _) =
            Selector::new(BoardSize::Six, 16, &predictions, &none).with_oracle(&mut exact).select(&root, Some(-4));
        assert_eq!(v, -4);
        assert!(!chosen.is_empty());
        assert!(holds(&mut oracle, &chosen), "every selected task's goal holds");
    }

    /// A task-depth position whose side to move must pass finds the prediction the
    /// enumeration stored for the board after the pass (the 6th position of Edax's
    /// hard-25 set, tasks 4 plies deeper, has one).
    #[test]
    fn a_forced_pass_at_the_task_depth_finds_its_prediction() {
        let line = "--X-O----XXXOO-OOOOOXXOO-OOXXXXO--OOXXOO--OOOXOO----OO-O----O--- O";
        let root =
            solvo_othello::formats::obf::parse_obf_line(line, Some(BoardSize::Eight), solvo_othello::Variant::Normal)
                .unwrap()
                .position
                .board;
        let predictions = zero_predictions(BoardSize::Eight, &root, 21);
        let none = HashMap::new();
        let mut passes = 0;
        let mut stack = vec![root];
        while let Some(b) = stack.pop() {
            match node(&b, BoardSize::Eight) {
                Node::Pass(_) if b.empties(BoardSize::Eight) == 21 => passes += 1,
                Node::Moves(kids) if b.empties(BoardSize::Eight) > 21 => stack.extend(kids),
                _ => {}
            }
        }
        assert!(passes > 0, "the position leads to a forced pass at 21 empties");
        let (_, tasks, missing) = Selector::new(BoardSize::Eight, 21, &predictions, &none).select(&root, Some(-24));
        assert_eq!(missing, 0);
        assert!(!tasks.is_empty());
    }
}
