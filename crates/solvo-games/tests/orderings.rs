//! The game-specific move orderings (Atarigo's liberty formula, the race games' landing
//! safety, Knightthrough's threats) change only the order of the search, never a value: the solvers with the
//! ordering on and off agree with plain negamax on small boards.

use solvo_core::Game;
use solvo_games::{dispatch_with, GameOptions, GameVisitor};
use solvo_search::grave::GraveParams;
use solvo_search::{negamax, solve, Algorithm, SolverConfig};

struct CheckAll;

impl GameVisitor for CheckAll {
    type Output = ();
    fn visit<G: Game + std::fmt::Display + 'static>(self, game: G) {
        let value = negamax(&game);
        for algorithm in [Algorithm::AbTt, Algorithm::IdAbTtMc, Algorithm::Dfpn] {
            let mut c = SolverConfig::new(algorithm);
            c.tt_bits = 14;
            c.grave = GraveParams { playouts: 200, ..GraveParams::default() };
            let r = solve(&game, &c);
            assert_eq!(r.verdict.side_to_move_wins(), Some(value > 0), "{algorithm} on\n{game}");
        }
    }
}

#[test]
fn orderings_keep_every_value() {
    for (game, rows, cols, option) in [
        ("atarigo", 3, 3, "ordering"),
        ("atarigo", 2, 4, "ordering"),
        ("atarigo", 3, 4, "ordering"),
        ("breakthrough", 4, 4, "ordering"),
        ("breakthrough", 4, 3, "ordering"),
        ("breakthrough", 5, 2, "ordering"),
        ("knightthrough", 5, 3, "ordering"),
        ("knightthrough", 4, 4, "ordering"),
        ("knightthrough", 6, 3, "ordering"),
    ] {
        let values: &[&str] = match game {
            "atarigo" => &["liberties", "plain"],
            "knightthrough" => &["threat", "safety", "plain"],
            _ => &["safety", "plain"],
        };
        for value in values {
            let mut o = GameOptions::new();
            o.set(option, value);
            dispatch_with(game, rows, cols, &o, CheckAll).unwrap_or_else(|e| panic!("{game}: {e}"));
        }
    }
}
