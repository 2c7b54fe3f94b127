//! Visited-position counts per ply, as the published Table 3: plain alpha-beta,
//! reopening alpha-beta, and every position reachable by the rules (exhaustive), each
//! counting unique positions (up to symmetry) whose side to move can move.
//!
//! Both searches have their own recursion down to the ends of the games, so C and A
//! nodes are counted like the others. Plain alpha-beta is principal variation search:
//! P -> first child P, others C with a null window, re-searched as P when they fail
//! high; C -> A; A -> C. Oracle ordering, as in the published experiment: P and A'
//! nodes search a best move first (an exact solve), a C node a move that fails high
//! (a null-window solve), A and P' nodes take the moves as listed. Both searches keep
//! a table obeying [`super::may_reuse`]. A position's ply is the smallest at which the
//! search met it (in placement games every position has one ply).

use super::keys::{canonical, index_to_move, move_to_index};
use super::{
    first_child_kind, fold_passes, kind, kind_after, may_reuse, moves_of, other_child_kind, play_folded, Next, Oracle,
    SemiError,
};
use solvo_core::Game;
use std::collections::{HashMap, HashSet};

/// Unique positions per ply (index = ply from the root).
pub type Counts = Vec<u64>;

/// What the counting searches learned about positions (by canonical key, moves as
/// indices of the canonical image), shared so that both searches ask the solver once.
#[derive(Default)]
pub struct Learned {
    exact: HashMap<Vec<u8>, (i32, u16)>,
    cuts: HashMap<Vec<u8>, Vec<(u16, i32)>>,
    bounds: HashMap<Vec<u8>, (i32, i32)>,
    /// Exact solves made.
    pub solves: u64,
    /// Null-window solves made.
    pub cut_solves: u64,
}

/// Counts the positions plain (`reopening == false`) or reopening alpha-beta visits
/// from `root`; the counts and the root's value (for its side to move, after a forced
/// pass at the root for the side after it).
pub fn count_visited<G: Game>(
    root: &G,
    reopening: bool,
    oracle: &mut dyn Oracle<G>,
    learned: &mut Learned,
) -> Result<(Counts, i32), SemiError> {
    let Some((start, _)) = fold_passes(root.clone())? else { return Ok((Vec::new(), 0)) };
    let max = start.max_value();
    let mut c = Counter { reopening, tt: HashMap::new(), visited: HashMap::new(), oracle, learned };
    let v = c.search(&start, -max - 1, max + 1, kind::P, 0)?;
    let mut counts = Vec::new();
    for &ply in c.visited.values() {
        if counts.len() <= ply {
            counts.resize(ply + 1, 0);
        }
        counts[ply] += 1;
    }
    Ok((counts, v))
}

/// Every position reachable from `root` by the rules whose side to move can move, per
/// ply (each unique position up to symmetry at the first ply it appears), layer by
/// layer; stops (returning the complete layers and `false`) before a layer would pass
/// `max_positions` positions in all.
pub fn count_exhaustive<G: Game>(root: &G, max_positions: u64) -> Result<(Counts, bool), SemiError> {
    let Some((start, _)) = fold_passes(root.clone())? else { return Ok((Vec::new(), true)) };
    let mut seen: HashSet<Vec<u8>> = HashSet::new();
    seen.insert(canonical(&start)?.key);
    let mut layer = vec![start];
    let mut counts = Vec::new();
    let mut total = 0u64;
    while !layer.is_empty() {
        total += layer.len() as u64;
        if total > max_positions {
            return Ok((counts, false));
        }
        counts.push(layer.len() as u64);
        let mut next = Vec::new();
        for g in &layer {
            for m in moves_of(g) {
                if let Next::Position { game, .. } = play_folded(g, m)? {
                    if seen.insert(canonical(&game)?.key) {
                        next.push(game);
                    }
                }
            }
        }
        layer = next;
    }
    Ok((counts, true))
}

struct Counter<'a, G: Game> {
    reopening: bool,
    /// Canonical key -> (lower, upper, kinds searched as).
    tt: HashMap<Vec<u8>, (i32, i32, u8)>,
    /// Canonical key -> smallest ply met at.
    visited: HashMap<Vec<u8>, usize>,
    oracle: &'a mut dyn Oracle<G>,
    learned: &'a mut Learned,
}

impl<G: Game> Counter<'_, G> {
    /// A best move of `g` (known, or by an exact solve).
    fn best_move(&mut self, g: &G, key: &[u8]) -> Result<G::Move, SemiError> {
        let c = canonical(g)?;
        if let Some(&(_, i)) = self.learned.exact.get(key) {
            return index_to_move(g, &c, i);
        }
        let (v, m) = self.oracle.exact(g)?;
        self.learned.solves += 1;
        self.learned.exact.insert(key.to_vec(), (v, move_to_index(g, &c, m)?));
        Ok(m)
    }

    /// A move of `g` worth at least `beta`, or `None` when `g`'s value is below it.
    fn cut_move(&mut self, g: &G, key: &[u8], beta: i32) -> Result<Option<G::Move>, SemiError> {
        let c = canonical(g)?;
        if let Some(&(i, _)) = self.learned.cuts.get(key).and_then(|l| l.iter().find(|&&(_, lo)| lo >= beta)) {
            return Ok(Some(index_to_move(g, &c, i)?));
        }
        if let Some(&(v, i)) = self.learned.exact.get(key) {
            return if v >= beta { Ok(Some(index_to_move(g, &c, i)?)) } else { Ok(None) };
        }
        if let Some(&(_, hi)) = self.learned.bounds.get(key) {
            if hi < beta {
                return Ok(None);
            }
        }
        let (lo, hi, m) = self.oracle.test(g, beta)?;
        self.learned.cut_solves += 1;
        let e = self.learned.bounds.entry(key.to_vec()).or_insert((lo, hi));
        *e = (e.0.max(lo), e.1.min(hi));
        match m {
            Some(m) if lo >= beta => {
                self.learned.cuts.entry(key.to_vec()).or_default().push((move_to_index(g, &c, m)?, lo));
                Ok(Some(m))
            }
            _ => Ok(None),
        }
    }

    /// Fail-soft value of `g` in `(alpha, beta)` searched as kind `k`.
    fn search(&mut self, g: &G, alpha: i32, beta: i32, k: u8, ply: usize) -> Result<i32, SemiError> {
        let max = g.max_value();
        let key = canonical(g)?.key;
        let p = self.visited.entry(key.clone()).or_insert(ply);
        *p = (*p).min(ply);
        let exact_kind = k & kind::EXACT != 0;
        if let Some(&(lo, hi, kinds)) = self.tt.get(&key) {
            if lo == hi && may_reuse(kinds, k) {
                return Ok(lo);
            }
            if !exact_kind {
                if lo >= beta {
                    return Ok(lo);
                }
                if hi <= alpha {
                    return Ok(hi);
                }
            }
        }
        let (alpha, beta) =
            if exact_kind && (self.reopening || k == kind::P) { (-max - 1, max + 1) } else { (alpha, beta) };
        let first = match k {
            kind::P | kind::A_PRIME => Some(self.best_move(g, &key)?),
            kind::C => self.cut_move(g, &key, beta)?,
            _ => None,
        };
        let mut moves = moves_of(g);
        if let Some(f) = first {
            moves.retain(|&m| m != f);
            moves.insert(0, f);
        }
        let mut best = -max - 1;
        let mut a = alpha;
        for (i, &m) in moves.iter().enumerate() {
            let ck = if i == 0 && first.is_some() { first_child_kind(k) } else { other_child_kind(k) };
            let ck = if !self.reopening && k == kind::P && i > 0 { kind::C } else { ck };
            let v = match ck {
                kind::C | kind::A if exact_kind => {
                    let v = self.child(g, m, a, a + 1, ck, ply)?;
                    if v > a && v < beta {
                        let again = if self.reopening { kind::P_PRIME } else { kind::P };
                        self.child(g, m, -max - 1, max + 1, again, ply)?
                    } else {
                        v
                    }
                }
                _ => self.child(g, m, a, beta, ck, ply)?,
            };
            best = best.max(v);
            a = a.max(best);
            if a >= beta {
                break;
            }
        }
        let (lo, hi) = if best <= alpha {
            (-max, best)
        } else if best >= beta {
            (best, max)
        } else {
            (best, best)
        };
        let e = self.tt.entry(key).or_insert((-max, max, 0));
        *e = (e.0.max(lo), e.1.min(hi), e.2 | if lo == hi { k } else { 0 });
        Ok(best)
    }

    fn child(&mut self, g: &G, m: G::Move, alpha: i32, beta: i32, ck: u8, ply: usize) -> Result<i32, SemiError> {
        match play_folded(g, m)? {
            Next::End(v) => Ok(v),
            Next::Position { game, negate: true } => Ok(-self.search(&game, -beta, -alpha, ck, ply + 1)?),
            Next::Position { game, negate: false } => self.search(&game, alpha, beta, kind_after(ck, false), ply + 1),
        }
    }
}
