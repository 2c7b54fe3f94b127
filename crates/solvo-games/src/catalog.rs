//! The catalogue of games: their names, descriptions and default sizes ([`list`]), and
//! [`dispatch`]: build a game from a name, a size and options, and hand it to generic
//! code through a [`GameVisitor`]. This is the stable API the command line uses.
//!
//! ```
//! use solvo_games::{dispatch, GameVisitor};
//! use solvo_core::Game;
//!
//! struct CountMoves;
//! impl GameVisitor for CountMoves {
//!     type Output = usize;
//!     fn visit<G: Game + std::fmt::Display + 'static>(self, game: G) -> usize {
//!         let mut moves = Vec::new();
//!         game.generate_moves(&mut moves);
//!         moves.len()
//!     }
//! }
//! assert_eq!(dispatch("domineering", 3, 3, CountMoves).unwrap(), 6);
//! assert!(dispatch("chess", 8, 8, CountMoves).is_err());
//! ```

use crate::atarigo::{Atarigo, AtarigoOptions};
use crate::domineering::{Domineering, DomineeringOptions};
use crate::error::GameError;
use crate::go::{Go, GoOptions};
use crate::nogo::{Nogo, NogoOptions};
use crate::options::GameOptions;
use crate::race::{Race, RaceKind, RaceOptions};
use solvo_core::Game;
use std::fmt::Display;

/// One game of the catalogue.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameSpec {
    /// The name [`dispatch`] accepts (lower case, words joined by `-`).
    pub name: &'static str,
    /// One line saying what the game is.
    pub description: &'static str,
    /// The default number of rows (the paper's benchmark size where there is one).
    pub default_rows: usize,
    /// The default number of columns.
    pub default_cols: usize,
    /// The accepted `key=value` options with their defaults, for help texts.
    pub options: &'static str,
}

const SPECS: &[GameSpec] = &[
    GameSpec {
        name: "domineering",
        description: "place dominoes, first player vertical; who cannot move loses",
        default_rows: 7,
        default_cols: 7,
        options:
            "first=vertical|horizontal (default vertical), symmetry=on|off (default on: flipped positions share keys), \
             bounds=on|off (default on: positions decided by move-count bounds end at once; values unchanged), \
             regions=on|off (default on, boards up to 8x8: positions whose regions of empty cells match up to \
             translation and flips share keys; overrides symmetry), transpose=on|off (default off: with regions, a \
             position shares its key with its transpose with the other side to move)",
    },
    GameSpec {
        name: "misere-domineering",
        description: "Domineering where who cannot move wins",
        default_rows: 7,
        default_cols: 7,
        options:
            "first=vertical|horizontal (default vertical), symmetry=on|off (default on: flipped positions share keys), \
             bounds=on|off (default on: positions decided by move-count bounds end at once; values unchanged), \
             regions=on|off (default on, boards up to 8x8: positions whose regions of empty cells match up to \
             translation and flips share keys; overrides symmetry), transpose=on|off (default off: with regions, a \
             position shares its key with its transpose with the other side to move)",
    },
    GameSpec {
        name: "breakthrough",
        description: "pawns race forward (rows = direction of movement); first to the far row wins",
        default_rows: 5,
        default_cols: 5,
        options: "tactics=on|off (default on: arrivals and threats decided, values unchanged), symmetry=on|off (default on), \
                  ordering=safety|plain (default safety: safe landing cells first)",
    },
    GameSpec {
        name: "misere-breakthrough",
        description: "Breakthrough where the first to reach the far row loses",
        default_rows: 4,
        default_cols: 5,
        options: "no-move=lose|win (default lose), symmetry=on|off (default on: mirrored positions share keys)",
    },
    GameSpec {
        name: "knightthrough",
        description: "forward-only knights race (rows = direction of movement); first to the far row wins",
        default_rows: 7,
        default_cols: 6,
        options: "tactics=on|off (default on: arrivals and threats decided, values unchanged), guard=on|off (default on, \
                  with tactics: moves that lose to a two-move threat left out, values unchanged), symmetry=on|off (default on), \
                  ordering=threat|safety|plain (default threat: leaps onto a launch cell, then towards an unguarded one, first)",
    },
    GameSpec {
        name: "misere-knightthrough",
        description: "Knightthrough where the first to reach the far row loses",
        default_rows: 5,
        default_cols: 5,
        options: "no-move=lose|win (default lose), symmetry=on|off (default on: mirrored positions share keys)",
    },
    GameSpec {
        name: "atarigo",
        description: "capture Go: the first capture wins; suicide illegal unless capturing",
        default_rows: 5,
        default_cols: 5,
        options: "no-move=lose|win (default lose); tactics, lookahead, symmetry=on|off (default on: \
                  forced positions decided, symmetric keys; values unchanged); ordering=liberties|plain \
                  (default liberties: the liberty formula orders moves within each tactical tier)",
    },
    GameSpec {
        name: "nogo",
        description: "anti-Atari-Go: capture and suicide illegal; who cannot move loses",
        default_rows: 4,
        default_cols: 5,
        options:
            "capture=illegal|loses (default illegal), symmetry=on|off (default on: symmetric positions share keys)",
    },
    GameSpec {
        name: "go",
        description: "tiny Go: area scoring, komi, positional superko, passes, move limit 2 x cells",
        default_rows: 3,
        default_cols: 3,
        options: "komi=K (3x3 8.5, 3x4 and 4x3 3.5, 4x4 1.5, 5x5 24.5, else 0.5), move-limit=N|none (2 x cells), \
                  at-limit=zero|score (zero: a game stopped by the move limit is worth 0, as in the study), \
                  superko=positional|none (positional), symmetry=on|off (on: symmetric positions share keys), \
                  history-key=relevant|full (relevant: only arrangements that can recur; values unchanged)",
    },
];

/// Every game of the catalogue, in a fixed order.
pub fn list() -> &'static [GameSpec] {
    SPECS
}

/// The catalogue entry for `name` (case-insensitive; `_` and spaces count as `-`, and
/// `misère` as `misere`).
pub fn find(name: &str) -> Option<&'static GameSpec> {
    let key = normalise(name);
    SPECS.iter().find(|s| s.name == key)
}

fn normalise(name: &str) -> String {
    name.trim().to_lowercase().replace('è', "e").replace(['_', ' '], "-")
}

/// Generic code run on a game built by [`dispatch`]: `visit` is called once with the
/// starting position of the chosen game.
pub trait GameVisitor {
    /// What the visit returns.
    type Output;
    /// Runs on the starting position.
    fn visit<G: Game + Display + 'static>(self, game: G) -> Self::Output;
}

/// Builds the starting position of game `name` on `rows x cols` with default rules and
/// passes it to `v`. Errors: unknown name ([`GameError::UnknownGame`], listing the known
/// ones) or a size the game does not support ([`GameError::UnsupportedSize`]).
pub fn dispatch<V: GameVisitor>(name: &str, rows: usize, cols: usize, v: V) -> Result<V::Output, GameError> {
    dispatch_with(name, rows, cols, &GameOptions::new(), v)
}

/// As [`dispatch`], with rule options (`key=value`, see [`GameSpec::options`]); an option
/// the game does not know, or a bad value, is a [`GameError::BadOption`].
pub fn dispatch_with<V: GameVisitor>(
    name: &str,
    rows: usize,
    cols: usize,
    options: &GameOptions,
    v: V,
) -> Result<V::Output, GameError> {
    let spec = find(name).ok_or_else(|| GameError::UnknownGame {
        name: name.to_string(),
        known: SPECS.iter().map(|s| s.name).collect(),
    })?;
    match spec.name {
        "domineering" | "misere-domineering" => {
            let misere = spec.name == "misere-domineering";
            let opts = DomineeringOptions::from_options(spec.name, misere, options)?;
            Ok(v.visit(Domineering::new(rows, cols, opts)?))
        }
        "breakthrough" | "misere-breakthrough" | "knightthrough" | "misere-knightthrough" => {
            let misere = spec.name.starts_with("misere");
            let kind = if spec.name.ends_with("breakthrough") { RaceKind::Pawn } else { RaceKind::Knight };
            let opts = RaceOptions::from_options(spec.name, misere, options)?;
            Ok(v.visit(Race::new(kind, rows, cols, opts)?))
        }
        "atarigo" => Ok(v.visit(Atarigo::new(rows, cols, AtarigoOptions::from_options(options)?)?)),
        "nogo" => Ok(v.visit(Nogo::new(rows, cols, NogoOptions::from_options(options)?)?)),
        "go" => {
            // Check the size first, so that a bad size is reported as such.
            crate::grid::Grid::new(rows, cols).map_err(|reason| GameError::UnsupportedSize {
                game: "go",
                rows,
                cols,
                reason,
            })?;
            Ok(v.visit(Go::new(rows, cols, GoOptions::from_options(rows, cols, options)?)?))
        }
        other => unreachable!("catalogue entry {other} has no constructor"),
    }
}

/// Reads a board size `RxC` (rows then columns, like `7x7` or `4X5`; `×` also accepted).
pub fn parse_size(text: &str) -> Result<(usize, usize), GameError> {
    let bad = || GameError::BadSizeText(text.to_string());
    let t = text.trim().to_lowercase().replace('×', "x");
    let (r, c) = t.split_once('x').ok_or_else(bad)?;
    let rows: usize = r.trim().parse().map_err(|_| bad())?;
    let cols: usize = c.trim().parse().map_err(|_| bad())?;
    if rows == 0 || cols == 0 {
        return Err(bad());
    }
    Ok((rows, cols))
}

/// Options that only choose the order of the moves: a proof holds whatever order found
/// it, so they are not part of a proof store's identity (a solve may resume with
/// another order).
const ORDERING_ONLY_OPTIONS: [&str; 1] = ["ordering"];

/// What a proof store records as its game (two stores with the same identity hold proofs
/// of the same game, so one may resume the other): name, size, rule options (those that can
/// change a value or a key, not [`ORDERING_ONLY_OPTIONS`]) and key scheme.
pub fn proof_store_identity(name: &str, rows: usize, cols: usize, options: &GameOptions) -> String {
    let mut pairs: Vec<String> = options
        .pairs()
        .iter()
        .filter(|(k, _)| !ORDERING_ONLY_OPTIONS.contains(&k.as_str()))
        .map(|(k, v)| format!("{k}={v}"))
        .collect();
    pairs.sort();
    format!("{} {rows}x{cols} [{}] keys-1", name.to_ascii_lowercase(), pairs.join(","))
}

/// What a semi-strong store of a game records as its game: `semi-strong ` and the
/// [`proof_store_identity`] (a store answers only for the game it was built for).
pub fn semi_strong_identity(name: &str, rows: usize, cols: usize, options: &GameOptions) -> String {
    format!("semi-strong {}", proof_store_identity(name, rows, cols, options))
}

/// The game a semi-strong store's identity ([`semi_strong_identity`]) names: its
/// catalogue entry, size and rule options; `None` for text that function does not make
/// or a game the catalogue does not have.
pub fn parse_semi_strong_identity(identity: &str) -> Option<(&'static GameSpec, usize, usize, GameOptions)> {
    let rest = identity.strip_prefix("semi-strong ")?.strip_suffix(" keys-1")?;
    let (name, rest) = rest.split_once(' ')?;
    let (size, options) = rest.split_once(' ')?;
    let options = options.strip_prefix('[')?.strip_suffix(']')?;
    let (rows, cols) = parse_size(size).ok()?;
    Some((find(name)?, rows, cols, GameOptions::parse(options).ok()?))
}

#[cfg(test)]
mod identity_tests {
    use super::*;
    use crate::options::GameOptions;

    /// A store made with one move order is the same store for another; a rule or key
    /// option makes another store.
    #[test]
    fn store_identity_ignores_ordering_only_options() {
        let with = |pairs: &[&str]| {
            let mut o = GameOptions::new();
            for p in pairs {
                o.push_pair(p).unwrap();
            }
            o
        };
        let plain = proof_store_identity("knightthrough", 7, 6, &with(&[]));
        assert_eq!(proof_store_identity("Knightthrough", 7, 6, &with(&["ordering=safety"])), plain);
        assert_ne!(proof_store_identity("knightthrough", 7, 6, &with(&["symmetry=off"])), plain);
        assert_ne!(proof_store_identity("knightthrough", 7, 6, &with(&["ordering=safety", "tactics=off"])), plain);
        assert_ne!(proof_store_identity("knightthrough", 6, 7, &with(&[])), plain);
    }

    /// A semi-strong store's identity reads back as the game it was made from.
    #[test]
    fn semi_strong_identity_round_trips() {
        let mut o = GameOptions::new();
        o.push_pair("tactics=off").unwrap();
        o.push_pair("no-move=win").unwrap();
        let text = semi_strong_identity("Misère_Breakthrough", 4, 5, &o);
        let (spec, rows, cols, back) = parse_semi_strong_identity(&text).unwrap();
        assert_eq!((spec.name, rows, cols), ("misere-breakthrough", 4, 5));
        // The catalogue's own spelling of the name, the same size and rules.
        assert_eq!(semi_strong_identity(spec.name, rows, cols, &back), semi_strong_identity(spec.name, 4, 5, &o));
        assert!(text.starts_with("semi-strong misère_breakthrough 4x5 [no-move=win,tactics=off]"), "{text}");
        assert!(parse_semi_strong_identity("go 3x4 [] keys-1").is_none());
        assert!(parse_semi_strong_identity("semi-strong chess 8x8 [] keys-1").is_none());
    }
}
