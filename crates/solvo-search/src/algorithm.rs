//! One entry point for every solver: pick an [`Algorithm`], give a [`SolverConfig`].

use crate::alphabeta::{alpha_beta_with_proofs, AbOptions};
use crate::budget::{Budget, Limiter};
use crate::dfpn::{dfpn_with_proofs, DfpnOptions};
use crate::grave::GraveParams;
use crate::mc_ordering::{McOrdering, TREE_MIN_VISITS};
use crate::mcts_solver::{mcts_solver, MctsOptions};
use crate::outcome::SolverAnswer;
use crate::pn2::{pn2, PnOptions};
use crate::product_propagation::{product_propagation, ProductOptions};
use crate::proven::ProvenPositions;
use crate::score_bounded::{score_bounded_mcts, ScoreBoundedOptions};
use crate::tt::{Replacement, TableShape};
use solvo_core::Game;
use std::fmt;
use std::str::FromStr;

/// The solvers, by their command-line names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// Depth-first alpha-beta with a transposition table.
    AbTt,
    /// Iterative-deepening alpha-beta with a transposition table.
    IdAbTt,
    /// `ab-tt` with Monte Carlo move ordering.
    AbTtMc,
    /// `id-ab-tt` with Monte Carlo move ordering.
    IdAbTtMc,
    /// PN2 (two-level proof-number search).
    Pn2,
    /// Depth-first proof-number search.
    Dfpn,
    /// MCTS-Solver.
    MctsSolver,
    /// df-pn expanding children in the Monte Carlo order (the ordering search's
    /// playout counts and policy after the game's priorities).
    DfpnMc,
    /// Score-bounded MCTS: the exact value of a game with several outcomes.
    ScoreBoundedMcts,
    /// Product propagation: a best-first solver backing up probabilities.
    ProductPropagation,
}

impl Algorithm {
    /// Every algorithm, in the order of the benchmark table.
    pub const ALL: [Algorithm; 10] = [
        Algorithm::AbTt,
        Algorithm::IdAbTt,
        Algorithm::AbTtMc,
        Algorithm::IdAbTtMc,
        Algorithm::Pn2,
        Algorithm::Dfpn,
        Algorithm::MctsSolver,
        Algorithm::DfpnMc,
        Algorithm::ScoreBoundedMcts,
        Algorithm::ProductPropagation,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::AbTt => "ab-tt",
            Algorithm::IdAbTt => "id-ab-tt",
            Algorithm::AbTtMc => "ab-tt-mc",
            Algorithm::IdAbTtMc => "id-ab-tt-mc",
            Algorithm::Pn2 => "pn2",
            Algorithm::Dfpn => "dfpn",
            Algorithm::MctsSolver => "mcts-solver",
            Algorithm::DfpnMc => "dfpn-mc",
            Algorithm::ScoreBoundedMcts => "sb-mcts",
            Algorithm::ProductPropagation => "pp",
        }
    }

    /// Whether it runs the Monte Carlo ordering search first.
    pub fn uses_mc(self) -> bool {
        matches!(self, Algorithm::AbTtMc | Algorithm::IdAbTtMc | Algorithm::DfpnMc)
    }

    /// Whether it finds exact values (alpha-beta, score-bounded MCTS) rather than a
    /// threshold answer.
    pub fn exact(self) -> bool {
        matches!(
            self,
            Algorithm::AbTt | Algorithm::IdAbTt | Algorithm::AbTtMc | Algorithm::IdAbTtMc | Algorithm::ScoreBoundedMcts
        )
    }

    /// Whether it reads and records proven positions (see [`solve_with_proofs`]).
    pub fn keeps_proofs(self) -> bool {
        matches!(
            self,
            Algorithm::AbTt
                | Algorithm::IdAbTt
                | Algorithm::AbTtMc
                | Algorithm::IdAbTtMc
                | Algorithm::Dfpn
                | Algorithm::DfpnMc
        )
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Algorithm {
    type Err = String;

    /// Parses a command-line name; the error lists the valid ones.
    fn from_str(s: &str) -> Result<Self, String> {
        Algorithm::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| {
            let names: Vec<&str> = Algorithm::ALL.iter().map(|a| a.name()).collect();
            format!("unknown algorithm '{s}' (expected one of: {})", names.join(", "))
        })
    }
}

/// Everything a solver run needs besides the position.
#[derive(Clone, Copy, Debug)]
pub struct SolverConfig {
    /// Which solver.
    pub algorithm: Algorithm,
    /// Node and time limits (the time limit includes the Monte Carlo search).
    pub budget: Budget,
    /// Transposition tables have `2^tt_bits` buckets of two entries.
    pub tt_bits: u32,
    /// Threshold question of the proof-number and MCTS solvers: value >= threshold.
    pub threshold: i32,
    /// The GRAVE + PPAF search of the `-mc` solvers.
    pub grave: GraveParams,
    /// Enhanced transposition cutoff in the alpha-beta solvers.
    pub etc: bool,
    /// Replacement scheme of the alpha-beta solvers' table.
    pub tt_scheme: Replacement,
    /// Entries of the alpha-beta solvers' table, overriding `tt_bits` (the study:
    /// 1,048,575).
    pub tt_entries: Option<usize>,
    /// Count look-ups that miss positions stored before (memory for every stored key).
    pub tt_track_lost: bool,
    /// The alpha-beta solvers ask "value >= threshold?" with a null window at the root
    /// instead of finding the exact value (the study's setting).
    pub null_window: bool,
    /// Killer moves in the alpha-beta solvers.
    pub killers: bool,
    /// Killer moves before the game's priority moves (implies `killers`).
    pub killers_first: bool,
    /// The history heuristic in the alpha-beta solvers.
    pub history: bool,
    /// Threads of the alpha-beta solvers (lazy SMP over a shared table); 1: sequential.
    pub threads: usize,
    /// A GRAVE node orders the solver's moves by its playout counts only with more than
    /// this many playouts (the study: 100), else the learned policy does.
    pub mc_min_visits: u32,
}

impl SolverConfig {
    /// Defaults for `algorithm`: no budget, 2^22 cost-based buckets, threshold 1, default
    /// GRAVE, full window, no killers or history.
    pub fn new(algorithm: Algorithm) -> SolverConfig {
        SolverConfig {
            algorithm,
            budget: Budget::UNLIMITED,
            tt_bits: 22,
            threshold: 1,
            grave: GraveParams::default(),
            etc: false,
            tt_scheme: Replacement::CostBased,
            tt_entries: None,
            tt_track_lost: false,
            null_window: false,
            killers: false,
            killers_first: false,
            history: false,
            threads: 1,
            mc_min_visits: TREE_MIN_VISITS,
        }
    }

    /// The alpha-beta table this configuration asks for.
    pub fn table_shape(&self) -> TableShape {
        let entries = self.tt_entries.unwrap_or(TableShape::buckets(self.tt_bits).entries);
        TableShape { entries, scheme: self.tt_scheme, track_lost: self.tt_track_lost }
    }

    /// The alpha-beta options this configuration asks for (`iterative` or not).
    pub fn ab_options(&self, iterative: bool) -> AbOptions {
        AbOptions {
            iterative,
            table: self.table_shape(),
            etc: self.etc,
            null_window: self.null_window.then_some(self.threshold),
            killers: self.killers || self.killers_first,
            killers_first: self.killers_first,
            history: self.history,
            threads: self.threads,
        }
    }
}

/// Solves `game` with the configured algorithm. Never claims a value it has not
/// proven: a run out of budget gives [`crate::Verdict::Unknown`].
pub fn solve<G: Game>(game: &G, config: &SolverConfig) -> SolverAnswer<G::Move> {
    solve_with_proofs(game, config, None)
}

/// [`solve`] that, for the alpha-beta algorithms and df-pn, reads and records proven
/// positions in `proven` (see [`crate::proven`]); PN2 and the MCTS solver ignore it.
pub fn solve_with_proofs<G: Game>(
    game: &G,
    config: &SolverConfig,
    proven: Option<&mut dyn ProvenPositions>,
) -> SolverAnswer<G::Move> {
    let clock = Limiter::new(config.budget);
    let ordering = config
        .algorithm
        .uses_mc()
        .then(|| McOrdering::learn_with(game, &config.grave, config.budget, config.mc_min_visits));
    let budget: Budget = clock.remaining(0);
    let budget = Budget { max_nodes: config.budget.max_nodes, ..budget };
    let mut result = match config.algorithm {
        Algorithm::AbTt | Algorithm::AbTtMc | Algorithm::IdAbTt | Algorithm::IdAbTtMc => {
            let iterative = matches!(config.algorithm, Algorithm::IdAbTt | Algorithm::IdAbTtMc);
            alpha_beta_with_proofs(game, &config.ab_options(iterative), ordering.as_ref(), budget, proven)
        }
        Algorithm::Pn2 => pn2(game, &PnOptions { threshold: config.threshold, ..PnOptions::default() }, None, budget),
        Algorithm::Dfpn | Algorithm::DfpnMc => {
            let options =
                DfpnOptions { threshold: config.threshold, tt_bits: config.tt_bits, ..DfpnOptions::default() };
            dfpn_with_proofs(game, &options, ordering.as_ref(), budget, proven)
        }
        Algorithm::MctsSolver => {
            let options =
                MctsOptions { threshold: config.threshold, seed: config.grave.seed, ..MctsOptions::default() };
            mcts_solver(game, &options, budget)
        }
        Algorithm::ScoreBoundedMcts => {
            let options = ScoreBoundedOptions { seed: config.grave.seed, ..ScoreBoundedOptions::default() };
            score_bounded_mcts(game, &options, budget)
        }
        Algorithm::ProductPropagation => {
            let options = ProductOptions { threshold: config.threshold, ..ProductOptions::default() };
            product_propagation(game, &options, budget)
        }
    };
    if let Some(o) = &ordering {
        result.stats.playouts = o.playouts;
        result.stats.mc_nodes = o.tree_nodes;
        result.stats.mc_time = o.time;
    }
    result.stats.time = clock.elapsed();
    result
}
