//! Principal variation search (negascout, fail-soft) with the transposition table,
//! enhanced transposition cutoff, stability cutoff and the shallow solver below a
//! threshold of empties.

use super::hints::MoveHints;
use super::knowledge::Knowledge;
use super::local_table::LocalTable;
use super::mc_hints::McHints;
use super::ordering::{eval_search, move_key, shallow_eval};
use super::shallow::{odd_quadrants, solve_shallow};
use super::stability::stability_cutoff;
use crate::parallel::{Shared, SplitState, Splitting};
use crate::table::{table_hash, SearchTable, TtCounts, TtHit, TtRecord};
use solvo_eval::{Weights, SCALE};
use solvo_othello::flips::flips;
use solvo_othello::hash::hash_board;
use solvo_othello::moves::legal_moves;
use solvo_othello::rules::{Rules, SCORE_INF};
use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Tunable switches, so each technique's effect can be measured.
#[derive(Clone, Copy, Debug)]
pub struct ExactConfig {
    /// Positions with at most this many empties are solved by the shallow solver
    /// (no table, parity order).
    pub shallow_empties: u32,
    /// Enhanced transposition cutoff: probe every child before searching any.
    pub etc: bool,
    /// Stability cutoff.
    pub stability: bool,
    /// Minimum empties for ETC.
    pub etc_min_empties: u32,
    /// Minimum empties for a node to be searched by several threads.
    pub split_min_empties: u32,
    /// Minimum empties for ordering by a shallow search (depth 1, depth 2 from 4 more).
    pub shallow_order_empties: u32,
    /// The shallow search gets one ply deeper every this many more empties.
    pub shallow_order_step: u32,
    /// The ordering search never gets deeper than this. Measured on FFO #40-#49 (1 thread,
    /// search + ordering nodes): uncapped (depth 5 from 24 empties) 3.41 G, at most 4 plies
    /// 2.65 G, at most 3 plies 3.29 G.
    pub shallow_order_max_depth: u32,
    /// Minimum empties for a node to probe and store the transposition table.
    pub tt_min_empties: u32,
    /// Nodes with at most this many empties (and more than `shallow_empties`) keep
    /// their bounds in the thread's own small table (module `local_table`) instead of the
    /// shared one; 0: never. FFO #40-#49, 1 thread, 128 MiB, search + ordering nodes and
    /// seconds (2026-11-30, a build without LTO): never 0.472 G + 0.088 G, 20.6-21.4 s;
    /// up to 8 empties 0.473 G, 21.2 s; 10: 0.479 G, 19.3 s; 11: 0.482 G, 19.0 s; 12:
    /// 0.489 G + 0.088 G, 18.7-19.6 s; 13: 0.493 G, 18.5 s; 14: 0.508 G, 18.7 s; 16:
    /// 0.546 G, 20.3 s. A probe of the shared table near the leaves costs more than the
    /// few more nodes the small table's losses cost.
    pub local_table_empties: u32,
    /// The shallow solver's positions with at least this many empties are looked up in
    /// and stored to the thread's own table too (0: never; needs `local_table_empties`).
    /// Default 6: the positions the search hands to the shallow solver. FFO #40-#59, 1
    /// thread, 128 MiB (2026-11-30): 16.33 G + 3.09 G nodes, 576.6 s, against 17.15 G +
    /// 3.09 G nodes without (FFO #40-#49 alone: 5% fewer nodes, the same time).
    pub shallow_table_empties: u32,
    /// Whether nodes searched with a wide window (PV nodes, below the root) may split.
    /// Off by default: at a PV node whose best move is not first, siblings searched in
    /// parallel against the first move's value must prove expensive fail highs that the
    /// sequential search never asks for (FFO #40-#49 on 2 threads: 1.6x with, 1.86x
    /// without; the null-window nodes below a PV node still split).
    pub split_pv: bool,
    /// The shallow solver tries the stability cutoff at nodes with at least this many
    /// empties (0: never; only when `stability` is on). Default 3 since the edges' own
    /// stable discs start the stable-disc search (fewer rounds, more discs found):
    /// FFO #40-#49, 1 thread, 128 MiB, 2026-11-30, search nodes: off 726.7 M, 19.8-21.6
    /// s; from 3 empties 471.6 M (-35%), 18.8-19.4 s; from 4 518.6 M, 19.3 s; from 3
    /// without the gate 447.5 M, 19.4 s. Before the edges seeded the search, from 3
    /// empties took 475.1 M nodes and 20.9-21.9 s against 22.6-23.1 s off.
    pub shallow_stability_empties: u32,
    /// Whether a node may offer its remaining children to an idle thread after any
    /// sibling (not only right after its first child): an idle thread then finds work
    /// sooner, at the cost of splits with fewer children left.
    pub split_late: bool,
    /// In the shallow solver, try the stability cutoff only where enough stable discs
    /// are usual for the number of empties (see [`super::stability::stability_cutoff`]).
    /// Measured on FFO #40-#49 (1 thread): gating the nodes above the shallow solver
    /// too lost more cutoffs than it saved work (2.155 G -> 2.180 G nodes, slower).
    /// Without the gate in the shallow solver (2026-11-30, FFO #40-#59): 15.35 G search
    /// nodes against 17.76 G, but 727.3 s against 711.7 s on 1 thread and 408.8 s
    /// against 383.8 s on 2, so it stays on.
    pub stability_gate: bool,
    /// Order moves from `shallow_order_empties` up by a shallow search on the trained
    /// evaluation (when the solve has one) added to the fastest-first key, instead of
    /// the mobility search: 0 never, 1 always, 2 (default) for the board sizes and
    /// variants the solve has weights for. Reversed rules: 20 random 20-empty
    /// positions 3.60 G -> 1.40 G nodes, 217 s -> 32 s. Normal rules (with the ladder,
    /// 1 thread, search + ordering nodes): FFO #45-#49 1.135 G -> 0.722 G, #50-#54
    /// 16.16 G -> 8.47 G, once the evaluation counted less than the mobility key
    /// ([`ExactConfig::eval_weight_for`]) and stopped refining moves far below alpha
    /// (`eval_order_delta`); with the evaluation dominating, #50-#54 had lost. 6x6
    /// normal rules (the embedded 6x6 set, 1 thread): 10 random 24-empty positions
    /// 634 M -> 226 M nodes, 15.2 s -> 7.0 s; 5 of 26 empties 1.78 G -> 0.37 G, 45.7 s
    /// -> 12.5 s (see the README for the weak solve of the start).
    pub eval_order: u32,
    /// Weight, in sixteenths, of the evaluation search's value (1/SCALE discs) in the
    /// ordering key, against the fastest-first key (one opponent reply = 64): 16 counts
    /// a disc as two replies, 2 counts four discs as one reply; 0 (default) is
    /// [`ExactConfig::eval_weight_for`]'s choice for the rules.
    pub eval_order_weight: u32,
    /// The evaluation ordering search of a child stops refining once the move is
    /// known to be this many discs below the node's alpha (0: full window). FFO
    /// #45-#49, 1 thread, weight 16: 0.599 G + 0.356 G nodes at 0, 0.603 G + 0.296 G at 8.
    pub eval_order_delta: u32,
    /// Fewest empties at which the evaluation orders (below: the mobility search).
    pub eval_order_empties: u32,
    /// The evaluation search is this many plies shallower than the mobility search
    /// would be (it costs more per leaf and knows more).
    pub eval_order_depth_cut: u32,
    /// Nodes with at least this many empties ask the solve's move hints (if any) for a
    /// first move when the table has none. A hint costs a read of the hints' table
    /// (a cache miss, 4.6% of the time of FFO #45-#49 under `perf` from 12 empties)
    /// and saves little below 16 empties: 1 thread, 64 MiB, the same tree within 0.5%,
    /// FFO #40-#49 28.2 / 28.0 s from 12 empties against 26.8 / 27.3 s from 16 (runs
    /// interleaved); #50-#51 52.9 / 53.9 s against 51.2 / 51.9 s (1.163 G search nodes
    /// either way; 18 and 20: the same time, 14: between). Prefetching the hint's entry
    /// at the node's entry did not change the time.
    pub hint_min_empties: u32,
    /// A hint is taken only from a ladder table entry searched at least `empties -
    /// hint_max_shortfall` plies deep: the published 8x8 solver ignored table entries
    /// too shallow for the node when ordering. 64 (the default): whatever the entry's
    /// depth. FFO #40-#44, 1 thread, 2026-11-29 (`docs/results/papers-othello-solved.md`):
    /// 2, 4 and 8 cost 1.0-1.1% more nodes than 64; FFO #45-#49: 4 saved 0.5%.
    pub hint_max_shortfall: u32,
    /// Take a first move from the table's selective entries (a climb's, a midgame
    /// search's) where no proven entry exists: on by default; off for the exact pass
    /// after a climb that ended on a wipe-out (see `exact_after_climb`), whose moves
    /// lead wherever the evaluation's clamp is reached.
    pub selective_moves: bool,
    /// The ladder's climb before the solve starts each iteration in an aspiration
    /// window around the last one's value (on, the default); off: every iteration
    /// searches the whole window, as the published 8x8 solver's Edax did while iterating
    /// ("Othello is solved", section 3.1). It orders the exact pass only, never
    /// changes a value. Off, 1 thread, search + ordering nodes, 2026-11-30
    /// (`docs/results/papers-othello-solved.md`): FFO #40-#44 -7.0%, #45-#49 +3.2%, the
    /// first 40 of Edax's hard-25 +4.2%.
    pub climb_aspiration: bool,
    /// Nodes with at least this many empties order their moves with the weights'
    /// residual network (if they have one; the lab's experiment, feature `residual`);
    /// below, with the linear evaluation alone,
    /// which costs a quarter as much per leaf. Default 64: never, as the selective
    /// search orders its moves. FFO #40-#49, 1 thread, with a network
    /// set (2026-11-27, `n1` in `docs/results/evaluation.md`): 0 -> 684.4 M + 75.4 M nodes, 36.5 s; 18 ->
    /// 700.7 M, 30.8 s; 22 -> 741.1 M, 29.2 s; 26 -> 760.3 M, 29.7 s; the linear set
    /// alone 761.4 M + 93.3 M, 27.6 s: the network's 11% fewer nodes do not pay its cost.
    #[cfg(feature = "residual")]
    pub net_order_empties: u32,
}

impl Default for ExactConfig {
    fn default() -> Self {
        ExactConfig {
            shallow_empties: 6,
            etc: true,
            stability: true,
            etc_min_empties: 10,
            shallow_order_empties: 12,
            shallow_order_step: 3,
            shallow_order_max_depth: 4,
            split_min_empties: 12,
            tt_min_empties: 0,
            local_table_empties: 12,
            shallow_table_empties: 6,
            split_pv: false,
            shallow_stability_empties: 3,
            split_late: false,
            stability_gate: true,
            eval_order: 2,
            eval_order_weight: 0,
            eval_order_delta: 8,
            eval_order_empties: 0,
            eval_order_depth_cut: 1,
            hint_min_empties: 16,
            hint_max_shortfall: 64,
            selective_moves: true,
            climb_aspiration: true,
            #[cfg(feature = "residual")]
            net_order_empties: 64,
        }
    }
}

impl ExactConfig {
    /// Depth of the ordering search at a node with `empties` empties (at least
    /// `shallow_order_empties`): one ply, one more every `shallow_order_step` empties,
    /// at most `shallow_order_max_depth`.
    #[inline]
    pub fn shallow_order_depth(&self, empties: u32) -> u32 {
        (1 + (empties - self.shallow_order_empties) / self.shallow_order_step).min(self.shallow_order_max_depth)
    }

    /// Whether a node may offer its remaining children to idle threads before searching
    /// its child number `i` (0-based): never before the first child has been searched;
    /// right after it, or after any later one too with `split_late`.
    #[inline]
    pub fn may_split_at(&self, i: usize) -> bool {
        i == 1 || (i > 1 && self.split_late)
    }

    /// The evaluation's weight in the ordering key under `rules` (`eval_order_weight`,
    /// or when that is 0 the measured best): 8x8 normal rules 3 (1 thread, search +
    /// ordering nodes, 2026-11-29: FFO #40-#59 23.02 G at 3 against 24.53 G at 2, the
    /// first 40 of Edax's hard-25 6.95 G against 7.22 G, and 7.12 G at 4; earlier on
    /// FFO #45-#49 alone 0.749 G at 4, 0.722 G at 2, 0.850 G at 1); reversed rules 16
    /// (10 random-game positions of 20 empties: 0.94 G nodes at 16, 1.05 G at 48,
    /// 1.21 G at 2); 6x6 normal rules 8 (10 random-game positions of 22 empties, 1
    /// thread, search + ordering nodes with the embedded 6x6 set: 99 M at 2, 82 M at 4,
    /// 81 M at 8, 88 M at 16).
    #[inline]
    pub fn eval_weight_for(&self, rules: &Rules) -> i32 {
        match (self.eval_order_weight, rules.reversed) {
            (0, false) if rules.squares == 36 => 8,
            (0, false) => 3,
            (0, true) => 16,
            (w, _) => w as i32,
        }
    }

    /// The names [`ExactConfig::set`] accepts (and, with the lab's feature `residual`,
    /// `net_order_empties`).
    pub const NAMES: [&'static str; 24] = [
        "shallow_empties",
        "etc",
        "stability",
        "etc_min_empties",
        "split_min_empties",
        "shallow_order_empties",
        "shallow_order_step",
        "shallow_order_max_depth",
        "tt_min_empties",
        "local_table_empties",
        "shallow_table_empties",
        "split_pv",
        "shallow_stability_empties",
        "stability_gate",
        "split_late",
        "eval_order",
        "eval_order_weight",
        "eval_order_delta",
        "eval_order_empties",
        "eval_order_depth_cut",
        "hint_min_empties",
        "hint_max_shortfall",
        "selective_moves",
        "climb_aspiration",
    ];

    /// Sets the switch `name` (one of [`ExactConfig::NAMES`]) to `value` (a number;
    /// 0/1 for on/off switches). Every setting keeps the search exact; an unknown name or
    /// a value out of range is an error naming it.
    pub fn set(&mut self, name: &str, value: u32) -> Result<(), String> {
        let range = |lo: u32, hi: u32| {
            if (lo..=hi).contains(&value) {
                Ok(value)
            } else {
                Err(format!("search option {name}={value}: expected {lo}..={hi}"))
            }
        };
        match name {
            "shallow_empties" => self.shallow_empties = range(0, 10)?,
            "etc" => self.etc = range(0, 1)? == 1,
            "stability" => self.stability = range(0, 1)? == 1,
            "etc_min_empties" => self.etc_min_empties = range(0, 64)?,
            "split_min_empties" => self.split_min_empties = range(1, 64)?,
            "shallow_order_empties" => self.shallow_order_empties = range(0, 64)?,
            "shallow_order_step" => self.shallow_order_step = range(1, 64)?,
            "shallow_order_max_depth" => self.shallow_order_max_depth = range(1, 64)?,
            "tt_min_empties" => self.tt_min_empties = range(0, 64)?,
            "local_table_empties" => self.local_table_empties = range(0, 64)?,
            "shallow_table_empties" => self.shallow_table_empties = range(0, 64)?,
            "split_pv" => self.split_pv = range(0, 1)? == 1,
            "shallow_stability_empties" => self.shallow_stability_empties = range(0, 64)?,
            "stability_gate" => self.stability_gate = range(0, 1)? == 1,
            "split_late" => self.split_late = range(0, 1)? == 1,
            "eval_order" => self.eval_order = range(0, 2)?,
            "eval_order_weight" => self.eval_order_weight = range(0, 1024)?,
            "eval_order_delta" => self.eval_order_delta = range(0, 128)?,
            "eval_order_empties" => self.eval_order_empties = range(0, 64)?,
            "eval_order_depth_cut" => self.eval_order_depth_cut = range(0, 8)?,
            "hint_min_empties" => self.hint_min_empties = range(0, 64)?,
            "hint_max_shortfall" => self.hint_max_shortfall = range(0, 64)?,
            "selective_moves" => self.selective_moves = range(0, 1)? == 1,
            "climb_aspiration" => self.climb_aspiration = range(0, 1)? == 1,
            #[cfg(feature = "residual")]
            "net_order_empties" => self.net_order_empties = range(0, 64)?,
            _ => {
                #[cfg(feature = "residual")]
                let names = [&Self::NAMES[..], &["net_order_empties"]].concat();
                #[cfg(not(feature = "residual"))]
                let names = Self::NAMES;
                return Err(format!("unknown search option {name:?}: expected one of {}", names.join(", ")));
            }
        }
        Ok(())
    }
}

/// The value a node with window `(alpha, beta)` returns at once when its value is
/// proven to lie in `lower..=upper`: a bound that fails high or low, or the exact value.
#[inline(always)]
fn cutoff(lower: i32, upper: i32, alpha: i32, beta: i32) -> Option<i32> {
    if lower >= beta {
        Some(lower)
    } else if upper <= alpha || lower == upper {
        Some(upper)
    } else {
        None
    }
}

/// The bounds a fail-soft value `v` searched in the window `(alpha, beta)` proves: the
/// value itself inside, a bound on the side it failed to outside.
#[inline(always)]
fn proven_bounds(v: i32, alpha: i32, beta: i32) -> (i32, i32) {
    (if v > alpha { v } else { -SCORE_INF + 1 }, if v < beta { v } else { SCORE_INF - 1 })
}

/// Moves the child with the highest key among `list[k..]` to `list[k]` (the first of
/// equal keys, so the order is that of a stable sort).
#[inline(always)]
fn pick_best(list: &mut [Child], k: usize) {
    let (mut top, mut top_key) = (k, list[k].key);
    // An index loop: the iterator form compiled to 0.16 G more instructions on FFO
    // #41-#42.
    #[allow(clippy::needless_range_loop)]
    for j in k + 1..list.len() {
        // Selects rather than branches: the comparison is data, not control, so the
        // compiler emits conditional moves (as a branch it was the search's most
        // mispredicted one: FFO #41-#42, 78.2 M -> 72.2 M mispredicts in all).
        let key = list[j].key;
        let better = key > top_key;
        top = if better { j } else { top };
        top_key = if better { key } else { top_key };
    }
    list.swap(k, top);
}

/// One child in a move list (crate-internal fields).
#[derive(Clone, Copy)]
pub struct Child {
    pub(crate) p: u64,
    pub(crate) o: u64,
    pub(crate) x: u8,
    pub(crate) key: i32,
}

/// What the threads of one exact solve share (split points of nodes of at least
/// `split_min` empties).
pub type ExactShared = Shared<Child, u32>;

/// The exact search's nodes split by empties; a child is searched with one empty less.
impl<'a> Splitting<'a> for ExactSearcher<'a> {
    type Child = Child;
    type Node = u32;
    /// Exact values: a fail high at `t` proves the child worth its fail-soft value.
    const RESEARCH_FROM_VALUE: bool = true;

    #[inline(always)]
    fn shared(&self) -> Option<&'a ExactShared> {
        self.shared
    }

    #[inline(always)]
    fn split_state(&mut self) -> &mut SplitState<Child, u32> {
        &mut self.split
    }

    #[inline]
    fn search_child(&mut self, empties: u32, c: &Child, alpha: i32, beta: i32) -> i32 {
        -self.search(c.p, c.o, -beta, -alpha, empties - 1)
    }

    #[inline(always)]
    fn move_of(c: &Child) -> u8 {
        c.x
    }

    #[inline(always)]
    fn aborted(&mut self) -> &mut bool {
        &mut self.aborted
    }

    /// The stop flag or the node budget (not split-point cutoffs).
    #[inline]
    fn outer_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.nodes >= self.node_budget
    }
}

/// A search thread's state: rules, the shared table, counters and the stop signal.
pub struct ExactSearcher<'a> {
    /// Scoring rules.
    pub rules: Rules,
    /// The shared transposition table.
    pub tt: &'a SearchTable,
    /// Switches.
    pub config: ExactConfig,
    /// Positions visited by the search itself.
    pub nodes: u64,
    /// Positions visited by the shallow searches that order moves (not in `nodes`).
    pub ordering_nodes: u64,
    /// Table probes whose bounds ended a node (including ETC and stability cutoffs).
    pub tt_cutoffs: u64,
    /// This thread's table traffic.
    pub tt_counts: TtCounts,
    /// Set by anyone to stop the search; results are then meaningless.
    pub stop: &'a AtomicBool,
    /// Stop by itself after this many nodes.
    pub node_budget: u64,
    /// True once the search has stopped early; nothing is stored after that.
    pub aborted: bool,
    /// Shared node counter for progress displays (bumped every 4096 nodes).
    pub progress: Option<&'a AtomicU64>,
    /// Nodes already added to `progress`.
    published: u64,
    /// The parallel context, when several threads search.
    pub shared: Option<&'a ExactShared>,
    /// Where this thread stands among the split points (for cutoff checks).
    split: SplitState<Child, u32>,
    /// Monte Carlo move-ordering hints, when the solve learned some.
    pub mc: Option<&'a McHints>,
    /// The trained evaluation for move ordering, when the solve uses one (its board
    /// size and variant, and `config.eval_order` allows it).
    pub eval: Option<&'a Weights>,
    /// Best-move hints, when the solve has some (see [`super::hints`]).
    pub hints: Option<&'a MoveHints>,
    /// Proven bounds kept outside the solve, when the solve has a store of them (see
    /// [`super::knowledge`]); set by [`ExactSearcher::set_knowledge`].
    knowledge: Option<&'a dyn Knowledge>,
    /// Its minimum empties (`u32::MAX` without one): a node compares, nothing more.
    knowledge_min_empties: u32,
    /// The thread's own table for the nodes of at most `config.local_table_empties`
    /// empties (`None` when the configuration uses none); given back to the thread
    /// when the searcher is dropped.
    local: Option<Box<LocalTable>>,
}

impl Drop for ExactSearcher<'_> {
    fn drop(&mut self) {
        if let Some(t) = self.local.take() {
            LocalTable::give_back(t);
        }
    }
}

impl<'a> ExactSearcher<'a> {
    /// A searcher over `tt` with a stop flag and a node budget.
    pub fn new(rules: Rules, tt: &'a SearchTable, config: ExactConfig, stop: &'a AtomicBool, node_budget: u64) -> Self {
        ExactSearcher {
            rules,
            tt,
            config,
            nodes: 0,
            ordering_nodes: 0,
            tt_cutoffs: 0,
            tt_counts: TtCounts::default(),
            stop,
            node_budget,
            aborted: false,
            progress: None,
            published: 0,
            shared: None,
            split: SplitState::default(),
            mc: None,
            eval: None,
            hints: None,
            knowledge: None,
            knowledge_min_empties: u32::MAX,
            local: (config.local_table_empties > config.shallow_empties).then(|| LocalTable::take(&rules, tt.epoch())),
        }
    }

    /// Whether nodes of `empties` empties keep their bounds in the thread's own table.
    #[inline(always)]
    fn in_local_table(&self, empties: u32) -> bool {
        empties <= self.config.local_table_empties && self.local.is_some()
    }

    /// Uses `knowledge` (or none) from the next node on.
    pub fn set_knowledge(&mut self, knowledge: Option<&'a dyn Knowledge>) {
        self.knowledge = knowledge;
        self.knowledge_min_empties = knowledge.map_or(u32::MAX, |k| k.min_empties());
    }

    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        if self.nodes >= self.published + 0x1000 {
            if let Some(p) = self.progress {
                p.fetch_add(self.nodes - self.published, Ordering::Relaxed);
            }
            self.published = self.nodes;
            if self.outer_stop() || self.split.abandoned() {
                self.aborted = true;
            }
        }
        self.aborted
    }

    /// Fail-soft value of `p` to move against `o` with `empties` empty squares, in the
    /// window `(alpha, beta)`: exact inside, a bound outside. Meaningless if `aborted`.
    pub fn search(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
        if empties <= self.config.shallow_empties {
            if empties == 0 {
                self.nodes += 1;
                return self.rules.final_score(p, o);
            }
            let stability_min = if self.config.stability { self.config.shallow_stability_empties } else { 0 };
            let gate = self.config.stability_gate;
            let table = match self.local.as_deref_mut() {
                Some(t) if self.config.shallow_table_empties != 0 && empties >= self.config.shallow_table_empties => t,
                _ => {
                    return solve_shallow(&self.rules, p, o, alpha, beta, empties, stability_min, gate, &mut self.nodes)
                }
            };
            if let Some(v) = table.probe(p, o).and_then(|(lower, upper, _)| cutoff(lower, upper, alpha, beta)) {
                self.tt_cutoffs += 1;
                return v;
            }
            let v = solve_shallow(&self.rules, p, o, alpha, beta, empties, stability_min, gate, &mut self.nodes);
            let (lower, upper) = proven_bounds(v, alpha, beta);
            table.store(p, o, lower, upper, None);
            return v;
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        let (mut alpha, mut beta) = (alpha, beta);

        if self.config.stability {
            if let Some(v) = stability_cutoff(&self.rules, p, o, alpha, None) {
                self.tt_cutoffs += 1;
                return v;
            }
        }

        let local = self.in_local_table(empties);
        let use_tt = !local && empties >= self.config.tt_min_empties;
        let hash = if use_tt { table_hash(p, o) } else { 0 };
        let mut tt_move = None;
        let hit = if use_tt {
            self.tt.probe(hash, p, o, &mut self.tt_counts)
        } else if local {
            self.probe_local(p, o)
        } else {
            None
        };
        let hit = hit.filter(|h| h.proven || self.config.selective_moves);
        if let Some(hit) = hit {
            if let Some(v) = cutoff(hit.lower, hit.upper, alpha, beta) {
                self.tt_cutoffs += 1;
                return v;
            }
            alpha = alpha.max(hit.lower);
            beta = beta.min(hit.upper);
            tt_move = hit.best;
        }
        let knowledge = if empties >= self.knowledge_min_empties { self.knowledge } else { None };
        // Asked only where the table knows nothing: a position met before in this solve
        // was proven here, or read from the knowledge then.
        if let Some((lower, upper)) = knowledge.filter(|_| !hit.is_some_and(|h| h.proven)).and_then(|k| k.bounds(p, o))
        {
            if let Some(v) = cutoff(lower, upper, alpha, beta) {
                self.tt_cutoffs += 1;
                return v;
            }
            alpha = alpha.max(lower);
            beta = beta.min(upper);
        }
        if tt_move.is_none() && empties >= self.config.hint_min_empties {
            if let Some(h) = self.hints {
                let min_depth = empties.saturating_sub(self.config.hint_max_shortfall);
                tt_move = h.best_move_searched(p, o, min_depth).filter(|&x| x < 64);
            }
        }

        let mask = self.rules.mask;
        let mut moves = legal_moves(p, o, mask);
        if moves == 0 {
            if legal_moves(o, p, mask) == 0 {
                return self.rules.final_score(p, o);
            }
            return -self.search(o, p, -beta, -alpha, empties);
        }

        let odd = odd_quadrants(!(p | o) & mask);
        let use_etc = self.config.etc && empties >= self.config.etc_min_empties;
        let nodes_before = self.nodes;
        let (alpha0, beta0) = (alpha, beta);
        let mut best = -SCORE_INF;
        let mut best_move = 0;
        let mut searched = 0;

        // Without ETC, the table's move is searched before the others are even
        // generated and ordered: it often decides the node alone.
        if let Some(x) = tt_move.filter(|&x| !use_etc && moves >> x & 1 == 1) {
            let f = flips(x as usize, p, o);
            let v = -self.search(o ^ f, p ^ f ^ (1 << x), -beta, -alpha, empties - 1);
            if self.aborted {
                return 0;
            }
            (best, best_move, searched) = (v, x, 1);
            moves &= !(1 << x);
            alpha = alpha.max(v);
        }

        if alpha < beta && moves != 0 {
            let mc_node = match self.mc {
                Some(h) if empties >= self.config.shallow_order_empties => h.node(hash_board(p, o)),
                _ => None,
            };
            // Not zeroed: a node fills only its first `n` slots, and zeroing 64 of
            // them cost more than filling them (1.5 KB per node).
            let mut slots = [const { MaybeUninit::<Child>::uninit() }; 64];
            let mut n = 0;
            let prefetch = empties > self.config.shallow_empties + 1
                && empties > self.config.tt_min_empties
                && !self.in_local_table(empties - 1);
            while moves != 0 {
                let x = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                let f = flips(x, p, o);
                let (cp, co) = (o ^ f, p ^ f ^ (1 << x));
                if prefetch {
                    // Start loading the child's table bucket now: ETC, or the child itself
                    // when it is searched, reads it.
                    self.tt.prefetch(table_hash(cp, co), cp, co);
                }
                // `n` < 64: `moves` has at most 64 bits and each is taken once.
                slots[n & 63].write(Child { p: cp, o: co, x: x as u8, key: 0 });
                n += 1;
            }
            // SAFETY: the loop above wrote slots `0..n` (and `n <= 64`, one slot per
            // bit of `moves`); `MaybeUninit<Child>` has `Child`'s layout, so the first
            // `n` slots are `n` initialised `Child`s, borrowed here only while `slots`
            // lives. Every test solve runs through this path.
            let mut list = unsafe { std::slice::from_raw_parts_mut(slots.as_mut_ptr() as *mut Child, n) };

            if use_etc {
                if let Some((v, x)) = self.etc_cutoff(list, beta, empties - 1) {
                    let record = TtRecord { empties, lower: v, upper: SCORE_INF - 1, best: Some(x), nodes: 1 };
                    self.store(local, hash, p, o, record);
                    return v;
                }
                // The table's move before the others are keyed: it often decides the
                // node alone, and then no ordering search is spent on its siblings.
                if let Some(j) = tt_move.and_then(|x| list.iter().position(|c| c.x == x)) {
                    let c = list[j];
                    let v = -self.search(c.p, c.o, -beta, -alpha, empties - 1);
                    if self.aborted {
                        return 0;
                    }
                    (best, best_move, searched) = (v, c.x, 1);
                    alpha = alpha.max(v);
                    list.copy_within(j + 1.., j);
                    let rest = list.len() - 1;
                    list = &mut list[..rest];
                }
            }
            let n = if alpha < beta { list.len() } else { 0 };
            let list = &mut list[..n];

            // The first move to search (highest key, the first of equal keys), found
            // while the keys are computed: most nodes search one child only, and a
            // selection pass for it cost a loop whose exit the predictor cannot know.
            let (mut top, mut top_key) = (0, i32::MIN);
            // (The table's move, if legal, has been searched above on either path.)
            for (k, c) in list.iter_mut().enumerate() {
                c.key = self.order_key(c.p, c.o, c.x as usize, empties, odd, mc_node, alpha);
                let better = c.key > top_key;
                top = if better { k } else { top };
                top_key = if better { c.key } else { top_key };
            }

            // Selection, not a full sort: most nodes are decided by their first move or two.
            if n > 0 {
                list.swap(0, top);
            }
            for k in 0..n {
                let i = k + searched;
                if self.config.may_split_at(i)
                    && (self.config.split_pv || beta - alpha == 1)
                    && self.should_split(empties, n + searched - i)
                {
                    list[k..].sort_by_key(|c| std::cmp::Reverse(c.key));
                    (best, best_move) = self.split(&list[k..], empties, alpha, beta, (best, best_move));
                    if self.aborted {
                        return 0;
                    }
                    break;
                }
                if k > 0 {
                    pick_best(list, k);
                }
                let c = list[k];
                if i == 0 {
                    best_move = c.x;
                }
                let v = if i == 0 {
                    -self.search(c.p, c.o, -beta, -alpha, empties - 1)
                } else {
                    let mut v = -self.search(c.p, c.o, -alpha - 1, -alpha, empties - 1);
                    if v > alpha && v < beta {
                        v = -self.search(c.p, c.o, -beta, -v, empties - 1);
                    }
                    v
                };
                if self.aborted {
                    return 0;
                }
                if v > best {
                    best = v;
                    best_move = c.x;
                    if v > alpha {
                        alpha = v;
                        if alpha >= beta {
                            break;
                        }
                    }
                }
            }
        }
        let (lower, upper) = proven_bounds(best, alpha0, beta0);
        let nodes = self.nodes - nodes_before;
        if let Some(k) = knowledge {
            k.proven(p, o, lower, upper, (best > alpha0).then_some(best_move), nodes);
        }
        if use_tt || local {
            self.store(local, hash, p, o, TtRecord { empties, lower, upper, best: Some(best_move), nodes });
        }
        best
    }

    /// What the thread's own table knows of `p` to move against `o`, as a table hit.
    #[inline(always)]
    fn probe_local(&self, p: u64, o: u64) -> Option<TtHit> {
        let (lower, upper, best) = self.local.as_ref()?.probe(p, o)?;
        Some(TtHit { lower, upper, best, proven: true })
    }

    /// Stores `record` of `p` to move against `o` in the thread's own table (`local`)
    /// or in the shared one (at `hash`).
    #[inline(always)]
    fn store(&mut self, local: bool, hash: u64, p: u64, o: u64, record: TtRecord) {
        match self.local.as_mut() {
            Some(t) if local => t.store(p, o, record.lower, record.upper, record.best),
            _ => self.tt.store(hash, p, o, record, &mut self.tt_counts),
        }
    }

    /// Ordering key of the move to `x` (child: `cp` to move against `co`) at a node with
    /// `empties` empties and odd-parity quadrants `odd`: fastest first, plus, from
    /// `shallow_order_empties`, a shallow search and the Monte Carlo hints (`mc_node`: the
    /// node's GRAVE tree entry). Higher is searched first.
    /// `alpha` is the node's current lower bound: with `eval_order_delta`, the
    /// evaluation search stops refining a move once it is that far below it.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(crate) fn order_key(
        &mut self,
        cp: u64,
        co: u64,
        x: usize,
        empties: u32,
        odd: u64,
        mc_node: Option<&[(solvo_othello::Square, u32)]>,
        alpha: i32,
    ) -> i32 {
        let key = move_key(cp, co, x, &self.rules, odd);
        if empties < self.config.shallow_order_empties {
            return key;
        }
        let depth = self.config.shallow_order_depth(empties);
        let key = match self.eval {
            Some(w) if empties >= self.config.eval_order_empties => {
                let depth = depth.saturating_sub(self.config.eval_order_depth_cut);
                // The child's value for its mover: once it is at least `ceiling`, our move
                // is `eval_order_delta` discs below alpha, and how far below no longer matters.
                let ceiling = match self.config.eval_order_delta {
                    0 => SCORE_INF * SCALE,
                    d => (-(alpha - d as i32) * SCALE).min(SCORE_INF * SCALE),
                };
                #[cfg(feature = "residual")]
                let eval_search = if empties >= self.config.net_order_empties {
                    eval_search
                } else {
                    super::ordering::eval_search_linear
                };
                let v =
                    eval_search(cp, co, w, &self.rules, depth, -SCORE_INF * SCALE, ceiling, &mut self.ordering_nodes);
                key - v * self.config.eval_weight_for(&self.rules) / 16
            }
            _ => key + (-shallow_eval(cp, co, &self.rules, depth, -(1 << 20), 1 << 20, &mut self.ordering_nodes) << 8),
        };
        match self.mc {
            Some(h) => key.saturating_add(h.bonus(mc_node, empties, x)),
            None => key,
        }
    }

    /// Enhanced transposition cutoff: a child whose stored upper bound already proves a
    /// fail high for us. Returns that value and move.
    fn etc_cutoff(&mut self, list: &[Child], beta: i32, child_empties: u32) -> Option<(i32, u8)> {
        let local = self.in_local_table(child_empties);
        for c in list {
            let hit = if local {
                self.probe_local(c.p, c.o)
            } else {
                self.tt.probe(table_hash(c.p, c.o), c.p, c.o, &mut self.tt_counts)
            };
            if let Some(hit) = hit {
                if -hit.upper >= beta {
                    self.tt_cutoffs += 1;
                    return Some((-hit.upper, c.x));
                }
            }
        }
        None
    }
}
