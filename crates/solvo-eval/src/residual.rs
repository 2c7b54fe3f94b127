//! The residual network: a small neural network over the pattern features whose
//! output is added to the linear pattern evaluation (8x8).
//!
//! The linear evaluation sums one weight per active feature; it cannot express how
//! features interact (a corner's value given the edge beside it, the game stage). The
//! network reads the same active features ([`crate::features::feature_indices`]): each
//! feature index has an embedding row of [`NET_HIDDEN`] integers, summed with a row
//! for the number of discs on the board, through ReLU, a dense layer to
//! [`NET_HIDDEN2`] units, ReLU, and a dense output in discs, in the manner of NNUE
//! (Stockfish) and Neural Reversi's pattern networks. It is trained on the residuals
//! of the linear evaluation (`solvo-lab train fit-net`), so the linear part stays the
//! first estimate and the network its correction.
//!
//! Guarantees: the embedding rows of symmetric pattern contents are identical (the
//! rows are stored for one representative of each symmetry class and copied to the
//! others when loaded), so the correction, like the linear sum, is equal for the 8
//! symmetric images of a position. The embedding sums are exact integers and the dense
//! layers run in `f32` in a fixed order, so the correction is the same on every
//! machine and build.

use crate::features::{ACTIVE_FEATURES, STAGE_LEN};
use crate::format::WeightFileError;
use crate::tying::tied_parameters_for;
use crate::weights::SCALE;
use solvo_othello::BoardSize;

/// Width of the embedding rows (the first hidden layer).
pub const NET_HIDDEN: usize = 32;
/// Width of the second hidden layer.
pub const NET_HIDDEN2: usize = 16;
/// Rows of the disc-count embedding: one per number of discs `0..=64`.
pub const NET_DISC_ROWS: usize = 65;
/// Largest `emb_shift` (embedding units `2^-shift`) a network may use.
pub const MAX_EMB_SHIFT: u8 = 14;
/// Largest magnitude of a disc-count row entry, in embedding units: with at most
/// [`ACTIVE_FEATURES`] rows of `i16` added, the sums stay far inside `i32`.
pub const MAX_DISC_ROW: i32 = 1 << 24;

/// One embedding row, on its own cache line (one memory read per active feature).
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
struct EmbRow([i16; NET_HIDDEN]);

/// The second layer's weights from one first-layer unit, aligned for vector loads.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C, align(64))]
struct Lanes([f32; NET_HIDDEN2]);

/// A trained residual network (see the module documentation).
#[derive(Clone, Debug, PartialEq)]
pub struct ResidualNet {
    /// Embedding units are `2^-emb_shift` (of the first hidden layer's activation).
    emb_shift: u8,
    /// `STAGE_LEN` rows of [`NET_HIDDEN`] values, every row of a symmetry class equal
    /// to its representative's.
    rows: Vec<EmbRow>,
    /// [`NET_DISC_ROWS`] rows of [`NET_HIDDEN`] values, in embedding units.
    disc_rows: Vec<i32>,
    /// Second layer, `[k][j]`: the weight from hidden unit `k` to unit `j`.
    w2: Vec<Lanes>,
    b2: [f32; NET_HIDDEN2],
    w3: [f32; NET_HIDDEN2],
    b3: f32,
}

/// The float parameters of a network as a trainer holds them (embedding rows indexed
/// by feature index, only representative rows read).
#[derive(Clone, Debug)]
pub struct FloatNet {
    /// `STAGE_LEN x NET_HIDDEN` embedding rows, row-major.
    pub rows: Vec<f32>,
    /// `NET_DISC_ROWS x NET_HIDDEN` disc-count rows.
    pub disc_rows: Vec<f32>,
    /// Second layer `[j][k]` (`NET_HIDDEN2 x NET_HIDDEN`).
    pub w2: Vec<f32>,
    /// Second layer biases.
    pub b2: Vec<f32>,
    /// Output weights.
    pub w3: Vec<f32>,
    /// Output bias.
    pub b3: f32,
}

/// The 8x8 tying map ([`tied_parameters_for`]), computed once (about 16 ms).
fn tie8() -> &'static [u32] {
    static TIE: std::sync::OnceLock<Vec<u32>> = std::sync::OnceLock::new();
    TIE.get_or_init(|| tied_parameters_for(BoardSize::Eight).expect("8x8 has a layout"))
}

fn bad<T>(message: impl Into<String>) -> Result<T, WeightFileError> {
    Err(WeightFileError { message: message.into() })
}

impl ResidualNet {
    /// Quantizes a trained float network: embedding values are rounded to units of
    /// `2^-shift` with the largest shift (at most [`MAX_EMB_SHIFT`]) that fits every
    /// representative row in `i16`. An error if a value is not finite, a shape is wrong,
    /// or the values are too large for any shift.
    pub fn quantize(net: &FloatNet) -> Result<ResidualNet, WeightFileError> {
        let h = NET_HIDDEN;
        if net.rows.len() != STAGE_LEN * h
            || net.disc_rows.len() != NET_DISC_ROWS * h
            || net.w2.len() != NET_HIDDEN2 * h
            || net.b2.len() != NET_HIDDEN2
            || net.w3.len() != NET_HIDDEN2
        {
            return bad("network shapes differ from this build's layout");
        }
        let all = net.rows.iter().chain(&net.disc_rows).chain(&net.w2).chain(&net.b2).chain(&net.w3);
        if !all.chain(std::iter::once(&net.b3)).all(|x| x.is_finite()) {
            return bad("network has a value that is not finite");
        }
        let tie = tie8();
        let max_row = (0..STAGE_LEN)
            .filter(|&f| tie[f] as usize == f)
            .flat_map(|f| &net.rows[f * h..(f + 1) * h])
            .fold(0.0f32, |m, &x| m.max(x.abs()));
        let shift = (0..=MAX_EMB_SHIFT).rev().find(|&s| max_row * (1u32 << s) as f32 <= 32000.0);
        let Some(emb_shift) = shift else {
            return bad(format!("embedding values up to {max_row} do not fit 16 bits"));
        };
        let unit = (1u32 << emb_shift) as f32;
        let mut rows = vec![0i16; STAGE_LEN * h];
        for f in 0..STAGE_LEN {
            if tie[f] as usize == f {
                for k in 0..h {
                    rows[f * h + k] = (net.rows[f * h + k] * unit).round() as i16;
                }
            }
        }
        let mut disc_rows = Vec::with_capacity(NET_DISC_ROWS * h);
        for &x in &net.disc_rows {
            let q = (x * unit).round();
            if q.abs() >= MAX_DISC_ROW as f32 {
                return bad(format!("disc-count row value {x} is too large"));
            }
            disc_rows.push(q as i32);
        }
        let mut w2 = vec![0.0f32; h * NET_HIDDEN2];
        for j in 0..NET_HIDDEN2 {
            for k in 0..h {
                w2[k * NET_HIDDEN2 + j] = net.w2[j * h + k];
            }
        }
        ResidualNet::from_parts(
            emb_shift,
            rows,
            disc_rows,
            w2,
            net.b2.clone().try_into().expect("length checked"),
            net.w3.clone().try_into().expect("length checked"),
            net.b3,
        )
    }

    /// Builds a network from stored parts: `rows` holds the representative rows
    /// (others zero), which are copied to their symmetry class. Checks every shape,
    /// range and that non-representative rows are zero.
    pub(crate) fn from_parts(
        emb_shift: u8,
        mut rows: Vec<i16>,
        disc_rows: Vec<i32>,
        w2: Vec<f32>,
        b2: [f32; NET_HIDDEN2],
        w3: [f32; NET_HIDDEN2],
        b3: f32,
    ) -> Result<ResidualNet, WeightFileError> {
        let h = NET_HIDDEN;
        if emb_shift > MAX_EMB_SHIFT {
            return bad(format!("network embedding shift {emb_shift} is above {MAX_EMB_SHIFT}"));
        }
        if rows.len() != STAGE_LEN * h || disc_rows.len() != NET_DISC_ROWS * h || w2.len() != h * NET_HIDDEN2 {
            return bad("network shapes differ from this build's layout");
        }
        if disc_rows.iter().any(|x| x.abs() >= MAX_DISC_ROW) {
            return bad("network disc-count row out of range");
        }
        if !w2.iter().chain(&b2).chain(&w3).chain(std::iter::once(&b3)).all(|x| x.is_finite()) {
            return bad("network has a value that is not finite");
        }
        let tie = tie8();
        for f in 0..STAGE_LEN {
            let r = tie[f] as usize;
            if r != f {
                if rows[f * h..(f + 1) * h].iter().any(|&x| x != 0) {
                    return bad(format!("network row {f} is stored though it copies row {r} (a symmetric content)"));
                }
                rows.copy_within(r * h..(r + 1) * h, f * h);
            }
        }
        let rows = rows.chunks_exact(h).map(|c| EmbRow(c.try_into().expect("H values"))).collect();
        let w2 = w2.chunks_exact(NET_HIDDEN2).map(|c| Lanes(c.try_into().expect("H2 values"))).collect();
        Ok(ResidualNet { emb_shift, rows, disc_rows, w2, b2, w3, b3 })
    }

    /// The stored form: representative rows only (the others zero), disc rows, dense
    /// layers; the inverse of [`ResidualNet::from_parts`].
    #[allow(clippy::type_complexity)]
    pub(crate) fn parts(&self) -> (u8, Vec<i16>, &[i32], Vec<f32>, &[f32; NET_HIDDEN2], &[f32; NET_HIDDEN2], f32) {
        let tie = tie8();
        let mut rows = Vec::with_capacity(STAGE_LEN * NET_HIDDEN);
        for (f, row) in self.rows.iter().enumerate() {
            if tie[f] as usize == f {
                rows.extend_from_slice(&row.0);
            } else {
                rows.extend_from_slice(&[0; NET_HIDDEN]);
            }
        }
        let w2 = self.w2.iter().flat_map(|l| l.0).collect();
        (self.emb_shift, rows, &self.disc_rows, w2, &self.b2, &self.w3, self.b3)
    }

    /// The correction in units of `1 / SCALE` disc for a position with `discs` discs
    /// whose active features are `features` (as [`crate::features::feature_indices`]
    /// lists them; every index is below `STAGE_LEN`).
    #[inline]
    pub fn correction(&self, features: &[u32; ACTIVE_FEATURES], discs: u32) -> i32 {
        #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
        let out = self.output_avx2(features, discs);
        #[cfg(not(all(target_arch = "x86_64", target_feature = "avx2")))]
        let out = self.output_portable(features, discs);
        let v = (out * SCALE as f32).round();
        v.clamp(-(64 * SCALE) as f32, (64 * SCALE) as f32) as i32
    }

    /// The network's output in discs, plain Rust (the reference; every build).
    #[cfg_attr(all(target_arch = "x86_64", target_feature = "avx2"), allow(dead_code))]
    #[inline]
    fn output_portable(&self, features: &[u32; ACTIVE_FEATURES], discs: u32) -> f32 {
        const H: usize = NET_HIDDEN;
        let d = (discs as usize).min(NET_DISC_ROWS - 1);
        let mut acc: [i32; H] = self.disc_rows[d * H..(d + 1) * H].try_into().expect("H values");
        for &f in features {
            let row = &self.rows[f as usize].0;
            for k in 0..H {
                acc[k] += i32::from(row[k]);
            }
        }
        let unit = 1.0 / (1u32 << self.emb_shift) as f32;
        let mut h2 = self.b2;
        for (a, w) in acc.iter().zip(self.w2.iter()) {
            let x = (*a).max(0) as f32 * unit;
            for (h, wj) in h2.iter_mut().zip(&w.0) {
                *h += wj * x;
            }
        }
        let mut out = self.b3;
        for (w, h) in self.w3.iter().zip(&h2) {
            out += w * h.max(0.0);
        }
        out
    }

    /// The same computation with AVX2 vectors: the same integer sums and, lane by lane,
    /// the same float products and sums in the same order (no fused multiply-add), so
    /// the result equals [`ResidualNet::output_portable`] bit for bit (a test checks).
    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[inline]
    fn output_avx2(&self, features: &[u32; ACTIVE_FEATURES], discs: u32) -> f32 {
        use std::arch::x86_64::*;
        const _: () = assert!(NET_HIDDEN == 32 && NET_HIDDEN2 == 16, "the vector code is written for 32 x 16");
        let d = (discs as usize).min(NET_DISC_ROWS - 1);
        let disc_row: &[i32; NET_HIDDEN] = self.disc_rows[d * NET_HIDDEN..(d + 1) * NET_HIDDEN].try_into().expect("H");
        // SAFETY: AVX2 is enabled at compile time (the cfg above). Every load reads
        // inside a borrowed array: `disc_row` holds 32 i32 (four 32-byte unaligned
        // loads), each `EmbRow` 32 i16 in 64 bytes aligned to 64 (four aligned 16-byte
        // loads), each `Lanes` 16 f32 aligned to 64 (two aligned 32-byte loads), and the
        // stores write the local 32-i32 array `acc`.
        unsafe {
            let dp = disc_row.as_ptr() as *const __m256i;
            let mut a = [
                _mm256_loadu_si256(dp),
                _mm256_loadu_si256(dp.add(1)),
                _mm256_loadu_si256(dp.add(2)),
                _mm256_loadu_si256(dp.add(3)),
            ];
            for &f in features {
                let p = self.rows[f as usize].0.as_ptr() as *const __m128i;
                for (c, acc) in a.iter_mut().enumerate() {
                    *acc = _mm256_add_epi32(*acc, _mm256_cvtepi16_epi32(_mm_load_si128(p.add(c))));
                }
            }
            let mut acc = [0i32; NET_HIDDEN];
            for (c, v) in a.iter().enumerate() {
                _mm256_storeu_si256(acc.as_mut_ptr().add(8 * c) as *mut __m256i, *v);
            }
            let unit = 1.0 / (1u32 << self.emb_shift) as f32;
            let mut lo = _mm256_loadu_ps(self.b2.as_ptr());
            let mut hi = _mm256_loadu_ps(self.b2.as_ptr().add(8));
            for (a, w) in acc.iter().zip(self.w2.iter()) {
                let x = _mm256_set1_ps((*a).max(0) as f32 * unit);
                lo = _mm256_add_ps(lo, _mm256_mul_ps(_mm256_load_ps(w.0.as_ptr()), x));
                hi = _mm256_add_ps(hi, _mm256_mul_ps(_mm256_load_ps(w.0.as_ptr().add(8)), x));
            }
            let mut h2 = [0.0f32; NET_HIDDEN2];
            _mm256_storeu_ps(h2.as_mut_ptr(), lo);
            _mm256_storeu_ps(h2.as_mut_ptr().add(8), hi);
            let mut out = self.b3;
            for (w, h) in self.w3.iter().zip(&h2) {
                out += w * h.max(0.0);
            }
            out
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(all(target_arch = "x86_64", target_feature = "avx2"))]
    #[test]
    fn the_vector_path_equals_the_portable_one_bit_for_bit() {
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let rows: Vec<i16> = (0..STAGE_LEN * NET_HIDDEN).map(|_| (next() % 2001) as i16 - 1000).collect();
        let tie = tied_parameters_for(BoardSize::Eight).unwrap();
        let mut stored = rows.clone();
        for f in 0..STAGE_LEN {
            if tie[f] as usize != f {
                stored[f * NET_HIDDEN..(f + 1) * NET_HIDDEN].fill(0);
            }
        }
        let disc_rows: Vec<i32> = (0..NET_DISC_ROWS * NET_HIDDEN).map(|_| (next() % 4001) as i32 - 2000).collect();
        let w2: Vec<f32> = (0..NET_HIDDEN * NET_HIDDEN2).map(|_| (next() % 1000) as f32 / 700.0 - 0.7).collect();
        let b2 = std::array::from_fn(|_| (next() % 100) as f32 / 100.0 - 0.5);
        let w3 = std::array::from_fn(|_| (next() % 100) as f32 / 30.0 - 1.5);
        let net = ResidualNet::from_parts(9, stored, disc_rows, w2, b2, w3, 0.25).unwrap();
        for b in solvo_othello::random_games::random_game_boards(3000, 2) {
            let f = crate::features::feature_list(b.player, b.opponent);
            let discs = (b.player | b.opponent).count_ones();
            assert_eq!(net.output_avx2(&f, discs).to_bits(), net.output_portable(&f, discs).to_bits());
        }
    }

    #[test]
    fn stored_rows_of_symmetric_copies_must_be_zero_and_are_filled_on_load() {
        let tie = tied_parameters_for(BoardSize::Eight).unwrap();
        let copy = (0..STAGE_LEN).find(|&f| tie[f] as usize != f).expect("some contents are symmetric copies");
        let rep = tie[copy] as usize;
        let parts = |rows: Vec<i16>| {
            ResidualNet::from_parts(
                10,
                rows,
                vec![0; NET_DISC_ROWS * NET_HIDDEN],
                vec![0.5; NET_HIDDEN * NET_HIDDEN2],
                [0.0; NET_HIDDEN2],
                [1.0; NET_HIDDEN2],
                0.0,
            )
        };
        let mut rows = vec![0i16; STAGE_LEN * NET_HIDDEN];
        rows[rep * NET_HIDDEN] = 7;
        let net = parts(rows.clone()).unwrap();
        assert_eq!(net.rows[copy].0[0], 7, "the copy gets its representative's row");
        assert_eq!(net.parts().1, rows, "stored form: representatives only");
        rows[copy * NET_HIDDEN + 1] = 3;
        assert!(parts(rows).unwrap_err().message.contains("symmetric"));
    }
}
