//! Hash keys over random games of every catalogue game: positions drawn alike (same
//! board, same side to move) have equal keys, and equal keys mean the same drawing (no
//! collision and no missing state), except Go whose key also covers the history and
//! Domineering whose drawing shows domino orientations the key rightly ignores, and
//! Atarigo, Nogo and the race games whose keys are equal for symmetric positions (equal keys:
//! symmetric drawings).

use solvo_core::rng::Rng;
use solvo_core::{Game, Status};
use solvo_games::{dispatch, list, GameVisitor};
use std::collections::HashMap;

struct RandomGames {
    games: usize,
    history_in_key: bool,
    drawing_has_more: bool,
    symmetric_keys: bool,
}

impl GameVisitor for RandomGames {
    type Output = usize;
    fn visit<G: Game + std::fmt::Display + 'static>(self, game: G) -> usize {
        let mut rng = Rng::new(12345);
        let mut by_key: HashMap<u64, String> = HashMap::new();
        let mut by_text: HashMap<String, u64> = HashMap::new();
        for _ in 0..self.games {
            let mut g = game.clone();
            loop {
                let text = format!("{g}");
                let key = g.hash_key();
                if !self.history_in_key {
                    let seen = by_key.entry(key).or_insert_with(|| text.clone());
                    if self.symmetric_keys {
                        let images: Vec<String> = g.symmetric_images().iter().map(|im| format!("{im}")).collect();
                        assert!(images.contains(seen), "two asymmetric positions share a key");
                    } else if !self.drawing_has_more {
                        assert_eq!(*seen, text, "two positions share a key");
                    }
                    let k = by_text.entry(text.clone()).or_insert(key);
                    assert_eq!(*k, key, "one position has two keys:\n{text}");
                }
                // Every symmetric image is a distinct object with a well-defined key.
                for im in g.symmetric_images() {
                    let _ = im.hash_key();
                }
                if !matches!(g.status(), Status::ToMove) {
                    break;
                }
                let mut moves = Vec::new();
                g.generate_moves(&mut moves);
                g = g.play(moves[rng.below(moves.len())]);
            }
        }
        by_key.len()
    }
}

#[test]
fn keys_match_positions_in_random_games() {
    for spec in list() {
        let (rows, cols) = match spec.name {
            "go" => (3, 3),
            "domineering" | "misere-domineering" => (4, 4),
            "atarigo" | "nogo" => (3, 4),
            _ => (5, 4),
        };
        let v = RandomGames {
            games: 300,
            history_in_key: spec.name == "go",
            drawing_has_more: spec.name.ends_with("domineering"),
            symmetric_keys: spec.name == "atarigo" || spec.name == "nogo" || spec.name.ends_with("through"),
        };
        dispatch(spec.name, rows, cols, v).unwrap();
    }
}
