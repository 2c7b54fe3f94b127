//! Exact labels: the positions to label are solved in parallel, one transposition
//! table per chunk of positions.

use crate::sample::Sample;
use rayon::prelude::*;
use solvo_othello::Position;
use solvo_othello_search::{solve, SolveOptions};
use std::sync::atomic::{AtomicU64, Ordering};

/// Positions solved with one table before the next chunk takes a fresh one.
const CHUNK: usize = 256;

/// Solves each `(index, position)` of `to_solve` exactly and writes the value into
/// `samples[index]` as its label, flagged [`Sample::EXACT`]. `progress` gets the
/// number of solves done and their total every 4096 solves and at the end. Returns the
/// solver nodes spent (search and ordering). Labels do not depend on the threads.
pub fn label_exactly(
    samples: &mut [Sample],
    to_solve: &[(usize, Position)],
    hash_mb: usize,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> u64 {
    let total = to_solve.len() as u64;
    let done = AtomicU64::new(0);
    let solved: Vec<(usize, i32, u64)> = to_solve
        .par_chunks(CHUNK)
        .flat_map_iter(|chunk| {
            let opts = SolveOptions::new(hash_mb);
            let out: Vec<_> = chunk
                .iter()
                .map(|&(i, pos)| {
                    let r = solve(&pos, &opts);
                    (i, r.score().expect("an unbounded solve is exact"), r.nodes + r.ordering_nodes)
                })
                .collect();
            let n = done.fetch_add(chunk.len() as u64, Ordering::Relaxed) + chunk.len() as u64;
            if n.is_multiple_of(4096) || n == total {
                progress(n, total);
            }
            out
        })
        .collect();
    let mut nodes = 0;
    for (i, score, n) in solved {
        samples[i].label = score as i8;
        samples[i].flags |= Sample::EXACT;
        nodes += n;
    }
    nodes
}
