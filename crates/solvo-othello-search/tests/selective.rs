//! The midgame search against brute force: plain negamax on the evaluation at small
//! depths, 1 thread against 2, the exact solver when the depth reaches the end.

use solvo_core::rng::Rng;
use solvo_eval::features::STAGE_LEN;
use solvo_eval::{MpcStat, Weights, NUM_STAGES, SCALE};
use solvo_othello::moves::legal_moves;
use solvo_othello::rules::Rules;
use solvo_othello::square::Square;
use solvo_othello::{BoardSize, Position, Variant};
use solvo_othello_search::{SearchLimits, SelectiveSearch, Selectivity};
use std::sync::atomic::Ordering;
use std::sync::Arc;

/// Weights with random entries: an arbitrary but fixed evaluation.
fn random_weights(seed: u64) -> Weights {
    let mut rng = Rng::new(seed);
    let table = (0..NUM_STAGES * STAGE_LEN).map(|_| rng.below(401) as i16 - 200).collect();
    Weights::from_table(Variant::Normal, table).unwrap()
}

/// A position after `plies` random moves from the start (passes when forced), or
/// `None` if the game ended first.
fn random_position(rng: &mut Rng, plies: usize) -> Option<Position> {
    let mut pos = Position::start(BoardSize::Eight, Variant::Normal);
    for _ in 0..plies {
        if pos.is_game_over() {
            return None;
        }
        let moves: Vec<Square> = Square::iter(pos.moves()).collect();
        pos = if moves.is_empty() { pos.passed() } else { pos.play(rng.pick(&moves)).unwrap() };
    }
    (!pos.is_game_over()).then_some(pos)
}

/// `count` positions after `min_plies..min_plies + spread` random moves, from `seed`.
fn positions(seed: u64, count: usize, min_plies: usize, spread: usize) -> Vec<Position> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let plies = min_plies + rng.below(spread);
        out.extend(random_position(&mut rng, plies));
    }
    out
}

/// Negamax on the evaluation to `depth` (passes free, finished games exact).
fn negamax(w: &Weights, p: u64, o: u64, depth: u32) -> i32 {
    let rules = Rules::new(BoardSize::Eight, Variant::Normal);
    if depth == 0 {
        return if p | o == u64::MAX { rules.final_score(p, o) * SCALE } else { w.evaluate(p, o) };
    }
    let moves = legal_moves(p, o, u64::MAX);
    if moves == 0 {
        if legal_moves(o, p, u64::MAX) == 0 {
            return rules.final_score(p, o) * SCALE;
        }
        return -negamax(w, o, p, depth);
    }
    Square::iter(moves)
        .map(|sq| {
            let f = solvo_othello::flips::flips(sq.index(), p, o);
            -negamax(w, o ^ f, p ^ f ^ sq.bit(), depth - 1)
        })
        .max()
        .unwrap()
}

fn limits(depth: u32) -> SearchLimits {
    SearchLimits { depth, ..SearchLimits::default() }
}

/// Searches each of `positions` to each of `depths` below its empties without
/// selectivity (weights from `seed`) and checks the negamax value, the depth and a legal
/// move.
fn check_negamax_values(seed: u64, positions: &[Position], depths: &[u32]) {
    let w = random_weights(seed);
    let mut search = SelectiveSearch::new(Arc::new(w.clone()), 4);
    for pos in positions {
        let (p, o) = (pos.board.player, pos.board.opponent);
        for &depth in depths.iter().filter(|&&d| d < pos.empties()) {
            let r = search.search(pos, &limits(depth)).unwrap();
            assert_eq!(r.score_units, negamax(&w, p, o, depth), "depth {depth} of {pos:?}");
            assert_eq!(r.depth, depth);
            assert!(r.best_move.is_none_or(|m| pos.moves() & m.bit() != 0));
        }
    }
}

#[test]
fn without_selectivity_the_score_is_the_negamax_value() {
    check_negamax_values(7, &positions(11, 40, 8, 40), &[1, 2, 3, 4]);
}

/// Negamax as [`negamax`], but positions below the root with at most `solve` empties
/// count at their exact value (brute force to the end of the game).
fn negamax_solving(w: &Weights, p: u64, o: u64, depth: u32, solve: u32, root: bool) -> i32 {
    let empties = 64 - (p | o).count_ones();
    if !root && empties <= solve {
        return negamax(w, p, o, empties + 1);
    }
    if depth == 0 {
        return negamax(w, p, o, 0);
    }
    let moves = legal_moves(p, o, u64::MAX);
    if moves == 0 {
        if legal_moves(o, p, u64::MAX) == 0 {
            return negamax(w, p, o, 0);
        }
        return -negamax_solving(w, o, p, depth, solve, false);
    }
    Square::iter(moves)
        .map(|sq| {
            let f = solvo_othello::flips::flips(sq.index(), p, o);
            -negamax_solving(w, o ^ f, p ^ f ^ sq.bit(), depth - 1, solve, false)
        })
        .max()
        .unwrap()
}

#[test]
fn solving_small_positions_gives_their_exact_values_at_the_leaves() {
    // Positions of 9-13 empties searched 1-4 plies short of the end, with positions of
    // at most 6 (or 8) empties valued exactly: the negamax whose leaves there are the
    // game's exact results. Negamax to `empties + 1` plies reaches every game's end.
    let w = random_weights(21);
    let mut search = SelectiveSearch::new(Arc::new(w.clone()), 4);
    for (i, pos) in positions(23, 24, 47, 5).iter().enumerate() {
        let (p, o) = (pos.board.player, pos.board.opponent);
        let solve = if i % 2 == 0 { 6 } else { 8 };
        for depth in [1, 2, 3, 4].into_iter().filter(|&d| d < pos.empties()) {
            let limits = SearchLimits { depth, solve_empties: solve, ..SearchLimits::default() };
            let r = search.search(pos, &limits).unwrap();
            let want = negamax_solving(&w, p, o, depth, solve, true);
            assert_eq!(r.score_units, want, "depth {depth}, solving from {solve} empties, {pos:?}");
            assert!(r.best_move.is_none_or(|m| pos.moves() & m.bit() != 0));
        }
    }
}

#[test]
fn deep_enough_for_transposition_cuts_the_score_is_still_the_negamax_value() {
    // Depths 9 and 10 near the end (branching is small there): null-window nodes of 8
    // plies and more look their children up in the table first (`ETC_MIN_DEPTH`).
    check_negamax_values(9, &positions(13, 4, 47, 2), &[9, 10]);
}

#[test]
fn all_moves_scores_every_move_with_its_negamax_value() {
    let w = random_weights(8);
    let mut search = SelectiveSearch::new(Arc::new(w.clone()), 4);
    for pos in positions(12, 10, 20, 20) {
        if pos.moves() == 0 {
            continue;
        }
        let r = search.search(&pos, &SearchLimits { all_moves: true, ..limits(3) }).unwrap();
        assert_eq!(r.move_scores.len(), pos.moves().count_ones() as usize);
        for m in &r.move_scores {
            let child = pos.play(m.square).unwrap();
            let want = -negamax(&w, child.board.player, child.board.opponent, 2);
            assert_eq!((m.score * f64::from(SCALE)).round() as i32, want);
        }
        assert_eq!(r.score, r.move_scores[0].score);
    }
}

#[test]
fn two_threads_give_the_score_of_one() {
    // Depth 8: null-window nodes of `SPLIT_MIN_DEPTH` plies and more split over the two
    // threads, which changes the order of their children, never the value.
    const { assert!(solvo_othello_search::internals::SPLIT_MIN_DEPTH < 8) };
    let w = Arc::new(random_weights(9));
    let mut one = SelectiveSearch::new(w.clone(), 8);
    let mut two = SelectiveSearch::new(w, 8);
    for pos in positions(13, 6, 14, 20) {
        let a = one.search(&pos, &limits(8)).unwrap();
        let b = two.search(&pos, &SearchLimits { threads: 2, ..limits(8) }).unwrap();
        assert_eq!(a.score_units, b.score_units, "{pos:?}");
        let every = SearchLimits { threads: 2, all_moves: true, ..limits(5) };
        let c = two.search(&pos, &every).unwrap();
        let d = one.search(&pos, &SearchLimits { threads: 1, ..every }).unwrap();
        let sorted = |r: &solvo_othello_search::SearchResult| {
            let mut v: Vec<_> = r.move_scores.iter().map(|m| (m.square, m.score.to_bits())).collect();
            v.sort();
            v
        };
        assert_eq!(sorted(&c), sorted(&d), "all moves of {pos:?}");
    }
}

#[test]
fn reaching_the_end_gives_the_exact_score() {
    let w = Arc::new(random_weights(10));
    let mut search = SelectiveSearch::new(w, 8);
    for pos in positions(14, 6, 46, 4) {
        let exact = exact_value(&pos);
        let r = search.search(&pos, &SearchLimits { all_moves: true, ..limits(pos.empties()) }).unwrap();
        assert!(r.exact);
        assert_eq!(r.score_units, exact * SCALE);
        if pos.moves() != 0 {
            assert_eq!(r.move_scores[0].score, f64::from(exact));
        }
    }
}

/// `wld_from`: a won or drawn position plays a move that keeps its outcome and reports a
/// score in the proven range; a lost one keeps the midgame search's move, scored below 0.
#[test]
fn proving_the_outcome_plays_a_proven_move() {
    let w = Arc::new(random_weights(15));
    let mut search = SelectiveSearch::new(w, 8);
    let (mut won, mut drawn, mut lost) = (0, 0, 0);
    for pos in positions(16, 40, 44, 6) {
        if pos.moves() == 0 {
            continue;
        }
        let value = exact_value(&pos);
        let mid = search.search(&pos, &limits(4)).unwrap();
        let r = search.search(&pos, &SearchLimits { wld_from: pos.empties(), ..limits(4) }).unwrap();
        let mv = r.best_move.unwrap();
        let after = -exact_value(&pos.play(mv).unwrap());
        assert!(!r.exact, "{pos:?}");
        match value.signum() {
            1 => {
                won += 1;
                assert!(after > 0 && r.score >= 1.0, "{pos:?}: {mv} leads to {after}, score {}", r.score);
            }
            0 => {
                drawn += 1;
                assert!(after == 0 && r.score == 0.0, "{pos:?}: {mv} leads to {after}, score {}", r.score);
            }
            _ => {
                lost += 1;
                assert_eq!(r.best_move, mid.best_move, "{pos:?}");
                assert!(r.score <= -1.0, "{pos:?}: score {}", r.score);
            }
        }
    }
    assert!(won > 0 && lost > 0, "won {won}, drawn {drawn}, lost {lost}");
}

#[test]
fn stopping_returns_the_last_completed_iteration() {
    let w = Arc::new(random_weights(11));
    let mut search = SelectiveSearch::new(w, 4);
    let stop = search.stop_flag();
    let pos = random_position(&mut Rng::new(15), 20).unwrap();
    let mut seen = Vec::new();
    let r = search
        .search_with(&pos, &limits(30), &mut |r| {
            seen.push(r.depth);
            if r.depth == 4 {
                stop.store(true, Ordering::Relaxed);
            }
        })
        .unwrap();
    // Two plies at a time: the depths of the target's parity.
    assert_eq!(seen, [1, 2, 4]);
    assert_eq!(r.depth, 4);
    assert!(r.stopped);
}

#[test]
fn iterations_go_two_plies_at_a_time_unless_every_depth_is_asked() {
    let w = Arc::new(random_weights(11));
    let mut search = SelectiveSearch::new(w, 4);
    let pos = random_position(&mut Rng::new(15), 20).unwrap();
    let mut depths = |limits: SearchLimits| {
        let mut seen = Vec::new();
        let r = search.search_with(&pos, &limits, &mut |r| seen.push(r.depth)).unwrap();
        assert_eq!(r.depth, limits.depth);
        seen
    };
    assert_eq!(depths(limits(5)), [1, 3, 5]);
    assert_eq!(depths(limits(6)), [1, 2, 4, 6]);
    assert_eq!(depths(SearchLimits { every_depth: true, ..limits(5) }), [1, 2, 3, 4, 5]);
}

/// `w` with Multi-ProbCut statistics (mean 0, spread 2 discs) for every deep depth
/// from 3 to 20 at each of `stages` (empties).
fn with_flat_statistics(mut w: Weights, stages: impl Iterator<Item = u8>) -> Weights {
    for empties in stages {
        for deep in 3..=20u32 {
            let shallow = solvo_othello_search::internals::probe_depth(deep) as u8;
            w.mpc.push(MpcStat { empties, shallow, deep: deep as u8, mean: 0.0, sigma: 2.0 });
        }
    }
    w
}

#[test]
fn selective_search_runs_and_plays_a_legal_move() {
    let w = with_flat_statistics(random_weights(12), (10..=58).step_by(4));
    let mut search = SelectiveSearch::new(Arc::new(w), 4);
    assert!(search.has_mpc());
    let mut rng = Rng::new(16);
    for _ in 0..5 {
        let Some(pos) = random_position(&mut rng, 20) else { continue };
        for percent in [73, 95, 100] {
            let sel = Selectivity::from_percent(percent).unwrap();
            let r = search.search(&pos, &SearchLimits { selectivity: sel, ..limits(7) }).unwrap();
            assert!(pos.moves() & r.best_move.unwrap().bit() != 0);
            assert_eq!(r.selectivity, percent);
        }
    }
}

#[test]
fn a_timed_search_reaching_solved_positions_climbs_to_the_exact_value() {
    // Depth `empties - 1` with positions of 8 empties solved ends every line in an
    // exact value; under a time limit the search then climbs the selectivity levels,
    // and at 100% its value is the exact score. Without a time limit it stays at 73%,
    // and a node limit spent by the first level ends the climb there.
    let w = Arc::new(with_flat_statistics(random_weights(31), (6..=20).step_by(2)));
    let mut search = SelectiveSearch::new(w.clone(), 4);
    let sel = Selectivity::from_percent(73).unwrap();
    for pos in positions(37, 4, 45, 3) {
        let fixed = SearchLimits { selectivity: sel, solve_empties: 8, ..limits(pos.empties() - 1) };
        assert_eq!(search.search(&pos, &fixed).unwrap().selectivity, 73, "{pos:?}");
        let timed = SearchLimits { time: Some(std::time::Duration::from_secs(600)), ..fixed };
        let r = search.search(&pos, &timed).unwrap();
        assert_eq!((r.selectivity, r.depth), (100, pos.empties() - 1), "{pos:?}");
        assert_eq!(r.score_units, exact_value(&pos) * SCALE, "{pos:?}");
        assert!(pos.moves() & r.best_move.unwrap().bit() != 0);
        // Fresh tables: the same first level, then one node left for the climb.
        let first = SelectiveSearch::new(w.clone(), 4).search(&pos, &fixed).unwrap();
        let nodes = Some(first.nodes + 1);
        let r = SelectiveSearch::new(w.clone(), 4).search(&pos, &SearchLimits { nodes, ..timed }).unwrap();
        assert_eq!((r.selectivity, r.score_units), (73, first.score_units), "{pos:?}");
    }
}

#[test]
fn without_statistics_the_search_is_exact_and_says_so() {
    let mut search = SelectiveSearch::new(Arc::new(random_weights(2)), 1);
    let pos = positions(17, 1, 20, 4).remove(0);
    let selective = SearchLimits { selectivity: Selectivity::from_percent(73).unwrap(), ..limits(4) };
    let r = search.search(&pos, &selective).unwrap();
    assert_eq!(r.selectivity, 100);
    assert_eq!(r.score_units, search.search(&pos, &limits(4)).unwrap().score_units);
}

#[test]
fn bad_requests_are_errors() {
    let mut search = SelectiveSearch::new(Arc::new(random_weights(1)), 1);
    let start = Position::start(BoardSize::Eight, Variant::Normal);
    assert!(search.search(&start, &limits(0)).is_err());
    assert!(search.search(&start, &SearchLimits { threads: 0, ..limits(2) }).is_err());
    assert!(search.search(&Position::start(BoardSize::Six, Variant::Normal), &limits(2)).is_err());
    assert!(search.search(&Position::start(BoardSize::Eight, Variant::Reversed), &limits(2)).is_err());
}

#[test]
fn a_searcher_can_move_to_and_be_shared_with_other_threads() {
    fn send_sync<T: Send + Sync>() {}
    send_sync::<SelectiveSearch>();
}

/// The exact value of `pos` (side to move's final disc difference).
fn exact_value(pos: &Position) -> i32 {
    solvo_othello_search::solve(pos, &solvo_othello_search::SolveOptions::new(8)).score().unwrap()
}

#[test]
fn pv_extension_makes_every_all_moves_score_exact() {
    // Every root move is searched as a PV node at ply 1 in all-moves mode: with an
    // extension covering its empties, each score is the move's exact value, although
    // the depth stops far from the end.
    // On 2 threads the helper joins the main thread's solves at their split points.
    let w = Arc::new(random_weights(21));
    let mut search = SelectiveSearch::new(w, 8);
    for (threads, depth) in [(1, 3), (2, 3), (2, 5)] {
        for pos in positions(22, 6, 44, 4) {
            if pos.moves() == 0 || pos.empties() <= depth {
                continue;
            }
            let limits = SearchLimits { all_moves: true, pv_extension: pos.empties(), threads, ..limits(depth) };
            let r = search.search(&pos, &limits).unwrap();
            assert!(!r.exact, "the root itself is searched to depth {depth}");
            for m in &r.move_scores {
                let child = pos.play(m.square).unwrap();
                assert_eq!(m.score, f64::from(-exact_value(&child)), "{} of {pos:?}, {threads} threads", m.square);
            }
            assert_eq!(r.score, f64::from(exact_value(&pos)), "{threads} threads");
        }
    }
}

#[test]
fn pv_extension_solves_within_any_window_fail_soft() {
    // `pvs` at a PV node covered by the extension: inside the window the exact value
    // (in search units), outside a bound on the correct side, for windows whose ends
    // fall between two disc values too.
    use solvo_othello_search::internals::SelectiveSearcher;
    let w = random_weights(23);
    let mut rng = Rng::new(24);
    with_context(&w, 14, None, |ctx| {
        for pos in positions(25, 12, 48, 6) {
            let want = exact_value(&pos) * SCALE;
            for _ in 0..6 {
                let alpha = rng.below(40 * SCALE as usize) as i32 - 20 * SCALE;
                let beta = alpha + 1 + rng.below(6 * SCALE as usize) as i32;
                let mut s = SelectiveSearcher::new(ctx);
                let v = s.pvs(pos.board.player, pos.board.opponent, alpha, beta, 2, 1, true);
                if want <= alpha {
                    assert!(want <= v && v <= alpha, "fail low {v} for {want} in ({alpha}, {beta})");
                } else if want >= beta {
                    assert!(beta <= v && v <= want, "fail high {v} for {want} in ({alpha}, {beta})");
                } else {
                    assert_eq!(v, want, "({alpha}, {beta})");
                }
                assert!(s.nodes > 0);
            }
        }
    });
}

#[test]
fn pv_extension_solves_obey_the_node_limit() {
    // A wide extension on a 24-empty position would solve 20-empty positions exactly:
    // the node limit still ends the search near it.
    let w = Arc::new(random_weights(26));
    let mut search = SelectiveSearch::new(w, 8);
    let pos = positions(27, 1, 36, 1).remove(0);
    assert_eq!(pos.empties(), 24);
    let limits = SearchLimits { pv_extension: 20, nodes: Some(200_000), ..limits(12) };
    let r = search.search(&pos, &limits).unwrap();
    assert!(r.stopped);
    assert!(r.nodes < 400_000, "{} nodes for a limit of 200,000", r.nodes);
    assert!(pos.moves() & r.best_move.unwrap().bit() != 0);
}

#[test]
fn weights_of_another_board_size_are_refused_not_used() {
    let six = solvo_eval::embedded_shared_for(BoardSize::Six, Variant::Normal).expect("embedded 6x6 weights");
    let mut search = SelectiveSearch::new(six, 4);
    let pos = Position::start(BoardSize::Eight, Variant::Normal);
    let limits = SearchLimits { depth: 2, ..SearchLimits::default() };
    let e = search.search(&pos, &limits).expect_err("6x6 weights on an 8x8 board").to_string();
    assert!(e.contains("6x6") && e.contains("8x8"), "{e}");
}

/// A context for searches driven by hand (`internals`), with the given PV extension
/// (its solves on the search's one table, as a search has) and split points.
fn with_context<R>(
    w: &solvo_eval::Weights,
    pv_extension: u32,
    shared: Option<&solvo_othello_search::internals::SelectiveShared>,
    run: impl FnOnce(&solvo_othello_search::internals::Context) -> R,
) -> R {
    use solvo_othello_search::internals::{Context, MpcTable};
    use std::sync::atomic::{AtomicBool, AtomicU64};
    let mpc = MpcTable::new(w);
    let tt = solvo_othello_search::SearchTable::new(1 << 22);
    let (stop, quit, helper_nodes) = (AtomicBool::new(false), AtomicBool::new(false), AtomicU64::new(0));
    let ctx = Context {
        weights: w,
        rules: Rules::new(BoardSize::Eight, Variant::Normal),
        tt: &tt,
        mpc: &mpc,
        stop: &stop,
        quit: &quit,
        helper_nodes: &helper_nodes,
        exact_tt: (pv_extension > 0).then_some(&tt),
        pv_extension,
        solve_empties: 0,
        shared,
        exact_shared: None,
    };
    run(&ctx)
}

/// The value of `pvs` at the root of `pos` to `depth` at `selectivity`, on the calling
/// thread and, with `shared`, a helper thread that serves its split points.
fn two_thread_value(
    w: &solvo_eval::Weights,
    pos: &Position,
    depth: u32,
    selectivity: Selectivity,
    shared: Option<&solvo_othello_search::internals::SelectiveShared>,
) -> (i32, u64) {
    use solvo_othello_search::internals::SelectiveSearcher;
    with_context(w, 0, shared, |ctx| {
        std::thread::scope(|scope| {
            let helper = shared.map(|_| {
                scope.spawn(move || {
                    let mut h = SelectiveSearcher::new(ctx);
                    h.helper = true;
                    h.set_selectivity(selectivity);
                    h.serve();
                    h.nodes
                })
            });
            let mut s = SelectiveSearcher::new(ctx);
            s.set_selectivity(selectivity);
            let inf = 65 * SCALE;
            let v = s.pvs(pos.board.player, pos.board.opponent, -inf, inf, depth, 0, true);
            assert!(!s.aborted);
            ctx.quit.store(true, Ordering::Relaxed);
            let helped = helper.map_or(0, |h| h.join().unwrap());
            (v, helped)
        })
    })
}

#[test]
fn two_threads_searching_to_the_end_find_the_exact_value() {
    // Every null-window node of 2 plies and more splits: the searches of the helper
    // thread, merged at the split points, still give the exact value at full selectivity.
    let w = random_weights(31);
    let shared = solvo_othello_search::internals::SelectiveShared::new(2);
    let mut helped = 0;
    for pos in positions(32, 6, 45, 3) {
        let empties = pos.empties();
        let (v, n) = two_thread_value(&w, &pos, empties, Selectivity::EXACT, Some(&shared));
        assert_eq!(v, exact_value(&pos) * SCALE, "{pos:?}");
        shared.quit.store(false, Ordering::Relaxed);
        helped += n;
    }
    assert!(helped > 0, "the helper searched nothing");
}

#[test]
fn two_threads_at_a_fixed_depth_give_a_legal_line_and_at_full_selectivity_the_negamax_value() {
    // Without cuts the split points change the order of the children only: the value
    // is the one thread's. With Multi-ProbCut the cuts depend on the windows and on the
    // table, which the threads fill in another order, so no bound ties the two values:
    // what must hold is a legal best move, a legal principal variation starting with
    // it and a score on the scale of disc differences.
    let w = solvo_eval::embedded(Variant::Normal).unwrap().clone();
    let shared = solvo_othello_search::internals::SelectiveShared::new(3);
    for pos in positions(33, 4, 20, 10) {
        let (one, _) = two_thread_value(&w, &pos, 9, Selectivity::EXACT, None);
        let (two, _) = two_thread_value(&w, &pos, 9, Selectivity::EXACT, Some(&shared));
        shared.quit.store(false, Ordering::Relaxed);
        assert_eq!(one, two, "{pos:?}");
    }
    let mut search = SelectiveSearch::new(Arc::new(w), 16);
    let selectivity = Selectivity::from_percent(73).unwrap();
    for pos in positions(34, 6, 16, 20) {
        let r = search.search(&pos, &SearchLimits { threads: 2, selectivity, ..limits(10) }).unwrap();
        let best = r.best_move.expect("a move");
        assert!(pos.moves() >> best.index() & 1 == 1, "{best} illegal in {pos:?}");
        assert_eq!(r.pv.first(), Some(&Some(best)));
        let mut p = pos;
        for ply in &r.pv {
            p = match ply {
                Some(sq) => p.play(*sq).unwrap_or_else(|| panic!("{sq} illegal in the line {:?}", r.pv)),
                None => p.passed(),
            };
        }
        assert!(r.score.abs() <= 64.0 && r.depth == 10 && !r.stopped, "{r:?}");
    }
}
