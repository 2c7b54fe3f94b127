//! A match: every opening played twice with the colours swapped, several games at once,
//! each finished game handed to the caller (who records it), games already recorded
//! skipped (a killed match resumes).

use crate::arena::{play_game, Contestant, GameRecord};
use crate::clock::TimeControl;
use solvo_othello::formats::transcript::Replay;
use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// Makes a fresh contestant (one per worker, again after it forfeited).
pub type Factory<'a> = dyn Fn() -> Result<Box<dyn Contestant>, String> + Sync + 'a;

/// What to play.
pub struct MatchPlan {
    /// The openings; game `i` starts from opening `i / 2`.
    pub openings: Vec<Replay>,
    /// Games to play (at most twice the openings).
    pub games: usize,
    /// Games played at once (at least 1).
    pub parallel: usize,
    /// The time control of both sides.
    pub time: TimeControl,
}

/// One finished game of a match.
#[derive(Clone, Debug)]
pub struct MatchGame {
    /// Its number (from 0): even numbers have the first contestant as black.
    pub index: usize,
    /// Black's name.
    pub black: String,
    /// White's name.
    pub white: String,
    /// The game.
    pub record: GameRecord,
}

impl MatchGame {
    /// The time each contestant (first, second) spent choosing its moves.
    pub fn thought(&self) -> [crate::arena::Thought; 2] {
        let [b, w] = self.record.thought;
        if first_is_black(self.index) {
            [b, w]
        } else {
            [w, b]
        }
    }

    /// The final disc difference for the first contestant.
    pub fn first_score(&self) -> i32 {
        if first_is_black(self.index) {
            self.record.black_score
        } else {
            -self.record.black_score
        }
    }
}

/// True when the first contestant plays black in game `index`.
pub fn first_is_black(index: usize) -> bool {
    index.is_multiple_of(2)
}

/// Plays the games of `plan` not in `done`, `plan.parallel` at once, and hands each
/// finished game to `on_game` (called from the worker threads, one at a time); when it
/// returns false no new game starts (the games under way finish and are reported).
/// Errors: a contestant that cannot be made at all (its factory fails when a worker
/// starts). A contestant that forfeits is made anew for its worker's next game.
pub fn run_match(
    plan: &MatchPlan,
    first: &Factory,
    second: &Factory,
    done: &HashSet<usize>,
    on_game: &(dyn Fn(&MatchGame) -> bool + Sync),
) -> Result<(), String> {
    let games = plan.games.min(plan.openings.len() * 2);
    let todo: Vec<usize> = (0..games).filter(|i| !done.contains(i)).collect();
    let next = AtomicUsize::new(0);
    let report = Mutex::new(());
    let failure = Mutex::new(None);
    std::thread::scope(|scope| {
        for _ in 0..plan.parallel.max(1).min(todo.len().max(1)) {
            scope.spawn(|| {
                let worker = || -> Result<(), String> {
                    let (mut a, mut b) = (first()?, second()?);
                    loop {
                        let k = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&index) = todo.get(k) else { return Ok(()) };
                        let opening = &plan.openings[index / 2];
                        let (black, white) = if first_is_black(index) { (&mut a, &mut b) } else { (&mut b, &mut a) };
                        let record = play_game(opening, black.as_mut(), white.as_mut(), plan.time);
                        let game = MatchGame { index, black: black.name(), white: white.name(), record };
                        if let Some((side, _)) = &game.record.forfeit {
                            let first_forfeited = (*side == solvo_othello::Color::Black) == first_is_black(index);
                            if first_forfeited {
                                a = first()?;
                            } else {
                                b = second()?;
                            }
                        }
                        let _guard = report.lock().unwrap_or_else(|e| e.into_inner());
                        if !on_game(&game) {
                            next.store(usize::MAX / 2, Ordering::Relaxed);
                        }
                    }
                };
                if let Err(e) = worker() {
                    *failure.lock().unwrap_or_else(|e| e.into_inner()) = Some(e);
                    // Other workers finish their games; no new ones start.
                    next.store(usize::MAX / 2, Ordering::Relaxed);
                }
            });
        }
    });
    match failure.into_inner().unwrap_or_else(|e| e.into_inner()) {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::{EngineContestant, MatchStats};
    use crate::engine::{Engine, EngineSettings};
    use crate::level::Level;
    use crate::openings::random_openings;
    use solvo_othello::{BoardSize, Position, Variant};

    fn maker(level: u32) -> impl Fn() -> Result<Box<dyn Contestant>, String> + Sync {
        move || {
            let settings =
                EngineSettings { level: Level::new(level).unwrap(), hash_mb: 8, ..EngineSettings::default() };
            let engine = Engine::new(settings).map_err(|e| e.0)?;
            Ok(Box::new(EngineContestant { engine, label: format!("solvo:level={level}") }) as Box<dyn Contestant>)
        }
    }

    #[test]
    fn plays_each_opening_with_both_colours_and_skips_done_games() {
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let plan =
            MatchPlan { openings: random_openings(&start, 3, 6, 1), games: 100, parallel: 2, time: TimeControl::None };
        let seen = Mutex::new(Vec::new());
        let done: HashSet<usize> = [1].into_iter().collect();
        run_match(&plan, &maker(1), &maker(3), &done, &|g| {
            seen.lock().unwrap().push(g.clone());
            true
        })
        .unwrap();
        let mut seen = seen.into_inner().unwrap();
        seen.sort_by_key(|g| g.index);
        assert_eq!(seen.iter().map(|g| g.index).collect::<Vec<_>>(), vec![0, 2, 3, 4, 5]);
        let mut stats = MatchStats::default();
        for g in &seen {
            assert_eq!(g.record.replay.plies[..6], plan.openings[g.index / 2].plies[..]);
            let first_black = first_is_black(g.index);
            assert_eq!(g.black == "solvo:level=1", first_black);
            stats.add(g.first_score());
        }
        assert_eq!(stats.games(), 5);
    }
}
