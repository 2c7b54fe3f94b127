//! Reopening alpha-beta over [`Game`]: semi-strong solutions of any game with an exact
//! encoding ([`Game::encode`]), kept in a [`SolutionStore`] (in memory here, on disk in
//! `solvo-solve`).
//!
//! A semi-strong solution holds the exact value and a designated best move of every
//! position reachable from the start while at least one side plays perfectly.
//! Reopening alpha-beta finds it with node kinds (flags of [`kind`]): the root is P.
//! P -> first child P, others A'; A' -> first child P', others C (re-searched as P'
//! when they fail high); P' -> every child A'; C -> A; A -> C. P, A' and P' are searched
//! with the full window (the window is reopened at A' and P') and get exact records
//! with a designated move; a non-designated child of an A' node gets the bound its
//! null-window test proved (kind C, or A after a folded pass). Reuse rules: a search
//! of kind P may reuse only a P record; A' a P or A' record; P' a P or P' record; C
//! and A any sound bound.
//!
//! The same rules, node for node, as the Othello walk of `solvo-solve`
//! (`reopening.rs`, `semistrong.rs`), which stays the fast path for Othello; a test
//! there holds the two equal.
//!
//! Keys: a position is stored under its canonical key, the smallest encoding of its
//! [`Game::symmetric_images`] (symmetric positions share one record); a stored move is
//! the index of the move in the canonical image's move list, mapped back to the
//! position asked about through the children's canonical keys ([`keys`]).

mod checkpoint;
pub mod count;
mod key_ids;
mod keys;
mod memory;
mod oracle;
pub mod play;
pub mod query;
mod run;
pub mod selfcheck;
pub mod verify;

pub use keys::{canonical_key, lookup, record, Canonical};
pub use memory::MemoryStore;
pub use oracle::{McOracle, Oracle, SolverOracle};
pub use play::{fold_passes, play_folded, Next};
pub use run::{semi_strong, semi_strong_lanes, SemiConfig, SemiOutcome, SemiStats};
pub use verify::{verify, SemiStrongVerifyReport};

use std::fmt;

/// Node kinds, as bit flags (the same codes as the Othello store's).
pub mod kind {
    /// Principal-variation node (exact value, designated move).
    pub const P: u8 = 1;
    /// ALL' node: reopened, exact value, designated move.
    pub const A_PRIME: u8 = 2;
    /// PV' node: the first child of an A' node, or a failed-high sibling re-searched.
    pub const P_PRIME: u8 = 4;
    /// ALL node: every child searched with a null window; an upper bound.
    pub const A: u8 = 8;
    /// CUT node: one refuting child; a lower bound.
    pub const C: u8 = 16;
    /// The kinds whose records are exact and whose move is designated.
    pub const EXACT: u8 = P | A_PRIME | P_PRIME;
    /// The kinds whose designated move binds the child along it to a kind (a P node's
    /// designated child is P, an A' node's is P'); a P' node's move binds nothing, as
    /// every child of a P' node is A'. A merge keeps a binding move over another.
    pub const BINDING: u8 = P | A_PRIME;
    /// Every flag defined here.
    pub const ALL: u8 = P | A_PRIME | P_PRIME | A | C;

    /// Short names of the flags set in `kinds`, e.g. `P,A'` (`-` for none).
    pub fn names(kinds: u8) -> String {
        let names = [(P, "P"), (A_PRIME, "A'"), (P_PRIME, "P'"), (A, "A"), (C, "C")];
        let v: Vec<&str> = names.iter().filter(|(f, _)| kinds & f != 0).map(|(_, n)| *n).collect();
        if v.is_empty() {
            "-".to_string()
        } else {
            v.join(",")
        }
    }
}

/// Kind of the first (designated) child of a node of kind `k` (one flag).
pub const fn first_child_kind(k: u8) -> u8 {
    match k {
        kind::P => kind::P,
        kind::A_PRIME => kind::P_PRIME,
        kind::P_PRIME => kind::A_PRIME,
        kind::C => kind::A,
        _ => kind::C,
    }
}

/// Kind of the other children of a node of kind `k` (before any re-search).
pub const fn other_child_kind(k: u8) -> u8 {
    match k {
        kind::P => kind::A_PRIME,
        kind::A_PRIME => kind::C,
        kind::P_PRIME => kind::A_PRIME,
        kind::C => kind::A,
        _ => kind::C,
    }
}

/// Whether an exact record searched as the kinds `stored` may answer a search of kind
/// `k`: P only from P; A' from P or A'; P' from P or P'; C and A from anything.
pub const fn may_reuse(stored: u8, k: u8) -> bool {
    let allowed = match k {
        kind::P => kind::P,
        kind::A_PRIME => kind::P | kind::A_PRIME,
        kind::P_PRIME => kind::P | kind::P_PRIME,
        _ => u8::MAX,
    };
    stored & allowed != 0
}

/// The kind of the position reached by a move to a child of kind `k`, given whether a
/// pass was folded in (`negate == false`: the passed position is the child's only
/// child, so its kind steps once more).
pub const fn kind_after(k: u8, negate: bool) -> u8 {
    if negate {
        k
    } else {
        first_child_kind(k)
    }
}

/// What a store knows of one position: proven bounds of its value for the side to
/// move, the kinds it was searched as, and a move (`M`: the game's move in the frame
/// of the position asked about, or a `u16` index in the canonical image's move list
/// inside a store). Exact when `lower == upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemiRecord<M> {
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
    /// Set of [`kind`] flags.
    pub kinds: u8,
    /// A move proving the lower bound (the designated move of exact kinds).
    pub best: Option<M>,
}

impl<M: Copy> SemiRecord<M> {
    /// An exact record.
    pub fn exact(value: i32, kinds: u8, best: Option<M>) -> Self {
        SemiRecord { lower: value, upper: value, kinds, best }
    }

    /// True when the value is known exactly.
    pub fn is_exact(&self) -> bool {
        self.lower == self.upper
    }

    /// The exact value, if known.
    pub fn value(&self) -> Option<i32> {
        self.is_exact().then_some(self.lower)
    }

    /// True when exact with a designated move (P, A' or P').
    pub fn has_designated_move(&self) -> bool {
        self.is_exact() && self.kinds & kind::EXACT != 0 && self.best.is_some()
    }

    /// The same record with its move mapped by `f`.
    pub fn map_move<N>(self, f: impl FnOnce(M) -> N) -> SemiRecord<N> {
        SemiRecord { lower: self.lower, upper: self.upper, kinds: self.kinds, best: self.best.map(f) }
    }

    /// Merges `new` into `self` as the Othello store does: bounds intersected, kinds
    /// ORed; the move of the record with the higher lower bound (a move proven only
    /// for a lower bound never claims more); at equal lower bounds a binding move
    /// ([`kind::BINDING`]) stays or wins, else the new exact record's move wins over an
    /// inexact one's. `None` when the bounds do not overlap.
    pub fn merged(&self, new: &Self) -> Option<Self> {
        let lower = self.lower.max(new.lower);
        let upper = self.upper.min(new.upper);
        if lower > upper {
            return None;
        }
        let best = merged_move(self.move_claim(), new.move_claim());
        Some(SemiRecord { lower, upper, kinds: self.kinds | new.kinds, best })
    }

    /// What this record says of its move, for [`merged_move`].
    fn move_claim(&self) -> MoveClaim<M> {
        // Only a binding move counts as designated here: when walks running side by side
        // store one position as P' with one move and as A' with another (both optimal), the
        // A' record's move is the one whose child was searched as P', so it must win.
        let binds = self.is_exact() && self.kinds & kind::BINDING != 0 && self.best.is_some();
        MoveClaim { lower: self.lower, best: self.best, designated: binds, exact: self.is_exact() }
    }
}

/// What a stored record says of its move: the lower bound it proves, the move, whether
/// the move is designated (an exact record of a designating kind), whether the record
/// is exact.
#[derive(Clone, Copy, Debug)]
pub struct MoveClaim<M> {
    /// The record's lower bound.
    pub lower: i32,
    /// Its move.
    pub best: Option<M>,
    /// Whether the move is designated.
    pub designated: bool,
    /// Whether the record is exact.
    pub exact: bool,
}

/// The move a merge of the records `old` and `new` keeps, one rule for every store
/// (the Othello solution store and the generic one): the move of the record with the
/// higher lower bound (a move proven only for a lower bound never claims more); at
/// equal lower bounds a designated move stays, else the new move wins when it is
/// designated or its record is exact and the old one's is not; a record without a move
/// takes the other's.
pub fn merged_move<M: Copy>(old: MoveClaim<M>, new: MoveClaim<M>) -> Option<M> {
    if new.lower > old.lower {
        return new.best;
    }
    if old.lower > new.lower {
        return old.best;
    }
    match (old.best, new.best) {
        (None, m) => m,
        (Some(m), _) if old.designated => Some(m),
        (Some(_), Some(m)) if new.designated || (new.exact && !old.exact) => Some(m),
        (Some(m), _) => Some(m),
    }
}

impl<M: fmt::Debug> fmt::Display for SemiRecord<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.lower == self.upper {
            write!(f, "{:+}", self.lower)?;
        } else {
            write!(f, "[{:+}, {:+}]", self.lower, self.upper)?;
        }
        write!(f, " kinds {}", kind::names(self.kinds))?;
        match &self.best {
            Some(m) => write!(f, " best {m:?}"),
            None => write!(f, " best -"),
        }
    }
}

/// Records keyed by canonical key, moves as indices (see the module documentation).
///
/// Guarantees an implementation gives: `put` merges (as [`SemiRecord::merged`]) and
/// refuses a record whose bounds contradict what is known (nothing is then changed);
/// `get` sees every `put` made before it, committed or not; `commit` makes every `put`
/// so far durable at once (all or nothing), in the order they were made.
pub trait SolutionStore {
    /// The record under `key`, if any.
    fn get(&mut self, key: &[u8]) -> Result<Option<SemiRecord<u16>>, SemiError>;
    /// Merges `rec` into the record under `key`.
    fn put(&mut self, key: &[u8], rec: SemiRecord<u16>) -> Result<(), SemiError>;
    /// Makes the puts so far durable.
    fn commit(&mut self) -> Result<(), SemiError>;
}

/// Why a semi-strong computation ended without a result.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SemiError {
    /// The game has no exact encoding ([`Game::encode`] gives `None`).
    NoEncoding,
    /// The store failed (its message names the file).
    Store(String),
    /// Stopped on request; what was done is committed (rerun to continue).
    Stopped,
    /// A solve ran out of its budget (nothing unproven was written).
    Budget,
    /// Two exact computations disagreed, or a record does not fit its position (a bug
    /// or a damaged store; nothing inconsistent is written).
    Internal(String),
}

impl fmt::Display for SemiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SemiError::NoEncoding => {
                f.write_str("this game has no exact position encoding, so it cannot be kept in a solution store")
            }
            SemiError::Store(m) => f.write_str(m),
            SemiError::Stopped => f.write_str("stopped (committed work is kept; rerun to continue)"),
            SemiError::Budget => f.write_str("a solve ran out of its budget"),
            SemiError::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for SemiError {}

use solvo_core::Game;

/// Every legal move of `g` (an empty list when it must pass or is over).
pub fn moves_of<G: Game>(g: &G) -> Vec<G::Move> {
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    moves
}
