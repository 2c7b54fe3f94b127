//! The game-specific move orderings (Atarigo's liberty formula, the race games' landing
//! safety, Knightthrough's threats, the study's Algorithms 4 and 5) change only the order of the search, never a value: the solvers with the
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
        for algorithm in [Algorithm::AbTt, Algorithm::IdAbTtMc, Algorithm::Dfpn, Algorithm::DfpnMc] {
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
        ("nogo", 3, 3, "ordering"),
        ("nogo", 2, 4, "ordering"),
        ("domineering", 4, 4, "ordering"),
        ("misere-domineering", 4, 3, "ordering"),
    ] {
        // "study" / "study-mc": the study's Algorithms 4 (Atarigo) and 5 (race games).
        let values: &[&str] = match game {
            "atarigo" => &["liberties", "plain", "study", "study-mc"],
            "knightthrough" => &["threat", "safety", "plain", "study"],
            "nogo" => &["mobility", "plain"],
            "domineering" | "misere-domineering" => &["blocking", "plain"],
            _ => &["safety", "plain", "study"],
        };
        for value in values {
            let mut o = GameOptions::new();
            o.set(option, value);
            dispatch_with(game, rows, cols, &o, CheckAll).unwrap_or_else(|e| panic!("{game}: {e}"));
        }
    }
}

/// The study's Algorithm 4 as printed, on hand-made 5x5 positions (cells row by row
/// from a1): a capture 0, next to a two-liberty block 2 - 4 x its empty neighbours, a
/// move on an own block's last liberty 1, a move next to no enemy stone `None`.
#[test]
fn atarigo_study_order_reads_as_printed() {
    use solvo_games::{Atarigo, AtarigoOptions};
    let options = AtarigoOptions { tactics: false, lookahead: false, ..AtarigoOptions::default() };
    let bits = |cells: &[usize]| cells.iter().fold(0u64, |b, &c| b | 1 << c);
    // First player to move; a second-player stone on c3 (12) with one liberty left (c4, 17).
    let g = Atarigo::from_stones(5, 5, options, [bits(&[7, 11, 13]), bits(&[12])], 0).unwrap();
    assert_eq!(g.study_order(17), Some(0));
    // A lone enemy stone in the corner a1 (0): two liberties; b1 (1) has two empty neighbours.
    let g = Atarigo::from_stones(5, 5, options, [0, bits(&[0])], 0).unwrap();
    assert_eq!(g.study_order(1), Some(2 - 4 * 2));
    assert_eq!(g.study_order(24), None);
    // Our stone on c3 in atari: its last liberty c4 (17) is next to no enemy stone.
    let g = Atarigo::from_stones(5, 5, options, [bits(&[12]), bits(&[7, 11, 13])], 0).unwrap();
    assert_eq!(g.study_order(17), Some(1));
}
