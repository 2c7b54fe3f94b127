//! Games between two players and what a series of them says: the game loop (clocks,
//! forfeits), and the match statistics (wins, draws, losses, disc difference, score
//! rate, Elo difference with its 95% interval).

use crate::clock::{MoveTime, TimeControl};
use crate::engine::Engine;
use crate::session::Session;
use solvo_othello::formats::transcript::{Ply, Replay};
use solvo_othello::Color;
use std::time::Duration;

/// One side of a game: the internal engine, or an external program.
pub trait Contestant: Send {
    /// A short name for records (`solvo:level=10`, the program's own name).
    fn name(&self) -> String;

    /// The ply to play in the game's current position (the side to move is this
    /// contestant), with `time` to think (the time a move, or its allotment under the
    /// clock, when timed) and `clock` its time left. An error (a crash, a hang, an
    /// illegal reply) loses the game.
    fn choose(&mut self, game: &Session, time: Option<MoveTime>, clock: Option<Duration>) -> Result<Ply, String>;

    /// A new game starts (tables may be kept).
    fn new_game(&mut self) {}
}

/// The internal engine as a contestant.
pub struct EngineContestant {
    /// The engine.
    pub engine: Engine,
    /// Its name in records.
    pub label: String,
}

impl Contestant for EngineContestant {
    fn name(&self) -> String {
        self.label.clone()
    }

    fn choose(&mut self, game: &Session, time: Option<MoveTime>, _clock: Option<Duration>) -> Result<Ply, String> {
        let pos = game.position();
        let r = self.engine.best_move(&pos, time, &mut |_| {}).map_err(|e| e.0)?;
        Ok(r.best_move.map_or(Ply::Pass, Ply::Move))
    }
}

/// The reason recorded when a side's clock ran out during its move.
pub const LOST_ON_TIME: &str = "lost on time";

/// How a game ended.
#[derive(Clone, Debug, PartialEq)]
pub struct GameRecord {
    /// The game from the standard start (opening included).
    pub replay: Replay,
    /// Black's score: the final disc difference under the variant, or, when a side
    /// forfeited, the number of squares against it.
    pub black_score: i32,
    /// The side that lost by forfeit and why (illegal move, crash, time).
    pub forfeit: Option<(Color, String)>,
    /// Under a game clock, the least time each side (black, white) had left after one
    /// of its moves (its whole time when it made none); `None` without a clock.
    pub least_left: [Option<Duration>; 2],
    /// The time each side (black, white) spent choosing its moves (wall time, from the
    /// question to the answer) and the number of moves it chose.
    pub thought: [Thought; 2],
    /// The time each ply of `replay` took to choose (`None` for the opening's plies).
    pub times: Vec<Option<Duration>>,
}

/// The time a side spent choosing its moves and how many it chose.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Thought {
    /// Wall time spent in its moves.
    pub time: Duration,
    /// Moves (passes included) it chose.
    pub moves: u32,
}

impl Thought {
    /// Adds another count of moves and their time.
    pub fn add(&mut self, other: Thought) {
        self.time += other.time;
        self.moves += other.moves;
    }

    /// The mean time of a move (`None` without moves).
    pub fn per_move(&self) -> Option<Duration> {
        (self.moves > 0).then(|| self.time / self.moves)
    }
}

/// Plays a game from `opening` between `black` and `white` under `time`. Each side
/// moves by its [`Contestant::choose`]; an error, an illegal ply or a fallen flag loses
/// the game (recorded with its reason). Guarantees: the record's replay is legal.
pub fn play_game(
    opening: &Replay,
    black: &mut dyn Contestant,
    white: &mut dyn Contestant,
    time: TimeControl,
) -> GameRecord {
    let mut game = Session::from_position(opening.start);
    for ply in &opening.plies {
        // The opening was replayed legally when it was read.
        let _ = game.play_ply(*ply);
    }
    black.new_game();
    white.new_game();
    let mut clocks = [time.new_clock(); 2];
    let squares = opening.start.size.squares() as i32;
    let mut least_left = clocks.map(|c| c.map(|c| c.remaining()));
    let mut thought = [Thought::default(); 2];
    let mut times = vec![None; opening.plies.len()];
    while !game.is_over() {
        let pos = game.position();
        let (player, idx): (&mut dyn Contestant, usize) = match pos.side {
            Color::Black => (&mut *black, 0),
            Color::White => (&mut *white, 1),
        };
        let allotted = match (time, &clocks[idx]) {
            (TimeControl::PerMove(t), _) => Some(MoveTime::fixed(t)),
            (_, Some(c)) => Some(c.allot(pos.empties())),
            _ => None,
        };
        let left = clocks[idx].map(|c| c.remaining());
        if let Some(c) = &mut clocks[idx] {
            c.start();
        }
        let asked = std::time::Instant::now();
        let chosen = player.choose(&game, allotted, left);
        let took = asked.elapsed();
        thought[idx].add(Thought { time: took, moves: 1 });
        let flagged = clocks[idx].as_mut().is_some_and(|c| c.stop().1);
        if let (Some(c), Some(least)) = (&clocks[idx], &mut least_left[idx]) {
            // Before the increment: what the move left on the clock.
            *least = (*least).min(c.remaining().saturating_sub(c.increment()));
        }
        let result = chosen.and_then(|ply| {
            if flagged {
                Err(LOST_ON_TIME.to_string())
            } else {
                game.play_ply(ply).map_err(|e| format!("illegal move: {e}"))
            }
        });
        if let Err(reason) = result {
            let score = if pos.side == Color::Black { -squares } else { squares };
            let forfeit = Some((pos.side, reason));
            return GameRecord {
                replay: game.replay().clone(),
                black_score: score,
                forfeit,
                least_left,
                thought,
                times,
            };
        }
        times.push(Some(took));
    }
    let black_score = game.result().unwrap_or(0);
    GameRecord { replay: game.replay().clone(), black_score, forfeit: None, least_left, thought, times }
}

impl GameRecord {
    /// Under a game clock, the least time either side had left after one of its moves.
    pub fn least_time_left(&self) -> Option<Duration> {
        self.least_left.iter().flatten().min().copied()
    }

    /// Whether a side lost this game on time.
    pub fn lost_on_time(&self) -> bool {
        self.forfeit.as_ref().is_some_and(|(_, why)| why == LOST_ON_TIME)
    }
}

/// The clock's behaviour over a timed match: games lost on time, and the least time a
/// side had left after one of its moves.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct ClockStats {
    /// Games lost on time.
    pub lost_on_time: u32,
    /// The least time left on a clock after a move, over every timed game (`None`
    /// before a timed game).
    pub least_left: Option<Duration>,
    /// The time each contestant (first, second) spent choosing its moves, over every
    /// game.
    pub thought: [Thought; 2],
}

impl ClockStats {
    /// Adds a game: the least time left on its clocks (`None` untimed) and whether a
    /// side lost on time.
    pub fn add(&mut self, least_left: Option<Duration>, lost_on_time: bool) {
        self.lost_on_time += u32::from(lost_on_time);
        if let Some(d) = least_left {
            self.least_left = Some(self.least_left.map_or(d, |l| l.min(d)));
        }
    }

    /// Adds the time each contestant (first, second) spent in a game's moves.
    pub fn add_thought(&mut self, thought: [Thought; 2]) {
        self.thought[0].add(thought[0]);
        self.thought[1].add(thought[1]);
    }
}

/// A match's results from the first player's side.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct MatchStats {
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Sum of the final disc differences.
    pub disc_sum: i64,
}

impl MatchStats {
    /// Adds a game with this final disc difference for the first player.
    pub fn add(&mut self, score: i32) {
        match score.signum() {
            1 => self.wins += 1,
            -1 => self.losses += 1,
            _ => self.draws += 1,
        }
        self.disc_sum += i64::from(score);
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Mean disc difference (0 without games).
    pub fn mean_discs(&self) -> f64 {
        if self.games() == 0 {
            0.0
        } else {
            self.disc_sum as f64 / f64::from(self.games())
        }
    }

    /// Score rate: (wins + draws / 2) / games (0.5 without games).
    pub fn score_rate(&self) -> f64 {
        if self.games() == 0 {
            0.5
        } else {
            (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games())
        }
    }

    /// The Elo difference the score rate means, and its 95% interval: a Wilson
    /// interval of the mean game score with the observed win/draw/loss variance (so a
    /// match won in every game still has a finite lower bound).
    pub fn elo(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = self.score_rate();
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let z = 1.96f64;
        let k = 1.0 + z * z / n;
        let centre = (s + z * z / (2.0 * n)) / k;
        let half = z / k * (var / n + z * z / (4.0 * n * n)).sqrt();
        (elo_of(s), elo_of(centre - half), elo_of(centre + half))
    }
}

/// The verdict of a sequential probability ratio test.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Sprt {
    /// Not enough evidence yet.
    Continue,
    /// The first player is `elo1` stronger rather than `elo0` (H1 accepted).
    H1,
    /// It is `elo0` rather than `elo1` (H0 accepted).
    H0,
}

impl MatchStats {
    /// The log-likelihood ratio of H1 (Elo difference `elo1`) against H0 (`elo0`),
    /// by the normal approximation of the mean game score (the generalised SPRT match
    /// testers use): `n (s1 - s0) (2 s - s0 - s1) / (2 var)`, with half a game of each
    /// outcome added to the counts.
    pub fn sprt_llr(&self, elo0: f64, elo1: f64) -> f64 {
        if self.games() == 0 {
            return 0.0;
        }
        // Half a game of each outcome added, so that a few games of one outcome do not
        // look certain (their variance would be 0).
        let (w, d, l) = (f64::from(self.wins) + 0.5, f64::from(self.draws) + 0.5, f64::from(self.losses) + 0.5);
        let n = w + d + l;
        let s = (w + 0.5 * d) / n;
        let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
        let (s0, s1) = (score_of(elo0), score_of(elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The SPRT's verdict for H0 `elo0` against H1 `elo1` with error rates `alpha`
    /// (accepting H1 wrongly) and `beta` (accepting H0 wrongly).
    pub fn sprt(&self, elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Sprt {
        let llr = self.sprt_llr(elo0, elo1);
        if llr >= ((1.0 - beta) / alpha).ln() {
            Sprt::H1
        } else if llr <= (beta / (1.0 - alpha)).ln() {
            Sprt::H0
        } else {
            Sprt::Continue
        }
    }
}

/// The expected score of an Elo difference: `1 / (1 + 10^(-elo/400))`.
pub fn score_of(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference of a score rate: `-400 log10(1/s - 1)` (infinite at 0 and 1).
pub fn elo_of(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::EngineSettings;
    use crate::level::Level;
    use solvo_othello::{BoardSize, Position, Square, Variant};

    fn contestant(level: u32) -> EngineContestant {
        let settings = EngineSettings { level: Level::new(level).unwrap(), hash_mb: 8, ..EngineSettings::default() };
        EngineContestant { engine: Engine::new(settings).unwrap(), label: format!("solvo:level={level}") }
    }

    /// Always answers the first square: illegal soon.
    struct Corner;
    impl Contestant for Corner {
        fn name(&self) -> String {
            "corner".into()
        }
        fn choose(&mut self, _: &Session, _: Option<MoveTime>, _: Option<Duration>) -> Result<Ply, String> {
            Ok(Ply::Move(Square::from_index(0)))
        }
    }

    #[test]
    fn plays_games_and_forfeits_illegal_moves() {
        let start = Replay::new(Position::start(BoardSize::Eight, Variant::Normal));
        let (mut a, mut b) = (contestant(1), contestant(2));
        let r = play_game(&start, &mut a, &mut b, TimeControl::None);
        assert!(r.forfeit.is_none() && r.replay.end().is_game_over());
        assert_eq!(r.black_score, r.replay.end().black_score());
        let r = play_game(&start, &mut Corner, &mut b, TimeControl::None);
        assert_eq!(r.black_score, -64);
        let (side, reason) = r.forfeit.unwrap();
        assert!(side == Color::Black && reason.starts_with("illegal move"), "{reason}");
        // A clock of 3 s a game: the engine keeps within it (even on a loaded machine).
        let t = TimeControl::PerGame { total: Duration::from_secs(3), increment: Duration::ZERO };
        let r = play_game(&start, &mut a, &mut b, t);
        assert!(r.forfeit.is_none(), "{:?}", r.forfeit);
        for left in r.least_left {
            assert!(left.is_some_and(|d| d > Duration::ZERO && d < Duration::from_secs(3)), "{left:?}");
        }
        assert!(!r.lost_on_time() && r.least_time_left() == r.least_left.iter().flatten().min().copied());
        let mut clock = ClockStats::default();
        clock.add(None, false);
        assert_eq!(clock, ClockStats::default());
        clock.add(Some(Duration::from_secs(2)), false);
        clock.add(Some(Duration::from_secs(1)), true);
        clock.add(Some(Duration::from_secs(3)), false);
        assert_eq!(
            clock,
            ClockStats { lost_on_time: 1, least_left: Some(Duration::from_secs(1)), ..Default::default() }
        );
        // Every move of either side is timed.
        let moves = r.replay.plies.len() as u32;
        assert_eq!(r.thought[0].moves + r.thought[1].moves, moves);
        // Each ply's own time: together, the two sides' times.
        assert_eq!(r.times.len(), r.replay.plies.len());
        let each: Duration = r.times.iter().map(|t| t.expect("a timed ply")).sum();
        assert_eq!(each, r.thought[0].time + r.thought[1].time);
        assert!(r.thought[0].per_move().is_some_and(|t| t < Duration::from_secs(3)));
        assert_eq!(Thought::default().per_move(), None);
    }

    #[test]
    fn statistics_and_elo() {
        let mut s = MatchStats::default();
        for score in [10, -4, 0, 6] {
            s.add(score);
        }
        assert_eq!((s.wins, s.draws, s.losses, s.games()), (2, 1, 1, 4));
        assert_eq!(s.mean_discs(), 3.0);
        assert_eq!(s.score_rate(), 0.625);
        let (elo, lo, hi) = s.elo();
        assert!((elo - 88.7).abs() < 0.1 && lo < elo && elo < hi, "{elo} {lo} {hi}");
        assert_eq!(elo_of(0.5), 0.0);
        assert!((elo_of(score_of(123.0)) - 123.0).abs() < 1e-9);
        // 30 wins and 10 losses: far above 0 Elo; 20-20: neither yet.
        let mut strong = MatchStats::default();
        (0..30).for_each(|_| strong.add(10));
        (0..10).for_each(|_| strong.add(-10));
        assert_eq!(strong.sprt(0.0, 50.0, 0.05, 0.05), Sprt::H1);
        let mut even = MatchStats::default();
        (0..10).for_each(|_| even.add(10));
        (0..10).for_each(|_| even.add(-10));
        assert_eq!(even.sprt(0.0, 50.0, 0.05, 0.05), Sprt::Continue);
        let mut all = MatchStats::default();
        for _ in 0..20 {
            all.add(30);
        }
        let (e, lo, hi) = all.elo();
        assert!(e.is_infinite() && lo.is_finite() && lo > 250.0 && hi.is_infinite(), "{lo}");
        assert!(elo_of(1.0).is_infinite());
    }
}
