//! The check of a semi-strong store, layer by layer (ply by ply from the root): it walks
//! the solution as the reopening rules define it and proves, position by position,
//! that the stored values hold.
//!
//! A position required as kind K (the root as P) must have an exact record whose kinds
//! may answer K, with a legal designated move; then:
//! - P: the designated child (required as P) has the same value; every other child
//!   (required as A') is exact and not better;
//! - A': the designated child (required as P') has the same value; every other child's
//!   stored bound proves it is not better (re-proved by the oracle when one is given);
//! - P': every child is required as A', is exact, and the best equals the value.
//!
//! Games that end are checked against their final values, so with the bounds re-proved
//! the check is a proof: every exact value follows from the rules and the ends of the
//! games. Required children are checked in the next layer; each (position, kind) once.
//!
//! With a [`VerifyCheckpoint`] ([`verify_resumable`]), the progress is saved after every
//! layer and a verify stopped at any point resumes at the first layer it had not
//! finished, with the same report as an uninterrupted one.

pub use super::checkpoint::{FileCheckpoint, VerifyCheckpoint, VerifyProgress};
use super::keys::{canonical_key, lookup};
use super::{
    first_child_kind, fold_passes, kind, kind_after, may_reuse, moves_of, other_child_kind, play_folded, Next, Oracle,
    SemiError, SolutionStore,
};
use solvo_core::Game;
use std::collections::HashMap;

/// What one layer of [`verify`] found.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LayerReport {
    /// Positions required there (exact records checked), each once per kind.
    pub checked: u64,
    /// Of them, positions required as P.
    pub p: u64,
    /// ... as A'.
    pub a_prime: u64,
    /// ... as P'.
    pub p_prime: u64,
    /// Bounds of non-designated children of A' nodes checked.
    pub bounds: u64,
    /// Violations found at this layer.
    pub violations: u64,
}

/// What [`verify`] found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SemiStrongVerifyReport {
    /// Per ply from the root.
    pub layers: Vec<LayerReport>,
    /// The first violations, described.
    pub first: Vec<String>,
    /// Bounds re-proved by the oracle.
    pub reproved: u64,
    /// The root's stored value (for its side to move), when it has one.
    pub value: Option<i32>,
}

impl SemiStrongVerifyReport {
    /// Total violations.
    pub fn violations(&self) -> u64 {
        self.layers.iter().map(|l| l.violations).sum()
    }

    /// Total exact records checked.
    pub fn checked(&self) -> u64 {
        self.layers.iter().map(|l| l.checked).sum()
    }
}

struct Checker<'a, G: Game> {
    store: &'a mut dyn SolutionStore,
    oracle: Option<&'a mut dyn Oracle<G>>,
    report: SemiStrongVerifyReport,
    max_reported: usize,
}

/// Positions of one layer: canonical key -> (position, kinds required, the position's
/// path from the start: move indices in [`moves_of`] order, passes folded).
type Layer<G> = HashMap<Vec<u8>, (G, u8, Vec<u16>)>;

impl<G: Game> Checker<'_, G> {
    fn violation(&mut self, ply: usize, msg: String) {
        self.report.layers[ply].violations += 1;
        if self.report.first.len() < self.max_reported {
            self.report.first.push(format!("ply {ply}: {msg}"));
        }
    }

    /// Checks `g` required as `k`; required children go into `next`.
    fn check(&mut self, g: &G, k: u8, ply: usize, path: &[u16], next: &mut Layer<G>) -> Result<(), SemiError> {
        let l = &mut self.report.layers[ply];
        l.checked += 1;
        match k {
            kind::P => l.p += 1,
            kind::A_PRIME => l.a_prime += 1,
            _ => l.p_prime += 1,
        }
        let name = kind::names(k);
        let rec = match lookup(self.store, g) {
            Ok(Some(r)) => r,
            Ok(None) => {
                self.violation(ply, format!("position {:016x} required as {name} is not stored", g.hash_key()));
                return Ok(());
            }
            Err(SemiError::Internal(m)) => {
                self.violation(ply, format!("position {:016x} required as {name}: {m}", g.hash_key()));
                return Ok(());
            }
            Err(e) => return Err(e),
        };
        let (Some(v), Some(best)) = (rec.value(), rec.best) else {
            self.violation(
                ply,
                format!("position {:016x} required as {name} has no exact value and move: {rec}", g.hash_key()),
            );
            return Ok(());
        };
        if !may_reuse(rec.kinds, k) {
            self.violation(
                ply,
                format!("position {:016x} required as {name} was stored as {}", g.hash_key(), kind::names(rec.kinds)),
            );
        }
        let moves = moves_of(g);
        if !moves.contains(&best) {
            self.violation(ply, format!("position {:016x}: designated move {best:?} is not legal", g.hash_key()));
            return Ok(());
        }
        let mut best_seen = i32::MIN;
        for (i, &m) in moves.iter().enumerate() {
            let designated = m == best;
            let ck = if designated { first_child_kind(k) } else { other_child_kind(k) };
            let exact_child = designated || k != kind::A_PRIME;
            let value = match play_folded(g, m)? {
                Next::End(x) => Some(x),
                Next::Position { game, negate } => {
                    let sign = if negate { -1 } else { 1 };
                    let child = lookup(self.store, &game).ok().flatten();
                    if exact_child {
                        let ck = kind_after(ck, negate);
                        let key = canonical_key(&game)?;
                        let child_path = || {
                            let mut p = path.to_vec();
                            p.push(i as u16);
                            p
                        };
                        next.entry(key).or_insert_with(|| (game.clone(), 0, child_path())).1 |= ck;
                        child.and_then(|r| r.value()).map(|x| sign * x)
                    } else {
                        // Not better: the move's upper bound for g's mover is at most v.
                        self.report.layers[ply].bounds += 1;
                        if v >= g.max_value() {
                            continue; // nothing is better than the best value there is
                        }
                        let upper = child.map(|r| if negate { -r.lower } else { r.upper });
                        if upper.is_none_or(|u| u > v) {
                            self.violation(
                                ply,
                                format!(
                                    "A' position {:016x}: move {m:?} is not proven at most {v} ({})",
                                    g.hash_key(),
                                    child.map_or("no record".into(), |r| r.to_string())
                                ),
                            );
                        } else if let Some(o) = self.oracle.as_deref_mut() {
                            self.report.reproved += 1;
                            let (lo, hi, _) = if negate { o.test(&game, -v)? } else { o.test(&game, v + 1)? };
                            let ok = if negate { lo >= -v } else { hi <= v };
                            if !ok {
                                self.violation(
                                    ply,
                                    format!("A' position {:016x}: the bound of move {m:?} does not hold", g.hash_key()),
                                );
                            }
                        }
                        continue;
                    }
                }
            };
            let Some(x) = value else {
                self.violation(ply, format!("position {:016x}: child by {m:?} has no exact value", g.hash_key()));
                continue;
            };
            if designated && x != v {
                self.violation(
                    ply,
                    format!("position {:016x} ({name}, value {v}): designated move {m:?} is worth {x}", g.hash_key()),
                );
            }
            if x > v {
                self.violation(
                    ply,
                    format!("position {:016x} ({name}, value {v}): move {m:?} is worth {x}", g.hash_key()),
                );
            }
            best_seen = best_seen.max(x);
        }
        if best_seen != v && k != kind::A_PRIME && best_seen != i32::MIN {
            self.violation(ply, format!("position {:016x} ({name}): best child {best_seen}, stored {v}", g.hash_key()));
        }
        Ok(())
    }
}

/// Checks the semi-strong solution of `root` in `store` layer by layer; with `oracle`,
/// the bounds of A' nodes' other children are proved again. `progress` gets each
/// finished layer's report. Errors: the store's (violations are reported, not errors).
pub fn verify<'a, G: Game>(
    root: &G,
    store: &'a mut dyn SolutionStore,
    oracle: Option<&'a mut dyn Oracle<G>>,
    max_reported: usize,
    progress: &mut dyn FnMut(usize, &LayerReport),
) -> Result<SemiStrongVerifyReport, SemiError> {
    verify_resumable(root, store, oracle, max_reported, progress, None)
}

/// The position at the end of `path` (move indices from the folded start, see
/// [`Layer`]), or an error naming the step that does not fit (a checkpoint of another
/// game or store).
fn replay<G: Game>(start: &G, path: &[u16]) -> Result<G, SemiError> {
    let mut g = start.clone();
    for (ply, &i) in path.iter().enumerate() {
        let moves = moves_of(&g);
        let bad = || SemiError::Internal(format!("checkpoint path: move number {i} at ply {ply} does not fit"));
        let &m = moves.get(i as usize).ok_or_else(bad)?;
        match play_folded(&g, m)? {
            Next::Position { game, .. } => g = game,
            Next::End(_) => return Err(bad()),
        }
    }
    Ok(g)
}

/// [`verify`] that saves its progress in `checkpoint` after every layer and, when the
/// checkpoint holds progress, resumes there (the layers before it are not checked
/// again; the report counts them as saved). The report equals an uninterrupted run's.
pub fn verify_resumable<'a, G: Game>(
    root: &G,
    store: &'a mut dyn SolutionStore,
    oracle: Option<&'a mut dyn Oracle<G>>,
    max_reported: usize,
    progress: &mut dyn FnMut(usize, &LayerReport),
    mut checkpoint: Option<&mut dyn VerifyCheckpoint>,
) -> Result<SemiStrongVerifyReport, SemiError> {
    let mut c = Checker { store, oracle, report: SemiStrongVerifyReport::default(), max_reported };
    let Some((start, passed)) = fold_passes(root.clone())? else { return Ok(c.report) };
    let mut layer: Layer<G> = HashMap::new();
    let mut done: HashMap<Vec<u8>, u8> = HashMap::new();
    let mut ply = 0;
    let saved = match checkpoint.as_deref_mut() {
        Some(cp) => cp.resume()?,
        None => None,
    };
    if let Some((saved, finished)) = saved {
        for (key, kinds) in finished {
            *done.entry(key).or_insert(0) |= kinds;
        }
        for (path, kinds) in saved.layer {
            let g = replay(&start, &path)?;
            layer.insert(canonical_key(&g)?, (g, kinds, path));
        }
        c.report = saved.report;
        ply = saved.ply;
    } else {
        c.report.value = lookup(c.store, &start)?.and_then(|r| r.value()).map(|v| if passed { -v } else { v });
        layer.insert(canonical_key(&start)?, (start, kind::P, Vec::new()));
    }
    while !layer.is_empty() {
        c.report.layers.push(LayerReport::default());
        let mut next: Layer<G> = HashMap::new();
        let mut finished: Vec<(Vec<u8>, u8)> = Vec::with_capacity(if checkpoint.is_some() { layer.len() } else { 0 });
        for (key, (g, kinds, path)) in layer {
            if checkpoint.is_some() {
                finished.push((key.clone(), kinds));
            }
            let seen = done.entry(key).or_insert(0);
            let todo = kinds & !*seen;
            *seen |= kinds;
            for k in [kind::P, kind::A_PRIME, kind::P_PRIME] {
                if todo & k != 0 {
                    c.check(&g, k, ply, &path, &mut next)?;
                }
            }
        }
        progress(ply, &c.report.layers[ply]);
        ply += 1;
        if let Some(cp) = checkpoint.as_deref_mut() {
            let next_layer = next.values().map(|(_, kinds, path)| (path.clone(), *kinds)).collect();
            cp.save(&finished, &VerifyProgress { ply, report: c.report.clone(), layer: next_layer })?;
        }
        layer = next;
    }
    Ok(c.report)
}
