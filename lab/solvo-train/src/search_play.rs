//! Training positions from games solvo plays against itself with its own search.
//!
//! Each game starts from an opening (a transcript from a list such as the XOT
//! openings, or the standard start). Every move is chosen by the midgame search of
//! the given depth and selectivity on the given weights, which solves exactly from
//! `exact_empties` empties on: the games are played perfectly from there, and every
//! position with at most that many empties carries its exact value ([`Sample::EXACT`]).
//! At positions with more than `random_above` empties, a seeded share of the moves is
//! replaced by a uniformly random one (so the games do not repeat). Above the exact
//! region a position is labelled by [`GameLabel`]: the final result of the game
//! (Egaroucid's way) or the search's own score. A result says what the position is
//! worth only when the search played the rest of the game, so positions before the
//! game's last random move take the search's score either way.
//!
//! Games are independent: each has its own seeded generator, and the searcher's tables
//! are cleared before each, so the samples do not depend on the number of threads.
//! One game in `validation_every` is held out.

use crate::sample::Sample;
use rayon::prelude::*;
use solvo_core::rng::Rng;
use solvo_eval::Weights;
use solvo_othello::{BoardSize, Color, Position, Square};
use solvo_othello_search::{SearchLimits, SelectiveSearch, Selectivity};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

/// The label of a position with more empties than the exact region.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameLabel {
    /// The final disc difference of the game, for the position's side to move.
    Result,
    /// The search's score of the position (the depth the moves are searched to).
    Search,
}

/// How to generate games.
#[derive(Clone, Debug)]
pub struct SearchPlayOptions {
    /// Number of games.
    pub games: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Midgame search depth of every move (1 or more).
    pub depth: u32,
    /// Multi-ProbCut selectivity of that search.
    pub selectivity: Selectivity,
    /// Positions with at most this many empties are solved: exact labels, perfect play.
    pub exact_empties: u32,
    /// Probability of a uniformly random move at a position with more than
    /// `random_above` empties (and above the exact region).
    pub random_move: f64,
    /// Random moves are played only at positions with more empties than this.
    pub random_above: u32,
    /// The label above the exact region.
    pub label: GameLabel,
    /// One game in this many is held out (0: none).
    pub validation_every: u64,
    /// Transposition-table size of each searcher, MiB (the exact solver gets as much).
    pub hash_mb: usize,
}

/// Samples of `options.games` games on 8x8 from `openings` (positions to start from;
/// the standard start when empty), played by the search on `weights`, in game order;
/// and the nodes the searches visited. `progress` gets the number of games done and
/// their total every 64 games and at the end. An error when an opening is not 8x8 or
/// not of the weights' variant, or the depth is 0.
pub fn search_play_samples(
    openings: &[Position],
    weights: Arc<Weights>,
    options: &SearchPlayOptions,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<(Vec<Sample>, u64), String> {
    let variant = weights.variant;
    if options.depth == 0 {
        return Err("search depth 0: the games need a search of at least 1 ply".into());
    }
    if let Some(i) = openings.iter().position(|p| p.size != BoardSize::Eight) {
        return Err(format!("opening {} is a {} position, the games are 8x8", i + 1, openings[i].size));
    }
    let default = [Position::start(BoardSize::Eight, variant)];
    let starts = if openings.is_empty() { &default[..] } else { openings };
    let total = options.games as u64;
    let done = AtomicU64::new(0);
    let games: Vec<Result<(Vec<Sample>, u64), String>> = (0..options.games)
        .into_par_iter()
        .map_init(
            || SelectiveSearch::new(weights.clone(), options.hash_mb),
            |search, game| {
                let out = play_game(search, starts, game as u64, options);
                let n = done.fetch_add(1, Ordering::Relaxed) + 1;
                if n.is_multiple_of(64) || n == total {
                    progress(n, total);
                }
                out
            },
        )
        .collect();
    let mut samples = Vec::new();
    let mut nodes = 0;
    for game in games {
        let (s, n) = game?;
        samples.extend(s);
        nodes += n;
    }
    Ok((samples, nodes))
}

/// The generator of game `game`: a mix of the seed and the game number, so each game
/// is the same whichever thread plays it.
fn game_rng(seed: u64, game: u64) -> Rng {
    let mut mix = Rng::new(seed ^ game.wrapping_mul(0x9E37_79B9_7F4A_7C15));
    Rng::new(mix.next_u64())
}

/// Plays game number `game` with `search` (its tables cleared first) and labels its
/// positions; returns them with the nodes searched.
fn play_game(
    search: &mut SelectiveSearch,
    starts: &[Position],
    game: u64,
    options: &SearchPlayOptions,
) -> Result<(Vec<Sample>, u64), String> {
    let mut rng = game_rng(options.seed, game);
    search.clear();
    let mut pos = starts[rng.below(starts.len())];
    pos.variant = search.weights().variant;
    let limits = SearchLimits {
        depth: options.depth,
        selectivity: options.selectivity,
        exact_from: options.exact_empties,
        ..SearchLimits::default()
    };
    let validation = options.validation_every > 0 && game.is_multiple_of(options.validation_every);
    let base_flags = if validation { Sample::VALIDATION } else { 0 };
    // (sample, side to move) of every position where a move or pass was due.
    let mut played: Vec<(Sample, Color)> = Vec::with_capacity(64);
    let mut nodes = 0;
    // Positions before this index precede a random move: their result says little.
    let mut after_last_random = 0;
    while !pos.is_game_over() {
        let result = search.search(&pos, &limits).map_err(|e| format!("game {game}: {e}"))?;
        nodes += result.nodes;
        let exact = result.exact && pos.empties() <= options.exact_empties;
        let label = result.score.round().clamp(-64.0, 64.0) as i8;
        let flags = base_flags | if exact { Sample::EXACT } else { 0 };
        played.push((Sample { player: pos.board.player, opponent: pos.board.opponent, label, flags }, pos.side));
        let moves = pos.moves();
        if moves == 0 {
            pos = pos.passed();
            continue;
        }
        let random_allowed = pos.empties() > options.exact_empties.max(options.random_above);
        let sq = if random_allowed && rng.next_f64() < options.random_move {
            let squares: Vec<Square> = Square::iter(moves).collect();
            after_last_random = played.len();
            rng.pick(&squares)
        } else {
            result.best_move.ok_or_else(|| format!("game {game}: the search gave no move at a position with moves"))?
        };
        pos = pos.play(sq).ok_or_else(|| format!("game {game}: the move {sq} is not legal"))?;
    }
    let black_final = pos.black_score();
    let samples = played
        .into_iter()
        .enumerate()
        .map(|(i, (mut s, side))| {
            if options.label == GameLabel::Result && !s.is_exact() && i >= after_last_random {
                let own = if side == Color::Black { black_final } else { -black_final };
                s.label = own.clamp(-64, 64) as i8;
            }
            s
        })
        .collect();
    Ok((samples, nodes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::Variant;
    use solvo_othello_search::{solve, SolveOptions};

    fn options(games: usize, label: GameLabel) -> SearchPlayOptions {
        SearchPlayOptions {
            games,
            seed: 5,
            depth: 2,
            selectivity: Selectivity::EXACT,
            exact_empties: 10,
            random_move: 0.3,
            random_above: 40,
            label,
            validation_every: 2,
            hash_mb: 1,
        }
    }

    fn weights() -> Arc<Weights> {
        solvo_eval::embedded::embedded_shared(Variant::Normal).expect("embedded weights")
    }

    #[test]
    fn exact_labels_are_exact_and_games_do_not_depend_on_threads() {
        let opts = options(4, GameLabel::Result);
        let one = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
        let two = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
        let (a, _) = one.install(|| search_play_samples(&[], weights(), &opts, &|_, _| {})).unwrap();
        let (b, _) = two.install(|| search_play_samples(&[], weights(), &opts, &|_, _| {})).unwrap();
        assert_eq!(a, b);
        assert!(a.len() >= 4 * 50, "four whole games");
        let exact: Vec<&Sample> = a.iter().filter(|s| s.is_exact()).collect();
        assert!(exact.len() >= 4 * 10);
        for s in exact.iter().step_by(7) {
            let pos = Position::from_colors(s.player, s.opponent, Color::Black, BoardSize::Eight, Variant::Normal)
                .expect("a position");
            let r = solve(&pos, &SolveOptions::new(1));
            assert_eq!(r.score(), Some(i32::from(s.label)));
            assert!(pos.empties() <= 10);
        }
        assert!(a.iter().any(|s| s.is_validation()) && a.iter().any(|s| !s.is_validation()));
    }

    #[test]
    fn labels_follow_the_chosen_source() {
        let (by_result, _) = search_play_samples(&[], weights(), &options(1, GameLabel::Result), &|_, _| {}).unwrap();
        let (by_search, _) = search_play_samples(&[], weights(), &options(1, GameLabel::Search), &|_, _| {}).unwrap();
        // The same game either way (the label does not change the moves).
        let boards = |v: &[Sample]| v.iter().map(|s| (s.player, s.opponent)).collect::<Vec<_>>();
        assert_eq!(boards(&by_result), boards(&by_search));
        // Between the random opening (above 40 empties) and the exact region a result
        // label is the final score for the side to move: the first exact sample's value
        // carries back along the searched moves, so both sides' labels are opposite
        // numbers of one final score; the search's labels vary there.
        let empties = |s: &Sample| 64 - s.discs();
        let first_exact = by_result.iter().position(|s| s.is_exact()).expect("an exact region");
        let middle: Vec<usize> = (0..first_exact).filter(|&i| empties(&by_result[i]) <= 40).collect();
        let result = by_result[first_exact].label.abs();
        assert!(middle.iter().all(|&i| by_result[i].label.abs() == result));
        assert!(middle.iter().any(|&i| by_search[i].label.abs() != result));
        // Before the last random move a result says little: the search's score instead.
        assert_eq!(by_result[0], by_search[0]);
        assert!(by_result[first_exact..] == by_search[first_exact..]);
    }

    #[test]
    fn refuses_depth_zero_and_other_boards() {
        let mut opts = options(1, GameLabel::Search);
        opts.depth = 0;
        assert!(search_play_samples(&[], weights(), &opts, &|_, _| {}).unwrap_err().contains("depth 0"));
        let six = Position::start(BoardSize::Six, Variant::Normal);
        let err = search_play_samples(&[six], weights(), &options(1, GameLabel::Search), &|_, _| {}).unwrap_err();
        assert!(err.contains("6x6"), "{err}");
    }
}
