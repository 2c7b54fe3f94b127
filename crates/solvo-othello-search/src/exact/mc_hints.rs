//! Monte Carlo move ordering for the exact solver (opt-in, `SolveOptions::mc_playouts`).
//!
//! Before the solve, a GRAVE search with a PPAF playout policy (the general solver's
//! "orderMC", `solvo_search::McOrdering`) runs from the root on Othello's `Game`
//! implementation. During the solve, at nodes that order their moves by a shallow search
//! (the expensive, high nodes), each move's key gets a bonus: at a position the GRAVE
//! tree holds, its share of the node's playouts; elsewhere its learned policy weight;
//! both in units of the fastest-first key. Ordering only: values stay exact whatever
//! the hints say.
//!
//! Measured (FFO #41-#46, 1 thread, 10,000 playouts; node counts are deterministic):
//! letting the playout counts dominate the order, as the general solver does, visits
//! 59% more nodes than the solver's own ordering (shallow search + fastest first); the
//! policy weights alone (4x stronger than here) 7% more; the gentle hints kept here
//! change the count by -0.5%. The option is therefore off by default.
//!
//! The GRAVE tree is keyed by `hash_board` (not the transposition table's cheaper hash);
//! a node's lookup costs one hash and one map probe. The policy's move code is (colour, square);
//! the colour to move at a node is inferred from the parity of the plies since the root
//! (wrong only after a pass, which merely weakens a hint).

use solvo_core::Game;
use solvo_othello::{Position, Square};
use solvo_search::grave::GraveParams;
use solvo_search::{Budget, McOrdering};
use std::time::Duration;

/// What the Monte Carlo search learned, in the form the solver's move keys need.
pub struct McHints {
    ordering: McOrdering<Square>,
    /// Policy weight of each square for each colour, already scaled to key units.
    weights: [[i32; 64]; 2],
    root_colour: u8,
    root_empties: u32,
}

/// Key units per unit of policy weight (one opponent move in the fastest-first key is 64).
const WEIGHT_SCALE: f64 = 16.0;
/// Key units for a move that got all of its node's playouts (a share of them gets a
/// share of this).
const TREE_SCALE: i64 = 256;

impl McHints {
    /// Runs `playouts` GRAVE + PPAF playouts from `pos` (deterministic for `seed`).
    pub fn learn(pos: &Position, playouts: u32, seed: u64) -> McHints {
        let params = GraveParams { playouts, seed, ..GraveParams::default() };
        let ordering = McOrdering::learn(pos, &params, Budget::UNLIMITED);
        let mut weights = [[0i32; 64]; 2];
        for (colour, row) in weights.iter_mut().enumerate() {
            for (sq, w) in row.iter_mut().enumerate() {
                let code = 64 * colour as u32 + sq as u32;
                *w = (ordering.weight(code).clamp(-32.0, 32.0) * WEIGHT_SCALE) as i32;
            }
        }
        McHints { ordering, weights, root_colour: pos.player_to_move(), root_empties: pos.empties() }
    }

    /// Playouts run, GRAVE tree nodes and the time the learning took.
    pub fn summary(&self) -> (u64, u64, Duration) {
        (self.ordering.playouts, self.ordering.tree_nodes, self.ordering.time)
    }

    /// The tree's moves at the position with table hash `hash`, if it holds it.
    #[inline]
    pub fn node(&self, hash: u64) -> Option<&[(Square, u32)]> {
        self.ordering.node(hash)
    }

    /// The key bonus of the move to `x` at a node with `empties` empties whose tree
    /// entry (if any) is `node`.
    #[inline]
    pub fn bonus(&self, node: Option<&[(Square, u32)]>, empties: u32, x: usize) -> i32 {
        if let Some(moves) = node {
            let count = moves.iter().find(|(m, _)| m.index() == x).map_or(0, |&(_, n)| n);
            let total: u32 = moves.iter().map(|&(_, n)| n).sum::<u32>().max(1);
            return (i64::from(count) * TREE_SCALE / i64::from(total)) as i32;
        }
        let colour = self.root_colour ^ ((self.root_empties.wrapping_sub(empties)) & 1) as u8;
        self.weights[usize::from(colour & 1)][x & 63]
    }
}
