//! perft: the number of leaves of the game tree to a fixed depth, the standard check of
//! a move generator.
//!
//! Three conventions are published for Othello and differ only once passes and
//! finished games appear (8x8 depth >= 9):
//! - [`PerftMode::PassPlyEndCounted`] (default; Aart Bik, most engines): a pass is a
//!   ply, and a game that ended before the depth counts as one leaf;
//! - [`PerftMode::PassPlyEndNotCounted`] (PanicSheep, OEIS A124004): a pass is a ply,
//!   games that ended before the depth are not counted;
//! - [`PerftMode::PassNoPlyEndCounted`] (Egaroucid "mode 2"): a pass is not a ply, a
//!   finished game counts as one leaf.
//!
//! The last ply is counted in bulk (popcount of the move set), and
//! [`perft_parallel`] splits the tree near the root over threads.

use crate::board::Board;
use crate::flips::flips;
use crate::moves::{legal_moves, play_and_reply_moves};
use crate::size::BoardSize;
use serde::{Deserialize, Serialize};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

/// How passes and games that end early are counted.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum PerftMode {
    /// A pass is a ply; a game over before the depth is one leaf.
    #[default]
    PassPlyEndCounted,
    /// A pass is a ply; a game over before the depth is not counted.
    PassPlyEndNotCounted,
    /// A pass is not a ply; a game over before the depth is one leaf.
    PassNoPlyEndCounted,
}

impl PerftMode {
    /// All modes, default first.
    pub const ALL: [PerftMode; 3] =
        [PerftMode::PassPlyEndCounted, PerftMode::PassPlyEndNotCounted, PerftMode::PassNoPlyEndCounted];

    /// The command-line name.
    pub const fn name(self) -> &'static str {
        match self {
            PerftMode::PassPlyEndCounted => "pass-ply-end-counted",
            PerftMode::PassPlyEndNotCounted => "pass-ply-end-not-counted",
            PerftMode::PassNoPlyEndCounted => "pass-no-ply-end-counted",
        }
    }

    const fn code(self) -> u8 {
        match self {
            PerftMode::PassPlyEndCounted => A,
            PerftMode::PassPlyEndNotCounted => B,
            PerftMode::PassNoPlyEndCounted => C,
        }
    }
}

impl FromStr for PerftMode {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "pass-ply-end-counted" | "a" | "bik" => Ok(PerftMode::PassPlyEndCounted),
            "pass-ply-end-not-counted" | "b" | "games" => Ok(PerftMode::PassPlyEndNotCounted),
            "pass-no-ply-end-counted" | "c" | "egaroucid" => Ok(PerftMode::PassNoPlyEndCounted),
            _ => Err(format!(
                "unknown perft mode {s:?}: expected pass-ply-end-counted (a), \
                 pass-ply-end-not-counted (b) or pass-no-ply-end-counted (c)"
            )),
        }
    }
}

const A: u8 = 0;
const B: u8 = 1;
const C: u8 = 2;

/// Leaves of a finished game found before the depth runs out.
#[inline(always)]
const fn ended_leaf<const M: u8>() -> u64 {
    if M == B {
        0
    } else {
        1
    }
}

/// perft at depth 1, in bulk.
#[inline(always)]
fn leaves_depth1<const M: u8>(p: u64, o: u64, mask: u64) -> u64 {
    let moves = legal_moves(p, o, mask);
    if M == A {
        // A pass and a finished game are both exactly one leaf.
        return (moves.count_ones() as u64).max(1);
    }
    if moves != 0 {
        return moves.count_ones() as u64;
    }
    let replies = legal_moves(o, p, mask);
    if replies == 0 {
        // The game ended with a ply still to go.
        ended_leaf::<M>()
    } else if M == C {
        // The pass is free: the opponent's moves are the last ply.
        replies.count_ones() as u64
    } else {
        // The pass itself is the last ply.
        1
    }
}

fn node<const M: u8>(p: u64, o: u64, mask: u64, depth: u32) -> u64 {
    if depth <= 1 {
        return if depth == 0 { 1 } else { leaves_depth1::<M>(p, o, mask) };
    }
    let mut moves = legal_moves(p, o, mask);
    if moves == 0 {
        if legal_moves(o, p, mask) == 0 {
            return ended_leaf::<M>();
        }
        let next = if M == C { depth } else { depth - 1 };
        return node::<M>(o, p, mask, next);
    }
    let mut total = 0;
    if depth == 2 {
        let empty = !(p | o) & mask;
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let (f, replies) = play_and_reply_moves(sq, p, o, empty ^ (1 << sq));
            total += if M == A || replies != 0 {
                (replies.count_ones() as u64).max(1)
            } else {
                leaves_depth1::<M>(o ^ f, p ^ f ^ (1 << sq), mask)
            };
        }
    } else {
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(sq, p, o);
            total += node::<M>(o ^ f, p ^ f ^ (1 << sq), mask, depth - 1);
        }
    }
    total
}

fn count(board: Board, mask: u64, depth: u32, mode: PerftMode) -> u64 {
    let (p, o) = (board.player, board.opponent);
    match mode.code() {
        A => node::<A>(p, o, mask, depth),
        B => node::<B>(p, o, mask, depth),
        _ => node::<C>(p, o, mask, depth),
    }
}

/// perft on one thread: the number of leaves `depth` plies below `board`.
pub fn perft(board: Board, size: BoardSize, depth: u32, mode: PerftMode) -> u64 {
    count(board, size.mask(), depth, mode)
}

/// One step of the tree walk, following the same rules as [`node`], used to split
/// the work near the root: the children (board, remaining depth), or the leaves
/// counted at once.
fn expand(board: Board, mask: u64, depth: u32, mode: PerftMode, out: &mut Vec<(Board, u32)>) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves_masked(mask);
    if moves == 0 {
        if board.pass().moves_masked(mask) == 0 {
            return u64::from(mode != PerftMode::PassPlyEndNotCounted);
        }
        let next = if mode == PerftMode::PassNoPlyEndCounted { depth } else { depth - 1 };
        out.push((board.pass(), next));
        return 0;
    }
    for sq in crate::square::Square::iter(moves) {
        out.push((board.play_with_flips(sq, board.flips(sq)), depth - 1));
    }
    0
}

/// perft on `threads` threads (0 = all available cores): the tree is expanded near
/// the root into at least 64 tasks per thread, which threads take from a shared
/// counter. Returns exactly what [`perft`] returns.
pub fn perft_parallel(board: Board, size: BoardSize, depth: u32, mode: PerftMode, threads: usize) -> u64 {
    let threads = if threads == 0 { std::thread::available_parallelism().map_or(1, |n| n.get()) } else { threads };
    let mask = size.mask();
    if threads <= 1 || depth < 6 {
        return count(board, mask, depth, mode);
    }
    let mut tasks = vec![(board, depth)];
    let mut settled = 0u64;
    while tasks.len() < 64 * threads && tasks.iter().all(|&(_, d)| d > 4) {
        let mut next = Vec::with_capacity(tasks.len() * 10);
        for &(b, d) in &tasks {
            settled += expand(b, mask, d, mode, &mut next);
        }
        if next.is_empty() {
            return settled;
        }
        tasks = next;
    }
    let cursor = AtomicUsize::new(0);
    let per_thread: Vec<u64> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut sum = 0;
                    loop {
                        let i = cursor.fetch_add(1, Ordering::Relaxed);
                        let Some(&(b, d)) = tasks.get(i) else { break };
                        sum += count(b, mask, d, mode);
                    }
                    sum
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("perft worker panicked")).collect()
    });
    settled + per_thread.iter().sum::<u64>()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_depths_match_published_counts() {
        let expect = [1u64, 4, 12, 56, 244, 1396, 8200, 55092, 390216];
        for (d, &n) in expect.iter().enumerate() {
            for mode in PerftMode::ALL {
                assert_eq!(perft(Board::start(), BoardSize::Eight, d as u32, mode), n, "depth {d} {mode:?}");
            }
        }
    }

    #[test]
    fn parallel_equals_serial() {
        for mode in PerftMode::ALL {
            for size in BoardSize::ALL {
                let serial = perft(Board::start(), size, 9, mode);
                assert_eq!(perft_parallel(Board::start(), size, 9, mode, 2), serial, "{size} {mode:?}");
            }
        }
    }
}
