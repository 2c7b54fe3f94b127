//! A hasher for maps keyed by position hash keys: the key already is a good hash, so
//! it is used as is (much faster than SipHash on the solver's hot path).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

/// Passes a `u64` key through unchanged (other input is folded in, FNV-style).
#[derive(Default, Clone, Copy, Debug)]
pub struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3);
        }
    }

    fn write_u64(&mut self, key: u64) {
        self.0 ^= key;
    }

    fn write_u32(&mut self, key: u32) {
        self.0 = (self.0 ^ u64::from(key)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// A map keyed by hash keys.
pub type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<KeyHasher>>;

/// A set of hash keys.
pub type KeySet = HashSet<u64, BuildHasherDefault<KeyHasher>>;
