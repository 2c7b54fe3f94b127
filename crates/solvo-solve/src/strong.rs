//! Strong solving of 4x4: the exact value and a best move of every position reachable
//! from the start, by retrograde analysis over the enumeration levels.
//!
//! Why retrograde and not a memoized search: a strong solution needs every position's
//! value, so pruning saves nothing; the enumeration already lists each position once,
//! sorted per disc count, and a move always adds exactly one disc. So the levels are
//! valued from the fullest down, each position once, looking its children up by binary
//! search in the level above (already valued). The position count equals the
//! enumeration by construction.

use crate::children::after_move;
use crate::enumerate::levels_in_memory;
use crate::store::{kind, Record, Store, StoreError};
use solvo_othello::{Board, BoardSize, Square, Variant};

/// The value and a best move of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The canonical board (side to move can move).
    pub board: Board,
    /// Exact value for the side to move (final disc difference, empties to the winner,
    /// under the variant).
    pub value: i8,
    /// A move reaching the value, in the coordinates of `board`.
    pub best_move: Square,
}

/// Every reachable position of a board with its value, per disc count.
pub struct StrongSolution {
    /// The board size.
    pub size: BoardSize,
    /// The variant.
    pub variant: Variant,
    /// `levels[i]`: positions with `4 + i` discs, sorted by board.
    pub levels: Vec<Vec<Solved>>,
}

impl StrongSolution {
    /// Number of positions valued.
    pub fn len(&self) -> usize {
        self.levels.iter().map(Vec::len).sum()
    }

    /// True when nothing was valued (never for a real board).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The record of `board` (any orientation) with its best move in `board`'s
    /// coordinates; `None` when it is not a reachable position.
    pub fn lookup(&self, board: &Board) -> Option<(i8, Square)> {
        let (canon, k) = board.canonical_with_symmetry();
        let discs = (canon.player | canon.opponent).count_ones() as usize;
        let level = self.levels.get(discs.checked_sub(4)?)?;
        let i = level.binary_search_by(|s| s.board.cmp(&canon)).ok()?;
        let s = &level[i];
        let m = solvo_othello::symmetry::inverse_transform(s.best_move.bit(), k);
        Some((s.value, Square::from_index(m.trailing_zeros())))
    }

    /// The value of `board` (any orientation), if reachable.
    pub fn value(&self, board: &Board) -> Option<i8> {
        self.lookup(board).map(|(v, _)| v)
    }
}

/// Value for the mover of playing `sq` on `board`, given the values of the level above.
fn move_value(board: &Board, sq: Square, size: BoardSize, variant: Variant, above: &[Solved]) -> Result<i32, String> {
    let played = board.play_with_flips(sq, board.flips(sq));
    match after_move(board, sq, size) {
        // Game over: the mover is now the opponent in `played`.
        None => Ok(-variant.apply(played.final_score(size))),
        Some(child) => {
            let canon = child.canonical();
            let i = above
                .binary_search_by(|s| s.board.cmp(&canon))
                .map_err(|_| format!("child {canon:?} missing from the next level"))?;
            let v = above[i].value as i32;
            // Same side to move again after the opponent's forced pass: the value is ours.
            Ok(if child == played { -v } else { v })
        }
    }
}

/// Strongly solves `size` (meant for 4x4; larger boards do not fit) under `variant`.
pub fn strong_solve(size: BoardSize, variant: Variant) -> Result<StrongSolution, String> {
    let boards = levels_in_memory(size, size.squares());
    let mut levels: Vec<Vec<Solved>> = vec![Vec::new(); boards.len()];
    for (i, level) in boards.iter().enumerate().rev() {
        let above: &[Solved] = levels.get(i + 1).map_or(&[], |v| v.as_slice());
        let mut solved = Vec::with_capacity(level.len());
        for b in level {
            let mut best: Option<(i32, Square)> = None;
            for sq in Square::iter(b.moves(size)) {
                let v = move_value(b, sq, size, variant, above)?;
                match best {
                    Some((bv, _)) if bv >= v => {}
                    _ => best = Some((v, sq)),
                }
            }
            let (value, best_move) = best.ok_or_else(|| format!("position {b:?} has no move"))?;
            solved.push(Solved { board: *b, value: value as i8, best_move });
        }
        levels[i] = solved;
    }
    Ok(StrongSolution { size, variant, levels })
}

/// Writes every position as an exact record of kind STRONG, one transaction per level.
pub fn write_to_store(solution: &StrongSolution, store: &Store) -> Result<(), StoreError> {
    for level in &solution.levels {
        let items: Vec<(Board, Record)> =
            level.iter().map(|s| (s.board, Record::exact(s.value, kind::STRONG, Some(s.best_move)))).collect();
        store.put_batch(&items)?;
    }
    Ok(())
}
