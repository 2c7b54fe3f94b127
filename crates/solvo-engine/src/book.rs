//! An opening book: positions that game collections reach often, each with a value
//! negamaxed from the positions after it and deepened by search (a position's value
//! is the best of its own search and its book moves), so the engine plays known
//! openings instantly and as well as the search behind them.
//!
//! Positions are stored colour-less (side to move first) and canonical under the 8
//! symmetries; the text file has one `player-hex opponent-hex value` line each.

use solvo_othello::{Board, BoardSize, Position, Square, Variant};
use std::collections::HashMap;

/// An opening book for one variant (8x8).
#[derive(Clone, Debug, PartialEq)]
pub struct Book {
    variant: Variant,
    entries: HashMap<Board, f32>,
}

impl Book {
    /// Builds a book from `games` (each a sequence of moves from the 8x8 start, passes
    /// implied; an illegal move ends that game): every position within `max_plies`
    /// plies reached by at least `min_games` games, valued by `evaluate` (the value for
    /// its side to move), then negamaxed from the end of the book back to the start.
    /// Positions where the side to move must pass are left out.
    pub fn build(
        games: &[Vec<Square>],
        variant: Variant,
        max_plies: usize,
        min_games: u32,
        evaluate: &mut dyn FnMut(&Position) -> f64,
    ) -> Book {
        let mut counts: HashMap<Board, u32> = HashMap::new();
        let start = Position::start(BoardSize::Eight, variant);
        for game in games {
            let mut pos = start;
            for &sq in game.iter().take(max_plies) {
                let Some(next) = pos.play_with_implicit_pass(sq) else { break };
                pos = next;
                if pos.moves() != 0 {
                    *counts.entry(pos.board.canonical()).or_default() += 1;
                }
            }
        }
        let mut kept: Vec<Board> = counts.into_iter().filter(|&(_, n)| n >= min_games).map(|(b, _)| b).collect();
        // Deepest first: a position's book children are valued before it.
        kept.sort_by_key(|b| std::cmp::Reverse((b.player | b.opponent).count_ones()));
        let mut book = Book::new(variant);
        for board in kept {
            let pos = Position { board, side: solvo_othello::Color::Black, size: BoardSize::Eight, variant };
            let own = evaluate(&pos);
            book.insert_negamaxed(&pos, own);
        }
        book
    }

    /// An empty book for `variant`.
    pub fn new(variant: Variant) -> Book {
        Book { variant, entries: HashMap::new() }
    }

    /// Stores `pos` with the better of `own` (its own value) and its best book move's.
    fn insert_negamaxed(&mut self, pos: &Position, own: f64) {
        let value = self.choose(pos).map_or(own, |(_, v)| own.max(v));
        self.entries.insert(pos.board.canonical(), value as f32);
    }

    /// Adds a game to the book (NBoard's `learn`): each of `positions` (the game's
    /// positions, in order) that is 8x8, of the book's variant, and where the side to
    /// move has a move, enters the book valued by `evaluate` (the value for its side to
    /// move) if it is new; then the game is negamaxed from its last position back to its
    /// first, so each position's value is at least its best book move's. Returns the
    /// number of positions added. Positions already in the book keep their value or
    /// take a better one from the game's continuation.
    pub fn learn(&mut self, positions: &[Position], evaluate: &mut dyn FnMut(&Position) -> f64) -> usize {
        let mut added = 0;
        for pos in positions.iter().rev() {
            if pos.size != BoardSize::Eight || pos.variant != self.variant || pos.moves() == 0 {
                continue;
            }
            let own = match self.value(&pos.board) {
                Some(v) => v,
                None => {
                    added += 1;
                    evaluate(pos)
                }
            };
            self.insert_negamaxed(pos, own);
        }
        added
    }

    /// The variant the values are for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Number of positions.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True when the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The book value of `board` for its side to move, if the book holds it.
    pub fn value(&self, board: &Board) -> Option<f64> {
        self.entries.get(&board.canonical()).map(|&v| f64::from(v))
    }

    /// The book move of `pos` (8x8, the book's variant): the legal move whose resulting
    /// position the book holds with the best value for the mover, and that value;
    /// `None` when no move leads into the book.
    pub fn choose(&self, pos: &Position) -> Option<(Square, f64)> {
        if pos.size != BoardSize::Eight || pos.variant != self.variant {
            return None;
        }
        Square::iter(pos.moves())
            .filter_map(|sq| {
                let child = pos.board.play(sq, pos.size)?;
                Some((sq, -self.value(&child)?))
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
    }

    /// The book as text: a `# solvo book <variant>` line, then one `player-hex
    /// opponent-hex value` line per position, sorted.
    pub fn to_text(&self) -> String {
        let mut lines: Vec<String> =
            self.entries.iter().map(|(b, v)| format!("{:016x} {:016x} {v:.2}", b.player, b.opponent)).collect();
        lines.sort();
        format!("# solvo book {}\n{}\n", self.variant.name(), lines.join("\n"))
    }

    /// Reads [`Book::to_text`]'s format. Errors name the line and what is wrong
    /// (overlapping discs, discs off the board, a bad number).
    pub fn from_text(text: &str) -> Result<Book, String> {
        let mut entries = HashMap::new();
        let header = text.lines().next().unwrap_or("");
        let variant: Variant = header
            .strip_prefix("# solvo book ")
            .ok_or("not a solvo book (no `# solvo book <variant>` first line)")?
            .trim()
            .parse()?;
        for (i, line) in text.lines().enumerate().skip(1).filter(|(_, l)| !l.trim().is_empty()) {
            let bad = |what: &str| format!("book line {}: {what}", i + 1);
            let f: Vec<&str> = line.split_whitespace().collect();
            let [p, o, v] = f[..] else { return Err(bad("expected `player-hex opponent-hex value`")) };
            let p = u64::from_str_radix(p, 16).map_err(|_| bad("player discs are not 16 hex digits"))?;
            let o = u64::from_str_radix(o, 16).map_err(|_| bad("opponent discs are not 16 hex digits"))?;
            let v: f32 =
                v.parse().ok().filter(|v: &f32| v.is_finite()).ok_or_else(|| bad("the value is not a number"))?;
            let board = Board::new(p, o).ok_or_else(|| bad("the two sides' discs overlap"))?;
            entries.insert(board.canonical(), v);
        }
        Ok(Book { variant, entries })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::formats::transcript::parse_transcript;

    fn moves(t: &str) -> Vec<Square> {
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        parse_transcript(t, &start)
            .unwrap()
            .plies
            .iter()
            .filter_map(|p| match p {
                solvo_othello::formats::transcript::Ply::Move(s) => Some(*s),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn builds_negamaxes_chooses_and_round_trips() {
        let games = vec![moves("f5d6c3d3c4"), moves("f5d6c3d3c4"), moves("f5f6e6f4"), moves("f5f6e6f4")];
        // A toy evaluation: the disc difference for the side to move.
        let mut eval =
            |p: &Position| f64::from(p.board.player.count_ones() as i32 - p.board.opponent.count_ones() as i32);
        let book = Book::build(&games, Variant::Normal, 3, 2, &mut eval);
        // f5, f5d6, f5f6, f5d6c3, f5f6e6 (f5 and its symmetric d3, c4, e6 are one position).
        assert_eq!(book.len(), 5);
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let (mv, v) = book.choose(&start).unwrap();
        assert!(start.moves() & mv.bit() != 0);
        assert_eq!(Some(-v), book.value(&start.play(mv).unwrap().board));
        assert_eq!(Book::from_text(&book.to_text()).unwrap(), book);
        assert!(Book::from_text("zz 0 1").is_err());
        assert!(Book::from_text("# solvo book normal\nzz 0 1").is_err());
        assert!(Book::from_text("# solvo book normal\n1 1 0").is_err());
        let reversed = Position::start(BoardSize::Eight, Variant::Reversed);
        assert_eq!(book.choose(&reversed), None, "another variant's book is not used");
    }

    #[test]
    fn learning_a_game_adds_its_positions_and_negamaxes_them() {
        let start = Position::start(BoardSize::Eight, Variant::Normal);
        let game = parse_transcript("f5d6c3d3c4f4", &start).unwrap();
        let positions: Vec<Position> = std::iter::once(game.start).chain(game.positions.iter().copied()).collect();
        let mut book = Book::new(Variant::Normal);
        // Every position valued 0 except the last, worth 8 to its side to move.
        let last = *positions.last().unwrap();
        let mut eval = |p: &Position| if p.board == last.board { 8.0 } else { 0.0 };
        assert_eq!(book.learn(&positions, &mut eval), 7);
        assert_eq!(book.value(&last.board), Some(8.0));
        // The position before it: its move into the book is worth -8, its own 0.
        assert_eq!(book.value(&positions[5].board), Some(0.0));
        // Learning it again adds nothing; a longer game adds only its new positions.
        assert_eq!(book.learn(&positions, &mut eval), 0);
        let longer = parse_transcript("f5d6c3d3c4f4f6", &start).unwrap();
        let more: Vec<Position> = std::iter::once(longer.start).chain(longer.positions.iter().copied()).collect();
        // The new last position is worth 20 to its side: the one before (worth 8) now
        // has a move worth -20 and keeps its 8.
        let new_last = *more.last().unwrap();
        let mut eval2 = |p: &Position| if p.board == new_last.board { 20.0 } else { 0.0 };
        assert_eq!(book.learn(&more, &mut eval2), 1);
        assert_eq!(book.value(&last.board), Some(8.0));
        // Another variant's positions are not learnt.
        let rev = Position::start(BoardSize::Eight, Variant::Reversed);
        assert_eq!(book.learn(&[rev], &mut eval2), 0);
    }
}
