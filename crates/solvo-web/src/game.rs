//! Games as the API sends and receives them: a request names a game by its size,
//! variant, start (a board string; the standard start when absent) and moves (a
//! transcript, passes as `pa` or left out); the answer describes every position of
//! it, so the page can step through the game without asking again, and its
//! transcript and GGF record.

use crate::error::ApiError;
use serde::Deserialize;
use serde_json::{json, Value};
use solvo_othello::formats::board_string::{board_chars, format_position, parse_position};
use solvo_othello::formats::ggf::{format_ggf, ggf_from_replay};
use solvo_othello::formats::recognize::{recognize, InputKind};
use solvo_othello::formats::transcript::{parse_transcript, PassStyle, Ply, Replay};
use solvo_othello::{BoardSize, Position, Square, Variant};

/// The longest text accepted for a start board or a transcript (characters).
const MAX_TEXT: usize = 4096;

/// A game named in a request.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RequestedGame {
    /// Board size: 4, 6 or 8 (default 8, or the start board's).
    pub size: Option<u32>,
    /// `normal` (default) or `reversed`.
    pub variant: Option<String>,
    /// The start as a board string (default: the standard start).
    pub start: Option<String>,
    /// The moves from the start, a transcript (default: none).
    pub moves: Option<String>,
    /// Black's player (the GGF record's `PB`; default `black`).
    pub black: Option<String>,
    /// White's player (`PW`; default `white`).
    pub white: Option<String>,
    /// Where it was played, e.g. a WTHOR tournament (`PC`; none by default).
    pub place: Option<String>,
    /// When it was played, e.g. a WTHOR year (`DT`; none by default).
    pub date: Option<String>,
}

/// Who played a game, where and when: what its GGF record names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GameNames {
    /// Black's player (`None`: `black`).
    pub black: Option<String>,
    /// White's player (`None`: `white`).
    pub white: Option<String>,
    /// The place or tournament.
    pub place: Option<String>,
    /// The date or year.
    pub date: Option<String>,
}

/// The longest name accepted (characters).
const MAX_NAME: usize = 200;

impl GameNames {
    /// The names as the API sends them (absent ones left out).
    fn json(&self) -> Value {
        let mut v = json!({});
        for (key, value) in
            [("black", &self.black), ("white", &self.white), ("place", &self.place), ("date", &self.date)]
        {
            if let Some(s) = value {
                v[key] = json!(s);
            }
        }
        v
    }
}

fn size_of(size: Option<u32>) -> Result<Option<BoardSize>, ApiError> {
    match size {
        None => Ok(None),
        Some(8) => Ok(Some(BoardSize::Eight)),
        Some(6) => Ok(Some(BoardSize::Six)),
        Some(4) => Ok(Some(BoardSize::Four)),
        Some(n) => Err(ApiError::unprocessable(format!("size {n}: expected 4, 6 or 8"))),
    }
}

fn variant_of(variant: &Option<String>) -> Result<Variant, ApiError> {
    match variant.as_deref() {
        None => Ok(Variant::Normal),
        Some(v) => v.parse().map_err(|e| ApiError::unprocessable(format!("variant {v:?}: {e}"))),
    }
}

fn check_len(what: &str, text: &str) -> Result<(), ApiError> {
    if text.len() > MAX_TEXT {
        return Err(ApiError::unprocessable(format!("{what}: {} characters, at most {MAX_TEXT} accepted", text.len())));
    }
    Ok(())
}

impl RequestedGame {
    /// The names given (each checked: at most 200 characters, no control characters;
    /// 422 naming the field otherwise; blank ones count as absent).
    pub fn names(&self) -> Result<GameNames, ApiError> {
        let check = |field: &str, value: &Option<String>| -> Result<Option<String>, ApiError> {
            let Some(s) = value.as_ref().map(|s| s.trim()).filter(|s| !s.is_empty()) else { return Ok(None) };
            if s.chars().count() > MAX_NAME || s.chars().any(char::is_control) {
                return Err(ApiError::unprocessable(format!(
                    "{field}: at most {MAX_NAME} characters without control characters"
                )));
            }
            Ok(Some(s.to_string()))
        };
        Ok(GameNames {
            black: check("black", &self.black)?,
            white: check("white", &self.white)?,
            place: check("place", &self.place)?,
            date: check("date", &self.date)?,
        })
    }

    /// The game replayed. Errors (422) name the field and what is wrong in it.
    pub fn replay(&self) -> Result<Replay, ApiError> {
        let size = size_of(self.size)?;
        let variant = variant_of(&self.variant)?;
        let start = match &self.start {
            None => Position::start(size.unwrap_or(BoardSize::Eight), variant),
            Some(text) => {
                check_len("start", text)?;
                parse_position(text, size, variant).map_err(|e| ApiError::unprocessable(format!("start: {e}")))?
            }
        };
        let moves = self.moves.as_deref().unwrap_or("");
        check_len("moves", moves)?;
        parse_transcript(moves, &start).map_err(|e| ApiError::unprocessable(format!("moves: {e}")))
    }
}

/// Reads pasted text (board string, OBF line, transcript or GGF record) as a game:
/// a transcript or GGF gives its moves, a board or OBF line a start without moves.
pub fn parse_text(text: &str, size: Option<u32>, variant: &Option<String>) -> Result<(Replay, InputKind), ApiError> {
    check_len("text", text)?;
    let size = size_of(size)?;
    let variant = variant_of(variant)?;
    let r = recognize(text, size, variant).map_err(ApiError::unprocessable)?;
    let replay = r.replay.unwrap_or_else(|| Replay::new(r.position));
    Ok((replay, r.kind))
}

/// Parses a square name (`c4`) that must be a legal move of `pos`; errors name the
/// legal moves.
pub fn legal_square(pos: &Position, name: &str) -> Result<Square, ApiError> {
    let sq = Square::parse(name.trim())
        .ok_or_else(|| ApiError::unprocessable(format!("move {name:?}: expected a square such as c4")))?;
    if pos.moves() & sq.bit() == 0 && !(pos.moves() == 0 && pos.passed().moves() & sq.bit() != 0) {
        return Err(ApiError::unprocessable(format!(
            "move {sq}: {}",
            solvo_othello::formats::transcript::illegal_move_message(pos, sq)
        )));
    }
    Ok(sq)
}

/// The squares of `bits` by name.
pub fn square_names(bits: u64) -> Vec<String> {
    Square::iter(bits).map(|s| s.to_string()).collect()
}

/// One position for the page: the playable squares in reading order (`X` black, `O`
/// white, `-` empty; row 1 first), the side to move, its legal moves, disc counts,
/// empties, and black's final score once the game is over.
pub fn position_json(pos: &Position) -> Value {
    let over = pos.is_game_over();
    json!({
        "cells": board_chars(pos),
        "board": format_position(pos),
        "side": pos.side.name(),
        "moves": square_names(pos.moves()),
        "black": pos.black().count_ones(),
        "white": pos.white().count_ones(),
        "empties": pos.empties(),
        "over": over,
        "must_pass": !over && pos.moves() == 0,
        "black_score": over.then(|| pos.black_score()),
    })
}

/// A GGF record of `replay` naming the players, place (`PC`) and date (`DT`) of
/// `names` (`black` and `white` when unnamed).
pub fn ggf_record(replay: &Replay, names: &GameNames) -> String {
    let black = names.black.as_deref().unwrap_or("black");
    let white = names.white.as_deref().unwrap_or("white");
    let mut game = ggf_from_replay(replay, black, white);
    let at = game.tags.iter().position(|(n, _)| n == "TY").unwrap_or(game.tags.len());
    for (tag, value) in [("DT", &names.date), ("PC", &names.place)] {
        if let Some(v) = value {
            game.tags.insert(at, (tag.to_string(), v.clone()));
        }
    }
    format_ggf(&game)
}

/// A whole game for the page: size, variant, start board string, plies (`pa` for a
/// pass), every position (`positions[0]` the start), the transcript, the names (kept
/// by the page and sent back with the game) and a GGF record naming them.
pub fn game_json(replay: &Replay, names: &GameNames) -> Value {
    let start = replay.start;
    let mut positions = vec![position_json(&start)];
    positions.extend(replay.positions.iter().map(position_json));
    let plies: Vec<String> = replay
        .plies
        .iter()
        .map(|p| match p {
            Ply::Move(sq) => sq.to_string(),
            Ply::Pass => "pa".to_string(),
        })
        .collect();
    json!({
        "size": start.size.side(),
        "variant": start.variant.name(),
        "start": format_position(&start),
        "plies": plies,
        "positions": positions,
        "transcript": replay.transcript(PassStyle::Implicit),
        "names": names.json(),
        "ggf": ggf_record(replay, names),
    })
}

/// The name of an input kind in answers.
pub fn kind_name(kind: InputKind) -> &'static str {
    match kind {
        InputKind::Board => "board",
        InputKind::Obf => "obf",
        InputKind::Transcript => "transcript",
        InputKind::Ggf => "ggf",
    }
}
