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

use super::key_ids::KeyIds;
use super::keys::{canonical, index_to_move, move_to_index, Canonical};
use super::{
    first_child_kind, fold_passes, kind, kind_after, may_reuse, moves_of, other_child_kind, play_folded, Next, Oracle,
    SemiError,
};
use solvo_core::Game;
use std::collections::HashMap;

/// Unique positions per ply (index = ply from the root).
pub type Counts = Vec<u64>;

/// What the counting searches learned about positions (by the id of their canonical
/// key in [`Learned::keys`], moves as indices of the canonical image), shared so that
/// both searches ask the solver once.
#[derive(Default)]
pub struct Learned {
    /// Every canonical key either search met, numbered.
    keys: KeyIds,
    exact: HashMap<u32, (i32, u16)>,
    /// The first cutting move found (move index, lower bound it proved); later ones in
    /// `more_cuts`, in the order found (most positions have one).
    cuts: HashMap<u32, (u16, i32)>,
    more_cuts: HashMap<u32, Vec<(u16, i32)>>,
    bounds: HashMap<u32, (i32, i32)>,
    /// Exact solves made.
    pub solves: u64,
    /// Null-window solves made.
    pub cut_solves: u64,
}

/// What one count keeps about a position: its table entry and the ply it was first met.
#[derive(Clone, Copy)]
struct Entry {
    lo: i16,
    hi: i16,
    /// The smallest ply the search met the position at; `u32::MAX`: not met.
    ply: u32,
    /// The kinds of the exact searches stored (see [`may_reuse`]).
    kinds: u8,
    /// Whether the table holds bounds for the position.
    stored: bool,
}

const UNSEEN: Entry = Entry { lo: 0, hi: 0, ply: u32::MAX, kinds: 0, stored: false };

/// Counts the positions plain (`reopening == false`) or reopening alpha-beta visits
/// from `root`; the counts and the root's value (for its side to move, after a forced
/// pass at the root for the side after it). Values must fit in 16 bits (every game of
/// the catalogue's do).
pub fn count_visited<G: Game>(
    root: &G,
    reopening: bool,
    oracle: &mut dyn Oracle<G>,
    learned: &mut Learned,
) -> Result<(Counts, i32), SemiError> {
    let Some((start, _)) = fold_passes(root.clone())? else { return Ok((Vec::new(), 0)) };
    let max = start.max_value();
    if max >= i32::from(i16::MAX) {
        return Err(SemiError::Internal(format!("values up to {max} do not fit the count's 16-bit table")));
    }
    let mut c = Counter { reopening, entries: Vec::new(), oracle, learned };
    let v = c.search(&start, -max - 1, max + 1, kind::P, 0)?;
    let mut counts = Vec::new();
    for e in c.entries.iter().filter(|e| e.ply != u32::MAX) {
        let ply = e.ply as usize;
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
    let mut seen = KeyIds::default();
    seen.id(&canonical(&start)?.key)?;
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
                    if seen.id(&canonical(&game)?.key)?.1 {
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
    /// By key id: this count's table and first plies.
    entries: Vec<Entry>,
    oracle: &'a mut dyn Oracle<G>,
    learned: &'a mut Learned,
}

impl<G: Game> Counter<'_, G> {
    /// A best move of `g` (known, or by an exact solve).
    fn best_move(&mut self, g: &G, c: &Canonical<G>, id: u32) -> Result<G::Move, SemiError> {
        if let Some(&(_, i)) = self.learned.exact.get(&id) {
            return index_to_move(g, c, i);
        }
        let (v, m) = self.oracle.exact(g)?;
        self.learned.solves += 1;
        self.learned.exact.insert(id, (v, move_to_index(g, c, m)?));
        Ok(m)
    }

    /// A move of `g` worth at least `beta`, or `None` when `g`'s value is below it.
    fn cut_move(&mut self, g: &G, c: &Canonical<G>, id: u32, beta: i32) -> Result<Option<G::Move>, SemiError> {
        let first = self.learned.cuts.get(&id).filter(|&&(_, lo)| lo >= beta);
        let later = || self.learned.more_cuts.get(&id).and_then(|l| l.iter().find(|&&(_, lo)| lo >= beta));
        if let Some(&(i, _)) = first.or_else(later) {
            return Ok(Some(index_to_move(g, c, i)?));
        }
        if let Some(&(v, i)) = self.learned.exact.get(&id) {
            return if v >= beta { Ok(Some(index_to_move(g, c, i)?)) } else { Ok(None) };
        }
        if let Some(&(_, hi)) = self.learned.bounds.get(&id) {
            if hi < beta {
                return Ok(None);
            }
        }
        let (lo, hi, m) = self.oracle.test(g, beta)?;
        self.learned.cut_solves += 1;
        let e = self.learned.bounds.entry(id).or_insert((lo, hi));
        *e = (e.0.max(lo), e.1.min(hi));
        match m {
            Some(m) if lo >= beta => {
                let cut = (move_to_index(g, c, m)?, lo);
                if let Some(first) = self.learned.cuts.get(&id) {
                    debug_assert!(first.1 < beta);
                    self.learned.more_cuts.entry(id).or_default().push(cut);
                } else {
                    self.learned.cuts.insert(id, cut);
                }
                Ok(Some(m))
            }
            _ => Ok(None),
        }
    }

    /// Fail-soft value of `g` in `(alpha, beta)` searched as kind `k`.
    fn search(&mut self, g: &G, alpha: i32, beta: i32, k: u8, ply: usize) -> Result<i32, SemiError> {
        let max = g.max_value();
        let c = canonical(g)?;
        let (id, _) = self.learned.keys.id(&c.key)?;
        let slot = id as usize;
        if self.entries.len() <= slot {
            self.entries.resize(self.learned.keys.len().max(slot + 1), UNSEEN);
        }
        let ply32 = u32::try_from(ply).unwrap_or(u32::MAX - 1);
        let e = &mut self.entries[slot];
        e.ply = e.ply.min(ply32);
        let exact_kind = k & kind::EXACT != 0;
        if e.stored {
            let (lo, hi, kinds) = (i32::from(e.lo), i32::from(e.hi), e.kinds);
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
            kind::P | kind::A_PRIME => Some(self.best_move(g, &c, id)?),
            kind::C => self.cut_move(g, &c, id, beta)?,
            _ => None,
        };
        drop(c);
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
        let e = &mut self.entries[slot];
        let (old_lo, old_hi, old_kinds) =
            if e.stored { (i32::from(e.lo), i32::from(e.hi), e.kinds) } else { (-max, max, 0) };
        let (lo, hi) = (old_lo.max(lo), old_hi.min(hi));
        // Both within [-max - 1, max + 1], which fits (checked at the start).
        e.lo = lo as i16;
        e.hi = hi as i16;
        e.kinds = old_kinds | if lo == hi { k } else { 0 };
        e.stored = true;
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
