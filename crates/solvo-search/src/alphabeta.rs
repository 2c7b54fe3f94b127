//! Alpha-beta solvers with a transposition table: `ab-tt` (depth-first, no horizon) and
//! `id-ab-tt` (iterative deepening), both optionally with Monte Carlo move ordering.
//!
//! Negamax, fail-soft, generic over integer values (win/loss games: ±1; Othello: disc
//! differences). Moves are picked by selection sort: the TT move, then by
//! `move_priority`, then by the Monte Carlo scores when given.
//!
//! Iterative deepening: a position at the horizon gets the heuristic value 0 ("unknown")
//! and every result carries a flag saying whether it depends on a horizon. Results
//! that do not are true bounds of the game value and are stored with depth
//! [`DEPTH_EXACT`], valid for every later iteration; the others only for searches no
//! deeper than theirs. Iterations go on until the root's result is horizon-free, so a
//! depth-limited 0 is never taken for a proven value.

use crate::budget::{Budget, Limiter, SolverStats};
use crate::mc_ordering::McOrdering;
use crate::outcome::{SolverAnswer, Verdict};
use crate::proven::{ProvenPositions, MIN_RECORD_NODES};
use crate::tt::{work_of, Bound, Entry, TableShape, TranspositionTable, TtCounters, DEPTH_EXACT};
use solvo_core::busy::BusyTable;
use solvo_core::rng::Rng;
use solvo_core::{Game, Status};
use std::sync::atomic::{AtomicBool, Ordering};

/// Options of the alpha-beta solvers.
#[derive(Clone, Copy, Debug)]
pub struct AbOptions {
    /// Iterative deepening (`id-ab-tt`) instead of one horizon-free search (`ab-tt`).
    pub iterative: bool,
    /// Size and replacement scheme of the transposition table.
    pub table: TableShape,
    /// Enhanced transposition cutoff: probe every child in the TT before searching any.
    pub etc: bool,
    /// Search the root with the null window (t - 1, t) around this threshold (the
    /// study's setting: "does the side to move win?" for t = 1) instead of the full
    /// window: the verdict is then "value >= t" or "value < t", not an exact value.
    pub null_window: Option<i32>,
    /// Killer moves: the two last moves that refuted a window at each ply are tried
    /// right after the TT move and the game's priority moves.
    pub killers: bool,
    /// With `killers`: the killer moves come before the game's priority moves (right
    /// after the TT move) instead of after them. Misère Domineering gains (7x7 104.7 M
    /// -> 85.2 M nodes with `transpose=on`); games whose priority is tactical
    /// (Atarigo, normal Domineering, Nogo, Breakthrough) lose.
    pub killers_first: bool,
    /// History heuristic: moves (by move code) that refuted windows or were best
    /// score more, weighted by the work below them.
    pub history: bool,
    /// Search threads sharing the table (lazy SMP with deferred moves); 1: the plain
    /// sequential search.
    pub threads: usize,
}

impl Default for AbOptions {
    /// Not iterative, 2^22 cost-based buckets, no ETC, full window, no killers or history.
    fn default() -> Self {
        AbOptions {
            iterative: false,
            table: TableShape::buckets(22),
            etc: false,
            null_window: None,
            killers: false,
            killers_first: false,
            history: false,
            threads: 1,
        }
    }
}

/// Tier of the game's `move_priority` in a move score (above killers and Monte Carlo
/// scores, which stay below 2^46).
const PRIORITY_SHIFT: u32 = 48;
/// The stop flag of a parallel search is read every this many + 1 nodes.
const STOP_CHECK_MASK: u64 = (1 << 10) - 1;
/// A helper thread's random tie-break: below every score difference that means
/// something (Monte Carlo counts start at 2^20; policy weights are multiples of 1/1024
/// of a unit scaled by 1024, so only exact ties and near-ties move).
const JITTER_MASK: u64 = (1 << 8) - 1;
/// The proven-positions store gets a checkpoint call every this many + 1 nodes.
const CHECKPOINT_MASK: u64 = (1 << 14) - 1;
/// Bonus of a ply's first killer move (the second gets half).
const KILLER_BONUS: i64 = 1 << 46;
/// Priorities are clamped to +-this before the shift, so that a tier stays below 2^59
/// and a score never overflows (Nogo gives a losing capture -100,000: unclamped, the
/// shift wrapped it to a large positive score and it was tried first).
const PRIORITY_LIMIT: i32 = (1 << 11) - 1;
/// Bonus of a ply's first killer move when killers come first: above every priority
/// tier (the second killer's half, 2^60, too).
const KILLER_FIRST_BONUS: i64 = 1 << 61;
/// History scores are capped here (below the killers, beside Monte Carlo scores).
const HISTORY_CAP: i64 = (1 << 44) - 1;

struct Searcher<'a, 'p, G: Game> {
    tt: &'a TranspositionTable,
    counters: TtCounters,
    stop: &'a AtomicBool,
    /// Helper threads of a parallel search break ties between equal move scores at
    /// random, so that they explore other subtrees first and fill the shared table.
    jitter: Option<Rng>,
    /// The children the threads are searching now (several threads only).
    busy: Option<&'a BusyTable>,
    proven: Option<&'p mut dyn ProvenPositions>,
    ordering: Option<&'a McOrdering<G::Move>>,
    limiter: Limiter,
    nodes: u64,
    moves: Vec<Vec<G::Move>>,
    scores: Vec<Vec<i64>>,
    /// Per ply, with the enhanced transposition cutoff: the children it played and
    /// their keys, reused by the move loop instead of playing each move again.
    children: Vec<Vec<(G, u64)>>,
    root_best: Option<G::Move>,
    /// With proofs: the root move they prove winning, once looked up (the lookup
    /// runs once per solve, not once per iteration).
    root_winner: Option<Option<u8>>,
    /// With proofs: which root moves (by index) were already reported settled, so
    /// each is reported once, whether the proofs or a search settled it (sized with
    /// the root's moves when the proofs are first looked up).
    root_reported: Vec<bool>,
    options: AbOptions,
    killers: Vec<[Option<G::Move>; 2]>,
    history: Vec<i64>,
}

/// A search result: a value and whether it is horizon-free (a true bound).
type Scored = (i32, bool);

/// What the move loop found: value, horizon-free, best move's index, bound, nodes spent.
type Looped = (i32, bool, Option<usize>, Bound, u64);

impl<G: Game> Searcher<'_, '_, G> {
    /// Fail-soft negamax. `None` when the budget ran out.
    fn search(&mut self, game: &G, alpha: i32, beta: i32, depth: u16, ply: usize) -> Option<Scored> {
        self.nodes += 1;
        if self.limiter.out(self.nodes) || (self.nodes & STOP_CHECK_MASK == 0 && self.stop.load(Ordering::Relaxed)) {
            return None;
        }
        match game.status() {
            Status::Over(v) => return Some((v, true)),
            Status::MustPass => {
                let passed = game.pass().expect("MustPass has a pass");
                let (v, exact) = self.search(&passed, -beta, -alpha, depth, ply + 1)?;
                return Some((-v, exact));
            }
            Status::ToMove => {}
        }
        if depth == 0 {
            return Some((0, false));
        }
        let key = game.hash_key();
        if let Some(p) = self.proven.as_deref_mut() {
            if self.nodes & CHECKPOINT_MASK == 0 && !p.checkpoint(self.nodes) {
                return None;
            }
            if let Some((v, bound)) = p.proven(key) {
                if ply > 0 && bound.settles(v, alpha, beta) {
                    return Some((v, true));
                }
            }
        }
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key, &mut self.counters) {
            tt_move = e.best;
            if e.depth >= depth && ply > 0 {
                let exact = e.depth == DEPTH_EXACT;
                if e.bound.settles(e.value, alpha, beta) {
                    self.counters.cutoffs += 1;
                    return Some((e.value, exact));
                }
            }
        }
        let child_depth = if depth == DEPTH_EXACT { DEPTH_EXACT } else { depth - 1 };
        while self.moves.len() <= ply {
            self.moves.push(Vec::new());
            self.scores.push(Vec::new());
            self.children.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.moves[ply]);
        let mut scores = std::mem::take(&mut self.scores[ply]);
        moves.clear();
        scores.clear();
        game.generate_moves(&mut moves);
        if ply == 0 {
            let winner = match self.root_winner {
                Some(w) => w,
                None => {
                    let w = self.root_move_from_proofs(game, &moves, alpha, beta);
                    self.root_winner = Some(w);
                    w
                }
            };
            tt_move = winner.or(tt_move);
        }
        if let Some(o) = self.ordering {
            o.score_moves(game, key, &moves, &mut scores);
        } else {
            scores.resize(moves.len(), 0);
        }
        let killers = if self.options.killers { self.killers.get(ply).copied().unwrap_or_default() } else { [None; 2] };
        let killer_bonus = if self.options.killers_first { KILLER_FIRST_BONUS } else { KILLER_BONUS };
        for (i, (s, &m)) in scores.iter_mut().zip(&moves).enumerate() {
            *s = if Some(i as u8) == tt_move {
                i64::MAX
            } else {
                let killer = if killers[0] == Some(m) {
                    killer_bonus
                } else if killers[1] == Some(m) {
                    killer_bonus / 2
                } else {
                    0
                };
                let history = if self.options.history {
                    self.history.get(game.move_code(m) as usize).copied().unwrap_or(0)
                } else {
                    0
                };
                let noise = self.jitter.as_mut().map_or(0, |r| (r.next_u64() & JITTER_MASK) as i64);
                let priority = game.move_priority(m).clamp(-PRIORITY_LIMIT, PRIORITY_LIMIT);
                (i64::from(priority) << PRIORITY_SHIFT) + killer + *s + history + noise
            };
        }
        let result = self.search_moves(game, &moves, &mut scores, alpha, beta, child_depth, ply);
        self.moves[ply] = moves;
        self.scores[ply] = scores;
        let (best, exact, best_index, bound, work) = result?;
        let best_move = best_index.map(|i| self.moves[ply][i]);
        if ply == 0 {
            self.root_best = best_move;
        }
        if exact && work >= MIN_RECORD_NODES {
            if let Some(p) = self.proven.as_deref_mut() {
                p.record(key, best, bound, work);
            }
        }
        if let Some(m) = best_move.filter(|_| bound != Bound::Upper) {
            self.reward(game, m, ply, depth, work, bound == Bound::Lower);
        }
        let entry = Entry {
            key,
            value: best,
            bound,
            depth: if exact { DEPTH_EXACT } else { depth },
            work: work_of(work),
            best: best_index.and_then(|i| u8::try_from(i).ok()).filter(|&i| i < 255),
        };
        self.tt.store(entry, &mut self.counters);
        Some((best, exact))
    }

    /// At the root, with proofs: reports every move whose child the proofs settle for
    /// the window and returns the index of one that wins it (searched first: its child
    /// is then read from the proofs, not searched). Without this, a resumed solve would
    /// search its first-ordered root moves again before reaching a proven winning one.
    fn root_move_from_proofs(&mut self, game: &G, moves: &[G::Move], alpha: i32, beta: i32) -> Option<u8> {
        let proven = self.proven.as_deref_mut()?;
        self.root_reported = vec![false; moves.len()];
        let mut winning = None;
        for (i, &m) in moves.iter().enumerate() {
            let Some((v, bound)) = proven.proven(game.play(m).hash_key()) else { continue };
            // The child's bound, seen from the root: negated, lower and upper swap.
            let (v, bound) = (-v, bound.negated());
            if !bound.settles(v, alpha, beta) {
                continue;
            }
            proven.root_move(&format!("{m:?}"), v, bound, 0);
            self.root_reported[i] = true;
            if v >= beta && winning.is_none() {
                winning = u8::try_from(i).ok().filter(|&i| i < 255);
            }
        }
        winning
    }

    /// Credits move `m`, best (or refuting, `refuted`) at `ply` after `work` nodes,
    /// to the killer and history tables when they are on.
    fn reward(&mut self, game: &G, m: G::Move, ply: usize, depth: u16, work: u64, refuted: bool) {
        if self.options.killers && refuted {
            if self.killers.len() <= ply {
                self.killers.resize(ply + 1, [None; 2]);
            }
            let k = &mut self.killers[ply];
            if k[0] != Some(m) {
                k[1] = k[0];
                k[0] = Some(m);
            }
        }
        if self.options.history {
            let code = game.move_code(m) as usize;
            if self.history.len() <= code {
                self.history.resize(code + 1, 0);
            }
            // Remaining depth squared in an iteration, log2 of the work squared in a
            // horizon-free search (whose depth says nothing).
            let weight = if depth == DEPTH_EXACT { i64::from(work_of(work)) } else { i64::from(depth) };
            self.history[code] = (self.history[code] + weight * weight).min(HISTORY_CAP);
        }
    }

    /// The move loop of [`Searcher::search`]: (value, horizon-free, best move, bound, nodes).
    #[allow(clippy::too_many_arguments)]
    fn search_moves(
        &mut self,
        game: &G,
        moves: &[G::Move],
        scores: &mut [i64],
        alpha: i32,
        beta: i32,
        child_depth: u16,
        ply: usize,
    ) -> Option<Looped> {
        let mut children = std::mem::take(&mut self.children[ply]);
        children.clear();
        if self.options.etc && ply > 0 {
            // Enhanced transposition cutoff: a child already known to refute the window.
            // Every child's bucket is asked for before the first is read, so the
            // memory latencies overlap; the children are kept for the move loop.
            for &m in moves {
                let child = game.play(m);
                let key = child.hash_key();
                self.tt.prefetch(key);
                children.push((child, key));
            }
            let found = children.iter().enumerate().find_map(|(i, &(_, key))| {
                let e = self.tt.probe(key, &mut self.counters)?;
                (e.depth >= child_depth && matches!(e.bound, Bound::Exact | Bound::Upper) && -e.value >= beta)
                    .then_some((-e.value, e.depth == DEPTH_EXACT, Some(i), Bound::Lower, 1))
            });
            if found.is_some() {
                self.children[ply] = children;
                return found;
            }
        }
        let result = self.move_loop(game, moves, scores, &children, alpha, beta, child_depth, ply);
        self.children[ply] = children;
        result
    }

    /// The move loop proper: the moves best score first, each child taken from
    /// `children` when the cutoff played it, else played here.
    #[allow(clippy::too_many_arguments)]
    fn move_loop(
        &mut self,
        game: &G,
        moves: &[G::Move],
        scores: &mut [i64],
        children: &[(G, u64)],
        alpha: i32,
        beta: i32,
        child_depth: u16,
        ply: usize,
    ) -> Option<Looped> {
        let start_nodes = self.nodes;
        let mut alpha_now = alpha;
        let mut best = i32::MIN + 1;
        let mut best_move = None;
        let mut all_exact = true;
        // With other threads: a move (not the first searched) whose child one of them is
        // searching waits for a second round (see `solvo_core::busy`).
        let busy = self.busy.filter(|_| moves.len() <= 64 && (child_depth == DEPTH_EXACT || child_depth >= 3));
        let mut deferred = 0u64;
        let (mut tried, mut searched_any, mut second_round) = (0, false, false);
        loop {
            let i = if tried < moves.len() {
                // Selection sort: the best move not tried yet (tried ones score i64::MIN).
                let mut i = 0;
                for k in 1..moves.len() {
                    if scores[k] > scores[i] {
                        i = k;
                    }
                }
                scores[i] = i64::MIN;
                tried += 1;
                i
            } else if deferred != 0 {
                second_round = true;
                let i = deferred.trailing_zeros() as usize;
                deferred &= deferred - 1;
                i
            } else {
                break;
            };
            let played;
            let child = match children.get(i) {
                Some((c, _)) => c,
                None => {
                    played = game.play(moves[i]);
                    &played
                }
            };
            let mut key = 0;
            // Never the first move searched; a move is deferred once at most.
            if let Some(b) = busy.filter(|_| searched_any && !second_round) {
                let hash = children.get(i).map_or_else(|| child.hash_key(), |&(_, k)| k);
                key = BusyTable::key(hash, u32::from(child_depth));
                if !b.try_enter(key) {
                    deferred |= 1u64 << i;
                    continue;
                }
            }
            searched_any = true;
            let before = self.nodes;
            let searched = self.search(child, -beta, -alpha_now, child_depth, ply + 1);
            if let Some(b) = busy.filter(|_| key != 0) {
                b.leave(key);
            }
            let (v, exact) = searched?;
            let v = -v;
            all_exact &= exact;
            // Each root move once: those read from the proofs were reported before the
            // loop, and a later iteration settles the same moves again.
            if ply == 0 && exact {
                let first = self.root_reported.get_mut(i).is_none_or(|r| !std::mem::replace(r, true));
                if let Some(p) = self.proven.as_deref_mut().filter(|_| first) {
                    let bound = if v >= beta {
                        Bound::Lower
                    } else if v <= alpha_now {
                        Bound::Upper
                    } else {
                        Bound::Exact
                    };
                    p.root_move(&format!("{:?}", moves[i]), v, bound, self.nodes - before);
                }
            }
            if v > best {
                best = v;
                best_move = Some(i);
            }
            if v > alpha_now {
                alpha_now = v;
            }
            if v >= beta {
                return Some((v, exact, best_move, Bound::Lower, self.nodes - start_nodes));
            }
        }
        let bound = if best > alpha { Bound::Exact } else { Bound::Upper };
        Some((best, all_exact, best_move, bound, self.nodes - start_nodes))
    }
}

/// Solves `game` by alpha-beta with a transposition table; with `ordering`, moves are
/// ordered by Monte Carlo scores after the TT move and `move_priority`. The verdict is
/// [`Verdict::Exact`] with a best move (full window), "value >= t" with a winning move or
/// "value < t" (null window around t), or [`Verdict::Unknown`] when the budget runs out.
pub fn alpha_beta<G: Game>(
    game: &G,
    options: &AbOptions,
    ordering: Option<&McOrdering<G::Move>>,
    budget: Budget,
) -> SolverAnswer<G::Move> {
    alpha_beta_with_proofs(game, options, ordering, budget, None)
}

/// [`alpha_beta`] that reads proven positions from `proven` before searching a node
/// and records there every horizon-free result of at least [`MIN_RECORD_NODES`] nodes;
/// a `false` checkpoint stops the search (verdict unknown). With `options.threads` > 1,
/// helper threads search the same root over the shared table (lazy SMP), each deferring
/// the moves another thread is searching (`solvo_core::busy`); the first result found is
/// the answer (any is proven), and only the calling thread uses `proven`.
pub fn alpha_beta_with_proofs<G: Game>(
    game: &G,
    options: &AbOptions,
    ordering: Option<&McOrdering<G::Move>>,
    budget: Budget,
    proven: Option<&mut dyn ProvenPositions>,
) -> SolverAnswer<G::Move> {
    let tt = TranspositionTable::with_shape(options.table);
    alpha_beta_on_table(game, options, &tt, ordering, budget, proven)
}

/// [`alpha_beta_with_proofs`] over a table the caller keeps (`options.table` is not
/// used): a series of solves of related positions (the semi-strong walk's) shares
/// what each proved. The table holds only proven bounds of horizon-free searches
/// (iterative searches' depth-limited entries are marked with their depth), so a
/// table filled by earlier solves never changes a verdict, only its cost.
pub fn alpha_beta_on_table<G: Game>(
    game: &G,
    options: &AbOptions,
    tt: &TranspositionTable,
    ordering: Option<&McOrdering<G::Move>>,
    budget: Budget,
    proven: Option<&mut dyn ProvenPositions>,
) -> SolverAnswer<G::Move> {
    let stop = AtomicBool::new(false);
    let busy = (options.threads > 1).then(BusyTable::new);
    let searcher = |jitter: Option<Rng>| Searcher {
        tt,
        counters: TtCounters::default(),
        stop: &stop,
        jitter,
        busy: busy.as_ref(),
        proven: None,
        ordering,
        limiter: Limiter::new(budget),
        nodes: 0,
        moves: Vec::new(),
        scores: Vec::new(),
        children: Vec::new(),
        root_best: None,
        root_winner: None,
        root_reported: Vec::new(),
        options: *options,
        killers: Vec::new(),
        history: Vec::new(),
    };
    let threads = options.threads.max(1);
    let mut main = searcher(None);
    main.proven = proven;
    let (main_run, helpers) = std::thread::scope(|scope| {
        let handles: Vec<_> = (1..threads)
            .map(|k| {
                let mut helper = searcher(Some(Rng::new(0x5EED_0000 + k as u64)));
                let stop = &stop;
                scope.spawn(move || {
                    let run = helper.run_root(game);
                    stop.store(true, Ordering::Relaxed);
                    (run, helper.nodes, helper.counters, helper.root_best)
                })
            })
            .collect();
        let run = main.run_root(game);
        stop.store(true, Ordering::Relaxed);
        let helpers: Vec<_> = handles.into_iter().map(|h| h.join().expect("a helper search thread panicked")).collect();
        (run, helpers)
    });
    let (mut verdict, iterations) = main_run;
    let main_found = verdict != Verdict::Unknown;
    let mut best_move = main.root_best;
    let mut nodes = main.nodes;
    let mut c = main.counters;
    for (run, helper_nodes, counters, helper_best) in helpers {
        if verdict == Verdict::Unknown && run.0 != Verdict::Unknown {
            verdict = run.0;
            best_move = helper_best;
        }
        nodes += helper_nodes;
        c.add(&counters);
    }
    // A verdict a helper found first never reached the proofs (the main thread was
    // stopped before recording its root): record it here, or a resumed solve of a
    // parent position would not know it.
    if let (false, Some(p)) = (main_found, main.proven.as_deref_mut()) {
        let proof = match verdict {
            Verdict::Exact(v) => Some((v, Bound::Exact)),
            Verdict::AtLeast(t) => Some((t, Bound::Lower)),
            Verdict::Below(t) => Some((t - 1, Bound::Upper)),
            _ => None,
        };
        if let Some((v, bound)) = proof {
            p.record(game.hash_key(), v, bound, nodes.max(MIN_RECORD_NODES));
        }
    }
    let stats = SolverStats {
        nodes,
        time: main.limiter.elapsed(),
        tt_probes: c.probes,
        tt_hits: c.hits,
        tt_cutoffs: c.cutoffs,
        tt_stores: c.stores,
        tt_overwrites: c.overwrites,
        tt_lost: c.lost,
        iterations: if options.iterative { iterations } else { 0 },
        ..SolverStats::default()
    };
    let best_move = match verdict {
        Verdict::Exact(_) | Verdict::AtLeast(_) => best_move,
        _ => None,
    };
    SolverAnswer { verdict, best_move, stats }
}

impl<G: Game> Searcher<'_, '_, G> {
    /// Searches the root to a horizon-free result (iterating the depth when
    /// iterative): the verdict (unknown when stopped or out of budget) and the
    /// iterations run.
    fn run_root(&mut self, game: &G) -> (Verdict, u64) {
        let max = game.max_value();
        let (alpha, beta) = match self.options.null_window {
            Some(t) => (t.saturating_sub(1), t),
            None => (-max, max),
        };
        let mut iterations = 0;
        let mut depth: u16 = if self.options.iterative { 1 } else { DEPTH_EXACT };
        loop {
            iterations += 1;
            match self.search(game, alpha, beta, depth, 0) {
                None => return (Verdict::Unknown, iterations),
                Some((v, true)) => {
                    let verdict = match self.options.null_window {
                        None => Verdict::Exact(v),
                        Some(t) if v >= t => Verdict::AtLeast(t),
                        Some(t) => Verdict::Below(t),
                    };
                    return (verdict, iterations);
                }
                Some((_, false)) => {
                    if depth >= DEPTH_EXACT - 1 {
                        return (Verdict::Unknown, iterations);
                    }
                    depth += 1;
                }
            }
        }
    }
}
