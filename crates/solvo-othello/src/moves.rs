//! Legal-move generation.
//!
//! A move is legal when it is on an empty square and, in at least one of the 8
//! directions, a contiguous run of opponent discs is closed by a disc of the player.
//! Both implementations flood from the player's discs through opponent discs in each
//! direction with the "doubled shift" parallel prefix (runs of up to 6 discs in 4
//! shift steps); the AVX2 one does 4 directions per 256-bit register.
//!
//! The functions return candidate squares over the *whole* 8x8 grid: callers AND with
//! the empty playable squares (see [`legal_moves`]).

/// Opponent discs that can be crossed horizontally or diagonally (files b..g):
/// a run through file a or h would wrap to the next row.
const NOT_AH: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// Legal moves of the player `p` against the opponent `o`, restricted to `mask`
/// (the playable squares of the board size; `u64::MAX` for 8x8).
///
/// Requires `p & o == 0` and `(p | o) & !mask == 0`.
#[inline(always)]
pub fn legal_moves(p: u64, o: u64, mask: u64) -> u64 {
    candidate_moves(p, o) & !(p | o) & mask
}

/// The build's fastest candidate generator (AVX2 when compiled in, else portable).
#[inline(always)]
pub fn candidate_moves(p: u64, o: u64) -> u64 {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        candidate_moves_avx2(p, o)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        candidate_moves_portable(p, o)
    }
}

/// Plays `sq` for `p` against `o` and returns (flipped discs, legal moves of the
/// opponent in the new position). `empty_after` must be the empty playable squares
/// once `sq` is filled. The fused kernel of perft's last two plies and of the
/// endgame solvers: on AVX2 builds nothing leaves the vector registers in between.
#[inline(always)]
pub fn play_and_reply_moves(sq: usize, p: u64, o: u64, empty_after: u64) -> (u64, u64) {
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    {
        use crate::avx2::splat;
        crate::avx2::play_and_reply_moves(sq, splat(p), splat(o), empty_after)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
    {
        let f = crate::flips::flips_portable(sq, p, o);
        (f, candidate_moves_portable(o ^ f, p ^ f ^ (1 << (sq & 63))) & empty_after)
    }
}

/// Flood in one direction towards higher bit indices (shift left by `s`).
#[inline(always)]
fn flood_left(p: u64, om: u64, s: u32) -> u64 {
    let mut f = om & (p << s);
    f |= om & (f << s);
    let pre = om & (om << s);
    f |= pre & (f << (2 * s));
    f |= pre & (f << (2 * s));
    f << s
}

/// Flood in one direction towards lower bit indices (shift right by `s`).
#[inline(always)]
fn flood_right(p: u64, om: u64, s: u32) -> u64 {
    let mut f = om & (p >> s);
    f |= om & (f >> s);
    let pre = om & (om >> s);
    f |= pre & (f >> (2 * s));
    f |= pre & (f >> (2 * s));
    f >> s
}

/// Portable (plain `u64`) candidate generator; any square, empty or not, may be set.
#[inline]
pub fn candidate_moves_portable(p: u64, o: u64) -> u64 {
    let oh = o & NOT_AH;
    flood_left(p, oh, 1)
        | flood_right(p, oh, 1)
        | flood_left(p, o, 8)
        | flood_right(p, o, 8)
        | flood_left(p, oh, 7)
        | flood_right(p, oh, 7)
        | flood_left(p, oh, 9)
        | flood_right(p, oh, 9)
}

/// AVX2 candidate generator (see [`crate::avx2::candidate_lanes`]). Same result as
/// [`candidate_moves_portable`].
#[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
#[inline(always)]
pub fn candidate_moves_avx2(p: u64, o: u64) -> u64 {
    use crate::avx2::{candidate_lanes, or_lanes, splat};
    or_lanes(candidate_lanes(splat(p), splat(o)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_core::rng::Rng;

    /// Deliberately naive legality test, square by square, direction by direction.
    fn naive_moves(p: u64, o: u64) -> u64 {
        let mut moves = 0;
        for sq in 0..64i32 {
            if (p | o) >> sq & 1 != 0 {
                continue;
            }
            let (r, c) = (sq / 8, sq % 8);
            for (dr, dc) in [(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)] {
                let (mut rr, mut cc, mut seen) = (r + dr, c + dc, 0);
                while (0..8).contains(&rr) && (0..8).contains(&cc) && o >> (rr * 8 + cc) & 1 != 0 {
                    rr += dr;
                    cc += dc;
                    seen += 1;
                }
                if seen > 0 && (0..8).contains(&rr) && (0..8).contains(&cc) && p >> (rr * 8 + cc) & 1 != 0 {
                    moves |= 1 << sq;
                }
            }
        }
        moves
    }

    #[test]
    fn generators_agree_with_naive_on_random_boards() {
        let mut s = Rng::new(0x1234_5678_9abc_def1);
        for _ in 0..20_000 {
            let a = s.next_u64();
            let b = s.next_u64();
            let (p, o) = (a & !b, b & !a & s.next_u64());
            let empty = !(p | o);
            let expect = naive_moves(p, o);
            assert_eq!(candidate_moves_portable(p, o) & empty, expect);
            #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
            assert_eq!(candidate_moves_avx2(p, o) & empty, expect);
            assert_eq!(legal_moves(p, o, u64::MAX), expect);
        }
    }
}
