//! Levels 1-60: level `L` searches the midgame `L` plies deep (its principal variation
//! solved exactly near the end), proves win, draw or loss from [`Level::wld_from`]
//! empties and the exact score from [`Level::exact_from`], and prunes less (higher
//! Multi-ProbCut selectivity) as the level rises. The split between the midgame and the
//! endgame was measured against NTest at equal time (`docs/results/clock.md`).

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

    /// Positions with at most this many empties are proven won, drawn or lost (the
    /// best move of a won or drawn one is a proven one): `L + 8` up to twice the level,
    /// the whole game (60) from level 52.
    pub fn wld_from(self) -> u32 {
        (2 * self.0).min(self.0 + 8).min(MAX_LEVEL)
    }

    /// Positions with at most this many empties are solved exactly: a third of
    /// [`Level::wld_from`] fewer, at most five (`L + 3` from level 8), every position
    /// from level 52. The exact score changes a game's disc count more often than its
    /// result, so the time goes to proving the outcome early. Measured against NTest at
    /// about equal time (`docs/results/clock.md`): with the midgame deepened a ply at a
    /// time, proving from `L + 9` and scoring from `L + 4` beat the other splits at
    /// levels 10 and 12; deepened two plies at a time, the midgame costs a third less,
    /// and a ply more of it with the endgame of the level below (`L + 8`, `L + 3`) scored
    /// 4.6 points more at the same time.
    pub fn exact_from(self) -> u32 {
        let wld = self.wld_from();
        if wld >= MAX_LEVEL {
            MAX_LEVEL
        } else {
            wld - (wld / 3).min(5)
        }
    }

    /// Every move's exact value is given from this many empties (an analysis: the web
    /// board's and NBoard's hints), and 6x6 and 4x4 positions are played perfectly from
    /// it: twice the level (a question about values wants them exact; a small board's
    /// solve costs far less per empty square than an 8x8 one).
    pub fn exact_values_from(self) -> u32 {
        (2 * self.0).min(MAX_LEVEL)
    }

    /// Principal-variation nodes of the midgame search with at most this many empties
    /// are solved exactly (the search's PV extension, as `pv_extension_for` chooses it
    /// for the level's depth).
    pub fn pv_extension(self) -> u32 {
        solvo_othello_search::pv_extension_for(self.0)
    }

    /// Multi-ProbCut selectivity of the midgame search, rising with the level: 87% up
    /// to level 15, then 95, 98, 99% by steps of five levels, and no pruning (100%)
    /// from level 31. (At 73% a depth-12 search scored 36.5% against NTest at depth 12,
    /// at 87% 45.2%, for 1.2 times the time.)
    pub fn selectivity(self) -> Selectivity {
        let percent = match self.0 {
            0..=15 => 87,
            16..=20 => 95,
            21..=25 => 98,
            26..=30 => 99,
            _ => 100,
        };
        Selectivity::from_percent(percent).unwrap_or(Selectivity::EXACT)
    }
}

impl Default for Level {
    /// Level 10: depth 10, the outcome proven from 18 empties, the exact score from 13
    /// (a fraction of a second a move on 2 cores).
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
    fn levels_split_midgame_and_endgame_and_refuse_out_of_range() {
        assert!(Level::new(0).is_none() && Level::new(61).is_none());
        let l = Level::new(10).unwrap();
        assert_eq!((l.depth(), l.wld_from(), l.exact_from(), l.selectivity().percent()), (10, 18, 13, 87));
        let l = Level::new(12).unwrap();
        assert_eq!((l.wld_from(), l.exact_from(), l.pv_extension(), l.exact_values_from()), (20, 15, 12, 24));
        assert_eq!((Level::new(3).unwrap().wld_from(), Level::new(3).unwrap().exact_from()), (6, 4));
        assert_eq!((Level::new(50).unwrap().wld_from(), Level::new(50).unwrap().exact_from()), (58, 53));
        for n in [52, 60] {
            let top = Level::new(n).unwrap();
            assert_eq!((top.wld_from(), top.exact_from()), (60, 60));
        }
        assert_eq!(Level::new(60).unwrap().selectivity().percent(), 100);
        for n in 1..=60 {
            let l = Level::new(n).unwrap();
            assert!(l.exact_from() <= l.wld_from() && l.wld_from() <= 2 * n, "level {n}");
        }
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
