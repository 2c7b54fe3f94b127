//! Training positions from generated games, for variants and board sizes without a
//! game database (Reversed Reversi, 6x6).
//!
//! Each game starts from an opening (a transcript from a list such as the XOT
//! openings, or the standard start) and continues with a seeded mix of random moves
//! and a greedy rule of thumb for the variant (reversed: the move that flips fewest
//! discs; normal: the move that leaves the opponent fewest replies). Positions with at
//! most `exact_empties` empties are solved exactly; the others are left unlabelled
//! (label 0, not [`Sample::EXACT`]) for a bootstrapped fit (see
//! [`crate::fit::FitOptions::bootstrap_depth`]). One game in `validation_every` is held out.

use crate::exact::label_exactly;
use crate::sample::Sample;
use solvo_core::rng::Rng;
use solvo_othello::moves::legal_moves;
use solvo_othello::{BoardSize, Position, Square, Variant};

/// How to generate games.
#[derive(Clone, Debug)]
pub struct SelfPlayOptions {
    /// Board size of the games (the openings must be of this size).
    pub size: BoardSize,
    /// Number of games.
    pub games: usize,
    /// Seed of every random choice.
    pub seed: u64,
    /// Probability of a uniformly random move (else the greedy rule).
    pub random_move: f64,
    /// Positions with at most this many empties are solved for an exact label.
    pub exact_empties: u32,
    /// One game in this many is held out (0: none).
    pub validation_every: u64,
    /// Transposition-table size of each exact solve, MiB.
    pub hash_mb: usize,
}

/// The greedy move of the variant's rule of thumb.
fn greedy(pos: &Position, moves: u64) -> Square {
    let b = pos.board;
    let key = |sq: Square| -> u32 {
        let f = b.flips(sq);
        match pos.variant {
            Variant::Reversed => f.count_ones(),
            Variant::Normal => {
                let child = b.play_with_flips(sq, f);
                legal_moves(child.player, child.opponent, pos.size.mask()).count_ones()
            }
        }
    };
    Square::iter(moves).min_by_key(|&sq| key(sq)).expect("at least one move")
}

/// Plays one game from `start`; returns every position where a move or pass was due.
fn play_game(start: Position, rng: &mut Rng, random_move: f64) -> Vec<Position> {
    let mut pos = start;
    let mut out = Vec::with_capacity(64);
    while !pos.is_game_over() {
        out.push(pos);
        let moves = pos.moves();
        if moves == 0 {
            pos = pos.passed();
            continue;
        }
        let sq = if rng.next_f64() < random_move {
            let squares: Vec<Square> = Square::iter(moves).collect();
            rng.pick(&squares)
        } else {
            greedy(&pos, moves)
        };
        pos = pos.play(sq).expect("a legal move");
    }
    out
}

/// Samples of generated games on `options.size` from `openings` (positions to start
/// from; the standard start when empty), each game from an opening the seeded
/// generator picks. `progress` is called with exact solves done and their total. An
/// error when an opening is of another board size.
pub fn self_play_samples(
    openings: &[Position],
    variant: Variant,
    options: &SelfPlayOptions,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<(Vec<Sample>, u64), String> {
    let mut rng = Rng::new(options.seed);
    let size = options.size;
    if let Some(i) = openings.iter().position(|p| p.size != size) {
        return Err(format!("opening {} is a {} position, the games are {size}", i + 1, openings[i].size));
    }
    let default = [Position::start(size, variant)];
    let starts = if openings.is_empty() { &default[..] } else { openings };
    let mut samples = Vec::new();
    let mut to_solve = Vec::new();
    for game in 0..options.games {
        let mut start = starts[rng.below(starts.len())];
        start.variant = variant;
        let validation = options.validation_every > 0 && (game as u64).is_multiple_of(options.validation_every);
        let flags = if validation { Sample::VALIDATION } else { 0 };
        for pos in play_game(start, &mut rng, options.random_move) {
            if pos.empties() <= options.exact_empties {
                to_solve.push((samples.len(), pos));
            }
            samples.push(Sample { player: pos.board.player, opponent: pos.board.opponent, label: 0, flags });
        }
    }
    let nodes = label_exactly(&mut samples, &to_solve, options.hash_mb, progress);
    Ok((samples, nodes))
}
