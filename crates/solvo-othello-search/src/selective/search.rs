//! The depth-limited search of one thread: fail-soft principal variation search
//! (negamax alpha-beta) over the shared transposition table, with Multi-ProbCut.
//!
//! Values are in units of `1 / SCALE` disc for the side to move: the evaluation at the
//! leaves, `SCALE` times the final disc difference at finished games. A pass does not
//! count as a ply of depth, so the depth left at a node only depends on its number of
//! discs: within one search every transposition is met at the same depth.
//!
//! Without Multi-ProbCut, the value returned for a window `(alpha, beta)` is the
//! depth-`d` minimax value when it lies inside the window, and otherwise a bound on
//! the correct side (table entries are only used at the depth they were made for),
//! as long as the table holds no bounds proven by the exact search (the PV extension's
//! and exact tail's solves store them; they hold at every depth and are used so). With
//! `solve_empties` on, "the depth-`d` value" counts positions of that many empties or
//! fewer at their exact value.

use super::mpc::{probe_depth, MpcTable, Selectivity, MPC_MIN_DEPTH};
use super::ordering::{Child, MoveList, SQUARE_CLASSES};
use crate::exact::search::{ExactConfig, ExactSearcher, ExactShared};
use crate::exact::shallow::solve_shallow;
use crate::parallel::{Shared, SplitState, Splitting};
use crate::table::{table_hash, Entry, SearchTable, NO_MOVE, PROVEN};
use solvo_eval::{Weights, SCALE};
use solvo_othello::flips::flips;
use solvo_othello::moves::legal_moves;
use solvo_othello::rules::Rules;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

/// Larger than any value (65 discs).
pub const INF: i32 = 65 * SCALE;

/// Longest principal variation kept (plies, passes included).
pub const MAX_PLY: usize = 96;

/// Nodes between two looks at the stop flags, the clock and the node limit (counted
/// in nodes, ordering searches included, so that a node limit holds closely).
const CHECK_EVERY: u64 = 4096;

/// Fewest plies left at a null-window node that offers its children to idle threads
/// after its first (see `crate::parallel`). Not tuned yet: on a loaded machine
/// (2026-11-29, `bench hard hard-25.obf --depth 14 --selectivity 73 --limit 40
/// --pv-extension 0 --threads 2`) 3, 4, 6 and 8 left the helper thread 3-6% of the nodes
/// alike, within the noise.
pub const SPLIT_MIN_DEPTH: u32 = 6;

/// Fewest plies left at a null-window node that looks its children up in the table
/// before searching any (enhanced transposition cutoff, as solvo's exact solver and
/// Egaroucid's midgame search do): a child already shown at most `-beta` elsewhere in
/// the tree cuts the node before its Multi-ProbCut probes and its move ordering.
/// `bench hard data/ref/hard-30.obf --selectivity 87` (2026-12-01, 1 thread): depth 18
/// 1,378.9 M nodes, 46.2-47.8 s without, 1,333.7 M, 44.6 s from 8 plies (1,315.9 M,
/// 45.1 s from 6); depth 14 91.8 M without, 88.6 M from 4 plies but 5% slower; at
/// depths 12-16 about 1% fewer nodes from 8, the same time.
pub const ETC_MIN_DEPTH: u32 = 8;

/// The disc window `(floor(alpha / SCALE), ceil(beta / SCALE))`, within +-65, that
/// contains the search-unit window `(alpha, beta)`: a value the endgame solver proves
/// outside it is a bound on the same side of `(alpha, beta)`.
#[inline]
fn disc_window(alpha: i32, beta: i32) -> (i32, i32) {
    (alpha.div_euclid(SCALE).max(-65), (-(-beta).div_euclid(SCALE)).min(65))
}

/// What the threads of one selective search share: split points of null-window nodes
/// (a node's plies left and its ply).
pub type SelectiveShared = Shared<Child, (u32, usize)>;

/// What every thread of one search shares.
pub struct Context<'a> {
    /// The evaluation.
    pub weights: &'a Weights,
    /// Scoring rules (variant) of finished games.
    pub rules: Rules,
    /// The table, shared by the threads and with the exact search.
    pub tt: &'a SearchTable,
    /// Multi-ProbCut statistics.
    pub mpc: &'a MpcTable,
    /// Raised by the caller (or the front end) to stop the search.
    pub stop: &'a AtomicBool,
    /// Raised by the main thread when the search is over (helpers stop).
    pub quit: &'a AtomicBool,
    /// Nodes of the helper threads so far (flushed at each check).
    pub helper_nodes: &'a AtomicU64,
    /// The table the principal-variation extension's solves use (see `pv_extension`;
    /// the same table as `tt`); `None`: no extension.
    pub exact_tt: Option<&'a SearchTable>,
    /// Principal-variation nodes below the root with at most this many empty squares
    /// are solved exactly (the endgame solver within the node's window) instead of
    /// being searched on to the depth, so the scores along the principal variation end
    /// in exact values; null-window nodes keep the depth-limited search. 0: never.
    pub pv_extension: u32,
    /// Positions with at most this many empty squares, met anywhere below the root, are
    /// valued exactly by the endgame solver's shallow search instead of being searched
    /// on or evaluated (see [`SearchLimits::solve_empties`](super::driver::SearchLimits::solve_empties)). 0: never.
    pub solve_empties: u32,
    /// The split points of this search, when there are several threads (`None`: one
    /// thread searches every node).
    pub shared: Option<&'a SelectiveShared>,
    /// The exact solver's parallel context for the PV extension's solves, when there
    /// are several threads: the main thread's solves offer their nodes there and the
    /// helper threads, which solve nothing themselves, join them while they wait for
    /// work (`None`: every solve on its own thread).
    pub exact_shared: Option<&'a ExactShared>,
}

/// One thread's search state.
pub struct SelectiveSearcher<'a> {
    /// Shared state.
    pub ctx: &'a Context<'a>,
    /// Nodes visited by this thread (search and ordering searches).
    pub nodes: u64,
    /// Set once a stop was seen: every value computed after it is meaningless.
    pub aborted: bool,
    /// The main thread's deadline (helpers have none).
    pub deadline: Option<Instant>,
    /// The main thread's node limit: it stops once its nodes and the helpers' flushed
    /// ones reach it (helpers have none).
    pub node_limit: Option<u64>,
    /// True for a helper thread (flushes its node count into `ctx.helper_nodes`).
    pub helper: bool,
    /// Multi-ProbCut threshold of the current search (`None`: no cuts).
    t: Option<f64>,
    /// Selectivity index stored in and required from table entries.
    sel: u8,
    next_check: u64,
    flushed: u64,
    /// Triangular principal-variation table: `pv[ply][..pv_len[ply]]`.
    pv: Box<[[u8; MAX_PLY]; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    /// Where this thread stands among the split points.
    split: SplitState<Child, (u32, usize)>,
}

impl<'a> SelectiveSearcher<'a> {
    /// A searcher over `ctx` with no selectivity (plain alpha-beta).
    pub fn new(ctx: &'a Context<'a>) -> SelectiveSearcher<'a> {
        SelectiveSearcher {
            ctx,
            nodes: 0,
            aborted: false,
            deadline: None,
            node_limit: None,
            helper: false,
            t: None,
            sel: Selectivity::EXACT.index(),
            next_check: CHECK_EVERY,
            flushed: 0,
            pv: Box::new([[NO_MOVE; MAX_PLY]; MAX_PLY]),
            pv_len: [0; MAX_PLY],
            split: SplitState::default(),
        }
    }

    /// Sets the selectivity of the next searches (no cuts when the table has no
    /// statistics).
    pub fn set_selectivity(&mut self, s: Selectivity) {
        self.sel = s.index();
        self.t = if self.ctx.mpc.is_empty() { None } else { s.t() };
    }

    /// True when the current search cuts with Multi-ProbCut (a selectivity below 100%
    /// and statistics to cut with).
    #[inline(always)]
    pub fn is_selective(&self) -> bool {
        self.t.is_some()
    }

    /// The principal variation found by the last search at `ply` 0 (square indices;
    /// [`NO_MOVE`] for a pass).
    pub fn root_pv(&self) -> &[u8] {
        &self.pv[0][..self.pv_len[0]]
    }

    /// The static evaluation (or the exact score of a full board), in search units.
    #[inline(always)]
    pub fn evaluate(&self, p: u64, o: u64) -> i32 {
        self.scored(p, o, |w| w.evaluate(p, o))
    }

    /// [`Self::evaluate`] where only the value's place against `(lo, hi)` matters
    /// ([`solvo_eval::Weights::evaluate_within`]).
    #[inline(always)]
    pub fn evaluate_within(&self, p: u64, o: u64, lo: i32, hi: i32) -> i32 {
        self.scored(p, o, |w| w.evaluate_within(p, o, lo, hi))
    }

    /// The evaluation that orders moves: [`Self::evaluate`] without the weights'
    /// residual network, if they have one (it orders as well for a fraction of the
    /// cost: `docs/results/evaluation.md`).
    #[inline(always)]
    pub fn evaluate_order(&self, p: u64, o: u64) -> i32 {
        self.scored(p, o, |w| w.evaluate_linear(p, o))
    }

    /// The exact score of a full board, else `eval` of the weights (search units).
    #[inline(always)]
    fn scored(&self, p: u64, o: u64, eval: impl FnOnce(&Weights) -> i32) -> i32 {
        if p | o == u64::MAX {
            self.ctx.rules.final_score(p, o) * SCALE
        } else {
            eval(self.ctx.weights)
        }
    }

    /// Whether a position of `empties` empty squares below the root is valued exactly
    /// (see [`Context::solve_empties`]).
    #[inline(always)]
    fn solves(&self, empties: u32) -> bool {
        self.ctx.solve_empties > 0 && empties <= self.ctx.solve_empties
    }

    /// The value of a leaf below the root: exact when it has at most `solve_empties`
    /// empties (see [`Context::solve_empties`]), else [`Self::evaluate`].
    pub fn leaf_value(&mut self, p: u64, o: u64) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if self.solves(empties) {
            self.solve_small(p, o, -INF, INF, empties)
        } else {
            self.evaluate(p, o)
        }
    }

    /// Looks at the stop flags and the clock every few thousand nodes.
    #[inline(always)]
    fn poll(&mut self) -> bool {
        if self.nodes >= self.next_check {
            self.next_check = self.nodes + CHECK_EVERY;
            self.check_stop();
        }
        self.aborted
    }

    #[cold]
    fn check_stop(&mut self) {
        self.flush_nodes();
        if self.outer_stop() || self.split.abandoned() {
            self.aborted = true;
        }
    }

    /// Flushes the rest of a helper's node count.
    pub fn flush_nodes(&mut self) {
        if self.helper {
            self.ctx.helper_nodes.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
        }
    }

    /// Value of a node whose side to move has no move: the exact score if the game is
    /// over, else the opponent's search negated (a pass costs no depth).
    #[inline]
    #[allow(clippy::too_many_arguments)] // hot path: plain arguments stay in registers
    fn no_move(&mut self, p: u64, o: u64, alpha: i32, beta: i32, depth: u32, ply: usize, pv_node: bool) -> i32 {
        if legal_moves(o, p, u64::MAX) == 0 {
            if pv_node {
                self.pv_len[ply] = 0;
            }
            return self.ctx.rules.final_score(p, o) * SCALE;
        }
        if ply + 1 >= MAX_PLY {
            return -self.evaluate(o, p);
        }
        let v = -self.pvs(o, p, -beta, -alpha, depth, ply + 1, pv_node);
        if pv_node {
            self.copy_pv(ply, NO_MOVE);
        }
        v
    }

    /// Makes `mv` followed by the principal variation of the last ply-1 search the
    /// root's principal variation (just `mv` when that search was not a PV search).
    pub fn set_root_pv(&mut self, mv: u8, child_pv_valid: bool) {
        if !child_pv_valid {
            self.pv_len[1] = 0;
        }
        self.copy_pv(0, mv);
    }

    #[inline]
    fn copy_pv(&mut self, ply: usize, mv: u8) {
        let len = self.pv_len[ply + 1].min(MAX_PLY - 1);
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        head[ply][0] = mv;
        head[ply][1..=len].copy_from_slice(&tail[0][..len]);
        self.pv_len[ply] = len + 1;
    }

    /// The best of `value(child, alpha, beta)` over the children of `moves` (corners
    /// first, C and X squares last: [`SQUARE_CLASSES`]), raising alpha as it goes,
    /// stopping at a cut (fail-soft).
    #[inline(always)]
    fn best_child(
        &mut self,
        p: u64,
        o: u64,
        moves: u64,
        mut alpha: i32,
        beta: i32,
        mut value: impl FnMut(&mut Self, u64, u64, i32) -> i32,
    ) -> i32 {
        let mut best = -INF;
        for class in SQUARE_CLASSES {
            let mut moves = moves & class;
            while moves != 0 {
                let sq = moves.trailing_zeros() as usize;
                moves &= moves - 1;
                let f = flips(sq, p, o);
                let v = value(self, o ^ f, p ^ f ^ (1u64 << sq), alpha);
                if v > best {
                    best = v;
                    if v > alpha {
                        alpha = v;
                        if v >= beta {
                            return best;
                        }
                    }
                }
            }
        }
        best
    }

    /// The exact value of a position of `empties <= solve_empties + 1` empty squares
    /// in search units, fail-soft in `(alpha, beta)`: the shallow solver searches the
    /// disc window that contains it (as `solve_exactly`), so a value outside is a
    /// bound on the same side.
    #[inline(never)]
    fn solve_small(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
        let (lo, hi) = disc_window(alpha, beta);
        let config = ExactConfig::default();
        let stability_min = if config.stability { config.shallow_stability_empties } else { 0 };
        let v = solve_shallow(
            &self.ctx.rules,
            p,
            o,
            lo,
            hi,
            empties,
            stability_min,
            config.stability_gate,
            &mut self.nodes,
        );
        v * SCALE
    }

    /// A depth-1 search without table or sorting. With `solve_empties` on, a node whose
    /// children have at most that many empties is solved instead: the best of its
    /// children's exact values is its own.
    #[inline]
    fn search1(&mut self, p: u64, o: u64, alpha: i32, beta: i32, ply: usize) -> i32 {
        let empties = 64 - (p | o).count_ones();
        if self.solves(empties.saturating_sub(1)) {
            return self.solve_small(p, o, alpha, beta, empties);
        }
        self.nodes += 1;
        let moves = legal_moves(p, o, u64::MAX);
        if moves == 0 {
            return self.no_move(p, o, alpha, beta, 1, ply, false);
        }
        self.best_child(p, o, moves, alpha, beta, |s, cp, co, a| {
            s.nodes += 1;
            -s.evaluate_within(cp, co, -beta, -a)
        })
    }

    /// A depth-2 search without table or sorting.
    #[inline]
    fn search2(&mut self, p: u64, o: u64, alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.poll() {
            return 0;
        }
        let moves = legal_moves(p, o, u64::MAX);
        if moves == 0 {
            return self.no_move(p, o, alpha, beta, 2, ply, false);
        }
        self.best_child(p, o, moves, alpha, beta, |s, cp, co, a| -s.search1(cp, co, -beta, -a, ply + 1))
    }

    /// The value of a search of depth `depth <= 2` (for ordering), fail-soft below
    /// `beta`: exact when below it, else a lower bound at least `beta` (`INF`: always
    /// exact).
    #[inline]
    pub fn shallow_value(&mut self, p: u64, o: u64, depth: u32, beta: i32) -> i32 {
        match depth {
            0 => {
                self.nodes += 1;
                self.evaluate_order(p, o)
            }
            1 => self.search1(p, o, -INF, beta, MAX_PLY - 2),
            _ => self.search2(p, o, -INF, beta, MAX_PLY - 3),
        }
    }

    /// Fail-soft principal variation search of `p` to move against `o` to `depth`
    /// within `(alpha, beta)`, `ply` plies below the root. At `pv_node`s the principal
    /// variation is recorded. Returns 0 (meaningless) once aborted.
    #[allow(clippy::too_many_arguments)] // hot path: plain arguments stay in registers
    pub fn pvs(&mut self, p: u64, o: u64, mut alpha: i32, beta: i32, depth: u32, ply: usize, pv_node: bool) -> i32 {
        if pv_node {
            self.pv_len[ply] = 0;
            if ply > 0 && self.ctx.pv_extension > 0 && !self.helper {
                let empties = 64 - (p | o).count_ones();
                if empties <= self.ctx.pv_extension {
                    if let Some(tt) = self.ctx.exact_tt {
                        return self.solve_exactly(tt, p, o, alpha, beta, empties);
                    }
                }
            }
        }
        if ply > 0 {
            let empties = 64 - (p | o).count_ones();
            if self.solves(empties) {
                return self.solve_small(p, o, alpha, beta, empties);
            }
        }
        if depth == 0 {
            self.nodes += 1;
            return self.evaluate_within(p, o, alpha, beta);
        }
        if !pv_node && depth <= 2 {
            return if depth == 1 {
                self.search1(p, o, alpha, beta, ply)
            } else {
                self.search2(p, o, alpha, beta, ply)
            };
        }
        self.nodes += 1;
        if self.poll() {
            return 0;
        }
        let moves = legal_moves(p, o, u64::MAX);
        if moves == 0 {
            return self.no_move(p, o, alpha, beta, depth, ply, pv_node);
        }
        if ply + 1 >= MAX_PLY {
            return self.evaluate(p, o);
        }
        let hash = table_hash(p, o);
        let nodes_before = self.nodes;
        let mut tt_move = NO_MOVE;
        if let Some(e) = self.ctx.tt.probe_entry(hash, p, o) {
            tt_move = e.best;
            if let Some((lower, upper)) = self.usable_bounds(&e, depth) {
                if lower >= beta {
                    return lower;
                }
                if upper <= alpha {
                    return upper;
                }
                if !pv_node && lower == upper {
                    return lower;
                }
            }
        }
        // The children, made before the probes only where the transposition cut reads
        // them (a node cut by its probes below that depth never makes them).
        let mut children = None;
        if !pv_node && depth >= ETC_MIN_DEPTH {
            let list = MoveList::new(p, o, moves);
            if let Some(cut) = self.transposition_cut(&list, depth, beta) {
                return cut;
            }
            children = Some(list);
        }
        // Multi-ProbCut at null-window nodes only: at PV nodes it cost 8-12% more nodes
        // for equal or worse move choices (hard-20/25, depths 12 and 15 at 73%).
        let cut = if pv_node { None } else { self.probcut(p, o, alpha, beta, depth, ply) };
        if let Some(cut) = cut {
            if !self.aborted {
                let (lower, upper) = if cut >= beta { (cut, INF) } else { (-INF, cut) };
                self.store(hash, p, o, lower, upper, tt_move, depth, self.nodes - nodes_before);
            }
            return cut;
        }
        let mut list = children.unwrap_or_else(|| MoveList::new(p, o, moves));
        self.order_moves(&mut list, tt_move, depth, alpha);
        if self.aborted {
            return 0;
        }
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        let children = list.as_slice();
        for (i, c) in children.iter().enumerate() {
            // Once the first child is searched, a null-window node deep enough shares the
            // others with idle threads (see `crate::parallel`); PV nodes never do (their
            // principal variation and exact solves stay on this thread).
            if i == 1 && !pv_node && self.should_split(depth, children.len() - 1) {
                (best, best_move) = self.split(&children[1..], (depth, ply), alpha, beta, (best, best_move));
                if self.aborted {
                    return 0;
                }
                break;
            }
            let v = if i == 0 {
                -self.pvs(c.p, c.o, -beta, -alpha, depth - 1, ply + 1, pv_node)
            } else {
                let v = -self.pvs(c.p, c.o, -alpha - 1, -alpha, depth - 1, ply + 1, false);
                if pv_node && v > alpha && v < beta {
                    -self.pvs(c.p, c.o, -beta, -alpha, depth - 1, ply + 1, true)
                } else {
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = c.sq;
                if v > alpha {
                    alpha = v;
                    if pv_node {
                        self.copy_pv(ply, c.sq);
                    }
                    if v >= beta {
                        break;
                    }
                }
            }
        }
        let lower = if best > alpha0 { best } else { -INF };
        let upper = if best < beta { best } else { INF };
        self.store(hash, p, o, lower, upper, best_move, depth, self.nodes - nodes_before);
        best
    }

    /// The bounds `(lower, upper)` of a table entry, in search units, when they hold for
    /// this search at a node of `depth` plies left: a proven entry's (discs) hold at
    /// every depth; a selective one's only at its own depth, and at this search's
    /// selectivity or a less selective one.
    #[inline(always)]
    fn usable_bounds(&self, e: &Entry, depth: u32) -> Option<(i32, i32)> {
        if e.selectivity == PROVEN {
            Some((e.lower.max(-65) * SCALE, e.upper.min(65) * SCALE))
        } else {
            (u32::from(e.depth) == depth.min(63) && e.selectivity >= self.sel).then_some((e.lower, e.upper))
        }
    }

    /// Enhanced transposition cutoff: a lower bound at least `beta` for a node of
    /// `depth` when the table already shows one of its `children` at most `-beta` (a
    /// transposition searched elsewhere in the tree), before any child is searched.
    /// The child's entry bounds its value at `depth - 1` (or proven), so without
    /// Multi-ProbCut the node's value is still the depth-limited negamax value's bound
    /// on the right side of the window.
    #[inline]
    fn transposition_cut(&self, children: &MoveList, depth: u32, beta: i32) -> Option<i32> {
        for c in children.as_slice() {
            let Some(e) = self.ctx.tt.probe_entry(table_hash(c.p, c.o), c.p, c.o) else { continue };
            if let Some((_, upper)) = self.usable_bounds(&e, depth - 1) {
                if -upper >= beta {
                    return Some(-upper);
                }
            }
        }
        None
    }

    /// The exact value of `p` to move against `o` (`empties` empty squares) in search
    /// units, fail-soft in `(alpha, beta)`: the endgame solver searches the disc window
    /// that contains it (`floor(alpha / SCALE)`, `ceil(beta / SCALE)`), so a value it
    /// proves outside that window is a bound on the same side of `(alpha, beta)`. Its
    /// nodes (search and move ordering) count as this search's, and it stops with the
    /// stop flag or at the node limit. Returns 0 once aborted.
    #[inline(never)]
    fn solve_exactly(&mut self, tt: &SearchTable, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
        let (lo, hi) = disc_window(alpha, beta);
        let budget = self
            .node_limit
            .map_or(u64::MAX, |n| n.saturating_sub(self.nodes + self.ctx.helper_nodes.load(Ordering::Relaxed)));
        let mut exact = ExactSearcher::new(self.ctx.rules, tt, ExactConfig::default(), self.ctx.stop, budget);
        exact.eval = Some(self.ctx.weights);
        exact.shared = self.ctx.exact_shared;
        let v = exact.search(p, o, lo, hi, empties);
        self.nodes += exact.nodes + exact.ordering_nodes;
        if exact.aborted {
            self.aborted = true;
            return 0;
        }
        v * SCALE
    }

    /// The life of a helper thread: waits for the split points of the main thread's
    /// search and of its PV-extension solves, and works on them, until the search is
    /// over or stopped. Its nodes are flushed into the shared count as it goes.
    pub fn serve(&mut self) {
        let Some(shared) = self.ctx.shared else { return };
        let exact = self.ctx.exact_shared;
        let over = |ctx: &Context| ctx.quit.load(Ordering::Relaxed) || ctx.stop.load(Ordering::Relaxed);
        while !over(self.ctx) {
            shared.enter_standby();
            exact.inspect(|e| e.enter_standby());
            let mut spins = 0u32;
            let selective_work = loop {
                if over(self.ctx) {
                    break None;
                }
                if shared.has_offered_work() {
                    break Some(true);
                }
                if exact.is_some_and(|e| e.has_offered_work()) {
                    break Some(false);
                }
                spins += 1;
                if spins < 1000 {
                    std::hint::spin_loop();
                } else {
                    std::thread::yield_now();
                }
            };
            shared.leave_standby();
            exact.inspect(|e| e.leave_standby());
            match selective_work {
                Some(true) => {
                    self.help_offered();
                }
                Some(false) => {
                    self.help_exact_solve_now();
                }
                None => break,
            }
            self.flush_nodes();
        }
        self.flush_nodes();
    }

    /// A helper thread joins the main thread's PV-extension solve if it offers a split
    /// point now; returns whether it did.
    pub fn help_exact_solve_now(&mut self) -> bool {
        match (self.ctx.exact_shared, self.ctx.exact_tt) {
            (Some(shared), Some(tt)) if shared.has_offered_work() => {
                self.help_exact_solve(shared, tt);
                true
            }
            _ => false,
        }
    }

    /// A helper joins the main thread's PV-extension solve at its offered split point.
    #[inline(never)]
    fn help_exact_solve(&mut self, shared: &ExactShared, tt: &SearchTable) {
        let mut exact = ExactSearcher::new(self.ctx.rules, tt, ExactConfig::default(), self.ctx.stop, u64::MAX);
        exact.eval = Some(self.ctx.weights);
        exact.shared = Some(shared);
        exact.help_offered();
        self.nodes += exact.nodes + exact.ordering_nodes;
    }

    /// Stores the node's bounds (searched in `nodes` nodes) at its depth and the
    /// search's selectivity.
    #[allow(clippy::too_many_arguments)] // hot path: plain arguments stay in registers
    #[inline]
    fn store(&self, hash: u64, p: u64, o: u64, lower: i32, upper: i32, best: u8, depth: u32, nodes: u64) {
        let entry = Entry { lower, upper, best, depth: depth.min(255) as u8, selectivity: self.sel };
        self.ctx.tt.store_selective(hash, p, o, entry, nodes);
    }

    /// Multi-ProbCut: `Some(bound)` when a shallow search predicts that the depth-`depth`
    /// value lies outside `(alpha, beta)` with the confidence of the selectivity (tried
    /// at null-window nodes below the root).
    #[inline]
    fn probcut(&mut self, p: u64, o: u64, alpha: i32, beta: i32, depth: u32, ply: usize) -> Option<i32> {
        let t = self.t?;
        if depth < MPC_MIN_DEPTH || ply == 0 {
            return None;
        }
        let empties = 64 - (p | o).count_ones();
        let (mean, sigma) = self.ctx.mpc.get(empties, depth)?;
        let margin = (t * f64::from(sigma)) as i32;
        let shallow = probe_depth(depth);
        let high = beta - mean + margin;
        // A failed high probe bounds the shallow value from above (fail-soft): when that
        // bound is already below the low threshold, the low probe is not needed.
        let mut shallow_upper = INF;
        if high < INF {
            shallow_upper = self.pvs(p, o, high - 1, high, shallow, ply, false);
            if shallow_upper >= high {
                return Some(beta);
            }
        }
        let low = alpha - mean - margin;
        if low > -INF && (shallow_upper <= low || self.pvs(p, o, low, low + 1, shallow, ply, false) <= low) {
            return Some(alpha);
        }
        None
    }
}

/// The selective search's null-window nodes split by plies left; a child is searched
/// one ply shallower, one ply further from the root, as a null-window node.
impl<'a> Splitting<'a> for SelectiveSearcher<'a> {
    type Child = Child;
    type Node = (u32, usize);
    /// Multi-ProbCut makes values depend on the window: a re-search starts where the
    /// sequential search's would (never needed at the null-window nodes that split).
    const RESEARCH_FROM_VALUE: bool = false;

    #[inline(always)]
    fn shared(&self) -> Option<&'a SelectiveShared> {
        self.ctx.shared
    }

    #[inline(always)]
    fn split_state(&mut self) -> &mut SplitState<Child, (u32, usize)> {
        &mut self.split
    }

    #[inline]
    fn search_child(&mut self, (depth, ply): (u32, usize), c: &Child, alpha: i32, beta: i32) -> i32 {
        -self.pvs(c.p, c.o, -beta, -alpha, depth - 1, ply + 1, false)
    }

    #[inline(always)]
    fn move_of(c: &Child) -> u8 {
        c.sq
    }

    #[inline(always)]
    fn aborted(&mut self) -> &mut bool {
        &mut self.aborted
    }

    /// The stop flag, the end of the search, the clock or the node limit (not
    /// split-point cutoffs).
    fn outer_stop(&self) -> bool {
        self.ctx.stop.load(Ordering::Relaxed)
            || self.ctx.quit.load(Ordering::Relaxed)
            || self.deadline.is_some_and(|d| Instant::now() >= d)
            || self.node_limit.is_some_and(|n| self.nodes + self.ctx.helper_nodes.load(Ordering::Relaxed) >= n)
    }
}
