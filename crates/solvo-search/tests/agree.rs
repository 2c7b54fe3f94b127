//! Every solver agrees with every other and with plain negamax on small games.

mod common;

use common::{Domineering, Nim, Nogo, WinLoss};
use solvo_core::Game;
use solvo_othello::{BoardSize, Position, Variant};
use solvo_search::grave::GraveParams;
use solvo_search::{negamax, solve, Algorithm, Budget, SolverConfig, Verdict};

fn config(algorithm: Algorithm) -> SolverConfig {
    let mut c = SolverConfig::new(algorithm);
    c.tt_bits = 16;
    c.grave = GraveParams { playouts: 300, ..GraveParams::default() };
    c
}

/// Runs every algorithm on a win/loss game; checks each against `expected` (+1 the
/// side to move wins, -1 it loses) and checks that a claimed winning move wins.
fn all_agree<G: Game>(game: &G, expected: i32) {
    for algorithm in Algorithm::ALL {
        let r = solve(game, &config(algorithm));
        assert_eq!(
            r.verdict.side_to_move_wins(),
            Some(expected > 0),
            "{algorithm} on {game:?}",
            game = game.hash_key()
        );
        if algorithm.exact() {
            assert_eq!(r.verdict, Verdict::Exact(expected), "{algorithm}");
        }
        if expected > 0 {
            let mv = r.best_move.unwrap_or_else(|| panic!("{algorithm} gives no winning move"));
            assert_eq!(-negamax(&game.play(mv)), 1, "{algorithm}'s move does not win");
        }
    }
}

#[test]
fn nim_positions() {
    for heaps in [vec![1], vec![4], vec![1, 2], vec![3, 4], vec![2, 2, 3], vec![5, 6], vec![4, 4]] {
        let g = Nim { heaps, side: 0 };
        let v = negamax(&g);
        all_agree(&g, v);
    }
}

#[test]
fn domineering_small_boards() {
    for (r, c) in [(2, 2), (3, 3), (2, 4), (3, 4), (4, 3), (4, 4)] {
        for misere in [false, true] {
            let g = Domineering::new(r, c, misere);
            let v = negamax(&g);
            if !misere && r == c {
                assert_eq!(v, 1, "Domineering {r}x{c}: first player wins");
            }
            all_agree(&g, v);
        }
    }
}

#[test]
fn domineering_5x5_is_lost_for_the_first_player() {
    let g = Domineering::new(5, 5, false);
    for algorithm in Algorithm::ALL {
        let r = solve(&g, &config(algorithm));
        assert_eq!(r.verdict.side_to_move_wins(), Some(false), "{algorithm}");
    }
}

#[test]
fn nogo_small_boards() {
    for (r, c) in [(2, 2), (2, 3), (3, 2), (2, 4), (3, 3)] {
        let g = Nogo::new(r, c);
        let v = negamax(&g);
        if (r, c) == (3, 3) {
            assert_eq!(v, 1, "Nogo 3x3: first player wins");
        }
        all_agree(&g, v);
    }
}

#[test]
#[ignore = "slow with this test-only Nogo (minutes); covered by the games crate and the bench"]
fn nogo_4x4_is_lost_for_the_first_player() {
    let g = Nogo::new(4, 4);
    for algorithm in [Algorithm::AbTt, Algorithm::AbTtMc, Algorithm::Dfpn] {
        let r = solve(&g, &config(algorithm));
        assert_eq!(r.verdict.side_to_move_wins(), Some(false), "{algorithm}");
    }
}

#[test]
fn othello_4x4_as_win_loss() {
    let start = Position::start(BoardSize::Four, Variant::Normal);
    let g = WinLoss(start);
    let v = negamax(&g);
    all_agree(&g, v);
}

#[test]
fn othello_4x4_exact_values() {
    let start = Position::start(BoardSize::Four, Variant::Normal);
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    let mut positions = vec![start];
    positions.extend(moves.iter().map(|&m| Game::play(&start, m)));
    for pos in positions {
        let v = negamax(&pos);
        // Score-bounded MCTS finds the exact value of a game with many outcomes too.
        for algorithm in
            [Algorithm::AbTt, Algorithm::IdAbTt, Algorithm::AbTtMc, Algorithm::IdAbTtMc, Algorithm::ScoreBoundedMcts]
        {
            let r = solve(&pos, &config(algorithm));
            assert_eq!(r.verdict, Verdict::Exact(v), "{algorithm}");
            let best = r.best_move.expect("a best move");
            assert_eq!(-negamax(&Game::play(&pos, best)), v, "{algorithm}'s best move");
        }
        // Threshold questions on a general-valued game.
        for t in [v - 1, v, v + 1] {
            for algorithm in [
                Algorithm::Pn2,
                Algorithm::Dfpn,
                Algorithm::DfpnMc,
                Algorithm::MctsSolver,
                Algorithm::ProductPropagation,
            ] {
                let r = solve(&pos, &SolverConfig { threshold: t, ..config(algorithm) });
                assert_eq!(r.verdict.at_least(t), Some(v >= t), "{algorithm} threshold {t}");
            }
        }
    }
}

#[test]
fn exhausted_budget_is_unknown() {
    let g = Domineering::new(5, 5, false);
    for algorithm in Algorithm::ALL {
        let c =
            SolverConfig { budget: Budget { max_nodes: Some(50), time_limit: None, stop: None }, ..config(algorithm) };
        let r = solve(&g, &c);
        assert_eq!(r.verdict, Verdict::Unknown, "{algorithm}");
        assert!(r.best_move.is_none());
    }
}

/// A stop flag raised from another thread ends every solver soon, with an unknown
/// verdict (Domineering 8x8 takes any of them far longer than the test).
#[test]
fn a_raised_stop_flag_stops_every_solver() {
    use std::sync::atomic::Ordering;
    let g = Domineering::new(8, 8, false);
    let flag = solvo_search::stop_flag();
    for algorithm in Algorithm::ALL {
        flag.store(false, Ordering::Relaxed);
        let mut c = config(algorithm);
        c.grave.playouts = 10_000_000;
        c.budget = Budget::UNLIMITED.with_stop(flag);
        let start = std::time::Instant::now();
        let r = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(100));
                flag.store(true, Ordering::Relaxed);
            });
            solve(&g, &c)
        });
        assert_eq!(r.verdict, Verdict::Unknown, "{algorithm}");
        assert!(start.elapsed().as_secs_f64() < 5.0, "{algorithm}: {:?}", start.elapsed());
    }
}

/// Every alpha-beta setting of the study (replacement scheme, a table far too small,
/// killers after or before the game's priorities, history, null window, the Monte
/// Carlo node threshold) and two threads
/// sharing the table keep every value.
#[test]
fn alpha_beta_options_keep_every_value() {
    use solvo_search::tt::Replacement;
    let start = Position::start(BoardSize::Four, Variant::Normal);
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    let othello: Vec<(Position, i32)> =
        std::iter::once(start).chain(moves.iter().map(|&m| Game::play(&start, m))).map(|p| (p, negamax(&p))).collect();
    let domineering: Vec<(Domineering, i32)> = [(3, 3), (3, 4), (4, 4)]
        .into_iter()
        .map(|(r, col)| Domineering::new(r, col, true))
        .map(|g| {
            let v = negamax(&g);
            (g, v)
        })
        .collect();
    let nogo = Nogo::new(2, 4);
    let nogo_value = negamax(&nogo);
    let check = |name: &str, c: &SolverConfig, value: i32, verdict: Verdict| {
        if c.null_window {
            assert_eq!(verdict.at_least(c.threshold), Some(value >= c.threshold), "{name} {c:?}");
        } else {
            assert_eq!(verdict, Verdict::Exact(value), "{name} {c:?}");
        }
    };
    for algorithm in [Algorithm::AbTt, Algorithm::IdAbTt, Algorithm::AbTtMc, Algorithm::IdAbTtMc] {
        for scheme in Replacement::ALL {
            for entries in [Some(16), Some(1_048_575), None] {
                for (killers, killers_first, history, null_window) in [
                    (false, false, false, false),
                    (true, false, false, false),
                    (false, false, true, true),
                    (true, false, true, false),
                    (false, true, true, false),
                    (true, true, false, true),
                ] {
                    let mut c = config(algorithm);
                    c.tt_scheme = scheme;
                    c.tt_entries = entries;
                    c.tt_track_lost = entries == Some(16);
                    c.killers = killers;
                    c.killers_first = killers_first;
                    c.history = history;
                    c.null_window = null_window;
                    c.mc_min_visits = if history { 0 } else { 100 };
                    c.threads = if killers && !killers_first { 2 } else { 1 };
                    for (g, v) in &domineering {
                        check("misere domineering", &c, *v, solve(g, &c).verdict);
                    }
                    check("nogo 2x4", &c, nogo_value, solve(&nogo, &c).verdict);
                    for (pos, v) in &othello {
                        for t in [-2, 1, 3] {
                            let c = SolverConfig { threshold: t, ..c };
                            check("othello 4x4", &c, *v, solve(pos, &c).verdict);
                        }
                    }
                }
            }
        }
    }
}
