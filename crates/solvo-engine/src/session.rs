//! A game being played: the start position, the plies so far (passes included), and
//! the plies undone (for redo). Front ends keep one session and ask the engine about
//! its current position.

use solvo_othello::formats::ggf::{move_name, GgfGame};
use solvo_othello::formats::transcript::{Ply, Replay};
use solvo_othello::{BoardSize, Color, Position, Square, Variant};

/// How a session's error messages name squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SquareNames {
    /// By the 8x8 grid (`c3`..`f6` on 4x4), as transcripts and board strings do.
    #[default]
    Grid,
    /// From the board's own top-left (`a1`..`d4` on 4x4), as GGF, GTP and NBoard do.
    Board,
}

/// A game: its start, its plies, and the plies undone since the last new ply.
///
/// Invariant: the plies are legal from the start (a pass only when the side to move
/// has no move and the game is not over), so every position of the history is
/// reachable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Session {
    replay: Replay,
    redo: Vec<Ply>,
    names: SquareNames,
}

impl Session {
    /// A game from the standard start of `size` under `variant`.
    pub fn new(size: BoardSize, variant: Variant) -> Session {
        Session::from_position(Position::start(size, variant))
    }

    /// A game from any position (no plies yet).
    pub fn from_position(start: Position) -> Session {
        Session { replay: Replay::new(start), redo: Vec::new(), names: SquareNames::Grid }
    }

    /// The game of a GGF record (its start and every ply; the record was checked legal
    /// when it was parsed).
    pub fn from_ggf(game: &GgfGame) -> Session {
        Session { replay: game.replay.clone(), redo: Vec::new(), names: SquareNames::Grid }
    }

    /// The same game, its error messages naming squares by `names` (grid names unless
    /// set).
    pub fn with_square_names(mut self, names: SquareNames) -> Session {
        self.names = names;
        self
    }

    /// The name of `sq` in this session's messages.
    fn namer(&self) -> impl Fn(Square) -> String {
        let (names, size) = (self.names, self.size());
        move |sq| match names {
            SquareNames::Grid => sq.to_string(),
            SquareNames::Board => move_name(Ply::Move(sq), size),
        }
    }

    /// The start position.
    pub fn start(&self) -> Position {
        self.replay.start
    }

    /// The current position.
    pub fn position(&self) -> Position {
        self.replay.end()
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.replay.start.size
    }

    /// The variant.
    pub fn variant(&self) -> Variant {
        self.replay.start.variant
    }

    /// The plies played so far, passes included.
    pub fn plies(&self) -> &[Ply] {
        &self.replay.plies
    }

    /// The game so far as a [`Replay`] (for transcripts and GGF).
    pub fn replay(&self) -> &Replay {
        &self.replay
    }

    /// True when neither side can move.
    pub fn is_over(&self) -> bool {
        self.position().is_game_over()
    }

    /// Plays `sq` for the side to move, passing first when that side has no move but
    /// the other can play `sq` (transcripts leave passes out). Clears the redo list.
    /// Errors (nothing changes) name the move and the legal moves as the session's
    /// [`SquareNames`] say.
    pub fn play(&mut self, sq: Square) -> Result<(), String> {
        let name = self.namer();
        self.replay.push_move_named(sq, &name)?;
        self.redo.clear();
        Ok(())
    }

    /// Plays `sq` for `color`: passes first when the other colour is to move and must
    /// pass. Errors when it is not `color`'s turn (and the other side has moves), or
    /// the move is illegal.
    pub fn play_as(&mut self, color: Color, sq: Square) -> Result<(), String> {
        let pos = self.position();
        if pos.side != color && pos.moves() != 0 {
            return Err(format!("it is {}'s turn, not {color}'s", pos.side));
        }
        if pos.side != color {
            self.pass()?;
            return self.play(sq).inspect_err(|_| {
                self.undo();
                self.redo.clear();
            });
        }
        self.play(sq)
    }

    /// Records a pass. Errors when the side to move has a legal move or the game is
    /// over. Clears the redo list.
    pub fn pass(&mut self) -> Result<(), String> {
        let name = self.namer();
        self.replay.push_pass_named(&name)?;
        self.redo.clear();
        Ok(())
    }

    /// Plays a ply (a move or a pass), as [`Session::play`] or [`Session::pass`].
    pub fn play_ply(&mut self, ply: Ply) -> Result<(), String> {
        match ply {
            Ply::Move(sq) => self.play(sq),
            Ply::Pass => self.pass(),
        }
    }

    /// Takes back the last ply (a move or a pass) and keeps it for [`Session::redo`].
    /// Returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Ply> {
        let ply = self.replay.plies.pop()?;
        self.replay.positions.pop();
        self.redo.push(ply);
        Some(ply)
    }

    /// Replays the last ply undone; `None` when nothing was undone since the last new
    /// ply.
    pub fn redo(&mut self) -> Option<Ply> {
        let ply = self.redo.pop()?;
        let redo = std::mem::take(&mut self.redo);
        // An undone ply was legal in this same position.
        self.replay.push(ply).ok()?;
        self.redo = redo;
        Some(ply)
    }

    /// Black's final score (disc difference under the variant, empties to the winner)
    /// when the game is over.
    pub fn result(&self) -> Option<i32> {
        let end = self.position();
        end.is_game_over().then(|| end.black_score())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(name: &str) -> Square {
        Square::parse(name).unwrap()
    }

    #[test]
    fn plays_undoes_and_redoes() {
        let mut s = Session::new(BoardSize::Eight, Variant::Normal);
        assert!(s.play(sq("a1")).is_err());
        assert!(s.pass().is_err());
        s.play(sq("f5")).unwrap();
        s.play(sq("d6")).unwrap();
        let after = s.position();
        assert_eq!(s.undo(), Some(Ply::Move(sq("d6"))));
        assert_eq!(s.undo(), Some(Ply::Move(sq("f5"))));
        assert_eq!(s.undo(), None);
        assert_eq!(s.position(), s.start());
        assert_eq!(s.redo(), Some(Ply::Move(sq("f5"))));
        assert_eq!(s.redo(), Some(Ply::Move(sq("d6"))));
        assert_eq!(s.position(), after);
        assert_eq!(s.redo(), None);
        s.undo();
        s.play(sq("f6")).unwrap();
        assert_eq!(s.redo(), None, "a new ply clears the redo list");
        assert!(s.play_as(Color::White, sq("c3")).is_err(), "not white's turn");
    }

    #[test]
    fn passes_are_plies() {
        // A 4x4 game with passes, played to its end.
        let start = Position::start(BoardSize::Four, Variant::Normal);
        let mut s = Session::from_position(start);
        let mut n = 0;
        while !s.is_over() {
            let pos = s.position();
            match Square::iter(pos.moves()).next() {
                Some(m) => s.play(m).unwrap(),
                None => s.pass().unwrap(),
            }
            n += 1;
        }
        assert!(s.result().is_some());
        let plies = s.plies().to_vec();
        for _ in 0..n {
            s.undo().unwrap();
        }
        for p in &plies {
            assert_eq!(s.redo(), Some(*p));
        }
        assert!(s.is_over());
    }
}
