//! Analysis for people looking at a board: every legal move's value, refined as the
//! search deepens and then made exact (every move solved in one call over one table)
//! when the position is within the level's solving reach ([`Engine::analyze_moves`]); and the review of a whole game,
//! each played move's loss against the best one ([`Engine::analyze_game`]).

use crate::clock::MoveTime;
use crate::engine::{Engine, EngineError};
use solvo_othello::formats::transcript::{Ply, Replay};
use solvo_othello::{BoardSize, Color, Position, Square};
use solvo_othello_search::playout_estimate;
use solvo_othello_search::MoveBounds;
use solvo_othello_search::MoveHints;
use solvo_othello_search::{SearchLimits, SearchResult, SOLVE_EMPTIES};
use std::time::{Duration, Instant};

/// The value of one legal move, for the side to move.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    /// The move.
    pub square: Square,
    /// Its value in discs for the side to move (final disc difference when `exact`,
    /// else the midgame search's estimate).
    pub score: f64,
    /// True when the value is proven (perfect play from here on).
    pub exact: bool,
    /// The midgame search depth the value comes from (empties after the move when exact;
    /// 0 for a Monte Carlo estimate, the mean of random games, on small boards without
    /// a store).
    pub depth: u32,
    /// Multi-ProbCut selectivity of that search in percent (100 when exact).
    pub selectivity: u32,
    /// Proven bounds `(lower, upper)` of the value when an exact solve was started but
    /// has only narrowed it so far (`score` then lies within them: on small boards
    /// without a store, their middle); `None` otherwise.
    pub bounds: Option<(i32, i32)>,
    /// The line the value comes from, starting with the move (passes as `None`): when
    /// exact, a line of perfect play to the end of the game that scores the value; else
    /// the search's expected line, at most its depth long (the move alone for a Monte
    /// Carlo estimate or a store's value). Every ply of it is legal.
    pub pv: Vec<Option<Square>>,
    /// The standard error of a Monte Carlo estimate (the mean of random games); `None`
    /// for search values and exact ones.
    pub error: Option<f64>,
}

/// Two Monte Carlo estimates closer than this many standard errors of their difference
/// are ties (random games told them apart, not the position).
pub const TIE_ERRORS: f64 = 3.0;

/// Every legal move's value at one moment of an analysis.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveTable {
    /// The values known so far, best first (on small boards, moves appear as they are
    /// solved; on 8x8 every legal move is there from the first update).
    pub moves: Vec<MoveValue>,
    /// Number of legal moves of the position.
    pub legal: u32,
    /// Empty squares of the position.
    pub empties: u32,
    /// Positions with at most this many empties are solved exactly by this analysis
    /// (the level's reach on 8x8; every position on the small boards).
    pub exact_from: u32,
    /// True in the last table of an analysis.
    pub done: bool,
    /// True when a stop or the time ended the analysis before every value was final.
    pub stopped: bool,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time so far.
    pub time: Duration,
}

impl MoveTable {
    /// The best move's value, if any move is valued yet.
    pub fn best(&self) -> Option<&MoveValue> {
        self.moves.first()
    }

    /// The value of `square`, if known.
    pub fn value_of(&self, square: Square) -> Option<&MoveValue> {
        self.moves.iter().find(|m| m.square == square)
    }

    /// True when `m` cannot be told apart from the best move: it is the best, or both
    /// are exact and equal, or both are Monte Carlo estimates whose difference lies
    /// within [`TIE_ERRORS`] standard errors of it (moves that differ only by the noise
    /// of random games are ties, not a best and a worse).
    pub fn tied_for_best(&self, m: &MoveValue) -> bool {
        let Some(best) = self.best() else { return false };
        if best.square == m.square || (best.exact && m.exact && best.score == m.score) {
            return true;
        }
        match (best.error, m.error) {
            (Some(a), Some(b)) if !best.exact && !m.exact => {
                best.score - m.score <= TIE_ERRORS * (a * a + b * b).sqrt()
            }
            _ => false,
        }
    }

    /// The moves tied for best ([`MoveTable::tied_for_best`]), best first.
    pub fn best_moves(&self) -> Vec<&MoveValue> {
        self.moves.iter().filter(|m| self.tied_for_best(m)).collect()
    }

    /// True when every legal move has an exact value.
    pub fn all_exact(&self) -> bool {
        self.moves.len() as u32 == self.legal && self.moves.iter().all(|m| m.exact)
    }

    fn sort(&mut self) {
        self.moves.sort_by(|a, b| b.score.total_cmp(&a.score));
    }
}

/// One ply of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct PlyReview {
    /// Index of the ply in the game (0: the first).
    pub index: usize,
    /// The colour that made it.
    pub side: Color,
    /// The move played (`None`: a pass).
    pub played: Option<Square>,
    /// The best move found (`None` for a pass).
    pub best: Option<Square>,
    /// The best move's value for the side to move (the position's value).
    pub best_score: f64,
    /// The played move's value for the side to move.
    pub played_score: f64,
    /// `best_score - played_score` (0 for a best move or a pass).
    pub loss: f64,
    /// True when both values are exact.
    pub exact: bool,
    /// The position's value for black before the ply (the evaluation graph's point).
    pub black_value: f64,
}

/// The review of a game: one entry per ply reviewed so far.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct GameReview {
    /// The plies, in order.
    pub plies: Vec<PlyReview>,
    /// Black's final score when the game is over (the graph's last point).
    pub final_black_score: Option<i32>,
    /// True when a stop or the time ended the review early.
    pub stopped: bool,
}

impl GameReview {
    /// The plies whose loss is at least `threshold` discs, worst first.
    pub fn mistakes(&self, threshold: f64) -> Vec<&PlyReview> {
        let mut m: Vec<&PlyReview> = self.plies.iter().filter(|p| p.loss >= threshold).collect();
        m.sort_by(|a, b| b.loss.total_cmp(&a.loss));
        m
    }
}

/// Deepest midgame iteration before the exact phase (a quick first picture).
const PRELUDE_DEPTH: u32 = 8;

/// Random games per move of the first picture on small boards without a store (a few
/// milliseconds each on 6x6).
const PLAYOUTS: u32 = 2_000;

/// Half width of the first window of a small board's exact solves around the
/// Monte Carlo estimate (0: the whole window; the estimate is too rough to centre one).
const SMALL_ASPIRATION: i32 = 0;

/// Time and nodes left (`None`: unlimited).
type LeftOver = (Option<Duration>, Option<u64>);

impl Engine {
    /// Every legal move's value in `pos`, streamed to `on_update` whenever a value
    /// changes: on 8x8, the midgame search's values after each iteration (to the
    /// level's depth), then, when the position has at most the level's exact-solve
    /// empties, every move solved exactly in one call over one table (best estimate
    /// first, the engine's threads each taking a move; each value streamed as it
    /// settles); on 6x6 and 4x4, each move's perfect-play value from a store when one
    /// is set, else a Monte Carlo estimate of every move first (depth 0, not exact)
    /// and then every move solved exactly the same way. `time` and the engine's node
    /// limit ([`Engine::set_node_limit`]) bound the whole analysis.
    ///
    /// Guarantees: a value marked exact is the move's exact value; bounds given hold;
    /// the last table (`done`) is passed to `on_update` and returned; a stop
    /// ([`Engine::stop_handle`]), the time or the node limit ends the analysis soon
    /// with the values found so far (`stopped`).
    pub fn analyze_moves(
        &mut self,
        pos: &Position,
        time: Option<Duration>,
        on_update: &mut dyn FnMut(&MoveTable),
    ) -> Result<MoveTable, EngineError> {
        self.clear_stop();
        self.analyze_keeping_stop(pos, time, on_update)
    }

    fn analyze_keeping_stop(
        &mut self,
        pos: &Position,
        time: Option<Duration>,
        on_update: &mut dyn FnMut(&MoveTable),
    ) -> Result<MoveTable, EngineError> {
        let start = Instant::now();
        let level = self.settings().level;
        let small = pos.size != BoardSize::Eight;
        let mut table = MoveTable {
            moves: Vec::new(),
            legal: pos.moves().count_ones(),
            empties: pos.empties(),
            exact_from: if small { pos.size.squares() } else { level.exact_values_from() },
            done: false,
            stopped: false,
            nodes: 0,
            time: Duration::ZERO,
        };
        if table.legal == 0 {
            table.done = true;
            on_update(&table);
            return Ok(table);
        }
        if small && self.has_store(pos.size, pos.variant) {
            let mut relay = |r: &SearchResult| {
                let mut t = table.clone();
                t.moves = exact_values(r, pos.empties() - 1);
                t.nodes = r.nodes;
                t.time = start.elapsed();
                on_update(&t);
            };
            let r = self.ask_keeping_stop(pos, time.map(MoveTime::fixed), true, false, &mut relay)?;
            table.moves = exact_values(&r, pos.empties() - 1);
            table.nodes = r.nodes;
            table.stopped = r.stopped || self.stop_requested();
            return Ok(finish(table, start, on_update));
        }
        if small {
            return self.analyze_small(pos, table, start, time, on_update);
        }
        // The midgame picture: every move's search value, iteration by iteration.
        let solve = pos.empties() <= level.exact_values_from();
        let depth = if solve { level.depth().min(PRELUDE_DEPTH) } else { level.depth() };
        let limits = SearchLimits {
            depth: depth.min(pos.empties().saturating_sub(1)).max(1),
            selectivity: level.selectivity(),
            time,
            aim: None,
            threads: self.settings().threads,
            all_moves: true,
            exact_from: 0,
            wld_from: 0,
            nodes: self.node_limit(),
            pv_extension: 0,
            solve_empties: SOLVE_EMPTIES,
            aspiration: true,
            every_depth: false,
        };
        let hints = self.table_hints(pos.variant)?;
        let mut relay = |r: &SearchResult| {
            let mut t = table.clone();
            t.moves = midgame_values(r, pos, &hints);
            t.nodes = r.nodes;
            t.time = start.elapsed();
            on_update(&t);
        };
        let r = self.search_keeping_stop(pos, &limits, &mut relay)?;
        table.moves = midgame_values(&r, pos, &hints);
        table.nodes = r.nodes;
        if r.stopped || !solve {
            table.stopped = r.stopped;
            return Ok(finish(table, start, on_update));
        }
        // The exact phase: every move solved in one call over one table, best
        // estimate first, on the engine's threads; each value streamed as it settles.
        let Some((time, nodes)) = self.what_is_left(start, time, table.nodes) else {
            table.stopped = true;
            return Ok(finish(table, start, on_update));
        };
        let before = table.nodes;
        let every = self.solve_every_move_keeping_stop(pos, &r.move_scores, time, nodes, &mut |m| {
            settle(&mut table, m, pos.empties() - 1);
            table.nodes += m.nodes;
            table.time = start.elapsed();
            on_update(&table);
        })?;
        for m in &every.moves {
            settle(&mut table, m, pos.empties() - 1);
        }
        table.nodes = before + every.nodes;
        table.stopped = every.stopped || !every.all_exact();
        Ok(finish(table, start, on_update))
    }

    /// The time and nodes an analysis started at `start` with `time` and the engine's
    /// node limit has left after `spent` nodes; `None` when nothing is left.
    fn what_is_left(&self, start: Instant, time: Option<Duration>, spent: u64) -> Option<LeftOver> {
        let time = match time {
            Some(t) => Some(t.checked_sub(start.elapsed()).filter(|t| !t.is_zero())?),
            None => None,
        };
        let nodes = match self.node_limit() {
            Some(n) => Some(n.checked_sub(spent).filter(|&n| n > 0)?),
            None => None,
        };
        Some((time, nodes))
    }

    /// Small boards without a store: every move's Monte Carlo estimate first (the mean
    /// of random games; quick, rough, marked not exact, depth 0), then every move solved
    /// exactly in one call over one table.
    fn analyze_small(
        &mut self,
        pos: &Position,
        mut table: MoveTable,
        start: Instant,
        time: Option<Duration>,
        on_update: &mut dyn FnMut(&MoveTable),
    ) -> Result<MoveTable, EngineError> {
        let options = self.small_solver(pos.size, pos.variant)?;
        let after = pos.empties() - 1;
        for (i, sq) in Square::iter(pos.moves()).enumerate() {
            let child = pos.play(sq).expect("a legal move");
            let Some(e) = playout_estimate(&child, PLAYOUTS, 1 + i as u64, &options.stop) else { break };
            let estimate = MoveValue {
                square: sq,
                score: -e.mean,
                exact: false,
                depth: 0,
                selectivity: 100,
                bounds: None,
                pv: vec![Some(sq)],
                error: Some(e.std_error),
            };
            table.moves.push(estimate);
            table.sort();
            table.time = start.elapsed();
            on_update(&table);
        }
        let guesses: Vec<(Square, i32)> = table.moves.iter().map(|m| (m.square, m.score.round() as i32)).collect();
        let left = self.what_is_left(start, time, table.nodes);
        let Some((time, nodes)) = left.filter(|_| !self.stop_requested()) else {
            table.stopped = true;
            return Ok(finish(table, start, on_update));
        };
        let mut options = options;
        options.time_limit = time;
        options.node_budget = nodes.unwrap_or(u64::MAX);
        let before = table.nodes;
        let every = solvo_othello_search::solve_every_move(pos, &options, &guesses, SMALL_ASPIRATION, &mut |m| {
            settle(&mut table, m, after);
            table.nodes += m.nodes;
            table.time = start.elapsed();
            on_update(&table);
        });
        for m in &every.moves {
            settle(&mut table, m, after);
        }
        table.nodes = before + every.nodes;
        table.stopped = every.stopped || !every.all_exact();
        Ok(finish(table, start, on_update))
    }

    /// Reviews the game of `replay`: for each move, every legal move's value
    /// ([`Engine::analyze_moves`], at most `time_per_position` each) and the played
    /// move's loss against the best; passes cost nothing. `on_ply` sees each reviewed
    /// ply as it is done.
    ///
    /// Guarantees: one entry per ply, in order, until a stop (then `stopped`); a loss
    /// is never negative (the played move's value is at most the best one's).
    pub fn analyze_game(
        &mut self,
        replay: &Replay,
        time_per_position: Option<Duration>,
        on_ply: &mut dyn FnMut(&PlyReview),
    ) -> Result<GameReview, EngineError> {
        self.clear_stop();
        let mut review = GameReview::default();
        let mut pos = replay.start;
        for (index, (ply, next)) in replay.plies.iter().zip(&replay.positions).enumerate() {
            if self.stop_requested() {
                review.stopped = true;
                return Ok(review);
            }
            let entry = match ply {
                Ply::Pass => {
                    let value = review.plies.last().map_or(0.0, |p: &PlyReview| p.black_value);
                    PlyReview {
                        index,
                        side: pos.side,
                        played: None,
                        best: None,
                        best_score: 0.0,
                        played_score: 0.0,
                        loss: 0.0,
                        exact: true,
                        black_value: value,
                    }
                }
                Ply::Move(sq) => {
                    let table = self.analyze_keeping_stop(&pos, time_per_position, &mut |_| {})?;
                    let (Some(best), Some(played)) = (table.best().cloned(), table.value_of(*sq).cloned()) else {
                        review.stopped = true;
                        return Ok(review);
                    };
                    let black = if pos.side == Color::Black { 1.0 } else { -1.0 };
                    PlyReview {
                        index,
                        side: pos.side,
                        played: Some(*sq),
                        best: Some(best.square),
                        best_score: best.score,
                        played_score: played.score,
                        loss: (best.score - played.score).max(0.0),
                        exact: best.exact && played.exact,
                        black_value: black * best.score,
                    }
                }
            };
            on_ply(&entry);
            review.plies.push(entry);
            pos = *next;
        }
        review.final_black_score = pos.is_game_over().then(|| pos.black_score());
        Ok(review)
    }
}

fn finish(mut table: MoveTable, start: Instant, on_update: &mut dyn FnMut(&MoveTable)) -> MoveTable {
    table.sort();
    table.done = true;
    table.time = start.elapsed();
    on_update(&table);
    table
}

/// Records what an exact solve found for one move: its exact value, or the bounds it
/// proved (the estimate moved inside them).
fn settle(table: &mut MoveTable, m: &MoveBounds, after: u32) {
    let value = match table.moves.iter().find(|v| v.square == m.square) {
        Some(old) if m.score().is_none() => {
            let (lo, hi) = (f64::from(m.lower), f64::from(m.upper));
            let narrower = old.bounds.is_none_or(|(l, u)| m.lower >= l && m.upper <= u);
            if old.exact || !narrower || (m.lower <= -64 && m.upper >= 64) {
                return;
            }
            MoveValue { score: old.score.clamp(lo, hi), bounds: Some((m.lower, m.upper)), ..old.clone() }
        }
        _ => bounded_value(m, after),
    };
    table.moves.retain(|v| v.square != m.square);
    table.moves.push(value);
    table.sort();
}

/// A move's value from an exact solver's bounds: exact when they meet, else their
/// middle (not exact) with the bounds.
fn bounded_value(m: &MoveBounds, after: u32) -> MoveValue {
    match m.score() {
        Some(v) => MoveValue {
            square: m.square,
            score: f64::from(v),
            exact: true,
            depth: after,
            selectivity: 100,
            bounds: None,
            pv: if m.pv.is_empty() { vec![Some(m.square)] } else { m.pv.clone() },
            error: None,
        },
        None => MoveValue {
            square: m.square,
            score: f64::from(m.lower + m.upper) / 2.0,
            exact: false,
            depth: after,
            selectivity: 100,
            bounds: Some((m.lower, m.upper)),
            pv: vec![Some(m.square)],
            error: None,
        },
    }
}

/// The move values of a midgame iteration of `pos`, each with its line: the search's
/// principal variation for the best move, else the move followed by the best moves
/// the searcher's table holds (`hints`), at most the iteration's depth in all.
fn midgame_values(r: &SearchResult, pos: &Position, hints: &MoveHints) -> Vec<MoveValue> {
    let exact = r.exact;
    let depth = r.depth.max(1) as usize;
    r.move_scores
        .iter()
        .map(|m| {
            let pv = if r.pv.first() == Some(&Some(m.square)) && legal_line(pos, &r.pv) {
                r.pv.clone()
            } else {
                let mut line = vec![Some(m.square)];
                if let Some(child) = pos.play(m.square) {
                    line.extend(table_line(hints, &child, depth - 1));
                }
                line
            };
            MoveValue {
                square: m.square,
                score: m.score,
                exact,
                depth: r.depth,
                selectivity: if exact { 100 } else { r.selectivity },
                bounds: None,
                pv,
                error: None,
            }
        })
        .collect()
}

/// True when every ply of `line` is legal from `pos` (a pass only without moves).
fn legal_line(pos: &Position, line: &[Option<Square>]) -> bool {
    let mut p = *pos;
    for ply in line {
        p = match ply {
            Some(sq) => match p.play(*sq) {
                Some(next) => next,
                None => return false,
            },
            None if p.moves() == 0 && !p.is_game_over() => p.passed(),
            None => return false,
        };
    }
    true
}

/// The best moves a searcher's table holds from `pos` on, followed while they are legal,
/// at most `max` plies (passes as `None`, never a pass last).
fn table_line(hints: &MoveHints, pos: &Position, max: usize) -> Vec<Option<Square>> {
    let mut line = Vec::new();
    let mut p = *pos;
    while line.len() < max && !p.is_game_over() {
        if p.moves() == 0 {
            line.push(None);
            p = p.passed();
            continue;
        }
        let Some(best) = hints.best_move(p.board.player, p.board.opponent) else { break };
        let Some(sq) = Square::new(best).filter(|sq| p.moves() & sq.bit() != 0) else { break };
        line.push(Some(sq));
        p = p.play(sq).expect("a legal move");
    }
    while line.last() == Some(&None) {
        line.pop();
    }
    line
}

/// The move values of a perfect-play answer (small boards: every value exact).
fn exact_values(r: &SearchResult, depth: u32) -> Vec<MoveValue> {
    let mut v: Vec<MoveValue> = r
        .move_scores
        .iter()
        .map(|m| MoveValue {
            square: m.square,
            score: m.score,
            exact: true,
            depth,
            selectivity: 100,
            bounds: None,
            pv: vec![Some(m.square)],
            error: None,
        })
        .collect();
    v.sort_by(|a, b| b.score.total_cmp(&a.score));
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineSettings;
    use crate::level::Level;
    use solvo_othello::formats::transcript::parse_transcript;
    use solvo_othello::Variant;

    fn engine(level: u32) -> Engine {
        let settings = EngineSettings { level: Level::new(level).unwrap(), hash_mb: 8, ..EngineSettings::default() };
        Engine::new(settings).unwrap()
    }

    /// One engine analysing the 4x4 start under normal rules, then under reversed rules,
    /// then on 6x6 near the end and 4x4 again: every value is a fresh engine's. Before,
    /// the small boards' analysis solver kept one table for every size and variant, whose
    /// entries (keyed by the discs alone) gave the reversed start the normal values
    /// (-10 instead of +4).
    #[test]
    fn small_board_analyses_never_read_another_size_or_variants_values() {
        let four = |v| Position::start(BoardSize::Four, v);
        // 6x6 at 12 empties: the last legal move at every ply.
        let mut six = Position::start(BoardSize::Six, Variant::Normal);
        while six.empties() > 12 && !six.is_game_over() {
            six = Square::iter(six.moves()).last().map_or_else(|| six.passed(), |m| six.play(m).unwrap());
        }
        assert!(six.moves() != 0);
        let values = |e: &mut Engine, pos: &Position| {
            let t = e.analyze_moves(pos, None, &mut |_| {}).unwrap();
            assert!(t.all_exact());
            let mut v: Vec<(Square, f64)> = t.moves.iter().map(|m| (m.square, m.score)).collect();
            v.sort_by_key(|m| m.0.index());
            v
        };
        let mut shared = engine(10);
        for pos in [four(Variant::Normal), four(Variant::Reversed), six, four(Variant::Normal)] {
            assert_eq!(values(&mut shared, &pos), values(&mut engine(10), &pos), "{} {:?}", pos.size, pos.variant);
        }
    }

    /// A position of `empties` empties from a known game.
    fn near_end(empties: u32) -> Position {
        let t = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6a7g5e3b4c8g6g4c2e8d1f7e2g3h4f1e1f2g1b1f8";
        let mut pos = parse_transcript(t, &Position::start(BoardSize::Eight, Variant::Normal)).unwrap().end();
        while pos.empties() > empties {
            pos = match Square::iter(pos.moves()).next() {
                Some(m) => pos.play(m).unwrap(),
                None => pos.passed(),
            };
        }
        pos
    }

    #[test]
    fn near_the_end_every_value_is_the_exact_solve_of_its_child() {
        let mut e = engine(6);
        let pos = near_end(11);
        let mut updates = Vec::new();
        let table = e.analyze_moves(&pos, None, &mut |t| updates.push(t.clone())).unwrap();
        assert!(table.done && !table.stopped && table.all_exact(), "{table:?}");
        assert!(updates.len() >= 2 && updates.last() == Some(&table));
        assert!(updates.iter().any(|t| !t.moves.is_empty() && !t.all_exact()), "midgame values come first");
        for m in &table.moves {
            let child = pos.play(m.square).unwrap();
            let r = e.solve(&child, None, &mut |_| {}).unwrap();
            assert_eq!(m.score, -r.score, "{}", m.square);
        }
        let root = e.solve(&pos, None, &mut |_| {}).unwrap();
        assert_eq!(table.best().unwrap().score, root.score);
    }

    #[test]
    fn far_from_the_end_values_are_midgame_estimates_and_small_boards_are_exact() {
        let mut e = engine(4);
        let pos = Position::start(BoardSize::Eight, Variant::Normal);
        let table = e.analyze_moves(&pos, None, &mut |_| {}).unwrap();
        assert_eq!(table.moves.len(), 4);
        assert!(table.moves.iter().all(|m| !m.exact && m.depth == 4));
        let four = Position::start(BoardSize::Four, Variant::Reversed);
        let table = e.analyze_moves(&four, None, &mut |_| {}).unwrap();
        assert!(table.all_exact() && table.moves.len() == 4);
    }

    /// Plays `line` from `pos`: the position reached, or the first ply that is illegal.
    fn replay_line(pos: &Position, line: &[Option<Square>]) -> Result<Position, String> {
        let mut p = *pos;
        for ply in line {
            p = match ply {
                Some(sq) => p.play(*sq).ok_or(format!("{sq} is illegal"))?,
                None if p.moves() == 0 && !p.is_game_over() => p.passed(),
                None => return Err("a pass with moves left".into()),
            };
        }
        Ok(p)
    }

    #[test]
    fn every_move_comes_with_a_legal_line_and_exact_lines_score_their_value() {
        let mut e = engine(6);
        // Exact: a line of perfect play to the end, scoring the move's value.
        let pos = near_end(11);
        let table = e.analyze_moves(&pos, None, &mut |_| {}).unwrap();
        assert!(table.all_exact());
        for m in &table.moves {
            assert_eq!(m.pv.first(), Some(&Some(m.square)), "{m:?}");
            let end = replay_line(&pos, &m.pv).unwrap_or_else(|e| panic!("{e}: {m:?}"));
            assert!(end.is_game_over(), "{m:?}");
            let score = if end.side == pos.side { end.final_score() } else { -end.final_score() };
            assert_eq!(f64::from(score), m.score, "{m:?}");
        }
        // Estimates: the search's expected line, legal, at most its depth long, and for
        // more than the best move longer than the move alone (read from the table).
        let mut updates = Vec::new();
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let t = parse_transcript("f5d6c3d3c4f4", &start).unwrap().end();
        let table = e.analyze_moves(&t, None, &mut |t| updates.push(t.clone())).unwrap();
        for m in updates.iter().flat_map(|t| &t.moves) {
            assert_eq!(m.pv.first(), Some(&Some(m.square)), "{m:?}");
            replay_line(&t, &m.pv).unwrap_or_else(|e| panic!("{e}: {m:?}"));
            assert!(m.pv.len() <= m.depth as usize, "{m:?}");
        }
        let long = table.moves.iter().filter(|m| m.pv.len() >= 3).count();
        assert!(long >= 2, "{table:?}");
    }

    fn estimate(square: &str, score: f64, error: Option<f64>, exact: bool) -> MoveValue {
        let square = Square::parse(square).unwrap();
        MoveValue { square, score, exact, depth: 0, selectivity: 100, bounds: None, pv: vec![Some(square)], error }
    }

    #[test]
    fn monte_carlo_estimates_within_their_error_are_ties_and_exact_values_only_when_equal() {
        let table = |moves: Vec<MoveValue>| MoveTable {
            legal: moves.len() as u32,
            moves,
            empties: 30,
            exact_from: 36,
            done: true,
            stopped: true,
            nodes: 0,
            time: Duration::ZERO,
        };
        let squares = |t: &MoveTable| t.best_moves().iter().map(|m| m.square.to_string()).collect::<Vec<_>>();
        let noisy = table(vec![
            estimate("c4", 1.0, Some(0.2), false),
            estimate("d3", 0.2, Some(0.2), false),
            estimate("e6", -1.0, Some(0.2), false),
        ]);
        assert_eq!(squares(&noisy), ["c4", "d3"]);
        let exact = table(vec![
            estimate("c4", 2.0, None, true),
            estimate("d3", 2.0, None, true),
            estimate("e6", 0.0, None, true),
        ]);
        assert_eq!(squares(&exact), ["c4", "d3"]);
        // A search estimate has no error to measure: only the best is best.
        let searched = table(vec![estimate("c4", 1.0, None, false), estimate("d3", 0.9, None, false)]);
        assert_eq!(squares(&searched), ["c4"]);
        // The 6x6 start: four symmetric moves of one value, told apart by random games
        // alone, are all tied.
        let mut e = engine(10);
        let six = Position::start(BoardSize::Six, Variant::Normal);
        let t = e.analyze_moves(&six, Some(Duration::from_millis(1)), &mut |_| {}).unwrap();
        assert!(t.moves.len() == 4 && t.moves.iter().all(|m| !m.exact && m.error.is_some_and(|x| x > 0.0)), "{t:?}");
        assert_eq!(t.best_moves().len(), 4, "{t:?}");
    }

    #[test]
    fn a_time_limit_ends_the_analysis_with_what_it_has() {
        let mut e = engine(30);
        // 40 empties: far more work than 300 ms at level 30 whatever the move ordering (a
        // 23-empty position became solvable for every move within the limit once the
        // evaluation ordered the exact solver's moves).
        let t = "f5d6c3d3c4f4f6f3e6e7d7c5b6d8c6c7d2b5a5a6";
        let pos = parse_transcript(t, &Position::start(BoardSize::Eight, Variant::Normal)).unwrap().end();
        assert_eq!(pos.empties(), 40);
        let t = Instant::now();
        let table = e.analyze_moves(&pos, Some(Duration::from_millis(300)), &mut |_| {}).unwrap();
        assert!(table.stopped && table.done && t.elapsed() < Duration::from_secs(5));
        assert_eq!(table.moves.len() as u32, table.legal);
    }

    #[test]
    fn a_node_limit_ends_analyses_and_moves_on_every_board() {
        let mut e = engine(25);
        e.set_node_limit(Some(200_000));
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let table = e.analyze_moves(&start, None, &mut |_| {}).unwrap();
        assert!(table.stopped && table.moves.len() == 4 && table.nodes <= 400_000, "{table:?}");
        let r = e.best_move(&start, None, &mut |_| {}).unwrap();
        assert!(r.stopped && r.nodes <= 400_000 && r.best_move.is_some(), "{r:?}");
        // The exact phase and the small boards' solve stop too, every move still valued.
        e.set_level(Level::new(12).unwrap());
        let table = e.analyze_moves(&near_end(24), None, &mut |_| {}).unwrap();
        assert!(table.stopped && !table.all_exact() && table.moves.len() as u32 == table.legal, "{table:?}");
        let six = Position::start(BoardSize::Six, Variant::Normal);
        let t = Instant::now();
        let table = e.analyze_moves(&six, None, &mut |_| {}).unwrap();
        assert!(table.stopped && table.moves.len() == 4 && t.elapsed() < Duration::from_secs(10), "{table:?}");
        assert!(table.moves.iter().all(|m| !m.exact && m.depth == 0), "Monte Carlo estimates: {table:?}");
        // Without the limit, a position within reach is solved again.
        e.set_node_limit(None);
        assert!(e.analyze_moves(&near_end(12), None, &mut |_| {}).unwrap().all_exact());
    }

    #[test]
    fn a_game_review_finds_the_losses() {
        let mut e = engine(4);
        let start = Position::start(BoardSize::Four, Variant::Normal);
        let mut replay = Replay::new(start);
        // The 4x4 game, always the last legal move: passes included, to the end.
        while !replay.end().is_game_over() {
            let pos = replay.end();
            match Square::iter(pos.moves()).last() {
                Some(m) => replay.push_move(m).unwrap(),
                None => replay.push_pass().unwrap(),
            }
        }
        let mut seen = 0;
        let review = e.analyze_game(&replay, None, &mut |_| seen += 1).unwrap();
        assert_eq!(review.plies.len(), replay.plies.len());
        assert_eq!(seen, replay.plies.len());
        assert!(review.plies.iter().all(|p| p.loss >= 0.0 && p.exact));
        assert_eq!(review.final_black_score, Some(replay.end().black_score()));
        // Values along the game: the value never rises for the side that lost some.
        let total: f64 = review.plies.iter().map(|p| p.loss).sum();
        let first = review.plies[0].black_value;
        assert!(total >= 0.0 && first.is_finite());
    }
}
