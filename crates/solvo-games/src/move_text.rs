//! Moves written as text, as the games print them (`{:?}` of a move: `b2v`, `a1b2`,
//! `c3`, `pass`), for every front end: a line of moves is played from a position, and
//! a position's legal moves are named.

use crate::GameError;
use solvo_core::{Game, Status};

/// The name of a move, as the game prints it (the text [`play_text`] reads back).
pub fn move_name<G: Game>(m: &G::Move) -> String {
    format!("{m:?}")
}

/// The names of the legal moves of `game` (empty when it must pass or is over), in the
/// game's move order.
pub fn move_names<G: Game>(game: &G) -> Vec<String> {
    let mut legal = Vec::new();
    if game.status() == Status::ToMove {
        game.generate_moves(&mut legal);
    }
    legal.iter().map(move_name::<G>).collect()
}

/// Plays `text` (moves separated by spaces or commas, each written as the game prints
/// it, case-insensitive; `pass` where the side to move must pass) from `game`. The
/// error ([`GameError::BadMove`]) names the first move that is not legal, its number,
/// and the legal ones.
pub fn play_text<G: Game>(game: &G, text: &str) -> Result<G, GameError> {
    let mut pos = game.clone();
    for (i, token) in text.split(|c: char| c.is_whitespace() || c == ',').filter(|t| !t.is_empty()).enumerate() {
        if pos.status() == Status::MustPass && token.eq_ignore_ascii_case("pass") {
            pos = pos.pass().ok_or_else(|| GameError::BadMove {
                text: token.to_string(),
                reason: format!("move {}: the game has no pass here", i + 1),
            })?;
            continue;
        }
        let mut legal = Vec::new();
        if pos.status() == Status::ToMove {
            pos.generate_moves(&mut legal);
        }
        match legal.iter().find(|m| move_name::<G>(m).eq_ignore_ascii_case(token)) {
            Some(&m) => pos = pos.play(m),
            None => {
                let names: Vec<String> = legal.iter().map(move_name::<G>).collect();
                let legal = match pos.status() {
                    Status::MustPass => "pass".to_string(),
                    _ if names.is_empty() => "none, the game is over".to_string(),
                    _ => names.join(" "),
                };
                return Err(GameError::BadMove {
                    text: token.to_string(),
                    reason: format!("move {} is not legal there (legal: {legal})", i + 1),
                });
            }
        }
    }
    Ok(pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Domineering, DomineeringOptions};

    #[test]
    fn a_line_is_played_and_a_bad_move_is_named() {
        let g = Domineering::new(4, 4, DomineeringOptions::default()).unwrap();
        let names = move_names(&g);
        assert!(!names.is_empty());
        let one = play_text(&g, &names[0]).unwrap();
        assert_eq!(move_names(&one), move_names(&play_text(&g, &names[0].to_uppercase()).unwrap()));
        let e = play_text(&g, &format!("{}, zz9", names[0])).err().unwrap().to_string();
        assert!(e.contains("'zz9'") && e.contains("move 2 is not legal there (legal: "), "{e}");
    }
}
