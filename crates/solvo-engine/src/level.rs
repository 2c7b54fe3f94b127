//! Levels 1-60 in the manner of Edax: level `L` searches the midgame `L` plies deep,
//! solves exactly from `2L` empties, and prunes less (higher Multi-ProbCut
//! selectivity) as the level rises.

use solvo_othello_search::Selectivity;
use std::fmt;
use std::str::FromStr;

/// The highest level.
pub const MAX_LEVEL: u32 = 60;

/// A playing level, 1 to [`MAX_LEVEL`].
///
/// Invariant: the number is in `1..=MAX_LEVEL`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Level(u32);

impl Level {
    /// The level `n`, or `None` outside `1..=MAX_LEVEL`.
    pub fn new(n: u32) -> Option<Level> {
        (1..=MAX_LEVEL).contains(&n).then_some(Level(n))
    }

    /// The level's number.
    pub fn number(self) -> u32 {
        self.0
    }

    /// Midgame search depth in plies: the level itself.
    pub fn depth(self) -> u32 {
        self.0
    }

    /// Positions with at most this many empties are solved exactly: twice the level
    /// (60 and above: every position).
    pub fn exact_from(self) -> u32 {
        (2 * self.0).min(MAX_LEVEL)
    }

    /// Multi-ProbCut selectivity of the midgame search, rising with the level: 73% up
    /// to level 10, then 87, 95, 98, 99% by steps of five levels, and no pruning
    /// (100%) from level 31.
    pub fn selectivity(self) -> Selectivity {
        let percent = match self.0 {
            0..=10 => 73,
            11..=15 => 87,
            16..=20 => 95,
            21..=25 => 98,
            26..=30 => 99,
            _ => 100,
        };
        Selectivity::from_percent(percent).unwrap_or(Selectivity::EXACT)
    }
}

impl Default for Level {
    /// Level 10: depth 10, exact from 20 empties (a fraction of a second a move on
    /// 2 cores).
    fn default() -> Level {
        Level(10)
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl FromStr for Level {
    type Err = String;

    /// A whole number from 1 to 60; the error says so.
    fn from_str(s: &str) -> Result<Level, String> {
        s.trim()
            .parse::<u32>()
            .ok()
            .and_then(Level::new)
            .ok_or_else(|| format!("level {s:?}: expected a whole number from 1 to {MAX_LEVEL}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_follow_edax_and_refuse_out_of_range() {
        assert!(Level::new(0).is_none() && Level::new(61).is_none());
        let l = Level::new(10).unwrap();
        assert_eq!((l.depth(), l.exact_from(), l.selectivity().percent()), (10, 20, 73));
        let top = Level::new(60).unwrap();
        assert_eq!((top.exact_from(), top.selectivity().percent()), (60, 100));
        let mut last = 0;
        for n in 1..=60 {
            let s = Level::new(n).unwrap().selectivity().percent();
            assert!(s >= last, "selectivity rises with the level");
            last = s;
        }
        assert!("0".parse::<Level>().is_err() && "x".parse::<Level>().is_err());
        assert_eq!("12".parse::<Level>(), Ok(Level(12)));
    }
}
