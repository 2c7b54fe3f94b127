//! The Othello semi-strong walk of [`crate::semistrong`] from any position instead of
//! the start, so that it can be compared with the generic walk
//! (`solvo_search::reopening`) on positions of any board.

use crate::semistrong::{Run, SemiError, SemiOptions};
use crate::store::{kind, Store};
use solvo_othello::Board;

/// Runs the Othello walk of `opts` from `root` (its side to move can move) as a P node
/// into `store`, committing at the end; the root's exact value. Unlike
/// [`crate::semistrong::semi_strong`], records no threshold or root value in the store.
pub fn semi_strong_from(store: &Store, opts: &SemiOptions, root: Board) -> Result<i32, SemiError> {
    let mut progress = |_: &crate::semistrong::SemiStats| {};
    let mut run = Run::new(store, opts, &mut progress)?;
    let value = run.exact(root, kind::P, None, 0)?;
    run.commit()?;
    Ok(value)
}
