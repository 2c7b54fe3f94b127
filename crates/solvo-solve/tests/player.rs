//! The perfect player and its self-check: exhaustive on 4x4 (with the solver and with
//! the strong store), a few random 6x6 games from late positions.

use solvo_core::rng::Rng;
use solvo_othello::{Board, BoardSize, Variant};
use solvo_othello_search::SolveOptions;
use solvo_solve::player::{Player, Source};
use solvo_solve::selfcheck::{check_exhaustive, check_random_game, random_position, CheckReport};
use solvo_solve::store::Store;
use solvo_solve::strong::{strong_solve, write_to_store};

fn solver_player(size: BoardSize) -> Player {
    Player::new(size, Variant::Normal, None, SolveOptions::new(16))
}

#[test]
fn four_by_four_exhaustive_self_check_with_the_solver() {
    let p = solver_player(BoardSize::Four);
    for engine_first in [true, false] {
        let r = check_exhaustive(&p, Board::start(), engine_first).unwrap();
        eprintln!("engine first {engine_first}: {r:?}");
        assert!(r.games > 10 && r.worst_margin >= 0, "{r:?}");
        assert!(r.mistakes > 0);
        if engine_first {
            // Black loses by 10 with perfect play; some opponent replies keep exactly that.
            assert_eq!(r.worst_margin, 0);
        }
    }
}

#[test]
fn four_by_four_player_values_equal_the_strong_solution_and_the_store_is_used() {
    let sol = strong_solve(BoardSize::Four, Variant::Normal).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open(&dir.path().join("s.redb"), BoardSize::Four, Variant::Normal).unwrap();
    write_to_store(&sol, &store).unwrap();
    let from_store = Player::new(BoardSize::Four, Variant::Normal, Some(store), SolveOptions::new(4));
    let from_solver = solver_player(BoardSize::Four);
    for s in sol.levels.iter().flatten() {
        let (v, src) = from_store.value(&s.board).unwrap();
        assert_eq!((v, src), (s.value as i32, Source::Store));
        assert_eq!(from_solver.value(&s.board).unwrap().0, s.value as i32);
    }
    let r = check_exhaustive(&from_store, Board::start(), false).unwrap();
    assert!(r.games > 10 && r.worst_margin >= 0);
}

#[test]
fn six_by_six_random_games_from_late_positions_never_lose_value() {
    let p = solver_player(BoardSize::Six);
    let mut rng = Rng::new(2024);
    let mut report = CheckReport::default();
    for game in 0..4 {
        let start = random_position(&p, Board::start(), 14, &mut rng);
        check_random_game(&p, start, game % 2 == 0, &mut rng, &mut report).unwrap();
    }
    assert_eq!(report.games, 4);
    assert!(report.worst_margin >= 0);
}
