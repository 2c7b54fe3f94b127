//! The transposition key of tiny Go: the board, the side to move, the passes, the move
//! count and the part of the superko history that can still matter, optionally made equal
//! for symmetric positions.
//!
//! **Which history matters.** Under positional superko the future of a position depends on
//! the earlier board arrangements, but only on those that could still be recreated before
//! the move limit. An arrangement `h` can be recreated only if
//! - it holds a stone (a placement never makes an empty board);
//! - each side can still place the stones `h` has and the board has not at those points
//!   (one stone per own turn);
//! - every block holding a stone that `h` lacks can still be captured: a block with `L`
//!   liberties needs at least `L` more moves (each move, by either side, takes at most one
//!   liberty from the block or from what it grows into), and the capture is a placement
//!   of the other side.
//!
//! These conditions read only the current board, the side to move and the moves left, so
//! two positions with equal boards, sides, passes and move counts and the same set of
//! still-recreatable arrangements have exactly the same futures: keying on that set (not
//! on the whole history) is sound, and it lets move orders that reach the same board
//! through different, no longer reachable arrangements share a table entry. Without a
//! move limit every arrangement with a stone is kept.
//!
//! **Symmetric keys.** A symmetry of the board maps the whole state (board and history)
//! to a state with the same future, so the key is computed in the canonical frame: the
//! symmetry giving the smallest (board image, history hash) pair.

use crate::grid::{bits, hash_words, Grid};
use crate::symmetry::SymmetryTables;

/// The hash of one board arrangement `[Black, White]`.
#[inline]
pub fn board_key(stones: [u64; 2]) -> u64 {
    hash_words(&[stones[0], stones[1], 0x60_0D])
}

/// The blocks of the current board with their liberty counts, per colour.
struct Blocks {
    list: [Vec<(u64, u32)>; 2],
}

impl Blocks {
    fn of(grid: &Grid, stones: [u64; 2]) -> Blocks {
        let empty = !(stones[0] | stones[1]) & grid.full();
        let mut list = [Vec::new(), Vec::new()];
        for (c, out) in list.iter_mut().enumerate() {
            let mut rest = stones[c];
            while rest != 0 {
                let block = grid.flood(rest & rest.wrapping_neg(), stones[c]);
                rest &= !block;
                out.push((block, (grid.neighbours(block) & empty).count_ones()));
            }
        }
        Blocks { list }
    }

    /// The most liberties among the blocks of colour `c` that meet `removed`.
    fn max_liberties(&self, c: usize, removed: u64) -> u32 {
        self.list[c].iter().filter(|(b, _)| b & removed != 0).map(|&(_, l)| l).max().unwrap_or(0)
    }
}

/// Whether arrangement `h` could be recreated from board `cur` with `player` to move and
/// `left` moves (plies) left before the limit (`None`: no limit). See the module
/// documentation for the conditions; `false` is a proof that it cannot.
fn recreatable(h: [u64; 2], cur: [u64; 2], blocks: &Blocks, player: usize, left: Option<u32>) -> bool {
    if h[0] | h[1] == 0 {
        return false;
    }
    let Some(left) = left else { return true };
    // Stones each side must place (the capturing placement may be one of them).
    let mut need = [(h[0] & !cur[0]).count_ones(), (h[1] & !cur[1]).count_ones()];
    let mut plies = 0u32;
    for c in 0..2 {
        let removed = cur[c] & !h[c];
        if removed != 0 {
            need[1 - c] = need[1 - c].max(1);
            plies = plies.max(blocks.max_liberties(c, removed));
        }
    }
    // In k plies the side to move places at most ceil(k/2) stones, the other floor(k/2).
    let mover = need[player];
    let other = need[1 - player];
    plies = plies.max(if mover > 0 { 2 * mover - 1 } else { 0 }).max(2 * other);
    plies <= left
}

/// What the key of a Go position is made of.
pub struct KeyParts<'a> {
    /// The board geometry.
    pub grid: &'a Grid,
    /// The stones, `[Black, White]`.
    pub stones: [u64; 2],
    /// The side to move (0 Black, 1 White).
    pub player: u8,
    /// Consecutive passes just played.
    pub passes: u8,
    /// Moves played so far.
    pub ply: u32,
    /// The move limit, if any.
    pub move_limit: Option<u32>,
    /// Every distinct arrangement so far (the current one included).
    pub history: &'a [[u64; 2]],
    /// Keep every earlier arrangement in the key (no relevance filter).
    pub full_history: bool,
    /// The symmetry tables when keys are symmetric.
    pub sym: Option<&'static SymmetryTables>,
}

/// The key of the position and the symmetry of its canonical frame (0 without symmetric
/// keys).
pub fn go_key(p: &KeyParts<'_>) -> (u64, u8) {
    let blocks = Blocks::of(p.grid, p.stones);
    let left = p.move_limit.map(|l| l.saturating_sub(p.ply));
    let kept: Vec<[u64; 2]> = p
        .history
        .iter()
        .copied()
        .filter(|&h| p.full_history || recreatable(h, p.stones, &blocks, p.player as usize, left))
        .collect();
    let state = p.player as u64 | (p.passes as u64) << 1 | (p.ply as u64) << 8;
    let frame = |s: usize| -> ([u64; 2], u64) {
        match p.sym {
            None => (p.stones, kept.iter().fold(0, |k, &h| k ^ board_key(h))),
            Some(t) => {
                let map = |b: [u64; 2]| [t.apply(s, b[0]), t.apply(s, b[1])];
                (map(p.stones), kept.iter().fold(0, |k, &h| k ^ board_key(map(h))))
            }
        }
    };
    let count = p.sym.map_or(1, |t| t.count());
    let mut best = (frame(0), 0usize);
    for s in 1..count {
        let f = frame(s);
        if f < best.0 {
            best = (f, s);
        }
    }
    let ((image, history), s) = best;
    (hash_words(&[image[0], image[1], state, history]), s as u8)
}

/// The cells of `set` in the canonical frame's cell order (symmetry `canon`), as cells of
/// the position's own frame: symmetric positions list corresponding points in the same
/// order.
pub fn cells_in_frame(sym: Option<&'static SymmetryTables>, canon: u8, set: u64) -> Vec<usize> {
    match sym {
        Some(t) => bits(t.apply(canon as usize, set)).map(|c| t.back(canon as usize, c)).collect(),
        None => bits(set).collect(),
    }
}
