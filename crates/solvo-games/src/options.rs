//! [`GameOptions`]: rule options given as text (`key=value` pairs), read by each game into
//! its own typed option struct; and [`NoMoveRule`], the shared "side with no move" option.

use crate::error::GameError;
use std::fmt;

/// Rule options as `key=value` pairs, in the order given. Each game reads the keys it
/// knows and refuses any other key with a [`GameError::BadOption`] naming the accepted ones.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameOptions {
    pairs: Vec<(String, String)>,
}

impl GameOptions {
    /// No options: every game uses its documented defaults.
    pub fn new() -> GameOptions {
        GameOptions::default()
    }

    /// Reads `key=value` pairs separated by commas (`"komi=9.5,move-limit=30"`); an empty
    /// or blank text gives no options. Keys are lower-cased.
    pub fn parse(text: &str) -> Result<GameOptions, GameError> {
        let mut options = GameOptions::new();
        for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            options.push_pair(part)?;
        }
        Ok(options)
    }

    /// Adds one `key=value` pair (as typed on a command line).
    pub fn push_pair(&mut self, pair: &str) -> Result<(), GameError> {
        match pair.split_once('=') {
            Some((k, v)) if !k.trim().is_empty() && !v.trim().is_empty() => {
                self.set(k.trim(), v.trim());
                Ok(())
            }
            _ => Err(GameError::BadOption {
                game: "any game",
                option: pair.to_string(),
                reason: "expected key=value".into(),
            }),
        }
    }

    /// Sets `key` to `value` (a later value for the same key wins).
    pub fn set(&mut self, key: &str, value: &str) {
        let key = key.to_ascii_lowercase();
        self.pairs.retain(|(k, _)| *k != key);
        self.pairs.push((key, value.to_string()));
    }

    /// The pairs, in order.
    pub fn pairs(&self) -> &[(String, String)] {
        &self.pairs
    }
}

/// What happens to a side that has no legal move, where a game's rules leave it open.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NoMoveRule {
    /// The side that cannot move loses.
    Lose,
    /// The side that cannot move wins.
    Win,
}

impl NoMoveRule {
    /// Reads `lose` or `win`.
    pub fn parse(text: &str) -> Option<NoMoveRule> {
        match text.to_ascii_lowercase().as_str() {
            "lose" | "loses" => Some(NoMoveRule::Lose),
            "win" | "wins" => Some(NoMoveRule::Win),
            _ => None,
        }
    }

    /// The value for the side to move that has no legal move: -1 (Lose) or +1 (Win).
    #[inline]
    pub fn value(self) -> i32 {
        match self {
            NoMoveRule::Lose => -1,
            NoMoveRule::Win => 1,
        }
    }
}

impl fmt::Display for NoMoveRule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            NoMoveRule::Lose => "lose",
            NoMoveRule::Win => "win",
        })
    }
}

/// The error for an option `key=value` that `game` does not accept.
pub(crate) fn bad_option(game: &'static str, key: &str, value: &str, reason: &str) -> GameError {
    GameError::BadOption { game, option: format!("{key}={value}"), reason: reason.to_string() }
}

/// Reads a [`NoMoveRule`] option value.
pub(crate) fn parse_no_move(game: &'static str, key: &str, value: &str) -> Result<NoMoveRule, GameError> {
    NoMoveRule::parse(value).ok_or_else(|| bad_option(game, key, value, "expected lose or win"))
}

/// Reads an `on|off` option value (also `yes|no`, `true|false`, `1|0`).
pub(crate) fn parse_on_off(game: &'static str, key: &str, value: &str) -> Result<bool, GameError> {
    match value.to_ascii_lowercase().as_str() {
        "on" | "yes" | "true" | "1" => Ok(true),
        "off" | "no" | "false" | "0" => Ok(false),
        _ => Err(bad_option(game, key, value, "expected on or off")),
    }
}
