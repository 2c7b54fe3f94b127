//! Knowledge read from a store during an expansion: proven leaf bounds, each row checked
//! (checksum, board, depth, bounds) before use; a damaged row counts as unknown and is
//! reported. Exact rows are cached for the worker's later jobs (they never change);
//! bounds and unknown leaves are asked again by each job (other workers tighten them).

use crate::config::Config;
use crate::goal::Bounds;
use crate::proof::LeafBounds;
use crate::store::PipelineStore;
use solvo_othello::Board;
use std::collections::HashMap;

/// Leaf bounds from a store, through a cache.
pub struct PipelineKnowledge<'a> {
    store: &'a dyn PipelineStore,
    mask: u64,
    leaf_empties: u32,
    cache: HashMap<Board, Bounds>,
    asked: HashMap<Board, Bounds>,
    errors: Vec<String>,
    failures: Vec<String>,
}

impl<'a> PipelineKnowledge<'a> {
    /// Knowledge of `store` for the pipeline `cfg`, starting from `cache`.
    pub fn new(store: &'a dyn PipelineStore, cfg: &Config, cache: HashMap<Board, Bounds>) -> PipelineKnowledge<'a> {
        PipelineKnowledge {
            store,
            mask: cfg.size.mask(),
            leaf_empties: cfg.leaf_empties,
            cache,
            asked: HashMap::new(),
            errors: Vec::new(),
            failures: Vec::new(),
        }
    }

    /// Adds bounds this worker just proved for leaf `b` (merged with what is known; on a
    /// contradiction the new proof wins, as a damaged old row would be replaced).
    pub fn learn(&mut self, b: &Board, proven: Bounds) {
        let key = b.canonical();
        let old = self.cache.get(&key).or_else(|| self.asked.get(&key)).copied();
        let k = old.and_then(|o| o.merged(proven)).unwrap_or(proven);
        if k.lower == k.upper {
            self.asked.remove(&key);
            self.cache.insert(key, k);
        } else {
            self.asked.insert(key, k);
        }
    }

    /// The cache to keep, the damaged rows met (and ignored), and the store's failures
    /// (a job that met any must not be completed: its to-do list may be too long).
    pub fn finish(self) -> (HashMap<Board, Bounds>, Vec<String>, Vec<String>) {
        (self.cache, self.errors, self.failures)
    }
}

impl LeafBounds for PipelineKnowledge<'_> {
    fn leaf_bounds(&mut self, b: &Board) -> Bounds {
        let key = b.canonical();
        let unknown = Bounds { lower: -64, upper: 64 };
        if let Some(&k) = self.cache.get(&key).or_else(|| self.asked.get(&key)) {
            return k;
        }
        let found = match self.store.knowledge_row(&key) {
            Ok(Some(row)) => match row.check(self.mask, self.leaf_empties) {
                Ok((_, bounds)) => Some(bounds),
                Err(e) => {
                    self.errors.push(e);
                    None
                }
            },
            Ok(None) => None,
            Err(e) => {
                self.failures.push(e.to_string());
                None
            }
        };
        match found {
            Some(k) if k.lower == k.upper => {
                self.cache.insert(key, k);
                k
            }
            Some(k) => {
                self.asked.insert(key, k);
                k
            }
            None => {
                self.asked.insert(key, unknown);
                unknown
            }
        }
    }
}
