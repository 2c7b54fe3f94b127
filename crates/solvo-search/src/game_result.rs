//! What a solver's [`Verdict`] proves about the result of the game, said from the first
//! player's side: a win, a draw, or only "not a win" when the solver proved a bound.
//!
//! Every command that reports who wins goes through [`GameResult::from_verdict`], so
//! that every algorithm says the same thing for the same proof: an exact value of 0 is a
//! draw, and a threshold proof (df-pn, PN2, MCTS-Solver: "value >= 1" or "value < 1")
//! that does not settle the sign is reported as "not a first-player win" (or second),
//! never as a win of the other side, unless the game has no draws.

use crate::outcome::Verdict;
use std::fmt;

/// The result of the game from its root, as far as a verdict proves it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// The first player wins with perfect play.
    FirstPlayerWins,
    /// The second player wins with perfect play.
    SecondPlayerWins,
    /// Perfect play ends in a draw (value 0).
    Draw,
    /// Proven: the first player does not win (a draw or a second-player win).
    FirstPlayerDoesNotWin,
    /// Proven: the second player does not win (a draw or a first-player win).
    SecondPlayerDoesNotWin,
    /// Nothing proven (budget exhausted, or a bound that settles nothing).
    Unknown,
}

impl GameResult {
    /// Every result, for tests and tables.
    pub const ALL: [GameResult; 6] = [
        GameResult::FirstPlayerWins,
        GameResult::SecondPlayerWins,
        GameResult::Draw,
        GameResult::FirstPlayerDoesNotWin,
        GameResult::SecondPlayerDoesNotWin,
        GameResult::Unknown,
    ];

    /// The result proven by `verdict` (a negamax value for the side to move at the root),
    /// where `root_player` is that side (0: first player) and `draws_possible` says whether
    /// value 0 can occur (without draws, "not a win" is a loss). Never claims more than
    /// the verdict proves.
    pub fn from_verdict(verdict: Verdict, root_player: u8, draws_possible: bool) -> GameResult {
        // Bounds of the value for the side to move: lo <= value <= hi.
        let (mut lo, mut hi) = match verdict {
            Verdict::Exact(v) => (v, v),
            Verdict::AtLeast(t) => (t, i32::MAX),
            Verdict::Below(t) => (i32::MIN, t.saturating_sub(1)),
            Verdict::Unknown => (i32::MIN, i32::MAX),
        };
        if !draws_possible {
            if lo == 0 {
                lo = 1;
            }
            if hi == 0 {
                hi = -1;
            }
        }
        let mover = if lo > 0 {
            Mover::Wins
        } else if hi < 0 {
            Mover::Loses
        } else if lo == 0 && hi == 0 {
            return GameResult::Draw;
        } else if lo >= 0 {
            Mover::DoesNotLose
        } else if hi <= 0 {
            Mover::DoesNotWin
        } else {
            return GameResult::Unknown;
        };
        let first_to_move = root_player == 0;
        match (mover, first_to_move) {
            (Mover::Wins, true) | (Mover::Loses, false) => GameResult::FirstPlayerWins,
            (Mover::Wins, false) | (Mover::Loses, true) => GameResult::SecondPlayerWins,
            (Mover::DoesNotWin, true) | (Mover::DoesNotLose, false) => GameResult::FirstPlayerDoesNotWin,
            (Mover::DoesNotWin, false) | (Mover::DoesNotLose, true) => GameResult::SecondPlayerDoesNotWin,
        }
    }

    /// The machine-readable name (JSON `result`): `first_player_win`, `second_player_win`,
    /// `draw`, `first_player_not_win`, `second_player_not_win` or `unknown`.
    pub fn code(self) -> &'static str {
        match self {
            GameResult::FirstPlayerWins => "first_player_win",
            GameResult::SecondPlayerWins => "second_player_win",
            GameResult::Draw => "draw",
            GameResult::FirstPlayerDoesNotWin => "first_player_not_win",
            GameResult::SecondPlayerDoesNotWin => "second_player_not_win",
            GameResult::Unknown => "unknown",
        }
    }

    /// The winner when one is proven (`"first"` or `"second"`), else `None` (a draw, a
    /// bound only, or nothing proven).
    pub fn winner(self) -> Option<&'static str> {
        match self {
            GameResult::FirstPlayerWins => Some("first"),
            GameResult::SecondPlayerWins => Some("second"),
            _ => None,
        }
    }
}

impl fmt::Display for GameResult {
    /// Words for people, e.g. "not a first-player win (a draw or a second-player win)".
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            GameResult::FirstPlayerWins => "first player wins",
            GameResult::SecondPlayerWins => "second player wins",
            GameResult::Draw => "draw",
            GameResult::FirstPlayerDoesNotWin => "not a first-player win (a draw or a second-player win)",
            GameResult::SecondPlayerDoesNotWin => "not a second-player win (a draw or a first-player win)",
            GameResult::Unknown => "unknown (budget exhausted)",
        })
    }
}

/// The side to move's result, before it is turned into the first player's.
enum Mover {
    Wins,
    Loses,
    DoesNotWin,
    DoesNotLose,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_zero_value_is_a_draw_whoever_moves() {
        for player in [0, 1] {
            assert_eq!(GameResult::from_verdict(Verdict::Exact(0), player, true), GameResult::Draw);
        }
    }

    #[test]
    fn a_threshold_proof_is_not_a_win_of_the_other_side() {
        assert_eq!(GameResult::from_verdict(Verdict::Below(1), 0, true), GameResult::FirstPlayerDoesNotWin);
        assert_eq!(GameResult::from_verdict(Verdict::Below(1), 1, true), GameResult::SecondPlayerDoesNotWin);
        assert_eq!(GameResult::from_verdict(Verdict::AtLeast(0), 0, true), GameResult::SecondPlayerDoesNotWin);
        assert_eq!(GameResult::from_verdict(Verdict::Below(1), 0, false), GameResult::SecondPlayerWins);
        assert_eq!(GameResult::from_verdict(Verdict::AtLeast(1), 1, true), GameResult::SecondPlayerWins);
        assert_eq!(GameResult::from_verdict(Verdict::Below(0), 0, true), GameResult::SecondPlayerWins);
        assert_eq!(GameResult::from_verdict(Verdict::Below(5), 0, true), GameResult::Unknown);
        assert_eq!(GameResult::from_verdict(Verdict::Unknown, 0, false), GameResult::Unknown);
    }

    #[test]
    fn only_proven_wins_name_a_winner() {
        let named: Vec<_> = GameResult::ALL.iter().filter(|r| r.winner().is_some()).collect();
        assert_eq!(named, [&GameResult::FirstPlayerWins, &GameResult::SecondPlayerWins]);
    }
}
