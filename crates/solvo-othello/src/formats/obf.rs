//! OBF problem lines (Edax / FFO test suites): a position, then scored moves.
//!
//! ```text
//! <board> <side>; <move>:<score>; <move>:<score>; ...
//! ```
//!
//! The board and side are a board string (see [`super::board_string`]): 64 characters
//! (or 36 / 16 for the small boards, or 64 with a small game in the centre when the
//! size is given), then `X` or `O`. Each `;`-terminated field is either `MOVE:SCORE`
//! (a square in either case, or `PS` / `PA` for a pass) or a bare `SCORE`, the value of
//! the position itself. Scores are signed integers, the exact final disc difference for
//! the side to move.
//!
//! The variants Edax writes and reads are accepted too: the terminator entry `--:-127;`
//! (Edax's "no move", with any score) ends the list and is not a move; `%` (Edax) or `#`
//! starts a comment that runs to the end of the line, on a line of its own or after
//! the fields; lines may end in CRLF; blank lines are skipped.

use super::board_string::{board_chars_64, parse_position};
use super::transcript::{illegal_move_message, Ply};
use super::ParseError;
use crate::position::Position;
use crate::size::BoardSize;
use crate::square::Square;
use crate::variant::Variant;

/// One OBF problem: a position and the scores given for some of its moves and/or for
/// the position itself.
///
/// Invariant after parsing: every listed move is legal in `position` (a pass only when
/// the side to move has no move and the game is not over), no move is listed twice,
/// and every score lies in `[-n, n]` for the `n` squares of the board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ObfProblem {
    /// The position to solve.
    pub position: Position,
    /// Scored moves in the order they were listed (final disc difference for the side
    /// to move after that move and perfect play).
    pub move_scores: Vec<(Ply, i32)>,
    /// The score of the position itself, when the line carries a bare `; <score>;`.
    pub position_score: Option<i32>,
}

impl ObfProblem {
    /// The value of the position: the best listed move score, or else the position
    /// score; `None` when the line lists neither.
    pub fn best_score(&self) -> Option<i32> {
        self.move_scores.iter().map(|&(_, s)| s).max().or(self.position_score)
    }

    /// Checks a solver's answer (`score` when exact, `best_move`, `None` for a pass)
    /// against the line: (the score is the best listed, the move is listed with it);
    /// `None` when the line lists no score.
    pub fn check(&self, score: Option<i32>, best_move: Option<Square>) -> Option<(bool, bool)> {
        let expected = self.best_score()?;
        let best = self.best_moves();
        let move_ok = match best_move {
            Some(m) => best.contains(&Ply::Move(m)),
            None => best.is_empty() || best.contains(&Ply::Pass),
        };
        Some((score == Some(expected), move_ok))
    }

    /// The listed moves that reach the best listed move score, in listed order (empty
    /// when no move is listed).
    pub fn best_moves(&self) -> Vec<Ply> {
        let Some(best) = self.move_scores.iter().map(|&(_, s)| s).max() else {
            return Vec::new();
        };
        self.move_scores.iter().filter(|&&(_, s)| s == best).map(|&(p, _)| p).collect()
    }
}

/// Parses one OBF line (no comment handling: see [`parse_obf`]).
///
/// `size` and `variant` are as for [`parse_position`]. Errors are on line 1 and name
/// the column of the offending character or field and what was expected: a bad board
/// or side, a field that is not `MOVE:SCORE` or `SCORE`, an illegal or repeated move,
/// a score that is not an integer in range.
pub fn parse_obf_line(line: &str, size: Option<BoardSize>, variant: Variant) -> Result<ObfProblem, ParseError> {
    let line = without_comment(line);
    let (head, rest) = match line.find(';') {
        Some(i) => (&line[..i], Some((i + 1, &line[i + 1..]))),
        None => (line, None),
    };
    let position = parse_position(head, size, variant).map_err(|e| locate_general(e, line))?;
    let mut problem = ObfProblem { position, move_scores: Vec::new(), position_score: None };
    let Some((mut offset, mut rest)) = rest else {
        return Ok(problem);
    };
    loop {
        let (field, next) = match rest.find(';') {
            Some(i) => (&rest[..i], Some(&rest[i + 1..])),
            None => (rest, None),
        };
        add_field(&mut problem, field, column_of(line, offset))?;
        match next {
            Some(n) => {
                offset += field.len() + 1;
                rest = n;
            }
            None => return Ok(problem),
        }
    }
}

/// `line` up to its comment (from the first `%` or `#`), if any.
fn without_comment(line: &str) -> &str {
    line.find(['%', '#']).map_or(line, |i| &line[..i])
}

/// Whether a `MOVE` is Edax's "no move" (`--`), which with its score only terminates
/// the list.
fn is_terminator(mv: &str) -> bool {
    mv == "--"
}

/// Gives an error not tied to a place (e.g. a wrong square count) the line's first
/// non-blank column, so every OBF error has a location.
fn locate_general(e: ParseError, line: &str) -> ParseError {
    if e.line != 0 {
        return e;
    }
    let column = line.chars().position(|c| !c.is_whitespace()).map_or(1, |i| i + 1);
    ParseError::at(1, column, e.message)
}

/// The 1-based character column of byte offset `byte` (a char boundary) of `line`.
fn column_of(line: &str, byte: usize) -> usize {
    line.get(..byte).map_or(0, |s| s.chars().count()) + 1
}

/// Adds one `;`-separated field, which starts at character column `column`.
fn add_field(problem: &mut ObfProblem, field: &str, column: usize) -> Result<(), ParseError> {
    let lead = field.chars().take_while(|c| c.is_whitespace()).count();
    let text = field.trim();
    if text.is_empty() {
        return Ok(());
    }
    let start = column + lead;
    let max = problem.position.size.squares() as i32;
    match text.split_once(':') {
        None => {
            let score = parse_score(text, max, start)?;
            if problem.position_score.is_some() {
                return Err(ParseError::at(1, start, "a second position score: expected at most one bare score"));
            }
            problem.position_score = Some(score);
        }
        Some((mv, score)) => {
            let mv_text = mv.trim_end();
            if is_terminator(mv_text) {
                let score_lead = score.chars().take_while(|c| c.is_whitespace()).count();
                let score_column = start + mv.chars().count() + 1 + score_lead;
                let digits = score.trim().strip_prefix(['+', '-']).unwrap_or(score.trim());
                if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
                    return Err(ParseError::at(
                        1,
                        score_column,
                        format!("{:?} is not a score: expected an integer after the terminator --:", score.trim()),
                    ));
                }
                return Ok(());
            }
            let ply = parse_ply(&problem.position, mv_text, start)?;
            if problem.move_scores.iter().any(|&(p, _)| p == ply) {
                return Err(ParseError::at(1, start, format!("move {mv_text} listed twice")));
            }
            let score_lead = score.chars().take_while(|c| c.is_whitespace()).count();
            let score_column = start + mv.chars().count() + 1 + score_lead;
            let score = parse_score(score.trim(), max, score_column)?;
            problem.move_scores.push((ply, score));
        }
    }
    Ok(())
}

/// A move of a `MOVE:SCORE` field, checked to be legal in `pos`.
fn parse_ply(pos: &Position, text: &str, column: usize) -> Result<Ply, ParseError> {
    let at = |msg: String| ParseError::at(1, column, msg);
    if text.eq_ignore_ascii_case("ps") || text.eq_ignore_ascii_case("pa") {
        if pos.moves() != 0 {
            return Err(at(format!("pass listed but {} has legal moves", pos.side)));
        }
        if pos.is_game_over() {
            return Err(at("pass listed but the game is over".to_string()));
        }
        return Ok(Ply::Pass);
    }
    let Some(sq) = Square::parse(text) else {
        return Err(at(format!("{text:?} is not a move: expected a square a1..h8, or PS for a pass, before ':'")));
    };
    if pos.moves() & sq.bit() == 0 {
        return Err(at(illegal_move_message(pos, sq)));
    }
    Ok(Ply::Move(sq))
}

/// A signed integer score in `[-max, max]`.
fn parse_score(text: &str, max: i32, column: usize) -> Result<i32, ParseError> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    let value = if !digits.is_empty() && digits.len() <= 4 && digits.bytes().all(|b| b.is_ascii_digit()) {
        text.parse::<i32>().ok()
    } else {
        None
    };
    match value {
        Some(v) if (-max..=max).contains(&v) => Ok(v),
        Some(v) => Err(ParseError::at(1, column, format!("score {v} out of range: expected -{max}..{max}"))),
        None => Err(ParseError::at(
            1,
            column,
            format!("{text:?} is not a score: expected a signed integer such as +38, -2 or 0"),
        )),
    }
}

/// Parses an OBF file: one problem per line, skipping blank lines and comments (`%` or
/// `#` to the end of the line), with LF or CRLF line ends and an optional UTF-8
/// byte-order mark.
/// Returns each problem with its 1-based line number. Errors carry the line number in
/// the file and the column in that line.
pub fn parse_obf(
    text: &str,
    size: Option<BoardSize>,
    variant: Variant,
) -> Result<Vec<(usize, ObfProblem)>, ParseError> {
    let mut out = Vec::new();
    // A UTF-8 byte-order mark (as some editors write) is not part of the first line.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, line) in text.split('\n').enumerate() {
        if without_comment(line).trim().is_empty() {
            continue;
        }
        let problem = parse_obf_line(line, size, variant).map_err(|e| e.shifted(i, 0))?;
        out.push((i + 1, problem));
    }
    Ok(out)
}

/// Writes a problem in Edax style: the 64 board characters (a 6x6 or 4x4 game in the
/// centre of the 8x8 grid), the side, then position score and moves, each as ` X;`
/// fields: `... X; A2:+38; C7:+36;`. Moves are upper case, passes `PS`, scores signed
/// (`+0` for zero). [`parse_obf_line`] with the position's size gives the problem back.
pub fn format_obf(problem: &ObfProblem) -> String {
    let pos = &problem.position;
    let mut out = format!("{} {};", board_chars_64(pos), pos.side.letter());
    if let Some(score) = problem.position_score {
        out.push_str(&format!(" {score:+};"));
    }
    for &(ply, score) in &problem.move_scores {
        let mv = match ply {
            Ply::Move(sq) => sq.to_string().to_ascii_uppercase(),
            Ply::Pass => "PS".to_string(),
        };
        out.push_str(&format!(" {mv}:{score:+};"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const FFO40: &str = "O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38; C7:+36; D8:+34;";

    fn sq(name: &str) -> Ply {
        Ply::Move(Square::parse(name).unwrap())
    }

    #[test]
    fn parses_scored_moves_and_best() {
        let p = parse_obf_line(FFO40, None, Variant::Normal).unwrap();
        assert_eq!(p.move_scores, vec![(sq("a2"), 38), (sq("c7"), 36), (sq("d8"), 34)]);
        assert_eq!(p.best_score(), Some(38));
        assert_eq!(p.best_moves(), vec![sq("a2")]);
        assert_eq!(p.position.empties(), 20);
        assert_eq!(parse_obf_line(&format_obf(&p), None, Variant::Normal).unwrap(), p);
    }

    #[test]
    fn a_file_with_a_byte_order_mark_reads_as_without() {
        let plain = format!("{FFO40}\n% a comment\n{FFO40}\n");
        let marked = format!("\u{feff}{plain}");
        assert_eq!(
            parse_obf(&marked, None, Variant::Normal).unwrap(),
            parse_obf(&plain, None, Variant::Normal).unwrap()
        );
    }

    #[test]
    fn position_score_only_and_bare_positions() {
        let start = "---------------------------OX------XO--------------------------- X";
        let p = parse_obf_line(&format!("{start}; -2;"), None, Variant::Normal).unwrap();
        assert_eq!((p.position_score, p.best_score(), p.best_moves()), (Some(-2), Some(-2), vec![]));
        let p = parse_obf_line(start, None, Variant::Normal).unwrap();
        assert_eq!((p.position_score, p.best_score()), (None, None));
        assert_eq!(format_obf(&p), format!("{start};"));
    }

    #[test]
    fn small_boards_are_written_in_the_centre() {
        let start = Position::start(BoardSize::Six, Variant::Normal);
        let p = ObfProblem { position: start, move_scores: vec![(sq("c4"), -4)], position_score: Some(-4) };
        let text = format_obf(&p);
        assert!(text.starts_with("---------------------------OX------XO--------------------------- X;"), "{text}");
        assert_eq!(parse_obf_line(&text, Some(BoardSize::Six), Variant::Normal).unwrap(), p);
    }

    #[test]
    fn errors_name_the_column() {
        let cases = [
            (FFO40.replace("A2:+38", "A1:+38"), 69, "illegal move a1"),
            (FFO40.replace("A2:+38", "A2:+70"), 72, "out of range"),
            (FFO40.replace("A2:+38", "A2:x"), 72, "not a score"),
            (FFO40.replace("A2:+38", "Z9:+38"), 69, "not a move"),
            (FFO40.replace("A2:+38", "PS:+38"), 69, "legal moves"),
            (FFO40.replace("C7:+36", "A2:+36"), 77, "twice"),
            (FFO40.replace(" X;", " Q;"), 66, "expected a disc"),
        ];
        for (line, column, what) in cases {
            let e = parse_obf_line(&line, None, Variant::Normal).unwrap_err();
            assert_eq!((e.line, e.column), (1, column), "{line}: {e}");
            assert!(e.message.contains(what), "{e}");
        }
        let e = parse_obf_line("  XO-- X; A1:+2;", None, Variant::Normal).unwrap_err();
        assert_eq!((e.line, e.column), (1, 9), "{e}");
    }

    #[test]
    fn files_skip_comments_and_number_lines() {
        let text = format!("% comment\n\n{FFO40}\r\n  \n{}", FFO40.replace("D8", "H8"));
        let e = parse_obf(&text, None, Variant::Normal).unwrap_err();
        assert_eq!(e.line, 5);
        let ok = parse_obf(&text[..text.rfind('\n').unwrap()], None, Variant::Normal).unwrap();
        assert_eq!(ok.len(), 1);
        assert_eq!(ok[0].0, 3);
    }
}
