//! df-pn: depth-first proof-number search (Nagai 2002) with a transposition table and
//! the 1+ε trick (Pawlewicz & Lew 2006).
//!
//! Negamax (φ/δ) form: at every node φ is the proof number of "the side to move
//! reaches its target" and δ the disproof number; φ(n) = min δ(child),
//! δ(n) = Σ φ(child). The root's target is "value >= threshold"; a child's target is
//! "value >= 1 - t" when its parent's is "value >= t" (the parent reaches t exactly when
//! some child stays below 1 - t), so for win/loss games with threshold 1 every target
//! is simply "win". The TT key mixes in the target.
//!
//! Transpositions share TT entries (the graph is searched as a DAG: δ sums may count a
//! shared descendant twice, which only delays, never falsifies, a proof). Cycles: a
//! child that repeats a position of the current path (same key) is counted in
//! `repetitions` and stops the search with [`Verdict::Unknown`] rather than risk the
//! graph-history-interaction problem. Games
//! whose key covers their whole state (Go's key includes the superko history) have no
//! repetitions.
//!
//! With a store of proven positions ([`dfpn_with_proofs`], see [`crate::proven`]), a
//! position the store settles for its target is solved without search, and every
//! position proven or disproven here at a cost of [`MIN_RECORD_NODES`] nodes or more is
//! recorded (a proof of "value >= t" as a lower bound t, a disproof as an upper bound
//! t - 1): a killed run resumes without proving those again, and the alpha-beta solvers
//! read the same records.

use crate::budget::{Budget, Limiter, SolverStats};
use crate::mc_ordering::{ordered_moves, McOrdering};
use crate::outcome::{SolverAnswer, Verdict};
use crate::proven::{ProvenPositions, MIN_RECORD_NODES};
use crate::tt::{Bound, TtCounters};
use solvo_core::{Game, Status};

/// Proven / disproven marker.
const INF: u32 = u32::MAX;
/// Largest unsolved number (sums saturate here).
const BIG: u32 = u32::MAX - 1;

/// Options of df-pn.
#[derive(Clone, Copy, Debug)]
pub struct DfpnOptions {
    /// The root question: value >= threshold for the side to move.
    pub threshold: i32,
    /// The TT has `2^tt_bits` buckets of two entries.
    pub tt_bits: u32,
    /// The ε of the 1+ε trick (0: Nagai's δ2 + 1).
    pub epsilon: f64,
}

impl Default for DfpnOptions {
    /// Threshold 1, 2^22 buckets, ε = 0.25.
    fn default() -> Self {
        DfpnOptions { threshold: 1, tt_bits: 22, epsilon: 0.25 }
    }
}

#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    phi: u32,
    delta: u32,
    work: u64,
    /// Nodes of every search of this entry so far (a node is searched again and again
    /// with rising thresholds; `work` is the last search's, for replacement).
    total: u64,
}

struct Table {
    slots: Vec<Option<Slot>>,
    mask: usize,
    counters: TtCounters,
}

impl Table {
    fn new(bits: u32) -> Table {
        let bits = bits.clamp(4, 30);
        Table { slots: vec![None; 2usize << bits], mask: (1usize << bits) - 1, counters: TtCounters::default() }
    }

    fn bucket(&self, key: u64) -> usize {
        2 * ((key ^ (key >> 29)) as usize & self.mask)
    }

    fn get(&mut self, key: u64) -> Option<(u32, u32)> {
        self.counters.probes += 1;
        let b = self.bucket(key);
        let hit = self.slots[b..b + 2].iter().flatten().find(|s| s.key == key).map(|s| (s.phi, s.delta));
        if hit.is_some() {
            self.counters.hits += 1;
        }
        hit
    }

    /// The nodes of every search of `key`'s entry so far (0 if absent); not counted as
    /// a probe.
    fn total(&self, key: u64) -> u64 {
        let b = self.bucket(key);
        self.slots[b..b + 2].iter().flatten().find(|s| s.key == key).map_or(0, |s| s.total)
    }

    /// Stores; solved entries and entries with more work are kept in preference.
    fn put(&mut self, key: u64, phi: u32, delta: u32, work: u64, total: u64) {
        self.counters.stores += 1;
        let b = self.bucket(key);
        let solved = phi == 0 || delta == 0;
        let new = Slot { key, phi, delta, work: if solved { u64::MAX } else { work }, total };
        for i in b..b + 2 {
            if self.slots[i].is_some_and(|s| s.key == key) {
                self.slots[i] = Some(new);
                return;
            }
        }
        let victim = match (self.slots[b], self.slots[b + 1]) {
            (None, _) => b,
            (_, None) => b + 1,
            (Some(x), Some(y)) => {
                if x.work <= y.work {
                    b
                } else {
                    b + 1
                }
            }
        };
        if self.slots[victim].is_some() {
            self.counters.overwrites += 1;
        }
        self.slots[victim] = Some(new);
    }
}

/// The store of proven positions gets a checkpoint call every this many + 1 nodes.
const CHECKPOINT_MASK: u64 = (1 << 12) - 1;

struct Dfpn<'a, 'p, G: Game> {
    proven: Option<&'p mut dyn ProvenPositions>,
    table: Table,
    limiter: Limiter,
    nodes: u64,
    epsilon: f64,
    path: Vec<u64>,
    repetitions: u64,
    /// The index (in [`Dfpn::children`] order) of the child that proved the root, when
    /// the root is proven: the proving move needs no search after the proof.
    root_proof: Option<usize>,
    ordering: Option<&'a McOrdering<G::Move>>,
}

/// What [`Dfpn::mid`] needs to know of a child at every turn of its loop: its (φ, δ)
/// when the game is over there, else its hash key.
#[derive(Clone, Copy)]
enum Child {
    Over((u32, u32)),
    Open(u64),
}

impl Child {
    /// The child `state` seen with target `target`.
    fn of<G: Game>(state: &G, target: i32) -> Child {
        match state.status() {
            Status::Over(v) => Child::Over(settled(v >= target)),
            _ => Child::Open(state.hash_key()),
        }
    }
}

/// (φ, δ) of a position whose target is settled: proven when `reached`, else disproven.
fn settled(reached: bool) -> (u32, u32) {
    if reached {
        (0, INF)
    } else {
        (INF, 0)
    }
}

/// A key for a position with a target: targets alternate between two values.
fn keyed(key: u64, target: i32) -> u64 {
    key ^ (target as i64 as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

fn sat(x: u64) -> u32 {
    x.min(u64::from(BIG)) as u32
}

impl<G: Game> Dfpn<'_, '_, G> {
    /// (φ, δ) of a position with no search: solved if over, else from the TT, the store
    /// of proven positions, or (1, 1).
    fn look(&mut self, state: &G, target: i32) -> (u32, u32) {
        self.look_child(Child::of(state, target), target)
    }

    /// [`Dfpn::look`] of a child whose status and key are known.
    fn look_child(&mut self, child: Child, target: i32) -> (u32, u32) {
        let key = match child {
            Child::Over(n) => return n,
            Child::Open(key) => key,
        };
        if let Some(n) = self.table.get(keyed(key, target)) {
            return n;
        }
        self.stored(key, target).unwrap_or((1, 1))
    }

    /// What the store of proven positions says of "value >= target" at `key`, as
    /// (φ, δ) = (0, INF) or (INF, 0).
    fn stored(&mut self, key: u64, target: i32) -> Option<(u32, u32)> {
        let (v, bound) = self.proven.as_deref_mut()?.proven(key)?;
        if !bound.settles(v, target - 1, target) {
            return None;
        }
        Some(settled(v >= target))
    }

    /// The children of `state` (a pass is a child), best-ordered first.
    fn children(&self, state: &G) -> Vec<(G, Option<G::Move>)> {
        if state.status() == Status::MustPass {
            return vec![(state.pass().expect("MustPass has a pass"), None)];
        }
        ordered_moves(state, self.ordering).into_iter().map(|m| (state.play(m), Some(m))).collect()
    }

    /// Searches `state` (target `target`) until φ >= th_phi or δ >= th_delta; returns
    /// (φ, δ), or `None` when the budget ran out.
    fn mid(&mut self, state: &G, target: i32, th_phi: u32, th_delta: u32) -> Option<(u32, u32)> {
        self.nodes += 1;
        if self.limiter.out(self.nodes) {
            return None;
        }
        if let Status::Over(v) = state.status() {
            return Some(settled(v >= target));
        }
        if let Some(p) = self.proven.as_deref_mut() {
            if self.nodes & CHECKPOINT_MASK == 0 && !p.checkpoint(self.nodes) {
                return None;
            }
        }
        // The position's hash, computed once (the race games canonicalise the board for
        // it): the store, the table, the path and the record all use it.
        let hash = state.hash_key();
        if let Some(n) = self.stored(hash, target) {
            return Some(n);
        }
        let key = keyed(hash, target);
        let start = self.nodes;
        let kids = self.children(state);
        let child_target = 1 - target;
        // Each child's status and key are computed once here, not at every turn of the
        // loop below (they cost more than the table probe: the race games analyse their
        // tactics to know a status).
        let looks: Vec<Child> = kids.iter().map(|(c, _)| Child::of(c, child_target)).collect();
        let child_keys: Vec<u64> = kids
            .iter()
            .zip(&looks)
            .map(|((c, _), look)| match *look {
                Child::Open(key) => key,
                Child::Over(_) => c.hash_key(),
            })
            .collect();
        self.path.push(hash);
        // The path is the same at every turn of the loop (each child search pops what it
        // pushes), so a repetition is checked once.
        let repeats = child_keys.iter().any(|k| self.path.contains(k));
        let mut numbers: Vec<(u32, u32)> = Vec::with_capacity(kids.len());
        let result = loop {
            numbers.clear();
            if repeats {
                self.repetitions += 1;
                break None;
            }
            for &look in &looks {
                let n = self.look_child(look, child_target);
                numbers.push(n);
            }
            let mut phi = INF;
            let mut delta_sum = 0u64;
            let mut unprovable_child = false;
            let mut best = 0;
            let mut second = INF;
            for (i, &(cp, cd)) in numbers.iter().enumerate() {
                if cd < phi {
                    second = phi;
                    phi = cd;
                    best = i;
                } else if cd < second {
                    second = cd;
                }
                delta_sum += u64::from(cp);
                unprovable_child |= cp == INF;
            }
            let delta = if unprovable_child { INF } else { sat(delta_sum) };
            if phi == 0 {
                if self.path.len() == 1 {
                    self.root_proof = Some(best);
                }
                break Some((0, INF));
            }
            if delta == 0 {
                break Some((INF, 0));
            }
            if phi >= th_phi || delta >= th_delta {
                break Some((phi, delta));
            }
            let (cp, _) = numbers[best];
            let child_th_phi = sat(u64::from(th_delta) + u64::from(cp) - u64::from(delta)).max(1);
            let grown = ((f64::from(second)) * (1.0 + self.epsilon)).ceil() as u64;
            let child_th_delta = (u64::from(second) + 1).max(grown).min(u64::from(th_phi)) as u32;
            let (c, _) = &kids[best];
            if self.mid(c, child_target, child_th_phi, child_th_delta).is_none() {
                break None;
            }
        };
        self.path.pop();
        let (phi, delta) = result?;
        let work = self.nodes - start;
        let total = self.table.total(key) + work;
        self.table.put(key, phi, delta, work, total);
        if total >= MIN_RECORD_NODES && (phi == 0 || delta == 0) {
            if let Some(p) = self.proven.as_deref_mut() {
                let (value, bound) = if phi == 0 { (target, Bound::Lower) } else { (target - 1, Bound::Upper) };
                p.record(hash, value, bound, total);
            }
        }
        Some((phi, delta))
    }
}

/// Solves "value >= threshold" for the side to move at `game` by df-pn. The verdict
/// is [`Verdict::AtLeast`] with a proving move, [`Verdict::Below`], or
/// [`Verdict::Unknown`] (budget exhausted, a repetition seen, or a `false` checkpoint).
/// Reads proven positions from `proven` and records the ones it proves (see the module
/// documentation).
pub fn dfpn_with_proofs<G: Game>(
    game: &G,
    options: &DfpnOptions,
    ordering: Option<&McOrdering<G::Move>>,
    budget: Budget,
    proven: Option<&mut dyn ProvenPositions>,
) -> SolverAnswer<G::Move> {
    let mut d = Dfpn {
        proven,
        table: Table::new(options.tt_bits),
        limiter: Limiter::new(budget),
        nodes: 0,
        epsilon: options.epsilon,
        path: Vec::new(),
        repetitions: 0,
        root_proof: None,
        ordering,
    };
    let t = options.threshold;
    let root = d.mid(game, t, INF, INF);
    let mut verdict = match root {
        Some((0, _)) => Verdict::AtLeast(t),
        Some((_, 0)) => Verdict::Below(t),
        _ => Verdict::Unknown,
    };
    if d.repetitions > 0 {
        verdict = Verdict::Unknown;
    }
    let mut best_move = None;
    if verdict == Verdict::AtLeast(t) {
        // A proving move: the child that proved the root; else (the store settled the
        // root) a child disproven for its side to move, re-searched if the TT lost it.
        let children = d.children(game);
        if let Some(i) = d.root_proof.filter(|&i| i < children.len()) {
            best_move = children[i].1;
        } else {
            for (c, mv) in children {
                let n = match d.look(&c, 1 - t) {
                    (INF, 0) => Some((INF, 0)),
                    (0, _) => None,
                    _ => d.mid(&c, 1 - t, INF, INF),
                };
                if matches!(n, Some((INF, 0))) {
                    best_move = mv;
                    break;
                }
            }
        }
    }
    let c = d.table.counters;
    let stats = SolverStats {
        nodes: d.nodes,
        time: d.limiter.elapsed(),
        tt_probes: c.probes,
        tt_hits: c.hits,
        tt_stores: c.stores,
        tt_overwrites: c.overwrites,
        repetitions: d.repetitions,
        ..SolverStats::default()
    };
    SolverAnswer { verdict, best_move, stats }
}
