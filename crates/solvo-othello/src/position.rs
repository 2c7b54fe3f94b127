//! A complete game position: board, colours, size and variant. Implements
//! [`solvo_core::Game`].

use crate::board::Board;
use crate::hash::hash_board;
use crate::size::BoardSize;
use crate::square::Square;
use crate::variant::Variant;
use serde::{Deserialize, Serialize};
use solvo_core::{Game, Status};
use std::fmt;

/// A side: black moves first.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Color {
    /// The first player (`X`, `*`, `B` in board strings).
    Black,
    /// The second player (`O`, `W`).
    White,
}

impl Color {
    /// The other side.
    #[inline]
    pub const fn opposite(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// `X` for black, `O` for white (OBF / Edax convention).
    pub const fn letter(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
        }
    }

    /// `black` or `white`.
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A position of a game: the colour-less [`Board`] plus which colour is to move, the
/// board size and the scoring variant.
///
/// Invariant: the discs lie on the playable squares of `size`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    /// Discs of the side to move and of its opponent.
    pub board: Board,
    /// The colour of the side to move.
    pub side: Color,
    /// The board size.
    pub size: BoardSize,
    /// The scoring rule.
    pub variant: Variant,
}

impl Position {
    /// The standard starting position (black to move).
    pub const fn start(size: BoardSize, variant: Variant) -> Position {
        Position { board: Board::start(), side: Color::Black, size, variant }
    }

    /// A position from black's and white's discs; `None` if they overlap or leave
    /// the playable squares of `size`.
    pub fn from_colors(black: u64, white: u64, side: Color, size: BoardSize, variant: Variant) -> Option<Position> {
        if black & white != 0 || (black | white) & !size.mask() != 0 {
            return None;
        }
        let board = match side {
            Color::Black => Board { player: black, opponent: white },
            Color::White => Board { player: white, opponent: black },
        };
        Some(Position { board, side, size, variant })
    }

    /// Black's discs.
    #[inline]
    pub const fn black(&self) -> u64 {
        match self.side {
            Color::Black => self.board.player,
            Color::White => self.board.opponent,
        }
    }

    /// White's discs.
    #[inline]
    pub const fn white(&self) -> u64 {
        match self.side {
            Color::Black => self.board.opponent,
            Color::White => self.board.player,
        }
    }

    /// Legal moves of the side to move.
    #[inline]
    pub fn moves(&self) -> u64 {
        self.board.moves(self.size)
    }

    /// The position after `sq` is played, or `None` if it is illegal here.
    pub fn play(&self, sq: Square) -> Option<Position> {
        let board = self.board.play(sq, self.size)?;
        Some(Position { board, side: self.side.opposite(), ..*self })
    }

    /// The position after a pass (the other colour to move). Always succeeds; whether
    /// passing is *allowed* is [`Position::status`]'s business.
    pub fn passed(&self) -> Position {
        Position { board: self.board.pass(), side: self.side.opposite(), ..*self }
    }

    /// Plays `sq`, or passes first when the side to move has no move but the other
    /// side can play `sq` (the implicit passes of transcripts). `None` if illegal.
    pub fn play_with_implicit_pass(&self, sq: Square) -> Option<Position> {
        if let Some(next) = self.play(sq) {
            return Some(next);
        }
        if self.moves() == 0 {
            return self.passed().play(sq);
        }
        None
    }

    /// True when neither side can move.
    pub fn is_game_over(&self) -> bool {
        self.board.is_game_over(self.size)
    }

    /// The final score for the side to move under this position's variant (disc
    /// difference, empties to the winner; negated for reversed). Meaningful when the
    /// game is over, defined for any position.
    pub fn final_score(&self) -> i32 {
        self.variant.apply(self.board.final_score(self.size))
    }

    /// Black's final score: the disc difference black minus white, empties to the
    /// winner, under this position's variant.
    pub fn black_score(&self) -> i32 {
        match self.side {
            Color::Black => self.final_score(),
            Color::White => -self.final_score(),
        }
    }

    /// Number of empty playable squares.
    pub fn empties(&self) -> u32 {
        self.board.empties(self.size)
    }
}

impl Game for Position {
    type Move = Square;

    fn generate_moves(&self, moves: &mut Vec<Square>) {
        moves.extend(Square::iter(self.moves()));
    }

    fn play(&self, mv: Square) -> Position {
        let f = self.board.flips(mv);
        debug_assert!(f != 0 && (self.board.player | self.board.opponent) & mv.bit() == 0);
        Position { board: self.board.play_with_flips(mv, f), side: self.side.opposite(), ..*self }
    }

    fn status(&self) -> Status {
        match self.board.fold_pass(self.size) {
            Some((_, false)) => Status::ToMove,
            Some((_, true)) => Status::MustPass,
            None => Status::Over(self.final_score()),
        }
    }

    fn pass(&self) -> Option<Position> {
        (self.status() == Status::MustPass).then(|| self.passed())
    }

    fn max_value(&self) -> i32 {
        self.size.squares() as i32
    }

    fn hash_key(&self) -> u64 {
        hash_board(self.board.player, self.board.opponent)
    }

    /// The discs of the side to move, then the opponent's (16 bytes, little-endian):
    /// the colour is left out, values and moves do not depend on it.
    fn encode(&self) -> Option<Vec<u8>> {
        let mut out = Vec::with_capacity(16);
        out.extend_from_slice(&self.board.player.to_le_bytes());
        out.extend_from_slice(&self.board.opponent.to_le_bytes());
        Some(out)
    }

    fn symmetric_images(&self) -> Vec<Position> {
        self.board.images().into_iter().map(|board| Position { board, ..*self }).collect()
    }

    fn player_to_move(&self) -> u8 {
        match self.side {
            Color::Black => 0,
            Color::White => 1,
        }
    }

    /// The square and the colour playing it: `64 * colour + square`.
    fn move_code(&self, mv: Square) -> u32 {
        64 * u32::from(self.player_to_move()) + mv.index() as u32
    }

    fn move_code_count(&self) -> u32 {
        128
    }
}
