//! A tiny training run: the fit lowers the error and is deterministic; exact labels
//! are the solver's values.

use solvo_eval::{Weights, SCALE};
use solvo_othello::{Board, BoardSize, Position, Variant};
use solvo_train::fit::{fit, FitOptions};
use solvo_train::games::{extract_file, ExtractOptions};
use solvo_train::sample::Sample;

fn wthor_samples() -> Vec<Sample> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wthor/WTH_1980.wtb");
    let options =
        ExtractOptions { exact_empties: 8, validation_every: 5, hash_mb: 1, exact_only: false, siblings: None };
    let (samples, stats) = extract_file(&path, &options, &|_, _| {}).expect("WTHOR 1980 reads");
    assert_eq!(stats.games, 160);
    assert_eq!(stats.bad_games, 0);
    samples
}

fn mse(w: &Weights, samples: &[Sample]) -> f64 {
    let sum: f64 = samples
        .iter()
        .map(|s| {
            let e = f64::from(w.evaluate(s.player, s.opponent)) / f64::from(SCALE) - f64::from(s.label);
            e * e
        })
        .sum();
    sum / samples.len() as f64
}

#[test]
fn a_small_fit_lowers_the_error_and_repeats_exactly() {
    let samples = wthor_samples();
    let train: Vec<Sample> = samples.iter().copied().filter(|s| !s.is_validation()).collect();
    let options = FitOptions { iterations: 8, ..FitOptions::default() };
    let before = mse(&Weights::zeros(Variant::Normal), &train);
    let (w1, reports) = fit(&samples, Variant::Normal, &options, &|_| {});
    let after = mse(&w1, &train);
    assert!(after < before * 0.5, "training error {before:.1} -> {after:.1}");
    assert_eq!(reports.len(), solvo_eval::NUM_STAGES);
    let (w2, _) = fit(&samples, Variant::Normal, &options, &|_| {});
    assert_eq!(w1, w2, "the same samples and options give the same weights");
}

#[test]
fn exact_labels_match_the_solver() {
    let samples = wthor_samples();
    let exact: Vec<&Sample> = samples.iter().filter(|s| s.is_exact()).take(20).collect();
    assert!(!exact.is_empty());
    for s in exact {
        let pos = Position {
            board: Board { player: s.player, opponent: s.opponent },
            ..Position::start(BoardSize::Eight, Variant::Normal)
        };
        let r = solvo_othello_search::solve(&pos, &solvo_othello_search::SolveOptions::new(1));
        assert_eq!(r.score(), Some(i32::from(s.label)));
    }
}

#[test]
fn siblings_are_the_other_moves_solved() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wthor/WTH_1980.wtb");
    let plain = wthor_samples();
    let options =
        ExtractOptions { exact_empties: 8, validation_every: 5, hash_mb: 1, exact_only: false, siblings: Some(6..=7) };
    let (samples, stats) = extract_file(&path, &options, &|_, _| {}).expect("WTHOR 1980 reads");
    assert_eq!(samples.len() as u64, plain.len() as u64 + stats.siblings);
    assert!(stats.siblings > 160, "{} siblings from 160 games", stats.siblings);
    // The game positions keep their samples; every added one is solved, has 6 or 7
    // empties and is not a position of the games.
    let game_boards: std::collections::HashSet<(u64, u64)> = plain.iter().map(|s| (s.player, s.opponent)).collect();
    let added: Vec<&Sample> = samples.iter().filter(|s| !game_boards.contains(&(s.player, s.opponent))).collect();
    assert!(!added.is_empty());
    for s in added.iter().take(30) {
        assert!(s.is_exact());
        assert!((6..=7).contains(&(64 - s.discs())));
        let pos = Position {
            board: Board { player: s.player, opponent: s.opponent },
            ..Position::start(BoardSize::Eight, Variant::Normal)
        };
        let r = solvo_othello_search::solve(&pos, &solvo_othello_search::SolveOptions::new(1));
        assert_eq!(r.score(), Some(i32::from(s.label)));
    }
}

/// 6x6: self-play samples (exact near the end, the rest bootstrapped) fit a 6x6 set
/// that lowers the error on the exact ones, repeats exactly, and round-trips through
/// the weight file; 8x8 samples are refused for a 6x6 fit, and 4x4 has no layout.
#[test]
fn a_six_by_six_fit_from_self_play() {
    use solvo_train::fit::fit_size;
    use solvo_train::selfplay::{self_play_samples, SelfPlayOptions};
    let options = SelfPlayOptions {
        size: BoardSize::Six,
        games: 150,
        seed: 7,
        random_move: 0.5,
        exact_empties: 10,
        validation_every: 10,
        hash_mb: 1,
    };
    let (samples, _) = self_play_samples(&[], Variant::Normal, &options, &|_, _| {}).expect("6x6 games");
    assert!(samples.iter().all(|s| (s.player | s.opponent) & !BoardSize::Six.mask() == 0));
    let exact: Vec<Sample> = samples.iter().copied().filter(|s| s.is_exact() && !s.is_validation()).collect();
    assert!(exact.len() > 1000, "{} exact samples", exact.len());
    // Exact labels are the 6x6 solver's values.
    for s in exact.iter().step_by(97).take(10) {
        let pos = Position {
            board: Board { player: s.player, opponent: s.opponent },
            ..Position::start(BoardSize::Six, Variant::Normal)
        };
        let r = solvo_othello_search::solve(&pos, &solvo_othello_search::SolveOptions::new(1));
        assert_eq!(r.score(), Some(i32::from(s.label)));
    }
    let fit_options = FitOptions { iterations: 8, bootstrap_depth: 1, ..FitOptions::default() };
    let (w1, reports) = fit_size(&samples, BoardSize::Six, Variant::Normal, &fit_options, &|_| {}).unwrap();
    assert_eq!(w1.size(), BoardSize::Six);
    assert_eq!(reports.len(), solvo_eval::NUM_STAGES6);
    let before = mse(&Weights::zeros_for(BoardSize::Six, Variant::Normal).unwrap(), &exact);
    let after = mse(&w1, &exact);
    assert!(after < before * 0.5, "training error {before:.1} -> {after:.1}");
    let (w2, _) = fit_size(&samples, BoardSize::Six, Variant::Normal, &fit_options, &|_| {}).unwrap();
    assert_eq!(w1, w2, "the same samples and options give the same weights");
    assert_eq!(Weights::from_bytes(&w1.to_bytes()).unwrap(), w1);

    let eight = wthor_samples();
    let e = fit_size(&eight, BoardSize::Six, Variant::Normal, &fit_options, &|_| {}).unwrap_err();
    assert!(e.contains("outside the 6x6 board"), "{e}");
    assert!(fit_size(&[], BoardSize::Four, Variant::Normal, &fit_options, &|_| {}).is_err());
}

/// Weighted least squares: when every exact sample also appears with a contradicting
/// inexact label, a heavier exact weight pulls the fit towards the exact labels.
#[test]
fn exact_weight_pulls_the_fit_towards_exact_labels() {
    let exact: Vec<Sample> = wthor_samples().into_iter().filter(|s| s.is_exact() && !s.is_validation()).collect();
    assert!(exact.len() > 500);
    let noisy: Vec<Sample> =
        exact.iter().map(|s| Sample { label: s.label.saturating_add(20), flags: 0, ..*s }).collect();
    let both: Vec<Sample> = exact.iter().chain(&noisy).copied().collect();
    let stages = solvo_eval::NUM_STAGES - 4..=solvo_eval::NUM_STAGES - 1;
    let error = |exact_weight: f64| {
        let options = FitOptions { iterations: 20, exact_weight, stages: stages.clone(), ..FitOptions::default() };
        let (w, _) = fit(&both, Variant::Normal, &options, &|_| {});
        mse(&w, &exact)
    };
    let (even, heavy) = (error(1.0), error(10.0));
    assert!(heavy < even * 0.5, "error against the exact labels: weight 1 {even:.1}, weight 10 {heavy:.1}");
}

/// The robust rounds (a Huber loss) let a few wild labels pull less than least squares.
#[test]
fn robust_rounds_resist_wild_labels() {
    let clean: Vec<Sample> = wthor_samples().into_iter().filter(|s| s.is_exact() && !s.is_validation()).collect();
    let wild: Vec<Sample> =
        clean.iter().step_by(5).map(|s| Sample { label: s.label.saturating_add(50), flags: 0, ..*s }).collect();
    let both: Vec<Sample> = clean.iter().chain(&wild).copied().collect();
    let stages = solvo_eval::NUM_STAGES - 4..=solvo_eval::NUM_STAGES - 1;
    let mae = |robust_rounds: usize| {
        let options = FitOptions { iterations: 20, robust_rounds, stages: stages.clone(), ..FitOptions::default() };
        let (w, _) = fit(&both, Variant::Normal, &options, &|_| {});
        let sum: f64 = clean
            .iter()
            .map(|s| (f64::from(w.evaluate(s.player, s.opponent)) / f64::from(SCALE) - f64::from(s.label)).abs())
            .sum();
        sum / clean.len() as f64
    };
    let (plain, robust) = (mae(0), mae(3));
    assert!(robust < plain * 0.8, "error against the clean labels: plain {plain:.2}, robust {robust:.2}");
}

#[test]
fn a_damaged_wthor_game_gives_no_samples() {
    use solvo_othello::formats::wthor::{parse_wtb, write_wtb, GAME_LEN, HEADER_LEN};
    let shared = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../../shared/data/wthor/WTH_1980.wtb");
    let mut db = parse_wtb(&std::fs::read(shared).unwrap()).unwrap();
    db.games.truncate(1);
    let dir = tempfile::tempdir().unwrap();
    let one = dir.path().join("one.wtb");
    std::fs::write(&one, write_wtb(&db)).unwrap();
    // The same game again, its 30th move byte not a square: the record is cut there.
    db.games.push(db.games[0].clone());
    let mut bytes = write_wtb(&db);
    bytes[HEADER_LEN + GAME_LEN + 8 + 29] = 99;
    let two = dir.path().join("two.wtb");
    std::fs::write(&two, bytes).unwrap();
    let options =
        ExtractOptions { exact_empties: 0, validation_every: 0, hash_mb: 1, exact_only: false, siblings: None };
    let (whole, _) = extract_file(&one, &options, &|_, _| {}).unwrap();
    let (samples, stats) = extract_file(&two, &options, &|_, _| {}).unwrap();
    assert_eq!((stats.games, stats.bad_games), (2, 1));
    assert!(stats.bad_game_reasons[0].contains("game 2"), "{:?}", stats.bad_game_reasons);
    assert_eq!(samples.len(), whole.len(), "the cut game's positions were labelled");
}
