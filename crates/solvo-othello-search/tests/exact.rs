//! The exact solver against values computed by others (FFO, WTHOR) and by a plain
//! minimax written here, window by window; symmetry and thread-count invariance.

use solvo_core::rng::Rng;
use solvo_othello::formats::obf::{parse_obf, ObfProblem};
use solvo_othello::formats::transcript::Ply;
use solvo_othello::formats::wthor::parse_wtb;
use solvo_othello::{Board, BoardSize, Color, Position, Square, Variant};
use solvo_othello_search::{solve, SolveOptions, Window};
use std::path::PathBuf;

fn shared(rel: &str) -> PathBuf {
    let p = PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/data/")).join(rel);
    assert!(p.exists(), "test data not found at {} (shared/ must sit beside the repository)", p.display());
    p
}

fn ffo(file: &str) -> Vec<ObfProblem> {
    let text = std::fs::read_to_string(shared(&format!("ffo/{file}"))).unwrap();
    parse_obf(&text, None, Variant::Normal).unwrap().into_iter().map(|(_, p)| p).collect()
}

fn opts(threads: usize) -> SolveOptions {
    let mut o = SolveOptions::new(64);
    o.threads = threads;
    o
}

fn check_ffo(problems: &[ObfProblem], first_number: usize, threads: usize) {
    let o = opts(threads);
    for (i, p) in problems.iter().enumerate() {
        o.tt.clear();
        let r = solve(&p.position, &o);
        let n = first_number + i;
        assert_eq!(r.score(), p.best_score(), "FFO #{n}");
        let best = r.best_move.expect("FFO positions have moves");
        assert!(p.best_moves().contains(&Ply::Move(best)), "FFO #{n}: {best} is not among {:?}", p.best_moves());
        assert_eq!(r.pv.first().copied().flatten(), Some(best), "FFO #{n}: PV starts with the best move");
    }
}

#[test]
fn ffo_1_to_19_exact_scores_and_best_moves() {
    check_ffo(&ffo("fforum-1-19.obf"), 1, 1);
}

#[test]
fn ffo_1_to_19_on_two_threads() {
    check_ffo(&ffo("fforum-1-19.obf"), 1, 2);
}

/// Splits as often as possible: at every node from 7 empties, PV nodes included (and,
/// on every other problem, after any sibling), so the stale-child restarts, cutoffs and
/// nested split points are all exercised.
#[test]
fn two_threads_splitting_everywhere_agree_window_by_window() {
    let problems = ffo("fforum-1-19.obf");
    let mut o = opts(2);
    o.config.set("split_min_empties", 7).unwrap();
    o.config.set("split_pv", 1).unwrap();
    for (i, p) in problems.iter().enumerate().take(10) {
        o.config.set("split_late", (i % 2) as u32).unwrap();
        let truth = p.best_score().unwrap();
        for (lo, hi) in [(-64, 64), (truth - 4, truth - 2), (truth + 2, truth + 4), (truth, truth)] {
            o.tt.clear();
            o.window = Window { lo, hi };
            let r = solve(&p.position, &o);
            assert!(r.lower <= truth && truth <= r.upper, "FFO #{}: {r:?} truth {truth}", i + 1);
            if (lo..=hi).contains(&truth) {
                assert_eq!(r.score(), Some(truth), "FFO #{} in [{lo},{hi}]", i + 1);
            } else if truth < lo {
                assert!(r.upper < lo, "FFO #{}: fail low must prove < {lo}: {r:?}", i + 1);
            } else {
                assert!(r.lower > hi, "FFO #{}: fail high must prove > {hi}: {r:?}", i + 1);
            }
        }
    }
}

#[test]
fn ffo_20_to_39_exact_scores_and_best_moves() {
    check_ffo(&ffo("fforum-20-39.obf"), 20, 2);
}

/// Plain negamax on the board API, written independently of the solver.
fn minimax(b: Board, size: BoardSize, variant: Variant) -> i32 {
    let moves = b.moves(size);
    if moves == 0 {
        if b.pass().moves(size) == 0 {
            return variant.apply(b.final_score(size));
        }
        return -minimax(b.pass(), size, variant);
    }
    Square::iter(moves).map(|sq| -minimax(b.play(sq, size).unwrap(), size, variant)).max().unwrap()
}

fn random_position(size: BoardSize, variant: Variant, empties: u32, rng: &mut Rng) -> Option<Position> {
    let mut pos = Position::start(size, variant);
    while pos.empties() > empties {
        let moves = pos.moves();
        if moves == 0 {
            if pos.is_game_over() {
                return None;
            }
            pos = pos.passed();
            continue;
        }
        let k = rng.below(moves.count_ones() as usize);
        pos = pos.play(Square::iter(moves).nth(k).unwrap()).unwrap();
    }
    Some(pos)
}

#[test]
fn random_small_positions_agree_with_minimax_window_by_window() {
    let mut rng = Rng::new(0x5eed_1234_abcd_ef01);
    let mut checked = 0;
    for size in BoardSize::ALL {
        for variant in [Variant::Normal, Variant::Reversed] {
            for _ in 0..25 {
                let empties = 1 + rng.below(10) as u32;
                let Some(pos) = random_position(size, variant, empties.min(size.squares() - 4), &mut rng) else {
                    continue;
                };
                let truth = minimax(pos.board, size, variant);
                let mut o = opts(1 + checked % 2);
                if checked % 3 == 0 {
                    // The shallow solver's stability cutoff ungated (default: gated).
                    o.config.set("stability_gate", 0).unwrap();
                } else if checked % 3 == 1 {
                    // And without it.
                    o.config.set("shallow_stability_empties", 0).unwrap();
                }
                if checked % 5 == 0 {
                    // Every node in the shared table (default: the nodes near the leaves
                    // in the thread's own table).
                    o.config.set("local_table_empties", 0).unwrap();
                }
                let r = solve(&pos, &o);
                assert_eq!(r.score(), Some(truth), "{size} {variant} {pos:?}");
                // Windows below, around and above the value.
                for (lo, hi) in [(truth - 3, truth - 1), (truth - 1, truth + 1), (truth + 1, truth + 5), (truth, truth)]
                {
                    let mut o = opts(1);
                    o.window = Window { lo, hi };
                    let r = solve(&pos, &o);
                    assert!(r.lower <= truth && truth <= r.upper, "bounds hold: {r:?} truth {truth}");
                    if (lo..=hi).contains(&truth) {
                        assert_eq!(r.score(), Some(truth), "exact inside the window [{lo},{hi}]");
                    } else if truth < lo {
                        assert!(r.upper < lo, "fail low must prove value < {lo}: {r:?}");
                    } else {
                        assert!(r.lower > hi, "fail high must prove value > {hi}: {r:?}");
                    }
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "only {checked} positions checked");
}

/// The thread's own table near the leaves (on by default) gives every value and bound
/// the shared table alone gives, on 8x8 positions of 12 to 18 empties, whole windows
/// and null windows either side of the value.
#[test]
fn the_threads_own_table_changes_no_value() {
    let mut rng = Rng::new(0x10ca_17ab_1e00_0001);
    let mut checked = 0;
    while checked < 40 {
        let empties = 12 + rng.below(7) as u32;
        let Some(pos) = random_position(BoardSize::Eight, Variant::Normal, empties, &mut rng) else { continue };
        let mut shared_only = opts(1);
        shared_only.config.set("local_table_empties", 0).unwrap();
        let truth = solve(&pos, &shared_only).score().unwrap();
        for (lo, hi) in [(-64, 64), (truth - 1, truth), (truth, truth + 1), (truth - 2, truth + 2)] {
            let mut o = opts(1 + checked % 2);
            o.window = Window { lo, hi };
            let r = solve(&pos, &o);
            assert!(r.lower <= truth && truth <= r.upper, "{pos:?} [{lo},{hi}]: {r:?} truth {truth}");
            if (lo..=hi).contains(&truth) {
                assert_eq!(r.score(), Some(truth), "{pos:?} [{lo},{hi}]");
            }
        }
        checked += 1;
    }
}

#[test]
fn symmetric_images_have_the_same_value() {
    for p in ffo("fforum-1-19.obf").iter().take(5) {
        let values: Vec<_> = p
            .position
            .board
            .images()
            .into_iter()
            .map(|board| solve(&Position { board, ..p.position }, &opts(1)).score())
            .collect();
        assert!(values.iter().all(|v| *v == values[0]), "{values:?}");
    }
}

#[test]
fn budget_and_stop_return_sound_bounds() {
    let p = &ffo("fforum-40-59.obf")[0]; // #40, value +38
    let mut o = opts(1);
    o.node_budget = 100_000;
    let r = solve(&p.position, &o);
    assert!(r.stopped);
    assert!(r.lower <= 38 && 38 <= r.upper, "{r:?}");
}

/// Positions at 24 empties from WTHOR games: their "theoretical score" (black's discs
/// with perfect play, computed by third-party programs) must match. A CI-sized sample;
/// `cargo test --release -- --ignored wthor_all` runs every game; `solvo bench wthor`
/// runs the same check with a row per position and progress.
fn check_wthor(years: &[u32], every: usize, limit: usize) -> usize {
    let mut checked = 0;
    for &year in years {
        let bytes = std::fs::read(shared(&format!("wthor/WTH_{year}.wtb"))).unwrap();
        let db = parse_wtb(&bytes).unwrap();
        let o = opts(2);
        for g in db.games.iter().step_by(every) {
            if checked >= limit {
                return checked;
            }
            let Some(pos) = g.position_at_empties(u32::from(db.header.depth)) else { continue };
            let r = solve(&pos, &o);
            let black = if pos.side == Color::Black { r.score().unwrap() } else { -r.score().unwrap() };
            assert_eq!(black, 2 * i32::from(g.theoretical_black_discs) - 64, "{year} game {:?}", g.moves);
            checked += 1;
        }
    }
    checked
}

/// Every year of the database.
const ALL_YEARS: std::ops::RangeInclusive<u32> = 1977..=2025;

#[test]
fn wthor_theoretical_scores_sample() {
    assert_eq!(check_wthor(&[1990, 2005, 2024], 997, 6), 6);
}

#[test]
#[ignore = "minutes: 300 WTHOR positions at 24 empties (run before a release)"]
fn wthor_three_hundred() {
    let years: Vec<u32> = ALL_YEARS.collect();
    assert!(check_wthor(&years, 450, 300) >= 300);
}

#[test]
#[ignore = "hours: every WTHOR game at 24 empties"]
fn wthor_all() {
    let years: Vec<u32> = ALL_YEARS.collect();
    check_wthor(&years, 1, usize::MAX);
}

#[test]
fn stopping_a_parallel_solve_keeps_bounds_sound_and_the_table_clean() {
    let problems = ffo("fforum-40-59.obf");
    let p = &problems[1]; // #41, value 0
    let mut o = opts(2);
    o.time_limit = Some(std::time::Duration::from_millis(150));
    let r = solve(&p.position, &o);
    assert!(r.lower <= 0 && 0 <= r.upper, "{r:?}");
    // The same options (time limit included) still solve the next, easy position.
    let easy = &ffo("fforum-1-19.obf")[0];
    o.time_limit = Some(std::time::Duration::from_secs(60));
    assert_eq!(solve(&easy.position, &o).score(), easy.best_score());
    // Whatever the interrupted search stored must not mislead a full solve that reuses it.
    let mut again = opts(2);
    again.tt = o.tt.clone();
    let r = solve(&p.position, &again);
    assert_eq!(r.score(), Some(0));
}

/// Monte Carlo move ordering changes the order, never a value or the move's optimality.
#[test]
fn monte_carlo_ordering_keeps_values_exact() {
    let problems = ffo("fforum-1-19.obf");
    for threads in [1, 2] {
        let mut o = opts(threads);
        o.mc_playouts = 300;
        for (i, p) in problems.iter().enumerate().take(6) {
            o.tt.clear();
            let r = solve(&p.position, &o);
            assert_eq!(r.score(), p.best_score(), "FFO #{} with MC ordering", i + 1);
            assert!(p.best_moves().contains(&Ply::Move(r.best_move.unwrap())), "FFO #{}", i + 1);
            assert_eq!(r.mc_playouts, 300);
        }
    }
}

/// The embedded weights plus a residual network of random values (an evaluation that
/// orders moves differently; see `solvo_eval::residual`, the lab's experiment).
#[cfg(feature = "residual")]
fn weights_with_random_net() -> solvo_eval::Weights {
    use solvo_eval::residual::{FloatNet, ResidualNet, NET_DISC_ROWS, NET_HIDDEN, NET_HIDDEN2};
    let mut rng = Rng::new(77);
    let mut u =
        |n: usize, scale: f64| -> Vec<f32> { (0..n).map(|_| ((rng.next_f64() * 2.0 - 1.0) * scale) as f32).collect() };
    let float = FloatNet {
        rows: u(solvo_eval::features::STAGE_LEN * NET_HIDDEN, 0.3),
        disc_rows: u(NET_DISC_ROWS * NET_HIDDEN, 1.0),
        w2: u(NET_HIDDEN2 * NET_HIDDEN, 0.5),
        b2: u(NET_HIDDEN2, 0.5),
        w3: u(NET_HIDDEN2, 2.0),
        b3: 0.0,
    };
    let mut w = solvo_eval::embedded(Variant::Normal).unwrap().clone();
    w.set_residual(Some(ResidualNet::quantize(&float).unwrap())).unwrap();
    w
}

/// The trained evaluation only orders moves: with it, without it, with zero weights
/// and (with the feature `residual`) with a residual network every window gives the
/// same value (random 8x8 positions, both variants).
#[test]
fn evaluation_ordering_never_changes_a_value() {
    let mut rng = Rng::new(2026);
    let zero = std::sync::Arc::new(solvo_eval::Weights::zeros(Variant::Normal));
    #[cfg(feature = "residual")]
    let netted = std::sync::Arc::new(weights_with_random_net());
    let mut checked = 0;
    while checked < 24 {
        let variant = if checked % 4 == 3 { Variant::Reversed } else { Variant::Normal };
        let Some(pos) = random_position(BoardSize::Eight, variant, 14 + (checked % 4) as u32, &mut rng) else {
            continue;
        };
        let mut with = SolveOptions::new(8);
        with.config.eval_order = 1;
        let reference = solve(&pos, &with).score();
        let mut without = SolveOptions::new(8);
        without.config.eval_order = 0;
        assert_eq!(solve(&pos, &without).score(), reference);
        let mut zeroed = SolveOptions::new(8);
        zeroed.config.eval_order = 1;
        zeroed.eval = Some(zero.clone());
        assert_eq!(solve(&pos, &zeroed).score(), reference);
        #[cfg(feature = "residual")]
        {
            let mut with_net = SolveOptions::new(8);
            with_net.config.eval_order = 1;
            with_net.config.net_order_empties = (checked % 3) as u32 * 8;
            with_net.eval = Some(netted.clone());
            assert_eq!(solve(&pos, &with_net).score(), reference);
        }
        for (lo, hi) in [(-1, 1), (0, 0), (-10, -2), (4, 20)] {
            with.tt.clear();
            with.window = Window { lo, hi };
            let r = solve(&pos, &with);
            let v = reference.unwrap();
            if (lo..=hi).contains(&v) {
                assert_eq!(r.score(), Some(v));
            } else {
                assert!(r.lower <= v && v <= r.upper);
            }
        }
        checked += 1;
    }
}

/// Issue 16 item 7: a solve under a limit searches by null-window probes; when the
/// limit is not reached it gives the exact value and a best move as the plain search
/// does, and when it is reached it reports bounds that hold and the move that proved
/// the lower one (not `>= -64` with no move).
#[test]
fn limited_solves_agree_and_report_partial_bounds() {
    let problems = ffo("fforum-1-19.obf");
    for (i, p) in problems.iter().enumerate().take(6) {
        let mut limited = opts(1);
        limited.node_budget = u64::MAX - 1;
        let r = solve(&p.position, &limited);
        assert_eq!(r.score(), p.best_score(), "FFO #{}", i + 1);
        assert!(p.best_moves().contains(&Ply::Move(r.best_move.unwrap())), "FFO #{}", i + 1);
    }
    let p = &problems[0];
    let mut stopped = opts(1);
    stopped.node_budget = 20_000;
    let r = solve(&p.position, &stopped);
    let value = p.best_score().unwrap();
    assert!(r.stopped && r.lower <= value && value <= r.upper, "{} <= {value} <= {}", r.lower, r.upper);
    assert!(r.lower > -64 && r.best_move.is_some(), "a stopped solve proves something: {r:?}");
}

/// `solve_from_estimate` reports what `solve` reports for the same window, whatever the
/// estimate: the exact value inside the window, a bound on the right side outside it.
#[test]
fn solving_from_an_estimate_matches_the_plain_solve() {
    use solvo_othello_search::{solve, solve_from_estimate, SolveOptions, Window};
    let mut pos = solvo_othello::Position::start(solvo_othello::BoardSize::Six, solvo_othello::Variant::Normal);
    for m in ["d3", "c5", "f6", "f5", "e6", "e3"] {
        pos = pos.play(solvo_othello::Square::parse(m).unwrap()).unwrap();
    }
    // Then the last legal move for 8 more plies: a position of about 18 empties.
    for _ in 0..8 {
        pos = match solvo_othello::Square::iter(pos.moves()).last() {
            Some(m) => pos.play(m).unwrap(),
            None => pos.passed(),
        };
    }
    let exact = solve(&pos, &SolveOptions::new(16)).score().unwrap();
    for window in [Window::FULL, Window { lo: -1, hi: 1 }, Window { lo: exact, hi: exact }, Window { lo: 10, hi: 20 }] {
        for guess in [-36, -5, 0, exact, 7, 36] {
            let mut o = SolveOptions::new(16);
            o.window = window;
            let r = solve_from_estimate(&pos, &o, guess, 2);
            assert!(r.lower <= exact && exact <= r.upper, "bounds {}..{} miss {exact}", r.lower, r.upper);
            if (window.lo..=window.hi).contains(&exact) {
                assert_eq!(r.score(), Some(exact), "window {window:?}, guess {guess}");
            } else if exact > window.hi {
                assert!(r.lower > window.hi, "window {window:?}, guess {guess}: {}..{}", r.lower, r.upper);
            } else {
                assert!(r.upper < window.lo, "window {window:?}, guess {guess}: {}..{}", r.lower, r.upper);
            }
        }
    }
}

/// The 6x6 evaluation (embedded for 6x6 normal rules) only orders moves: with it on
/// from 4 empties, values equal plain minimax on small positions, and on larger ones
/// the solve without it, window by window; an 8x8 set given for a 6x6 position is
/// left unused (the same value).
#[test]
fn six_by_six_evaluation_ordering_never_changes_a_value() {
    let six = solvo_eval::embedded_shared_for(BoardSize::Six, Variant::Normal).expect("embedded 6x6 weights");
    let mut rng = Rng::new(617);
    let mut checked = 0;
    while checked < 40 {
        let empties = 4 + (checked % 6) as u32;
        let Some(pos) = random_position(BoardSize::Six, Variant::Normal, empties, &mut rng) else { continue };
        let mut with = SolveOptions::new(1);
        with.config.eval_order = 1;
        with.config.set("shallow_order_empties", 4).unwrap();
        with.eval = Some(six.clone());
        let expected = minimax(pos.board, BoardSize::Six, Variant::Normal);
        assert_eq!(solve(&pos, &with).score(), Some(expected), "{pos:?}");
        checked += 1;
    }
    checked = 0;
    while checked < 16 {
        let empties = 14 + (checked % 6) as u32;
        let Some(pos) = random_position(BoardSize::Six, Variant::Normal, empties, &mut rng) else { continue };
        let mut without = SolveOptions::new(8);
        without.config.eval_order = 0;
        let reference = solve(&pos, &without).score().expect("exact");
        let mut with = SolveOptions::new(8);
        with.config.eval_order = 1;
        with.eval = Some(six.clone());
        let r = solve(&pos, &with);
        assert_eq!(r.score(), Some(reference));
        assert!(r.ordering_nodes > 0);
        let mut foreign = SolveOptions::new(8);
        foreign.config.eval_order = 1;
        foreign.eval = Some(solvo_eval::embedded_shared(Variant::Normal).unwrap());
        assert_eq!(solve(&pos, &foreign).score(), Some(reference));
        for (lo, hi) in [(-1, 1), (0, 0), (-10, -2), (4, 20)] {
            with.tt.clear();
            with.window = Window { lo, hi };
            let r = solve(&pos, &with);
            if (lo..=hi).contains(&reference) {
                assert_eq!(r.score(), Some(reference));
            } else {
                assert!(r.lower <= reference && reference <= r.upper);
            }
        }
        checked += 1;
    }
}

/// A limited solve (its null-window probes) of a position lost by the whole board,
/// the lowest value there is, still names a move when the side to move has one: every
/// probe fails low there, so no probe ever proved a move, and a solve under a clock
/// answered "no move" (a pass with a legal move on the board).
#[test]
fn a_limited_solve_of_a_position_lost_by_the_whole_board_names_a_move() {
    let mut rng = Rng::new(7);
    let mut found = 0;
    for _ in 0..20_000 {
        // A random 4x4 game, stopped at a random ply.
        let mut pos = Position::start(BoardSize::Four, Variant::Normal);
        let stop_at = rng.below(12);
        for _ in 0..stop_at {
            let moves: Vec<Square> = Square::iter(pos.moves()).collect();
            pos = match moves.is_empty() {
                true if pos.is_game_over() => break,
                true => pos.passed(),
                false => pos.play(rng.pick(&moves)).unwrap(),
            };
        }
        if pos.moves() == 0 || solve(&pos, &opts(1)).score() != Some(-16) {
            continue;
        }
        let mut limited = opts(1);
        limited.node_budget = u64::MAX - 1;
        let r = solve(&pos, &limited);
        assert_eq!(r.score(), Some(-16));
        let m = r.best_move.expect("a legal move to play");
        assert!(pos.moves() & m.bit() != 0);
        found += 1;
        if found == 5 {
            return;
        }
    }
    panic!("only {found} positions lost by the whole board found");
}
