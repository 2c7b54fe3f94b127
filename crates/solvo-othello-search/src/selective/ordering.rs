//! Move ordering: the children of a node, generated once into a fixed-size list on
//! the stack (no allocation per node), then sorted best first by
//! 1. the transposition table's move;
//! 2. the value of a shallow search of the child with the evaluation (depth
//!    [`sort_depth`] of the node's depth; for nodes near the leaves the static
//!    evaluation in a selective search, nothing in a plain one: see
//!    [`SelectiveSearcher::order_moves`]);
//! 3. minus a penalty per move left to the opponent (corner moves count double).

use super::search::SelectiveSearcher;
use crate::table::NO_MOVE;
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
    /// Gives every child of a node of `depth` its ordering key and sorts the list.
    ///
    /// Near the leaves ([`sort_depth`] `None`) a plain search (no Multi-ProbCut) orders
    /// by the opponent's mobility alone: the static evaluation of every child cost more
    /// than the better order saved. 1 thread, `bench hard --depth 12`: hard-20 220 M
    /// nodes / 23.7 s with the evaluation, 141 M / 15.3 s without (hard-25 723 M / 80.5
    /// s, 471 M / 53.0 s), the same values. A selective search keeps the evaluation:
    /// without it hard-25 15@73 took 1,276 M nodes instead of 1,020 M and hard-20 15@95
    /// 782 M instead of 715 M (its shallow probes lean on the order).
    pub fn order_moves(&mut self, list: &mut MoveList, tt_move: u8, depth: u32) {
        if list.len() < 2 {
            return;
        }
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
                        -self.evaluate(c.p, c.o)
                    }
                    Some(d) => -self.shallow_value(c.p, c.o, d),
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
