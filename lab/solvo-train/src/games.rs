//! Training positions from game databases (WTHOR `.wtb` files: the FFO tournament
//! base, PlayOK), with their labels.
//!
//! Every position of every game becomes a sample, labelled for the side to move:
//! - with `exact_empties` or fewer empty squares: the exact value, solved here;
//! - at or above the file's theoretical depth (WTHOR: 24 empties): the game's
//!   theoretical score (perfect play from the position with 24 empties; exact, and
//!   flagged so, for that position itself);
//! - otherwise: the game's final score.
//!
//! With `siblings`, every other move of a game position whose result has that many
//! empties (at most `exact_empties`) adds its position too, solved: the positions after
//! bad moves, which games rarely show but move ordering has to rank.
//!
//! One game in `validation_every` (chosen by a hash of file name and game number, so
//! the split is the same on every run) is held out for validation.

use crate::exact::label_exactly;
use crate::sample::Sample;
use solvo_eval::checksum::Fnv64;
use solvo_othello::formats::wthor::parse_wtb;
use solvo_othello::{Color, Position, Square};
use std::path::Path;

/// How to turn a game file into samples.
#[derive(Clone, Debug)]
pub struct ExtractOptions {
    /// Positions with at most this many empties are solved for an exact label.
    pub exact_empties: u32,
    /// One game in this many is held out (0: none).
    pub validation_every: u64,
    /// Transposition-table size of each exact solve, MiB.
    pub hash_mb: usize,
    /// Keep only the positions with exact labels (for noisy sources, whose game
    /// results say little about earlier positions).
    pub exact_only: bool,
    /// Children (empties range, within `..= exact_empties`) of game positions added
    /// for every legal move the game did not play, with exact labels; `None`: none.
    pub siblings: Option<std::ops::RangeInclusive<u32>>,
}

/// What an extraction did.
#[derive(Clone, Debug, Default)]
pub struct ExtractStats {
    /// Games read.
    pub games: u64,
    /// Games skipped, counted, not fatal: damaged records (a bad move byte) and games
    /// whose moves do not replay. None of their positions is labelled.
    pub bad_games: u64,
    /// Why each skipped game was skipped, naming the game (`game 7 (byte ...): ...`).
    pub bad_game_reasons: Vec<String>,
    /// Samples made.
    pub samples: u64,
    /// Samples with an exact (solved) label.
    pub exact: u64,
    /// Of those, positions after moves the games did not play (`siblings`).
    pub siblings: u64,
    /// Solver nodes spent on exact labels.
    pub nodes: u64,
}

/// True if game `index` of the file named `name` belongs to the validation set.
pub fn is_validation_game(name: &str, index: usize, every: u64) -> bool {
    if every == 0 {
        return false;
    }
    let mut h = Fnv64::new();
    h.write(name.as_bytes());
    h.write(&(index as u64).to_le_bytes());
    solvo_core::rng::mix64(h.finish()).is_multiple_of(every)
}

/// The positions after every legal move of `pos` except the one leading to `played`
/// (the game's next board), game-over positions left out.
fn siblings(pos: &Position, played: Option<solvo_othello::Board>) -> impl Iterator<Item = Position> + '_ {
    let mut moves = pos.moves();
    std::iter::from_fn(move || {
        let sq = (moves != 0).then(|| moves.trailing_zeros() as u8)?;
        moves &= moves - 1;
        Some(Square::new(sq).and_then(|s| pos.play(s)))
    })
    .flatten()
    .filter(move |child| Some(child.board) != played && !child.is_game_over())
}

/// The labelled samples of one WTHOR-format file. `progress` is called with the
/// number of exact solves done so far and their total.
pub fn extract_file(
    path: &Path,
    options: &ExtractOptions,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<(Vec<Sample>, ExtractStats), String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let file = parse_wtb(&bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let depth = u32::from(file.header.depth);
    let mut stats = ExtractStats::default();
    let mut samples = Vec::new();
    let mut to_solve: Vec<(usize, Position)> = Vec::new();
    for (index, game) in file.games.iter().enumerate() {
        stats.games += 1;
        // A damaged record holds the moves before the damage: a game cut short, whose
        // recorded result is not its own, so none of its positions is labelled.
        if let Some(damage) = file.damage(index) {
            stats.bad_games += 1;
            stats.bad_game_reasons.push(format!("damaged record: {damage}"));
            continue;
        }
        let replay = match game.replay() {
            Ok(replay) => replay,
            Err(e) => {
                stats.bad_games += 1;
                stats.bad_game_reasons.push(format!("game {}: {e}", index + 1));
                continue;
            }
        };
        let validation = is_validation_game(&name, index, options.validation_every);
        let flags = if validation { Sample::VALIDATION } else { 0 };
        let black_final = 2 * i32::from(game.black_discs) - 64;
        let black_theoretical = 2 * i32::from(game.theoretical_black_discs) - 64;
        let positions = std::iter::once(replay.start).chain(replay.positions.iter().copied());
        for (ply, pos) in positions.enumerate().filter(|(_, p)| !p.is_game_over()) {
            if let Some(range) = &options.siblings {
                if pos.empties() >= 1 && range.contains(&(pos.empties() - 1)) {
                    let played = replay.positions.get(ply).map(|next| next.board);
                    for child in siblings(&pos, played) {
                        to_solve.push((samples.len(), child));
                        stats.siblings += 1;
                        samples.push(Sample {
                            player: child.board.player,
                            opponent: child.board.opponent,
                            label: 0,
                            flags,
                        });
                    }
                }
            }
            let sign = if pos.side == Color::Black { 1 } else { -1 };
            let empties = pos.empties();
            let black_label = if depth > 0 && empties >= depth { black_theoretical } else { black_final };
            if empties <= options.exact_empties {
                to_solve.push((samples.len(), pos));
            } else if options.exact_only {
                continue;
            }
            // The theoretical score is the exact value of the position at its depth.
            let exact = if depth > 0 && empties == depth { Sample::EXACT } else { 0 };
            samples.push(Sample {
                player: pos.board.player,
                opponent: pos.board.opponent,
                label: (sign * black_label).clamp(-64, 64) as i8,
                flags: flags | exact,
            });
        }
    }
    stats.nodes = label_exactly(&mut samples, &to_solve, options.hash_mb, progress);
    stats.exact = to_solve.len() as u64;
    stats.samples = samples.len() as u64;
    Ok((samples, stats))
}
