//! [`MemoryStore`]: a [`SolutionStore`] in a hash map (tests, counts, small runs).

use super::{SemiError, SemiRecord, SolutionStore};
use std::collections::HashMap;

/// Records in memory; `commit` does nothing (nothing is durable).
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    records: HashMap<Vec<u8>, SemiRecord<u16>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// Number of positions stored.
    pub fn len(&self) -> usize {
        self.records.len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.records.is_empty()
    }

    /// Every (canonical key, record), in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&[u8], &SemiRecord<u16>)> {
        self.records.iter().map(|(k, r)| (k.as_slice(), r))
    }
}

impl SolutionStore for MemoryStore {
    fn get(&mut self, key: &[u8]) -> Result<Option<SemiRecord<u16>>, SemiError> {
        Ok(self.records.get(key).copied())
    }

    fn put(&mut self, key: &[u8], rec: SemiRecord<u16>) -> Result<(), SemiError> {
        let merged = match self.records.get(key) {
            None => rec,
            Some(old) => old.merged(&rec).ok_or_else(|| {
                SemiError::Internal(format!("record {rec} contradicts stored {old} for key {key:02x?}"))
            })?,
        };
        self.records.insert(key.to_vec(), merged);
        Ok(())
    }

    fn commit(&mut self) -> Result<(), SemiError> {
        Ok(())
    }
}
