//! Game variants: normal Othello and Reversed Reversi (misère).

use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// The scoring rule. Moves, flips and passes are the same in every variant.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Variant {
    /// Normal Othello: the side with more discs wins.
    #[default]
    Normal,
    /// Reversed Reversi (misère Othello): the side with fewer discs wins; the score is
    /// exactly the negation of the normal score (empties included).
    Reversed,
}

impl Variant {
    /// Turns a normal-rule score into this variant's score.
    #[inline]
    pub const fn apply(self, normal_score: i32) -> i32 {
        match self {
            Variant::Normal => normal_score,
            Variant::Reversed => -normal_score,
        }
    }

    /// The lower-case name used on the command line (`normal`, `reversed`).
    pub const fn name(self) -> &'static str {
        match self {
            Variant::Normal => "normal",
            Variant::Reversed => "reversed",
        }
    }
}

impl fmt::Display for Variant {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Variant {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "normal" | "n" => Ok(Variant::Normal),
            "reversed" | "reverse" | "misere" | "r" => Ok(Variant::Reversed),
            _ => Err(format!("unknown variant {s:?}: expected `normal` or `reversed`")),
        }
    }
}
