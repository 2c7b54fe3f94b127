//! GGF (Generic Game Format) game records, as written by GGS and read by NBoard:
//!
//! ```text
//! (;GM[Othello]PC[GGS/os]PB[alice]PW[bob]TY[8]RE[-10.000]BO[8 -------- -------- --------
//! ---O*--- ---*O--- -------- -------- -------- *]B[d3//1.20]W[c3/-0.50/0.01]...;)
//! ```
//!
//! A record is `(;`, tags `NAME[value]`, then `;)`. `BO` holds the board size, its rows
//! (`-` empty, `*` black, `O` white) and the side to move; `B[...]` / `W[...]` are the
//! moves of black and white (`move/eval/time`, the move a square or `pa` for a pass);
//! `RE` is the result for black (possibly with a `:r` resigned, `:t` timeout or `:s`
//! suffix); `TY` is the game type (GGS's match type): the board side (`8`), and letters
//! `a` an anti game (the side with fewer discs wins, [`Variant::Reversed`]), `s` one
//! game of a synchro pair, `r<n>` a random start of n discs (the start is `BO`), `b` /
//! `w` a chosen colour, `k` komi. A record whose type solvo does not play (a board
//! other than 4, 6 or 8, one that differs from `BO`'s, komi, an unknown letter) is an
//! error naming the record and its `TY`. A file may hold many records separated by
//! whitespace. Inside a value, `\` takes the next character literally.
//!
//! Squares are named from the board's own top-left corner, as GGS does for every board
//! size: on 6x6 the moves are `a1`..`f6` (the top-left playable square is `a1`), on 4x4
//! `a1`..`d4`. (solvo's board strings and transcripts name the squares of small boards
//! by their place in the centre of the 8x8 grid instead; only GGF uses board-local
//! names.)

use super::board_string::parse_position;
use super::transcript::{illegal_move_message_named, Ply, Replay};
use super::ParseError;
use crate::position::{Color, Position};
use crate::size::BoardSize;
use crate::square::Square;
use crate::variant::Variant;
use std::time::Duration;

/// One game record.
///
/// Invariant after parsing: `replay` is a legal game from its start (the `BO`
/// position), passes included, and each ply was recorded under the colour that made it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GgfGame {
    /// Every tag except the moves (`B`, `W`), in the order written, values unescaped.
    pub tags: Vec<(String, String)>,
    /// The game: start = the `BO` position, plies including passes.
    pub replay: Replay,
    /// The `PB` tag (black's name), if any.
    pub black: Option<String>,
    /// The `PW` tag (white's name), if any.
    pub white: Option<String>,
    /// The `RE` tag as written (result for black, e.g. `+12.000:r`), if any.
    pub result: Option<String>,
    /// The time each ply of `replay` took, as its move's third field says
    /// (`move/eval/time`, seconds or `minutes:seconds`): one entry a ply, `None` where
    /// the record gives none or one that is not a time (an implicit pass has none).
    pub times: Vec<Option<Duration>>,
}

impl GgfGame {
    /// The value of the first tag called `name`, if any.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }
}

/// A place in the text: 1-based line and character column.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Loc {
    line: usize,
    column: usize,
}

impl Loc {
    fn error(self, message: impl Into<String>) -> ParseError {
        ParseError::at(self.line, self.column, message)
    }
}

/// A character reader that knows its line and column.
struct Cursor<'a> {
    rest: std::str::Chars<'a>,
    loc: Loc,
}

impl<'a> Cursor<'a> {
    fn new(text: &'a str) -> Cursor<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Cursor { rest: text.chars(), loc: Loc { line: 1, column: 1 } }
    }

    fn peek(&self) -> Option<char> {
        self.rest.clone().next()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.rest.next()?;
        if c == '\n' {
            self.loc = Loc { line: self.loc.line + 1, column: 1 };
        } else {
            self.loc.column += 1;
        }
        Some(c)
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(char::is_whitespace) {
            self.bump();
        }
    }
}

/// A tag as read: name, unescaped value, where the value starts.
struct RawTag {
    name: String,
    value: String,
    value_at: Loc,
}

/// Parses every game record in `text`.
///
/// `variant` is the scoring rule of games whose `TY` has no `a` (anti) flag. Errors
/// name the line and column and what was expected: text outside a record, a tag
/// without `[`, an unclosed `[` or record, a bad `BO`, a game other than Othello, a
/// game type (`TY`) solvo does not play (with the record's number), a malformed,
/// illegal or wrongly coloured move (with its move number).
pub fn parse_ggf(text: &str, variant: Variant) -> Result<Vec<GgfGame>, ParseError> {
    let mut cur = Cursor::new(text);
    let mut games = Vec::new();
    loop {
        cur.skip_whitespace();
        match cur.peek() {
            None => return Ok(games),
            Some('(') => {
                let tags = read_record(&mut cur)?;
                games.push(build_game(tags, variant, games.len() + 1)?);
            }
            Some(c) => {
                return Err(cur.loc.error(format!("unexpected {c:?} between games: expected `(;` starting a game")))
            }
        }
    }
}

/// Reads one `(; ... ;)` record (the cursor is on its `(`) into raw tags.
fn read_record(cur: &mut Cursor) -> Result<Vec<RawTag>, ParseError> {
    let open = cur.loc;
    cur.bump();
    cur.skip_whitespace();
    if cur.peek() != Some(';') {
        return Err(cur
            .loc
            .error(format!("{} after `(`: expected `;` (a game starts with `(;`)", describe(cur.peek()))));
    }
    cur.bump();
    let mut tags = Vec::new();
    loop {
        cur.skip_whitespace();
        let at = cur.loc;
        match cur.peek() {
            None => {
                return Err(at.error(format!(
                    "end of text inside the game opened at line {}, column {}: expected `;)`",
                    open.line, open.column
                )))
            }
            Some(';') => {
                cur.bump();
                cur.skip_whitespace();
                if cur.peek() != Some(')') {
                    return Err(cur
                        .loc
                        .error(format!("{} after `;`: expected `)` closing the game", describe(cur.peek()))));
                }
                cur.bump();
                return Ok(tags);
            }
            Some(')') => {
                cur.bump();
                return Ok(tags);
            }
            Some(c) if c.is_ascii_alphabetic() => tags.push(read_tag(cur)?),
            Some(c) => {
                return Err(at.error(format!("unexpected {c:?} in a game: expected a tag such as PB[name], or `;)`")))
            }
        }
    }
}

/// How a possibly missing character reads in an error message.
fn describe(c: Option<char>) -> String {
    match c {
        Some(c) => format!("{c:?}"),
        None => "end of text".to_string(),
    }
}

/// Reads `NAME[value]` (the cursor is on the first letter of the name).
fn read_tag(cur: &mut Cursor) -> Result<RawTag, ParseError> {
    let mut name = String::new();
    while let Some(c) = cur.peek().filter(char::is_ascii_alphanumeric) {
        name.push(c);
        cur.bump();
    }
    if cur.peek() != Some('[') {
        return Err(cur.loc.error(format!("{} after tag name {name}: expected `[`", describe(cur.peek()))));
    }
    let open = cur.loc;
    cur.bump();
    let value_at = cur.loc;
    let mut value = String::new();
    loop {
        match cur.bump() {
            None => {
                return Err(cur.loc.error(format!(
                    "end of text inside {name}[...] opened at line {}, column {}: expected `]`",
                    open.line, open.column
                )))
            }
            Some(']') => return Ok(RawTag { name, value, value_at }),
            Some('\\') => value.extend(cur.bump()),
            Some(c) => value.push(c),
        }
    }
}

/// Turns the raw tags of a record into a game, replaying its moves.
/// `record` is the record's 1-based number in the text (for errors).
fn build_game(raw: Vec<RawTag>, variant: Variant, record: usize) -> Result<GgfGame, ParseError> {
    let game_type = match raw.iter().find(|t| t.name == "TY") {
        Some(t) => {
            let ty = parse_game_type(&t.value)
                .map_err(|why| t.value_at.error(format!("record {record}: TY[{}]: {why}", t.value)))?;
            Some((ty, t))
        }
        None => None,
    };
    let variant = match &game_type {
        Some((ty, _)) if ty.anti => Variant::Reversed,
        _ => variant,
    };
    if let Some(gm) = raw.iter().find(|t| t.name == "GM") {
        if !gm.value.trim().eq_ignore_ascii_case("othello") {
            return Err(gm.value_at.error(format!("game {:?}: expected GM[Othello]", gm.value)));
        }
    }
    let start = match raw.iter().find(|t| t.name == "BO") {
        Some(bo) => parse_board(&bo.value, bo.value_at, variant)?,
        None => Position::start(game_type.as_ref().and_then(|(ty, _)| ty.size).unwrap_or(BoardSize::Eight), variant),
    };
    if let Some((GameType { size: Some(size), .. }, t)) = &game_type {
        if *size != start.size {
            return Err(t.value_at.error(format!(
                "record {record}: TY[{}] is a {size} game but its board (BO) is {}",
                t.value, start.size
            )));
        }
    }
    let mut replay = Replay::new(start);
    let mut tags = Vec::new();
    let mut times = Vec::new();
    let mut number = 0;
    for t in raw {
        let color = match t.name.as_str() {
            "B" => Color::Black,
            "W" => Color::White,
            _ => {
                tags.push((t.name, t.value));
                continue;
            }
        };
        number += 1;
        play_tag(&mut replay, &t, color, number)?;
        // (An implicit pass played before the move has no time.)
        times.resize(replay.plies.len() - 1, None);
        times.push(t.value.split('/').nth(2).filter(|x| !x.trim().is_empty()).and_then(parse_clock_time));
    }
    let find = |name: &str| tags.iter().find(|(n, _)| n == name).map(|(_, v): &(String, String)| v.clone());
    let (black, white, result) = (find("PB"), find("PW"), find("RE"));
    Ok(GgfGame { tags, replay, black, white, result, times })
}

/// What a `TY` game type says about the game solvo replays.
struct GameType {
    /// The board, if the type names one.
    size: Option<BoardSize>,
    /// An anti game (`a`): [`Variant::Reversed`].
    anti: bool,
}

/// Reads a `TY` game type (GGS's match type, e.g. `8`, `8a`, `s8r20`): a board side
/// and letters. What solvo plays is accepted: boards 4, 6, 8; `a` anti; `s` synchro,
/// `r<n>` random start, `b` / `w` colour (each record of those is a game from its
/// `BO`). The rest is an error saying why: another board (10, 12, 14, 88 the
/// octagon, ...), `k` komi (the result is not the disc difference), other letters.
fn parse_game_type(value: &str) -> Result<GameType, String> {
    let mut ty = GameType { size: None, anti: false };
    let mut chars = value.trim().chars().peekable();
    let digits = |chars: &mut std::iter::Peekable<std::str::Chars>| {
        let mut d = String::new();
        while let Some(c) = chars.next_if(char::is_ascii_digit) {
            d.push(c);
        }
        d
    };
    while let Some(&c) = chars.peek() {
        if c.is_ascii_digit() {
            let side = digits(&mut chars);
            if ty.size.is_some() {
                return Err(format!("a second board size {side}"));
            }
            ty.size = Some(match side.as_str() {
                "4" => BoardSize::Four,
                "6" => BoardSize::Six,
                "8" => BoardSize::Eight,
                "88" => return Err("the octagonal board (88) is not played by solvo: boards 4, 6 and 8 are".into()),
                _ => return Err(format!("a {side}x{side} board is not played by solvo: boards 4, 6 and 8 are")),
            });
            continue;
        }
        chars.next();
        match c.to_ascii_lowercase() {
            'a' => ty.anti = true,
            's' | 'b' | 'w' => {}
            'r' => {
                if digits(&mut chars).is_empty() {
                    return Err("r (random start) without its number of discs".into());
                }
            }
            'k' => return Err("komi games (k) are not played by solvo: their result is not the disc difference".into()),
            _ => {
                return Err(format!(
                    "{c:?} is not a game type solvo plays (a board size 4, 6 or 8, with a anti, s synchro, r<n> random start, b or w colour)"
                ))
            }
        }
    }
    Ok(ty)
}

/// Parses a `BO` value, `<size> <rows...> <side>`, found at `at`.
fn parse_board(value: &str, at: Loc, variant: Variant) -> Result<Position, ParseError> {
    let body = value.trim_start();
    let digits: String = body.chars().take_while(char::is_ascii_digit).collect();
    let size_at = offset_loc(at, &value[..value.len() - body.len()]);
    let size = match digits.as_str() {
        "4" => BoardSize::Four,
        "6" => BoardSize::Six,
        "8" => BoardSize::Eight,
        "" => return Err(size_at.error("BO must start with the board size: expected 4, 6 or 8")),
        d => return Err(size_at.error(format!("unsupported board size {d} in BO: expected 4, 6 or 8"))),
    };
    let rest = &body[digits.len()..];
    let rest_at = Loc { line: size_at.line, column: size_at.column + digits.len() };
    parse_position(rest, Some(size), variant).map_err(|e| {
        if e.line == 0 {
            rest_at.error(format!("bad BO: {}", e.message))
        } else {
            let e = e.shifted(rest_at.line - 1, rest_at.column - 1);
            ParseError { message: format!("bad BO: {}", e.message), ..e }
        }
    })
}

/// The place reached from `at` after the text `skipped`.
fn offset_loc(at: Loc, skipped: &str) -> Loc {
    skipped.chars().fold(at, |l, c| {
        if c == '\n' {
            Loc { line: l.line + 1, column: 1 }
        } else {
            Loc { column: l.column + 1, ..l }
        }
    })
}

/// Plays the move of a `B`/`W` tag (move number `number`) for `color`.
fn play_tag(replay: &mut Replay, tag: &RawTag, color: Color, number: usize) -> Result<(), ParseError> {
    let mv_text = tag.value.split('/').next().unwrap_or("");
    let at = offset_loc(tag.value_at, &mv_text[..mv_text.len() - mv_text.trim_start().len()]);
    let mv_text = mv_text.trim();
    let fail = |why: String| at.error(format!("move {number} ({}[{mv_text}]): {why}", tag.name));
    let size = replay.start.size;
    let ply = parse_move(mv_text, size)
        .ok_or_else(|| fail(format!("not a move: expected a square {} or pa", square_range(size))))?;
    let cur = replay.end();
    if cur.side != color {
        let implicit_pass = matches!(ply, Ply::Move(_)) && cur.moves() == 0 && !cur.is_game_over();
        if !implicit_pass {
            return Err(fail(format!("{} to move, not {color}", cur.side)));
        }
        replay.push_pass().map_err(fail)?;
    }
    if let Ply::Move(sq) = ply {
        let pos = replay.end();
        if pos.play(sq).is_none() {
            return Err(fail(illegal_move_message_named(&pos, sq, &|s| move_name(Ply::Move(s), size))));
        }
    }
    replay.push(ply).map_err(fail)
}

/// A move name: a square named on the `size` board itself (`a1` its top-left), or
/// `pa` / `ps` / `pass` (any case). `None` for anything else (a square off the board
/// included). Protocols (NBoard, GTP) name squares the same way.
pub fn parse_move(text: &str, size: BoardSize) -> Option<Ply> {
    if ["pa", "ps", "pass"].iter().any(|p| text.eq_ignore_ascii_case(p)) {
        return Some(Ply::Pass);
    }
    let local = Square::parse(text)?;
    let side = size.side();
    if local.row() >= side || local.col() >= side {
        return None;
    }
    Some(Ply::Move(Square::from_row_col(local.row() + size.offset(), local.col() + size.offset())))
}

/// The GGF name of `ply` on a `size` board: the square from the board's own top-left
/// (`a1`), or `pa`. [`parse_move`] reads it back.
pub fn move_name(ply: Ply, size: BoardSize) -> String {
    match ply {
        Ply::Pass => "pa".to_string(),
        Ply::Move(sq) => {
            let local = Square::from_row_col(sq.row() - size.offset(), sq.col() - size.offset());
            local.to_string()
        }
    }
}

/// The squares of a `size` board in GGF, for messages: `a1..f6` on 6x6.
fn square_range(size: BoardSize) -> String {
    let last = Square::from_row_col(size.side() - 1, size.side() - 1);
    format!("a1..{last}")
}

/// Writes a game on one line: `(;` then the tags in order, then the plies as `B[..]`
/// / `W[..]` by the colour that made each (squares lower case and named on the board
/// itself, `a1` at its top-left; passes `pa`; a ply with a time in `times` as
/// `move//seconds`, to the millisecond), then `;)`.
///
/// `BO` is always written from `replay.start` (in place of the `BO` tag, or after the
/// tags if there is none), and `GM[Othello]` is put first if missing; other tags are
/// written as they are, with `]` and `\` escaped (names are expected to be ASCII letters
/// and digits other than `B` and `W`, as parsing gives them). The `black`, `white` and `result`
/// fields are not consulted: the tags are the record. [`parse_ggf`] gives back the
/// same tags, replay and times to the millisecond (for an anti `TY`, with
/// [`Variant::Reversed`]).
pub fn format_ggf(game: &GgfGame) -> String {
    let mut out = String::from("(;");
    if !game.tags.iter().any(|(n, _)| n == "GM") {
        out.push_str("GM[Othello]");
    }
    for (name, value) in &game.tags {
        if name == "BO" {
            out.push_str(&format!("BO[{}]", board_value(&game.replay.start)));
        } else {
            out.push_str(&format!("{name}[{}]", escape(value)));
        }
    }
    if !game.tags.iter().any(|(n, _)| n == "BO") {
        out.push_str(&format!("BO[{}]", board_value(&game.replay.start)));
    }
    let mut side = game.replay.start.side;
    for (i, (ply, pos)) in game.replay.plies.iter().zip(&game.replay.positions).enumerate() {
        let tag = match side {
            Color::Black => 'B',
            Color::White => 'W',
        };
        let time = match game.times.get(i) {
            Some(Some(t)) => format!("//{:.3}", t.as_secs_f64()),
            _ => String::new(),
        };
        out.push_str(&format!("{tag}[{}{time}]", move_name(*ply, game.replay.start.size)));
        side = pos.side;
    }
    out.push_str(";)");
    out
}

/// A GGF clock value (`TI`, `TB`, `TW`): `main[/increment[/extension]]`, each time
/// `[[days.]hours:]minutes:seconds` or plain seconds (an empty part is 0), as GGS and
/// NBoard write them (`15:00`, `05:00//02:00`). Returns the main time and the
/// increment; `None` for anything else.
pub fn parse_ggf_clock(value: &str) -> Option<(Duration, Duration)> {
    let mut parts = value.trim().split('/');
    let main = parse_clock_time(parts.next()?)?;
    let increment = parts.next().map_or(Some(Duration::ZERO), parse_clock_time)?;
    let extension = parts.next().map_or(Some(Duration::ZERO), parse_clock_time);
    (extension.is_some() && parts.next().is_none()).then_some((main, increment))
}

/// One time of a GGF clock (see [`parse_ggf_clock`]); an empty text is 0.
fn parse_clock_time(text: &str) -> Option<Duration> {
    let text = text.trim();
    if text.is_empty() {
        return Some(Duration::ZERO);
    }
    let (days, rest) = match text.split_once('.') {
        Some((d, rest)) if rest.contains(':') => (d.parse::<u64>().ok()?, rest),
        _ => (0, text),
    };
    let fields: Vec<&str> = rest.split(':').collect();
    if fields.len() > 3 {
        return None;
    }
    let (seconds, whole) = fields.split_last()?;
    let seconds: f64 = seconds.parse().ok().filter(|s: &f64| s.is_finite() && *s >= 0.0)?;
    let mut total = days as f64 * 86_400.0 + seconds;
    for (field, unit) in whole.iter().rev().zip([60.0, 3_600.0]) {
        total += field.parse::<u64>().ok()? as f64 * unit;
    }
    // At most a year: a clock beyond that is no time control.
    (total <= 366.0 * 86_400.0).then(|| Duration::from_secs_f64(total))
}

/// A time as a GGF clock value: whole `minutes:seconds` (as NBoard writes it and
/// engines read it), rounded down, at least a second. [`parse_ggf_clock`] reads it
/// back.
pub fn format_ggf_clock(t: Duration) -> String {
    let s = t.as_secs().max(1);
    format!("{}:{:02}", s / 60, s % 60)
}

/// `]` and `\` preceded by `\`, so the value reads back unchanged.
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        if c == ']' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// The `BO` value of a position: size, rows (`-`, `*`, `O`), side (`*` or `O`).
fn board_value(pos: &Position) -> String {
    let side = pos.size.side() as usize;
    let cells: Vec<char> = pos
        .size
        .squares_in_order()
        .map(|sq| match () {
            _ if pos.black() & sq.bit() != 0 => '*',
            _ if pos.white() & sq.bit() != 0 => 'O',
            _ => '-',
        })
        .collect();
    let mut out = side.to_string();
    for row in cells.chunks(side) {
        out.push(' ');
        out.extend(row);
    }
    out.push(' ');
    out.push(match pos.side {
        Color::Black => '*',
        Color::White => 'O',
    });
    out
}

/// A record of `replay` between `black` and `white`, with the tags `GM`, `PB`, `PW`,
/// `TY` (the board side, plus `a` for [`Variant::Reversed`]), `RE` when the game is
/// over (black's final score under the variant, signed, e.g. `+4` or `-10`) and `BO`.
pub fn ggf_from_replay(replay: &Replay, black: &str, white: &str) -> GgfGame {
    let start = replay.start;
    let anti = if start.variant == Variant::Reversed { "a" } else { "" };
    let end = replay.end();
    let result = end.is_game_over().then(|| format!("{:+}", end.black_score()));
    let mut tags = vec![
        ("GM".to_string(), "Othello".to_string()),
        ("PB".to_string(), black.to_string()),
        ("PW".to_string(), white.to_string()),
        ("TY".to_string(), format!("{}{anti}", start.size.side())),
    ];
    if let Some(re) = &result {
        tags.push(("RE".to_string(), re.clone()));
    }
    tags.push(("BO".to_string(), board_value(&start)));
    let (black, white) = (Some(black.to_string()), Some(white.to_string()));
    GgfGame { tags, replay: replay.clone(), black, white, result, times: vec![None; replay.plies.len()] }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::transcript::parse_transcript;

    const START_BO: &str = "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]";

    #[test]
    fn clocks_read_as_ggs_and_nboard_write_them_and_read_back() {
        let secs = Duration::from_secs;
        assert_eq!(parse_ggf_clock("15:00"), Some((secs(900), secs(0))));
        assert_eq!(parse_ggf_clock("05:00//02:00"), Some((secs(300), secs(0))));
        assert_eq!(parse_ggf_clock("5:00/10/2:00"), Some((secs(300), secs(10))));
        assert_eq!(parse_ggf_clock("1.02:00:30"), Some((secs(86_400 + 7_230), secs(0))));
        assert_eq!(parse_ggf_clock("0"), Some((secs(0), secs(0))));
        for bad in ["x", "1:2:3:4", "5:00/x", "-1", "1/2/3/4", "99999999:00"] {
            assert_eq!(parse_ggf_clock(bad), None, "{bad}");
        }
        assert_eq!(format_ggf_clock(Duration::from_millis(61_500)), "1:01");
        assert_eq!(format_ggf_clock(Duration::from_millis(300)), "0:01");
        assert_eq!(parse_ggf_clock(&format_ggf_clock(secs(900))), Some((secs(900), secs(0))));
    }

    #[test]
    fn parses_a_ggs_record() {
        let text = format!(
            "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[player1]PW[player2]RB[2197.72]\n\
             RW[2413.57]TI[05:00//02:00]TY[8]RE[-10.000:r]{START_BO}B[f5//1.20]W[D6/-0.50/0.01]B[c3];)"
        );
        let games = parse_ggf(&text, Variant::Normal).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.black.as_deref(), Some("player1"));
        assert_eq!(g.white.as_deref(), Some("player2"));
        assert_eq!(g.result.as_deref(), Some("-10.000:r"));
        assert_eq!(g.tag("TI"), Some("05:00//02:00"));
        assert_eq!(g.tags.len(), 11);
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        assert_eq!(g.replay, parse_transcript("f5d6c3", &start).unwrap());
        let ms = Duration::from_millis;
        assert_eq!(g.times, [Some(ms(1200)), Some(ms(10)), None]);
        let again = parse_ggf(&format_ggf(g), Variant::Normal).unwrap();
        assert_eq!(again, games);
        // A time that is not one is no time.
        let odd = format!("(;{START_BO}B[f5//x]W[d6//1:02.5];)");
        assert_eq!(parse_ggf(&odd, Variant::Normal).unwrap()[0].times, [None, Some(ms(62_500))]);
    }

    #[test]
    fn anti_small_boards_and_escapes() {
        let start = Position::start(BoardSize::Six, Variant::Reversed);
        let replay = parse_transcript("c4c3", &start).unwrap();
        let g = ggf_from_replay(&replay, "a]b\\c", "w");
        let text = format_ggf(&g);
        assert!(
            text.contains("TY[6a]") && text.contains("BO[6 ------ ------ --O*-- --*O-- ------ ------ *]"),
            "{text}"
        );
        assert!(text.contains("B[b3]W[b2]"), "6x6 moves are named on the 6x6 board: {text}");
        let back = parse_ggf(&format!("\n{text}\n\n{text}\n"), Variant::Normal).unwrap();
        assert_eq!(back.len(), 2);
        assert_eq!(back[0], g);
    }

    #[test]
    fn game_types_solvo_plays_are_read_and_the_others_refused_by_record() {
        let record = |ty: &str, bo: &str| format!("(;GM[Othello]TY[{ty}]{bo}B[f5];)");
        for (ty, variant) in
            [("8", Variant::Normal), ("8a", Variant::Reversed), ("s8r20", Variant::Normal), ("8b", Variant::Normal)]
        {
            let games = parse_ggf(&record(ty, START_BO), Variant::Normal).unwrap_or_else(|e| panic!("TY[{ty}]: {e}"));
            assert_eq!(games[0].replay.start.variant, variant, "TY[{ty}]");
        }
        // Without BO the type's board is the start.
        let six = parse_ggf("(;TY[6];)", Variant::Normal).unwrap();
        assert_eq!(six[0].replay.start.size, BoardSize::Six);
        for (ty, what) in [
            ("9", "9x9 board"),
            ("10", "10x10 board"),
            ("88", "octagonal"),
            ("6", "is a 6x6 game but its board (BO) is 8x8"),
            ("8k", "komi"),
            ("8x", "'x' is not a game type"),
            ("8r", "without its number of discs"),
        ] {
            let text = format!("{}\n{}", record("8", START_BO), record(ty, START_BO));
            let e = parse_ggf(&text, Variant::Normal).expect_err(ty);
            assert!(e.message.contains(&format!("record 2: TY[{ty}]")) && e.message.contains(what), "TY[{ty}]: {e}");
            assert_eq!((e.line, e.column), (2, 17), "TY[{ty}]: {e}");
        }
    }

    #[test]
    fn errors_say_where() {
        let cases: [(&str, (usize, usize), &str); 9] = [
            ("x", (1, 1), "between games"),
            ("(GM[Othello];)", (1, 2), "expected `;`"),
            ("(;GM[Othello]", (1, 14), "expected `;)`"),
            ("(;GM[Othello;)", (1, 15), "expected `]`"),
            ("(;GM Othello];)", (1, 5), "expected `[`"),
            ("(;GM[Chess];)", (1, 6), "GM[Othello]"),
            ("(;BO[10 *];)", (1, 6), "unsupported board size 10"),
            ("(;B[f5]\nW[a1];)", (2, 3), "move 2 (W[a1]): illegal move a1"),
            ("(;W[f5];)", (1, 5), "black to move"),
        ];
        for (text, (line, column), what) in cases {
            let Err(e) = parse_ggf(text, Variant::Normal) else { panic!("{text} parsed") };
            assert_eq!((e.line, e.column), (line, column), "{text}: {e}");
            assert!(e.message.contains(what), "{text}: {e}");
        }
        let e = parse_ggf(
            "(;BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------Z *];)",
            Variant::Normal,
        )
        .unwrap_err();
        assert_eq!((e.line, e.column), (1, 78), "{e}");
    }
}
