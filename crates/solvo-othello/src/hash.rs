//! Position hashing for transposition tables.

pub use solvo_core::rng::mix64;

/// A 64-bit hash of (player, opponent). Every bit of both inputs affects every output
/// bit; swapping the two sides gives a different hash (the side to move matters).
/// Suitable for indexing a transposition table (store the full board or a check
/// signature in the entry: distinct boards can collide).
#[inline(always)]
pub const fn hash_board(player: u64, opponent: u64) -> u64 {
    mix64(player ^ mix64(opponent ^ 0x9E37_79B9_7F4A_7C15))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn hash_distinguishes_sides_and_spreads() {
        assert_ne!(hash_board(1, 2), hash_board(2, 1));
        let set: HashSet<u64> = (0..10_000u64).map(|i| hash_board(i, i << 20) >> 48).collect();
        assert!(set.len() > 9_000 / 2, "top 16 bits poorly spread: {}", set.len());
    }
}
