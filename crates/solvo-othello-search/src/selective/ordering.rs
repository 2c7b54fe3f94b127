//! Move ordering: the children of a node, generated once into a fixed-size list on
//! the stack (no allocation per node), then sorted best first by
//! 1. the transposition table's move;
//! 2. the value of a shallow search of the child with the evaluation (depth
//!    [`sort_depth`] of the node's depth, searched only as far as it tells a move
//!    [`SORT_WINDOW`] below the node's alpha; for nodes near the leaves the static
//!    evaluation in a selective search, nothing in a plain one: see
//!    [`SelectiveSearcher::order_moves`]);
//! 3. minus a penalty per move left to the opponent (corner moves count double).

use super::search::{SelectiveSearcher, INF};
use crate::exact::shallow::NEXT_TO_CORNERS;
use crate::table::NO_MOVE;
use solvo_eval::SCALE;
use solvo_othello::flips::flips;
use solvo_othello::moves::legal_moves;

/// Capacity of a move list: no position has more legal moves than empty squares.
pub const MAX_MOVES: usize = 64;

/// Corners of the 8x8 board.
const CORNERS: u64 = 0x8100_0000_0000_0081;

/// Penalty per opponent move, in `1 / SCALE` disc (1.5 discs). Measured on 30
/// positions of hard-25 at depth 12 (nodes, ordering included): 48 -> 97.4 M with the
/// old sort depths; with the sort depths below 96 -> 79.9 M, 128 -> 78.5 M,
/// 192 -> 74.7 M.
pub const MOBILITY_WEIGHT: i32 = 192;

/// How far below the node's alpha (search units: 4 discs) the shallow search that orders
/// a move still finds its exact value: a move found worse than that is cut off and
/// sorted among the worst (Edax sorts within such a window too, 8 discs). Every move of
/// an alpha-beta search is still searched, so values do not change; the shallow
/// searches get cheaper. `bench hard data/ref/hard-30.obf --depth 14 --selectivity 87`
/// (2026-11-30, 1 thread): 195.1 M nodes without the window, 189.2 M with 8 discs,
/// 187.2 M with 4, 186.8 M with 2; 9.5-9.7 s against 9.1-9.4 s with 4, the same moves
/// and values.
pub const SORT_WINDOW: i32 = 4 * SCALE;

/// The order in which the unsorted nodes next to the leaves (one and two plies left,
/// searched without table or sorting) try their moves: corners, then every square but
/// the C and X squares, then those (the squares next to a corner), each class in
/// square order. A cut found by the first moves saves the evaluations of the others.
/// `bench hard data/ref/hard-30.obf --depth 14 --selectivity 87` (2026-11-30, 1
/// thread): 187.2 M nodes, 9.3 s in square order; 154.4 M, 7.7-8.1 s with the classes
/// (68.9% / 69.2% best moves). Sorting the depth-2 nodes' moves by the replies left to
/// the opponent instead took 141.4 M nodes but 8.0-8.5 s; nine classes by Jon C.
/// Welty's square values (as Edax's endgame uses them) 155.1 M.
pub const SQUARE_CLASSES: [u64; 3] = [CORNERS, !(CORNERS | NEXT_TO_CORNERS), NEXT_TO_CORNERS];

/// One child of a node: the move and the position after it (the opponent to move).
#[derive(Clone, Copy, Debug, Default)]
pub struct Child {
    /// Square index of the move.
    pub sq: u8,
    /// Side to move in the child (the node's opponent).
    pub p: u64,
    /// The other side in the child (the node's player, with the move and flips).
    pub o: u64,
    /// Ordering key: larger is tried first.
    pub key: i32,
}

/// The children of a node, in a stack array.
pub struct MoveList {
    children: [Child; MAX_MOVES],
    len: usize,
}

impl MoveList {
    /// The children of `p` to move against `o` for the legal moves `moves` (unsorted).
    #[inline]
    pub fn new(p: u64, o: u64, mut moves: u64) -> MoveList {
        let mut list = MoveList { children: [Child::default(); MAX_MOVES], len: 0 };
        while moves != 0 {
            let sq = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(sq, p, o);
            list.children[list.len] = Child { sq: sq as u8, p: o ^ f, o: p ^ f ^ (1u64 << sq), key: 0 };
            list.len += 1;
        }
        list
    }

    /// Number of children.
    #[inline]
    pub fn len(&self) -> usize {
        self.len
    }

    /// True when there is no child.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The children, in their current order.
    #[inline]
    pub fn as_slice(&self) -> &[Child] {
        &self.children[..self.len]
    }

    /// The children, writable (keys).
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [Child] {
        &mut self.children[..self.len]
    }

    /// Sorts by key, largest first (insertion sort: lists are short).
    #[inline]
    pub fn sort(&mut self) {
        let c = &mut self.children[..self.len];
        for i in 1..c.len() {
            let x = c[i];
            let mut j = i;
            while j > 0 && c[j - 1].key < x.key {
                c[j] = c[j - 1];
                j -= 1;
            }
            c[j] = x;
        }
    }
}

/// Depth of the shallow search that orders the children of a node of `depth` in a
/// `selective` search or a plain one (`None`: no search, see
/// [`SelectiveSearcher::order_moves`]). Selective: depth-1 sorting from depth 8 rather than 6
/// saves about 18% of the nodes at depth 12 (hard-25, 30 positions). Plain (ordered by
/// mobility alone below): from depth 10, `bench hard --pv-extension 0` hard-20 depth 15
/// 812 M -> 723 M nodes (146.8 s -> 127.9 s), depth 12 139.5 M -> 132.9 M, hard-25
/// depth 12 470.7 M -> 462.9 M; depth-2 sorting from 14 instead of 12 gave 712 M at
/// depth 15 but no faster.
#[inline(always)]
pub const fn sort_depth(depth: u32, selective: bool) -> Option<u32> {
    match depth {
        0..=7 => None,
        8..=9 if !selective => None,
        8..=11 => Some(1),
        _ => Some(2),
    }
}

impl SelectiveSearcher<'_> {
    /// Gives every child of a node of `depth` searched with the window's lower end
    /// `alpha` its ordering key and sorts the list.
    ///
    /// Near the leaves ([`sort_depth`] `None`) a plain search (no Multi-ProbCut) orders
    /// by the opponent's mobility alone: the static evaluation of every child cost more
    /// than the better order saved. 1 thread, `bench hard --depth 12`: hard-20 220 M
    /// nodes / 23.7 s with the evaluation, 141 M / 15.3 s without (hard-25 723 M / 80.5
    /// s, 471 M / 53.0 s), the same values. A selective search keeps the evaluation:
    /// without it hard-25 15@73 took 1,276 M nodes instead of 1,020 M and hard-20 15@95
    /// 782 M instead of 715 M (its shallow probes lean on the order).
    pub fn order_moves(&mut self, list: &mut MoveList, tt_move: u8, depth: u32, alpha: i32) {
        if list.len() < 2 {
            return;
        }
        // A child's value at least this shows the move far enough below alpha.
        let child_beta = if alpha > -INF { (SORT_WINDOW - alpha).min(INF) } else { INF };
        let selective = self.is_selective();
        let sd = sort_depth(depth, selective);
        for i in 0..list.len() {
            let c = list.as_slice()[i];
            let key = if c.sq == tt_move && tt_move != NO_MOVE {
                i32::MAX
            } else {
                let value = match sd {
                    None if !selective => 0,
                    None => {
                        self.nodes += 1;
                        -self.evaluate_order(c.p, c.o)
                    }
                    Some(d) => -self.shallow_value(c.p, c.o, d, child_beta),
                };
                let replies = legal_moves(c.p, c.o, u64::MAX);
                let mobility = (replies.count_ones() + (replies & CORNERS).count_ones()) as i32;
                value - MOBILITY_WEIGHT * mobility
            };
            list.as_mut_slice()[i].key = key;
        }
        list.sort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_classes_split_the_board() {
        let [corners, plain, next] = SQUARE_CLASSES;
        assert_eq!((corners.count_ones(), plain.count_ones(), next.count_ones()), (4, 48, 12));
        assert_eq!(corners | plain | next, u64::MAX);
        assert_eq!(corners & plain | corners & next | plain & next, 0);
        // b1, g1, a2, b2, g2, h2 and their mirror images on ranks 7 and 8.
        let squares = [1, 6, 8, 9, 14, 15, 48, 49, 54, 55, 57, 62];
        assert_eq!(squares.iter().fold(0u64, |m, &s| m | 1 << s), next);
    }
}
