//! Canonical keys and moves between a position's frame and its canonical image's.
//!
//! The canonical key of a position is the smallest [`Game::encode`] of its
//! [`Game::symmetric_images`]; symmetric positions have the same key, and different
//! positions (up to symmetry) different keys, since encodings are exact. A move is
//! stored as its index in the canonical image's move list; it is mapped to the frame of
//! another position with that key through the canonical keys of the children (the two
//! moves lead to symmetric children), which needs nothing of a game but the trait.

use super::{moves_of, SemiError, SemiRecord, SolutionStore};
use solvo_core::Game;

/// A position's canonical key and image.
pub struct Canonical<G> {
    /// The canonical key (the smallest encoding among the symmetric images).
    pub key: Vec<u8>,
    /// The image with that encoding.
    pub image: G,
    /// Whether the position asked about has that very encoding (its frame is the
    /// canonical one: moves map by index, no child keys needed).
    pub is_self: bool,
}

/// The exact encoding of `g`, or [`SemiError::NoEncoding`].
pub fn encoding<G: Game>(g: &G) -> Result<Vec<u8>, SemiError> {
    g.encode().ok_or(SemiError::NoEncoding)
}

/// The canonical key of `g` (see the module documentation).
pub fn canonical_key<G: Game>(g: &G) -> Result<Vec<u8>, SemiError> {
    Ok(canonical(g)?.key)
}

/// The canonical key and image of `g`.
pub fn canonical<G: Game>(g: &G) -> Result<Canonical<G>, SemiError> {
    let own = encoding(g)?;
    let mut best: Option<(Vec<u8>, G)> = None;
    for image in g.symmetric_images() {
        let e = encoding(&image)?;
        if e < own && best.as_ref().is_none_or(|(b, _)| e < *b) {
            best = Some((e, image));
        }
    }
    Ok(match best {
        Some((key, image)) => Canonical { key, image, is_self: false },
        None => Canonical { key: own, image: g.clone(), is_self: true },
    })
}

/// The index, in the canonical image's move list, of the move that corresponds to `mv`
/// of `g` (the one leading to a symmetric child).
pub fn move_to_index<G: Game>(g: &G, c: &Canonical<G>, mv: G::Move) -> Result<u16, SemiError> {
    if c.is_self {
        let i = moves_of(g)
            .iter()
            .position(|&m| m == mv)
            .ok_or_else(|| SemiError::Internal(format!("move {mv:?} is not legal in the position stored")))?;
        return index(i);
    }
    let target = canonical_key(&g.play(mv))?;
    for (i, m) in moves_of(&c.image).into_iter().enumerate() {
        if canonical_key(&c.image.play(m))? == target {
            return index(i);
        }
    }
    Err(SemiError::Internal(format!("move {mv:?} has no counterpart in the canonical image")))
}

/// The move of `g` that corresponds to move number `i` of the canonical image.
pub fn index_to_move<G: Game>(g: &G, c: &Canonical<G>, i: u16) -> Result<G::Move, SemiError> {
    let canon_moves = moves_of(&c.image);
    let Some(&cm) = canon_moves.get(i as usize) else {
        return Err(SemiError::Internal(format!(
            "stored move number {i} is out of range ({} moves): a damaged store?",
            canon_moves.len()
        )));
    };
    if c.is_self {
        return Ok(cm);
    }
    let target = canonical_key(&c.image.play(cm))?;
    for m in moves_of(g) {
        if canonical_key(&g.play(m))? == target {
            return Ok(m);
        }
    }
    Err(SemiError::Internal(format!("stored move {cm:?} has no counterpart in the position asked about")))
}

fn index(i: usize) -> Result<u16, SemiError> {
    u16::try_from(i).map_err(|_| SemiError::Internal(format!("move number {i} does not fit a record")))
}

/// What `store` knows of `g`, its move in `g`'s frame.
pub fn lookup<G: Game>(store: &mut dyn SolutionStore, g: &G) -> Result<Option<SemiRecord<G::Move>>, SemiError> {
    let c = canonical(g)?;
    let Some(r) = store.get(&c.key)? else { return Ok(None) };
    let best = match r.best {
        Some(i) => Some(index_to_move(g, &c, i)?),
        None => None,
    };
    Ok(Some(SemiRecord { lower: r.lower, upper: r.upper, kinds: r.kinds, best }))
}

/// Merges `rec` (its move in `g`'s frame) into `store`.
pub fn record<G: Game>(store: &mut dyn SolutionStore, g: &G, rec: SemiRecord<G::Move>) -> Result<(), SemiError> {
    let c = canonical(g)?;
    let best = match rec.best {
        Some(m) => Some(move_to_index(g, &c, m)?),
        None => None,
    };
    store.put(&c.key, SemiRecord { lower: rec.lower, upper: rec.upper, kinds: rec.kinds, best })
}
