//! Board strings: one character per playable square in reading order (a1, b1, ...,
//! h1, a2, ...), then the side to move.
//!
//! Characters (case-insensitive): `X`, `*`, `B` black; `O`, `W` white; `-`, `.`
//! empty. Whitespace anywhere is ignored, so a board may be written as 8 lines of 8.
//! 64 board characters mean 8x8, 36 mean 6x6 (b2..g7) and 16 mean 4x4 (c3..f6); a
//! 64-character string may also hold a 6x6 or 4x4 game in its centre when the size
//! is given (the form Edax-style tools and the published 6x6 tables use).

use super::ParseError;
use crate::position::{Color, Position};
use crate::size::BoardSize;
use crate::square::Square;
use crate::variant::Variant;

/// What a board character stands for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Cell {
    Black,
    White,
    Empty,
}

fn cell_of(c: char) -> Option<Cell> {
    match c.to_ascii_uppercase() {
        'X' | '*' | 'B' => Some(Cell::Black),
        'O' | 'W' => Some(Cell::White),
        '-' | '.' => Some(Cell::Empty),
        _ => None,
    }
}

/// A non-whitespace character with its 1-based line and column.
struct Located {
    ch: char,
    line: usize,
    column: usize,
}

fn located_chars(text: &str) -> Vec<Located> {
    let mut out = Vec::new();
    for (li, line) in text.split('\n').enumerate() {
        for (ci, ch) in line.chars().enumerate() {
            if !ch.is_whitespace() {
                out.push(Located { ch, line: li + 1, column: ci + 1 });
            }
        }
    }
    out
}

/// Parses a board string with its side to move.
///
/// `size`: `None` infers it from the number of board characters (64, 36, 16); `Some`
/// also accepts a 64-character 8x8 grid holding a smaller game in its centre (the
/// squares outside it must then be empty). Errors name the line and column of the
/// first offending character and what was expected there.
pub fn parse_position(text: &str, size: Option<BoardSize>, variant: Variant) -> Result<Position, ParseError> {
    let chars = located_chars(text);
    for c in &chars {
        if cell_of(c.ch).is_none() {
            return Err(ParseError::at(
                c.line,
                c.column,
                format!("unexpected character {:?}: expected a disc (X * B black, O W white, - . empty)", c.ch),
            ));
        }
    }
    let n = chars.len();
    let board_len = n.saturating_sub(1);
    let grid_size = BoardSize::from_square_count(board_len);
    let (grid, game_size) = match (grid_size, size) {
        (Some(g), None) => (g, g),
        (Some(BoardSize::Eight), Some(s)) => (BoardSize::Eight, s),
        (Some(g), Some(s)) if g == s => (g, g),
        (Some(g), Some(s)) => {
            return Err(ParseError::general(format!(
                "the board has {board_len} squares ({g}) but the size given is {s}: \
                 expected {} characters (or 64 with the game in the centre)",
                s.squares()
            )))
        }
        (None, _) => {
            let (line, column) = chars.last().map_or((1, 1), |c| (c.line, c.column + 1));
            let msg = match BoardSize::from_square_count(n) {
                Some(s) => format!("missing the side to move (X or O) after the {n} squares of a {s} board"),
                None => format!(
                    "found {n} characters: expected 64, 36 or 16 board characters (8x8, 6x6, 4x4) \
                     followed by the side to move"
                ),
            };
            return Err(ParseError::at(line, column, msg));
        }
    };
    let (mut black, mut white) = (0u64, 0u64);
    for (c, sq) in chars.iter().zip(grid.squares_in_order()) {
        let bit = sq.bit();
        match cell_of(c.ch) {
            Some(Cell::Empty) | None => continue,
            Some(_) if bit & game_size.mask() == 0 => {
                return Err(ParseError::at(
                    c.line,
                    c.column,
                    format!("disc on {sq}, outside the {game_size} board in the centre: expected empty"),
                ))
            }
            Some(Cell::Black) => black |= bit,
            Some(Cell::White) => white |= bit,
        }
    }
    let side_char = &chars[n - 1];
    let side = match cell_of(side_char.ch) {
        Some(Cell::Black) => Color::Black,
        Some(Cell::White) => Color::White,
        _ => {
            return Err(ParseError::at(
                side_char.line,
                side_char.column,
                format!("unexpected {:?} as the side to move: expected X (black) or O (white)", side_char.ch),
            ))
        }
    };
    Ok(Position::from_colors(black, white, side, game_size, variant).expect("disjoint discs on playable squares"))
}

/// The board characters (`X`, `O`, `-`) of the playable squares, no side.
pub fn board_chars(pos: &Position) -> String {
    chars_over(pos, pos.size)
}

/// The 64 board characters of the whole 8x8 grid (a smaller game sits in the centre).
pub fn board_chars_64(pos: &Position) -> String {
    chars_over(pos, BoardSize::Eight)
}

fn chars_over(pos: &Position, grid: BoardSize) -> String {
    let (black, white) = (pos.black(), pos.white());
    grid.squares_in_order()
        .map(|sq| match () {
            _ if black & sq.bit() != 0 => 'X',
            _ if white & sq.bit() != 0 => 'O',
            _ => '-',
        })
        .collect()
}

/// The board string of the playable squares and the side: `<N chars> <X|O>`.
/// Parsing it back gives the same position.
pub fn format_position(pos: &Position) -> String {
    format!("{} {}", board_chars(pos), pos.side.letter())
}

/// A diagram for people: coordinates around the board, `*` black, `O` white, `.` a
/// legal move of the side to move, `-` other empty squares; then the disc counts and
/// the side to move.
pub fn diagram(pos: &Position) -> String {
    let (off, side) = (pos.size.offset(), pos.size.side());
    let moves = pos.moves();
    let files: String = (0..side).map(|c| format!(" {}", (b'a' + off + c) as char)).collect();
    let mut out = format!(" {files}\n");
    for r in 0..side {
        let rank = off + r + 1;
        out.push_str(&rank.to_string());
        for c in 0..side {
            let sq = Square::from_row_col(off + r, off + c);
            let ch = if pos.black() & sq.bit() != 0 {
                '*'
            } else if pos.white() & sq.bit() != 0 {
                'O'
            } else if moves & sq.bit() != 0 {
                '.'
            } else {
                '-'
            };
            out.push(' ');
            out.push(ch);
        }
        out.push_str(&format!(" {rank}\n"));
    }
    out.push_str(&format!(" {files}\n"));
    out.push_str(&format!(
        "black (*) {}  white (O) {}  empties {}\n",
        pos.black().count_ones(),
        pos.white().count_ones(),
        pos.empties()
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const START_64: &str = "---------------------------OX------XO--------------------------- X";

    #[test]
    fn parses_the_start_in_every_size_and_form() {
        let p = parse_position(START_64, None, Variant::Normal).unwrap();
        assert_eq!(p, Position::start(BoardSize::Eight, Variant::Normal));
        let p6 = parse_position(START_64, Some(BoardSize::Six), Variant::Normal).unwrap();
        assert_eq!(p6, Position::start(BoardSize::Six, Variant::Normal));
        let s36 = format_position(&p6);
        assert_eq!(s36.len(), 38);
        assert_eq!(parse_position(&s36, None, Variant::Normal).unwrap(), p6);
        let p4 = Position::start(BoardSize::Four, Variant::Normal);
        assert_eq!(format_position(&p4), "-----OX--XO----- X");
        assert_eq!(parse_position("---- -ox- -xo- ----  b", None, Variant::Normal).unwrap(), p4);
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse_position("--------\n---Z", None, Variant::Normal).unwrap_err();
        assert_eq!((e.line, e.column), (2, 4));
        let e = parse_position(&START_64[..64], None, Variant::Normal).unwrap_err();
        assert!(e.message.contains("missing the side"), "{e}");
        let e = parse_position("X O", None, Variant::Normal).unwrap_err();
        assert!(e.message.contains("found 2"), "{e}");
        let e = parse_position(
            "X--------------------------------------------------------------- X",
            Some(BoardSize::Six),
            Variant::Normal,
        )
        .unwrap_err();
        assert!(e.message.contains("outside the 6x6"), "{e}");
        let e = parse_position("-----OX--XO----- -", None, Variant::Normal).unwrap_err();
        assert!(e.message.contains("side to move"), "{e}");
    }
}
