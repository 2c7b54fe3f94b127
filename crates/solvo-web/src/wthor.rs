//! The WTHOR game browser's library: the games of the `.wtb` files given on the
//! command line, with their player and tournament names, searchable by name and
//! year; a game is replayed only when opened.

use serde_json::{json, Value};
use solvo_othello::formats::transcript::{PassStyle, Replay};
use solvo_othello::formats::wthor::WthorFile;

/// One game of the library (its moves kept, replayed on demand).
struct Entry {
    file: usize,
    number: usize,
    year: u16,
    tournament: String,
    black: String,
    white: String,
    black_discs: u8,
    theoretical: u8,
    moves: Vec<solvo_othello::Square>,
}

/// The games of every file given, in file order.
#[derive(Default)]
pub struct WthorLibrary {
    files: Vec<String>,
    games: Vec<Entry>,
}

/// What a search asks for (each part optional, case-insensitive substrings).
#[derive(Clone, Debug, Default, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WthorQuery {
    /// A substring of either player's name.
    pub player: Option<String>,
    /// A substring of the tournament's name.
    pub tournament: Option<String>,
    /// The year.
    pub year: Option<u16>,
    /// The first match to return (0-based).
    pub offset: Option<usize>,
    /// How many matches to return (default 50, at most 500).
    pub limit: Option<usize>,
}

/// The most games one search returns.
const MAX_LIMIT: usize = 500;

impl WthorLibrary {
    /// Adds the games of `file` (named `name` in answers) with its player and
    /// tournament names (ids without a name are shown as `#id`); damaged records are
    /// left out. Returns how many games were added.
    pub fn add(&mut self, name: &str, file: &WthorFile, players: &[String], tournaments: &[String]) -> usize {
        let index = self.files.len();
        self.files.push(name.to_string());
        let name_of = |names: &[String], id: u16| names.get(id as usize).cloned().unwrap_or_else(|| format!("#{id}"));
        let before = self.games.len();
        for (i, g) in file.games.iter().enumerate() {
            if file.damage(i).is_some() || g.replay().is_err() {
                continue;
            }
            self.games.push(Entry {
                file: index,
                number: i + 1,
                year: file.header.year,
                tournament: name_of(tournaments, g.tournament),
                black: name_of(players, g.black_player),
                white: name_of(players, g.white_player),
                black_discs: g.black_discs,
                theoretical: g.theoretical_black_discs,
                moves: g.moves.clone(),
            });
        }
        self.games.len() - before
    }

    /// Number of games.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// True without games.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// The file names, in order.
    pub fn files(&self) -> &[String] {
        &self.files
    }

    /// The games matching `q`: `{"total": n, "games": [...]}` (each with its `id`, the
    /// key of [`WthorLibrary::game`]).
    pub fn search(&self, q: &WthorQuery) -> Value {
        let lower = |s: &Option<String>| s.as_ref().map(|s| s.trim().to_lowercase()).filter(|s| !s.is_empty());
        let (player, tournament) = (lower(&q.player), lower(&q.tournament));
        let matches = self.games.iter().enumerate().filter(|(_, g)| {
            q.year.is_none_or(|y| g.year == y)
                && player
                    .as_ref()
                    .is_none_or(|p| g.black.to_lowercase().contains(p) || g.white.to_lowercase().contains(p))
                && tournament.as_ref().is_none_or(|t| g.tournament.to_lowercase().contains(t))
        });
        let (offset, limit) = (q.offset.unwrap_or(0), q.limit.unwrap_or(50).min(MAX_LIMIT));
        let mut total = 0;
        let mut games = Vec::new();
        for (id, g) in matches {
            if total >= offset && games.len() < limit {
                games.push(self.describe(id, g));
            }
            total += 1;
        }
        json!({ "total": total, "offset": offset, "games": games })
    }

    fn describe(&self, id: usize, g: &Entry) -> Value {
        json!({
            "id": id,
            "file": self.files[g.file],
            "number": g.number,
            "year": g.year,
            "tournament": g.tournament,
            "black": g.black,
            "white": g.white,
            "black_discs": g.black_discs,
            "theoretical_black_discs": g.theoretical,
        })
    }

    /// Game `id` (from a search): its description and its replay, or `None`.
    pub fn game(&self, id: usize) -> Option<(Value, Replay)> {
        let g = self.games.get(id)?;
        let replay = solvo_othello::formats::wthor::WthorGame {
            tournament: 0,
            black_player: 0,
            white_player: 0,
            black_discs: g.black_discs,
            theoretical_black_discs: g.theoretical,
            moves: g.moves.clone(),
        }
        .replay()
        .ok()?;
        let mut info = self.describe(id, g);
        info["transcript"] = json!(replay.transcript(PassStyle::Implicit));
        Some((info, replay))
    }
}
