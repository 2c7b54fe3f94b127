//! The selective ladder orders the exact solver and nothing more: with its hints (of any
//! depth, or only the deep enough ones), on 1 and 2 threads (hints that lie:
//! `exact::hints`'s unit test), every exact value equals the plain solve's.

use solvo_core::rng::Rng;
use solvo_othello::square::Square;
use solvo_othello::{BoardSize, Position, Variant};
use solvo_othello_search::SelectiveSearch;
use solvo_othello_search::Selectivity;
use solvo_othello_search::{climb, climb_with, Ladder, LadderMode, LadderOptions};
use solvo_othello_search::{solve, SolveOptions};

/// `count` positions with `empties` empties from random games (seeded).
fn positions(seed: u64, count: usize, empties: u32) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Position::start(BoardSize::Eight, Variant::Normal);
        while pos.empties() > empties && !pos.is_game_over() {
            let moves: Vec<Square> = Square::iter(pos.moves()).collect();
            pos = if moves.is_empty() { pos.passed() } else { pos.play(rng.pick(&moves)).unwrap() };
        }
        if !pos.is_game_over() && pos.moves() != 0 {
            out.push(pos);
        }
    }
    out
}

#[test]
fn the_ladder_never_changes_an_exact_value() {
    let weights = solvo_eval::embedded_shared(Variant::Normal).expect("embedded weights");
    assert!(!weights.mpc.is_empty(), "the embedded weights carry Multi-ProbCut statistics");
    for (i, pos) in positions(17, 6, 18).iter().enumerate() {
        let plain = SolveOptions::new(16);
        let expected = solve(pos, &plain).score().expect("exact");
        for percent in [73, 95] {
            let options = LadderOptions {
                selectivity: Selectivity::from_percent(percent).unwrap(),
                hash_mb: 8,
                ..LadderOptions::default()
            };
            let climbed = climb(weights.clone(), pos, &options).expect("an 8x8 normal position");
            for threads in [1, 2] {
                // Hints from entries of any depth, and only from entries at most 2 plies
                // short of the node's empties.
                for (eval_order, shortfall) in [(0, 64), (1, 2)] {
                    let mut o = SolveOptions::new(16);
                    o.threads = threads;
                    o.config.eval_order = eval_order;
                    o.config.hint_max_shortfall = shortfall;
                    o.hints = Some(climbed.hints.clone());
                    let r = solve(pos, &o);
                    assert_eq!(r.score(), Some(expected), "position {i}, ladder {percent}%, {threads} threads");
                    assert!(r.best_move.is_some_and(|m| pos.moves() & m.bit() != 0));
                }
            }
        }
    }
}

#[test]
fn a_ladder_for_another_variant_is_an_error() {
    let weights = solvo_eval::embedded_shared(Variant::Normal).expect("embedded weights");
    let pos = Position::start(BoardSize::Eight, Variant::Reversed);
    assert!(climb(weights, &pos, &LadderOptions::default()).is_err());
}

#[test]
fn a_reused_searcher_climbs_as_a_fresh_one_and_a_ladder_solves_the_same() {
    let weights = solvo_eval::embedded_shared(Variant::Normal).expect("embedded weights");
    let options = LadderOptions { hash_mb: 8, ..LadderOptions::default() };
    let mut reused = SelectiveSearch::new(weights.clone(), options.hash_mb);
    let ladder = Ladder::new(LadderMode::Level(options.selectivity), Some(weights.clone()), options, 2);
    for (i, pos) in positions(29, 4, 18).iter().enumerate() {
        let fresh = climb(weights.clone(), pos, &options).expect("an 8x8 normal position");
        let again = climb_with(&mut reused, pos, &options).expect("an 8x8 normal position");
        assert_eq!(
            (fresh.estimate, fresh.depth, fresh.nodes),
            (again.estimate, again.depth, again.nodes),
            "position {i}: the reused table was not cleared"
        );
        let expected = solve(pos, &SolveOptions::new(16)).score();
        // Twice: the second solve climbs on the table the first one filled.
        for _ in 0..2 {
            assert_eq!(ladder.solve(pos, &SolveOptions::new(16)).score(), expected, "position {i}");
        }
    }
}

/// A climb table no system can give (2^60 bytes): a standalone climb is an
/// out-of-memory error, not a panic, and a ladder solve, whose climb searches on the
/// solve's own table whatever `hash_mb` says, gives the same value.
#[test]
fn a_climb_table_the_system_refuses_is_an_error_and_the_solve_goes_on() {
    let weights = solvo_eval::embedded_shared(Variant::Normal).expect("embedded weights");
    let pos = positions(5, 1, 18)[0];
    let huge = LadderOptions { hash_mb: 1 << 40, ..LadderOptions::default() };
    let e = climb(weights.clone(), &pos, &huge).map(|_| ()).expect_err("no such table");
    assert!(matches!(e, solvo_othello_search::SearchError::OutOfMemory(_)), "{e:?}");
    assert!(SelectiveSearch::try_new(weights.clone(), 1 << 40).is_err());
    let plain = solve(&pos, &SolveOptions::new(16)).score().expect("exact");
    let ladder = Ladder::new(LadderMode::Auto, Some(weights), huge, 0);
    assert_eq!(ladder.solve(&pos, &SolveOptions::new(16)).score(), Some(plain));
}

#[test]
fn the_default_solve_climbs_and_agrees_with_the_plain_exact_search() {
    use solvo_othello_search::internals::solve_without_ladder;
    for (i, pos) in positions(29, 4, 19).iter().enumerate() {
        let options = SolveOptions::new(16);
        let plain = solve_without_ladder(pos, &SolveOptions::new(16));
        let best = solve(pos, &options);
        assert_eq!(best.score(), plain.score(), "position {i}");
        assert!(best.ordering_nodes > plain.ordering_nodes, "position {i}: the default solve climbed the ladder");
        let mut off = SolveOptions::new(16);
        off.ladder = std::sync::Arc::new(Ladder::off());
        let r = solve(pos, &off);
        assert_eq!((r.score(), r.nodes), (plain.score(), plain.nodes), "position {i}: ladder off is the plain search");
    }
}

#[test]
fn a_stop_raised_during_the_climb_stops_the_solve() {
    // 24 empties: the climb alone takes a second or more; the stop comes 20 ms in.
    let pos = positions(41, 1, 24).remove(0);
    let options = SolveOptions::new(16);
    let stop = options.stop.clone();
    let raiser = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(20));
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
    });
    let r = solve(&pos, &options);
    raiser.join().unwrap();
    assert!(r.stopped, "the solve reports it was stopped");
    assert!(r.lower <= r.upper);
    // A climb that ran on would have searched as many nodes as a whole one.
    let weights = solvo_eval::embedded_shared(Variant::Normal).expect("embedded weights");
    let whole = climb(weights, &pos, &LadderOptions { hash_mb: 16, ..LadderOptions::default() }).unwrap();
    assert!(r.ordering_nodes < whole.nodes / 4, "{} climb nodes of {}", r.ordering_nodes, whole.nodes);
}

/// A climb that ends on a wipe-out leaves moves that lead anywhere the evaluation's clamp
/// is reached: the solve's exact pass ignores them (it reads proven entries only). On
/// this 34-empty wipe-out (`crates/solvo-pipeline/tests/data/wthor-34.obf`, line 11) the
/// exact pass that followed them took 968 M nodes; ignoring them it takes about 70 K, and
/// the plain search 16 M (node counts on 1 thread are the same on every run).
#[test]
fn a_wipe_out_climb_does_not_order_the_exact_pass() {
    let board = "--------------XO------OX---OOOXX--OOOOOX--OOOOOX---XXX-X--XXXXX- X";
    let pos = solvo_othello::formats::board_string::parse_position(board, Some(BoardSize::Eight), Variant::Normal)
        .expect("a board string");
    let r = Ladder::auto().solve(&pos, &SolveOptions::new(64));
    assert_eq!(r.score(), Some(64));
    assert!(r.nodes < 10_000_000, "{} nodes after the climb", r.nodes);
}

/// `LadderMode::Auto` climbs for wide windows only: a null-window or win/draw/loss solve
/// is the plain search, node for node (the pipeline asks thousands of them, each cheap
/// beside a climb), and a full-window solve climbs.
#[test]
fn narrow_windows_do_not_climb() {
    use solvo_othello_search::internals::solve_without_ladder;
    use solvo_othello_search::{Window, AUTO_MIN_WINDOW};
    let pos = &positions(23, 1, 20)[0];
    for window in [Window { lo: 0, hi: 1 }, Window { lo: -1, hi: 1 }, Window { lo: -1, hi: 1 + AUTO_MIN_WINDOW }] {
        let mut o = SolveOptions::new(16);
        o.window = window;
        let climbed = Ladder::auto().solve(pos, &o);
        let mut o = SolveOptions::new(16);
        o.window = window;
        let plain = solve_without_ladder(pos, &o);
        assert_eq!((climbed.lower, climbed.upper), (plain.lower, plain.upper), "{window:?}");
        let narrow = window.hi - window.lo < AUTO_MIN_WINDOW;
        assert_eq!(
            climbed.nodes == plain.nodes && climbed.ordering_nodes == plain.ordering_nodes,
            narrow,
            "{window:?}"
        );
    }
}

/// The published 8x8 solver's first choice, a climb whose iterations search the whole
/// window (`LadderOptions::aspiration` false, in a solve `ExactConfig::climb_aspiration`
/// off, `--tune climb_aspiration=0`): the same exact values as the default climb, which
/// iterates in aspiration windows, from climbs that did search otherwise (the climb's
/// nodes differ on at least one position, standalone and within the solve).
#[test]
fn a_climb_without_aspiration_solves_to_the_same_values() {
    let weights = solvo_eval::embedded_shared(Variant::Normal).expect("embedded weights");
    let (mut climbs_differ, mut solves_differ) = (false, false);
    for (i, pos) in positions(31, 4, 19).iter().enumerate() {
        let options = LadderOptions { hash_mb: 8, ..LadderOptions::default() };
        let with = climb(weights.clone(), pos, &options).expect("an 8x8 normal position");
        let without = climb(weights.clone(), pos, &LadderOptions { aspiration: false, ..options }).unwrap();
        climbs_differ |= with.nodes != without.nodes;
        let default = solve(pos, &SolveOptions::new(16));
        let mut o = SolveOptions::new(16);
        o.config.set("climb_aspiration", 0).expect("a search switch");
        let full = solve(pos, &o);
        assert_eq!(full.score(), default.score(), "position {i}");
        assert!(full.best_move.is_some_and(|m| pos.moves() & m.bit() != 0), "position {i}");
        solves_differ |= full.ordering_nodes != default.ordering_nodes;
    }
    assert!(climbs_differ && solves_differ, "the switch changed no climb");
}
