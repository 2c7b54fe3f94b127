//! The solver behind the walk: exact values with a best move (the designated moves of
//! P and A' nodes: oracle ordering, as in the published experiment) and null-window
//! tests (C children of A' nodes), by alpha-beta over one transposition table kept for
//! the whole run (and, optionally, a proof store).

use super::SemiError;
use crate::alphabeta::{alpha_beta_on_table, AbOptions};
use crate::budget::Budget;
use crate::mc_ordering::McOrdering;
use crate::outcome::Verdict;
use crate::proven::ProvenPositions;
use crate::tt::{TableShape, TranspositionTable};
use solvo_core::Game;
use std::sync::Arc;

/// What the walk asks a solver.
pub trait Oracle<G: Game> {
    /// The exact value of `g` (its side to move can move) and a best move.
    fn exact(&mut self, g: &G) -> Result<(i32, G::Move), SemiError>;

    /// Proven bounds `(lower, upper)` of `g`'s value that settle whether it is at least
    /// `t`, and when it is, a move that proves it.
    fn test(&mut self, g: &G, t: i32) -> Result<(i32, i32, Option<G::Move>), SemiError>;

    /// The move a P' node (whose children are all searched alike) searches first; the
    /// default, `None`, takes the first listed. Only the designated move recorded at
    /// ties depends on it.
    fn p_prime_first(&mut self, _g: &G) -> Option<G::Move> {
        None
    }

    /// Solver calls and nodes so far.
    fn work(&self) -> (u64, u64);
}

/// [`Oracle`] by the generic alpha-beta solver (`ab-tt`) over one table.
pub struct SolverOracle {
    options: AbOptions,
    table: Arc<TranspositionTable>,
    budget: Budget,
    proofs: Option<Box<dyn ProvenPositions>>,
    solves: u64,
    nodes: u64,
}

impl SolverOracle {
    /// An oracle with a table of `2^tt_bits` buckets and `threads` search threads,
    /// each solve limited by `budget` (a solve out of budget is [`SemiError::Budget`]).
    pub fn new(tt_bits: u32, threads: usize, budget: Budget) -> SolverOracle {
        let table = TableShape::buckets(tt_bits);
        let options = AbOptions { table, threads: threads.max(1), ..AbOptions::default() };
        SolverOracle {
            options,
            table: Arc::new(TranspositionTable::with_shape(table)),
            budget,
            proofs: None,
            solves: 0,
            nodes: 0,
        }
    }

    /// Another oracle over the same table (its entries are shared, which is sound:
    /// every entry is a proven bound) with the same options, own counters and one search
    /// thread: the oracle of a second lane of [`super::semi_strong_lanes`].
    pub fn sibling(&self) -> SolverOracle {
        let options = AbOptions { threads: 1, ..self.options };
        SolverOracle { options, table: Arc::clone(&self.table), budget: self.budget, proofs: None, solves: 0, nodes: 0 }
    }

    /// Limits every later solve by `budget` instead (a caller with one budget for
    /// several solves hands each what is left of it).
    pub fn set_budget(&mut self, budget: Budget) {
        self.budget = budget;
    }

    /// Reading and recording proven positions in `proofs` (a proof store: solves
    /// killed with the walk resume from what they proved, and repeated solves reuse
    /// proofs the table has lost). A sibling does not inherit it: give it its own.
    pub fn with_proofs(mut self, proofs: Box<dyn ProvenPositions>) -> SolverOracle {
        self.proofs = Some(proofs);
        self
    }

    /// With the killer-move and history heuristics (they change the cost, never a value).
    pub fn with_heuristics(mut self, killers: bool, history: bool) -> SolverOracle {
        self.options.killers = killers;
        self.options.history = history;
        self
    }

    /// With the enhanced transposition cutoff (`--etc`: every child probed in the table
    /// before any is searched; it changes the cost, never a value).
    pub fn with_etc(mut self, etc: bool) -> SolverOracle {
        self.options.etc = etc;
        self
    }

    /// This oracle ordering moves by `ordering` (the solver `ab-tt-mc`): one Monte
    /// Carlo ordering, learned once (from the walk's start), for every solve.
    pub fn with_ordering<M>(self, ordering: Arc<McOrdering<M>>) -> McOracle<M> {
        McOracle { solver: self, ordering }
    }

    fn run<G: Game>(
        &mut self,
        g: &G,
        null_window: Option<i32>,
        ordering: Option<&McOrdering<G::Move>>,
    ) -> (Verdict, Option<G::Move>) {
        let options = AbOptions { null_window, ..self.options };
        let proofs = self.proofs.as_deref_mut().map(|p| p as &mut dyn ProvenPositions);
        let r = alpha_beta_on_table(g, &options, &self.table, ordering, self.budget, proofs);
        self.solves += 1;
        self.nodes += r.stats.nodes;
        (r.verdict, r.best_move)
    }
}

/// An exact value and best move from a solve's answer.
fn exact_of<M>(answer: (Verdict, Option<M>)) -> Result<(i32, M), SemiError> {
    match answer {
        (Verdict::Exact(v), Some(m)) => Ok((v, m)),
        (Verdict::Exact(_), None) => Err(SemiError::Internal("an exact solve gave no best move".into())),
        _ => Err(SemiError::Budget),
    }
}

/// Bounds (and a proving move) from a null-window solve's answer.
fn test_of<M>(answer: (Verdict, Option<M>), max: i32) -> Result<(i32, i32, Option<M>), SemiError> {
    match answer {
        (Verdict::AtLeast(t), m) => Ok((t, max, m)),
        (Verdict::Below(t), _) => Ok((-max, t - 1, None)),
        (Verdict::Exact(v), m) => Ok((v, v, m)),
        (Verdict::Unknown, _) => Err(SemiError::Budget),
    }
}

impl<G: Game> Oracle<G> for SolverOracle {
    fn exact(&mut self, g: &G) -> Result<(i32, G::Move), SemiError> {
        exact_of(self.run(g, None, None))
    }

    fn test(&mut self, g: &G, t: i32) -> Result<(i32, i32, Option<G::Move>), SemiError> {
        test_of(self.run(g, Some(t), None), g.max_value())
    }

    fn work(&self) -> (u64, u64) {
        (self.solves, self.nodes)
    }
}

/// [`SolverOracle`] with a Monte Carlo move ordering (`ab-tt-mc`) shared by every solve
/// (and by sibling lanes: the ordering is read-only). Same answers, other costs.
pub struct McOracle<M> {
    solver: SolverOracle,
    ordering: Arc<McOrdering<M>>,
}

impl<M> McOracle<M> {
    /// Another oracle over the same table and ordering (see [`SolverOracle::sibling`]).
    pub fn sibling(&self) -> McOracle<M> {
        McOracle { solver: self.solver.sibling(), ordering: Arc::clone(&self.ordering) }
    }

    /// Reading and recording proven positions (see [`SolverOracle::with_proofs`]).
    pub fn with_proofs(mut self, proofs: Box<dyn ProvenPositions>) -> McOracle<M> {
        self.solver = self.solver.with_proofs(proofs);
        self
    }
}

impl<G: Game> Oracle<G> for McOracle<G::Move> {
    fn exact(&mut self, g: &G) -> Result<(i32, G::Move), SemiError> {
        exact_of(self.solver.run(g, None, Some(&self.ordering)))
    }

    fn test(&mut self, g: &G, t: i32) -> Result<(i32, i32, Option<G::Move>), SemiError> {
        test_of(self.solver.run(g, Some(t), Some(&self.ordering)), g.max_value())
    }

    fn work(&self) -> (u64, u64) {
        <SolverOracle as Oracle<G>>::work(&self.solver)
    }
}
