//! Canonical keys numbered densely: each distinct key is kept once, in one byte arena,
//! and named by its number (0, 1, 2, ... in the order first seen), so that what a count
//! learns about a position lives in plain vectors indexed by that number.
//!
//! A count of a few hundred million positions needs this: keyed by `Vec<u8>` in a
//! `HashMap`, every position cost a heap block per map (about 300 bytes in all); here
//! it costs its key's bytes and about 5 bytes of table (and 8 bytes of offset once keys
//! of two lengths have been seen: most games' encodings have one length).

use super::SemiError;
use hashbrown::hash_table::Entry;
use hashbrown::HashTable;
use std::hash::{BuildHasher, RandomState};

/// Distinct byte strings, each with a dense id (see the module documentation).
#[derive(Default)]
pub struct KeyIds {
    /// The keys, one after another.
    bytes: Vec<u8>,
    /// The length of every key so far, while they all have one (`ends` is then empty).
    width: Option<usize>,
    /// Where key `i` ends in `bytes` (it starts where key `i - 1` ends), once keys of
    /// two lengths have been seen.
    ends: Vec<u64>,
    /// How many keys are numbered.
    count: usize,
    /// The ids, found by their keys' hashes.
    table: HashTable<u32>,
    hasher: RandomState,
}

/// Key `id` of the arena: `width` bytes at `id * width` while keys have one length,
/// else between the ends of keys `id - 1` and `id`.
#[inline]
fn slice<'a>(bytes: &'a [u8], width: Option<usize>, ends: &[u64], id: u32) -> &'a [u8] {
    let i = id as usize;
    if let Some(w) = width {
        return &bytes[i * w..(i + 1) * w];
    }
    let start = if i == 0 { 0 } else { ends[i - 1] as usize };
    &bytes[start..ends[i] as usize]
}

impl KeyIds {
    /// The id of `key`, numbered now if it is new, and whether it was new. Fails past
    /// `u32::MAX` keys (more than 4 billion positions: far past this machine's memory).
    pub fn id(&mut self, key: &[u8]) -> Result<(u32, bool), SemiError> {
        let hash = self.hasher.hash_one(key);
        let (bytes, width, ends, hasher) = (&self.bytes, self.width, &self.ends, &self.hasher);
        let id = match self.table.entry(
            hash,
            |&i| slice(bytes, width, ends, i) == key,
            |&i| hasher.hash_one(slice(bytes, width, ends, i)),
        ) {
            Entry::Occupied(e) => return Ok((*e.get(), false)),
            Entry::Vacant(e) => {
                let id = u32::try_from(self.count)
                    .map_err(|_| SemiError::Internal("more than 4,294,967,295 positions to number".into()))?;
                e.insert(id);
                id
            }
        };
        match self.width {
            None if self.count == 0 => self.width = Some(key.len()),
            Some(w) if w != key.len() => {
                // A second length: from now on every key's end is kept.
                self.ends = (1..=self.count as u64).map(|i| i * w as u64).collect();
                self.width = None;
            }
            _ => {}
        }
        self.bytes.extend_from_slice(key);
        if self.width.is_none() {
            self.ends.push(self.bytes.len() as u64);
        }
        self.count += 1;
        Ok((id, true))
    }

    /// How many keys are numbered.
    pub fn len(&self) -> usize {
        self.count
    }
}

#[cfg(test)]
mod tests {
    use super::KeyIds;

    #[test]
    fn ids_are_dense_stable_and_keys_come_back() {
        let mut ids = KeyIds::default();
        let keys: Vec<Vec<u8>> = (0..10_000u32).map(|i| (0..(i % 7)).map(|j| (i >> j) as u8).collect()).collect();
        let mut expected = Vec::new();
        for k in &keys {
            let before = ids.len() as u32;
            let (id, new) = ids.id(k).unwrap();
            if new {
                assert_eq!(id, before, "a new key takes the next number");
            }
            expected.push(id);
        }
        for (k, &id) in keys.iter().zip(&expected) {
            assert_eq!(ids.id(k).unwrap(), (id, false));
            assert_eq!(super::slice(&ids.bytes, ids.width, &ids.ends, id), &k[..]);
        }
        let distinct: std::collections::HashSet<&Vec<u8>> = keys.iter().collect();
        assert_eq!(ids.len(), distinct.len());
        assert_eq!(ids.id(&[1, 2, 3, 4, 5, 6, 7, 8, 9]).unwrap(), (distinct.len() as u32, true));
    }

    #[test]
    fn keys_of_one_length_keep_no_offsets_until_another_comes() {
        let mut ids = KeyIds::default();
        for i in 0..1000u32 {
            assert_eq!(ids.id(&i.to_le_bytes()).unwrap(), (i, true));
        }
        assert!(ids.ends.is_empty());
        assert_eq!(ids.id(&[7, 7]).unwrap(), (1000, true));
        for i in 0..1000u32 {
            assert_eq!(ids.id(&i.to_le_bytes()).unwrap(), (i, false));
            assert_eq!(super::slice(&ids.bytes, ids.width, &ids.ends, i), &i.to_le_bytes());
        }
        assert_eq!(ids.id(&[7, 7]).unwrap(), (1000, false));
        assert_eq!(ids.len(), 1001);
    }
}
