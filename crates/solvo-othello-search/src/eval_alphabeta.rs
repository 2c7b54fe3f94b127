//! The one depth-limited alpha-beta on an evaluation (negamax, fail-soft, no table):
//! the exact solver's ordering searches, the engine's estimates on small boards, the
//! pipeline's estimates and the lab's studies all run it, each through an
//! [`EvalSearch`] saying what its leaves are worth, how it orders moves, when it gives
//! up and what it counts.

use solvo_othello::flips::flips;
use solvo_othello::moves::legal_moves;

/// Most moves a position of the 8x8 grid can have (a small board has fewer).
pub const MAX_CHILDREN: usize = 32;

/// A position one move below the node searched: `player` (the opponent of the node's
/// side to move) to move against `opponent`, and a key [`EvalSearch::order`] may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct EvalChild {
    /// Discs of the side to move in the child.
    pub player: u64,
    /// Discs of the other side (the node's side to move, after its move).
    pub opponent: u64,
    /// Free for [`EvalSearch::order`] (zero when the children are handed over).
    pub key: i32,
}

/// What an [`eval_alphabeta`] stands on: the values of leaves and finished games, its
/// conventions, and optional hooks (each a no-op by default, which the compiler removes).
pub trait EvalSearch {
    /// True (the ordering convention): a forced pass costs a ply and the depth limit is
    /// looked at first, so a leaf may be a finished game or a position that must pass,
    /// valued by [`EvalSearch::leaf`]. False: a pass is free and a finished game is
    /// valued by [`EvalSearch::terminal`] at any depth.
    const PASS_IS_PLY: bool = true;
    /// True: the children are collected and handed to [`EvalSearch::order`] before they
    /// are searched. False: they are searched in square order, without a buffer.
    const ORDERS: bool = false;

    /// The value of a leaf, `p` to move against `o`.
    fn leaf(&mut self, p: u64, o: u64) -> i32;
    /// The value of a finished game, `p` to move against `o`.
    fn terminal(&mut self, p: u64, o: u64) -> i32;
    /// Called once at every node entered: counts it and says whether the search gives
    /// up (its values are then meaningless; every node still entered returns 0 at once).
    fn visit(&mut self) -> bool;
    /// Puts `children` in the order to search them (only with [`EvalSearch::ORDERS`]);
    /// `depth` is the node's remaining depth.
    #[inline(always)]
    fn order(&mut self, _depth: u32, _children: &mut [EvalChild]) {}
    /// False: plain minimax, every move searched with the whole window whatever the
    /// window asked (the same value, every node visited).
    #[inline(always)]
    fn prunes(&self) -> bool {
        true
    }
    /// Called before the search descends to the position `p` to move against `o` (a
    /// move's or a forced pass's), [`EvalSearch::leave`] after it returns.
    #[inline(always)]
    fn enter(&mut self, _p: u64, _o: u64) {}
    /// See [`EvalSearch::enter`].
    #[inline(always)]
    fn leave(&mut self) {}
}

/// The fail-soft alpha-beta value of `p` to move against `o` (squares of `mask`),
/// searched `depth` plies within `(alpha, beta)` under `s`'s conventions: inside the
/// window it is the depth-limited minimax value; at or below `alpha` an upper bound of
/// it, at or above `beta` a lower bound. Without [`EvalSearch::prunes`] the window is
/// the whole range: the value is the minimax value.
pub fn eval_alphabeta<S: EvalSearch>(s: &mut S, p: u64, o: u64, mask: u64, depth: u32, alpha: i32, beta: i32) -> i32 {
    if s.visit() {
        return 0;
    }
    let (alpha, beta) = if s.prunes() { (alpha, beta) } else { (-i32::MAX, i32::MAX) };
    if S::PASS_IS_PLY && depth == 0 {
        return s.leaf(p, o);
    }
    let mut moves = legal_moves(p, o, mask);
    if moves == 0 {
        if legal_moves(o, p, mask) == 0 {
            return s.terminal(p, o);
        }
        let below = if S::PASS_IS_PLY { depth - 1 } else { depth };
        s.enter(o, p);
        let v = -eval_alphabeta(s, o, p, mask, below, -beta, -alpha);
        s.leave();
        return v;
    }
    if !S::PASS_IS_PLY && depth == 0 {
        return s.leaf(p, o);
    }
    let mut best = i32::MIN + 1;
    let mut alpha = alpha;
    if S::ORDERS {
        let mut children = [EvalChild::default(); MAX_CHILDREN];
        let mut n = 0;
        while moves != 0 && n < MAX_CHILDREN {
            let x = moves.trailing_zeros() as usize;
            moves &= moves - 1;
            let f = flips(x, p, o);
            children[n] = EvalChild { player: o ^ f, opponent: p ^ f ^ (1 << x), key: 0 };
            n += 1;
        }
        let children = &mut children[..n];
        s.order(depth, children);
        for c in children.iter() {
            s.enter(c.player, c.opponent);
            let v = -eval_alphabeta(s, c.player, c.opponent, mask, depth - 1, -beta, -alpha);
            s.leave();
            if improves(v, &mut best, &mut alpha, beta) {
                break;
            }
        }
        return best;
    }
    while moves != 0 {
        let x = moves.trailing_zeros() as usize;
        moves &= moves - 1;
        let f = flips(x, p, o);
        let (cp, co) = (o ^ f, p ^ f ^ (1 << x));
        s.enter(cp, co);
        let v = if S::PASS_IS_PLY && depth == 1 {
            // The leaves valued in place rather than by a call each (the same positions,
            // counted the same way; FFO #41-#42 under cachegrind: 19.08 G -> 18.57 G
            // instructions in all).
            if s.visit() {
                0
            } else {
                -s.leaf(cp, co)
            }
        } else {
            -eval_alphabeta(s, cp, co, mask, depth - 1, -beta, -alpha)
        };
        s.leave();
        if improves(v, &mut best, &mut alpha, beta) {
            break;
        }
    }
    best
}

/// Takes a child's value `v` into `best` and `alpha`; true when it cuts (`alpha >= beta`).
#[inline(always)]
fn improves(v: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> bool {
    if v > *best {
        *best = v;
        if v > *alpha {
            *alpha = v;
            return *alpha >= beta;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_othello::{Board, BoardSize, Square};

    const SIZE: BoardSize = BoardSize::Six;

    /// Plain minimax over the conventions, disc difference at the leaves and 100 a disc
    /// at game ends: what every search below must agree with.
    fn minimax(b: Board, depth: u32, pass_is_ply: bool) -> i32 {
        let diff = b.player.count_ones() as i32 - b.opponent.count_ones() as i32;
        if pass_is_ply && depth == 0 {
            return diff;
        }
        if b.moves(SIZE) == 0 {
            if b.pass().moves(SIZE) == 0 {
                return 100 * b.final_score(SIZE);
            }
            return -minimax(b.pass(), if pass_is_ply { depth - 1 } else { depth }, pass_is_ply);
        }
        if depth == 0 {
            return diff;
        }
        Square::iter(b.moves(SIZE)).map(|sq| -minimax(b.play(sq, SIZE).unwrap(), depth - 1, pass_is_ply)).max().unwrap()
    }

    macro_rules! discs_search {
        ($name:ident, $ply:expr, $orders:expr, $prunes:expr) => {
            struct $name;
            impl EvalSearch for $name {
                const PASS_IS_PLY: bool = $ply;
                const ORDERS: bool = $orders;
                fn leaf(&mut self, p: u64, o: u64) -> i32 {
                    p.count_ones() as i32 - o.count_ones() as i32
                }
                fn terminal(&mut self, p: u64, o: u64) -> i32 {
                    100 * (Board { player: p, opponent: o }).final_score(SIZE)
                }
                fn visit(&mut self) -> bool {
                    false
                }
                fn order(&mut self, _: u32, children: &mut [EvalChild]) {
                    children.reverse();
                }
                fn prunes(&self) -> bool {
                    $prunes
                }
            }
        };
    }
    discs_search!(PlyNoOrder, true, false, true);
    discs_search!(PlyOrder, true, true, true);
    discs_search!(PlyNoPrune, true, true, false);
    discs_search!(FreeNoOrder, false, false, true);
    discs_search!(FreeOrder, false, true, true);
    discs_search!(FreeNoPrune, false, true, false);

    fn value<S: EvalSearch>(mut s: S, b: Board, depth: u32, alpha: i32, beta: i32) -> i32 {
        eval_alphabeta(&mut s, b.player, b.opponent, SIZE.mask(), depth, alpha, beta)
    }

    #[test]
    fn every_convention_gives_minimax_inside_the_window_and_bounds_outside() {
        let mut rng = solvo_core::rng::Rng::new(11);
        let mut b = Board::start();
        for step in 0..40 {
            let moves = b.moves(SIZE);
            if moves == 0 {
                if b.pass().moves(SIZE) == 0 {
                    b = Board::start();
                    continue;
                }
                b = b.pass();
                continue;
            }
            let n = moves.count_ones() as usize;
            b = b.play(Square::iter(moves).nth(rng.below(n)).unwrap(), SIZE).unwrap();
            let depth = 1 + (step % 4) as u32;
            for pass_is_ply in [true, false] {
                let exact = minimax(b, depth, pass_is_ply);
                for (alpha, beta) in [(-10_000, 10_000), (exact - 1, exact + 1), (exact, exact + 5), (exact - 5, exact)]
                {
                    let (vs, plain) = if pass_is_ply {
                        (
                            [value(PlyNoOrder, b, depth, alpha, beta), value(PlyOrder, b, depth, alpha, beta)],
                            value(PlyNoPrune, b, depth, alpha, beta),
                        )
                    } else {
                        (
                            [value(FreeNoOrder, b, depth, alpha, beta), value(FreeOrder, b, depth, alpha, beta)],
                            value(FreeNoPrune, b, depth, alpha, beta),
                        )
                    };
                    // Without pruning the window does not matter: the minimax value.
                    assert_eq!(plain, exact);
                    for v in vs {
                        if alpha < exact && exact < beta {
                            assert_eq!(v, exact);
                        } else if exact <= alpha {
                            assert!(v <= alpha && v >= exact);
                        } else {
                            assert!(v >= beta && v <= exact);
                        }
                    }
                }
            }
        }
    }
}
