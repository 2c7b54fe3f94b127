//! The line of best play holds the game's value: replayed from the start, it ends with the
//! score negamax gives the start, and a store's proofs shorten the searches, not the line.

mod common;

use common::Domineering;
use solvo_core::{Game, Status};
use solvo_othello::{BoardSize, Position, Variant};
use solvo_search::play_out::play_out;
use solvo_search::{negamax, Algorithm, SolverConfig};

/// Replays `line` (moves as their `Debug` form, `pass`) from `start`: the final value for
/// the side to move at the start.
fn replay<G: Game>(start: &G, line: &[String]) -> i32 {
    let (mut pos, mut sign) = (start.clone(), 1);
    for step in line {
        pos = if step == "pass" {
            pos.pass().expect("a pass in the line is legal")
        } else {
            let mut legal = Vec::new();
            pos.generate_moves(&mut legal);
            let m =
                legal.into_iter().find(|m| format!("{m:?}") == *step).unwrap_or_else(|| panic!("{step} is not legal"));
            pos.play(m)
        };
        sign = -sign;
    }
    match pos.status() {
        Status::Over(v) => sign * v,
        s => panic!("the line stops before the end: {s:?}"),
    }
}

fn check<G: Game>(start: &G) {
    let config = SolverConfig::new(Algorithm::AbTt);
    let (line, nodes) = play_out(start, None, &config, None);
    assert!(nodes > 0);
    assert_eq!(replay(start, &line), negamax(start), "{line:?}");
}

#[test]
fn the_line_of_best_play_scores_the_value_of_its_start() {
    for variant in [Variant::Normal, Variant::Reversed] {
        check(&Position::start(BoardSize::Four, variant));
    }
    check(&Domineering::new(3, 4, false));
}
