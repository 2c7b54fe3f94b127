//! [`SymmetryTables`]: fast images of bitboards under a board's symmetries, for keys that
//! are equal for symmetric positions (a transposition table then stores one entry for
//! all of them).
//!
//! A game using them computes its key from the canonical form (the smallest image) and
//! lists its moves in the canonical frame's cell order mapped back to its own cells, so
//! that symmetric positions list corresponding moves in the same order: a move index
//! stored for one of them (a TT best move, a Monte Carlo count) means the same move in
//! all of them.

use crate::grid::{Grid, Symmetries};
use std::fmt;
use std::sync::{Mutex, OnceLock};

/// Byte-lookup tables of every symmetry of one board (built once per board size and
/// symmetry group, then shared for the life of the program).
pub struct SymmetryTables {
    /// Number of symmetries (the identity is number 0).
    count: usize,
    /// Number of 8-cell chunks of a bitboard that hold cells.
    chunks: usize,
    /// `table[s * chunks + k][byte]`: the image under symmetry `s` of the cells of
    /// chunk `k` given by `byte`.
    table: Vec<[u64; 256]>,
    /// `back[s][c]`: the cell that symmetry `s` sends to cell `c`.
    back: Vec<Vec<u8>>,
    /// `forth[s][c]`: the cell that symmetry `s` sends cell `c` to.
    forth: Vec<Vec<u8>>,
}

impl fmt::Debug for SymmetryTables {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SymmetryTables({} symmetries)", self.count)
    }
}

type Cache = Mutex<Vec<((usize, usize, Symmetries), &'static SymmetryTables)>>;

impl SymmetryTables {
    /// The tables of `grid` under `which` (built on first use, then cached).
    pub fn get(grid: &Grid, which: Symmetries) -> &'static SymmetryTables {
        static CACHE: OnceLock<Cache> = OnceLock::new();
        let cache = CACHE.get_or_init(|| Mutex::new(Vec::new()));
        let id = (grid.rows(), grid.cols(), which);
        let mut list = cache.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, t)) = list.iter().find(|(k, _)| *k == id) {
            return t;
        }
        let t: &'static SymmetryTables = Box::leak(Box::new(SymmetryTables::build(grid, which)));
        list.push((id, t));
        t
    }

    fn build(grid: &Grid, which: Symmetries) -> SymmetryTables {
        let perms = grid.symmetry_perms(which);
        let cells = grid.cells();
        let chunks = cells.div_ceil(8);
        let mut table = Vec::with_capacity(perms.len() * chunks);
        let mut back = Vec::with_capacity(perms.len());
        for perm in &perms {
            for k in 0..chunks {
                let mut t = [0u64; 256];
                for (byte, slot) in t.iter_mut().enumerate() {
                    let b = ((byte as u64) << (8 * k)) & grid.full();
                    *slot = Grid::permute(b, perm);
                }
                table.push(t);
            }
            let mut inv = vec![0u8; cells];
            for (i, &p) in perm.iter().enumerate() {
                inv[p as usize] = i as u8;
            }
            back.push(inv);
        }
        let forth = perms.clone();
        SymmetryTables { count: perms.len(), chunks, table, back, forth }
    }

    /// Number of symmetries (at least 1: the identity, number 0).
    #[inline]
    pub fn count(&self) -> usize {
        self.count
    }

    /// The image of bitboard `b` under symmetry `s`.
    #[inline]
    pub fn apply(&self, s: usize, b: u64) -> u64 {
        let row = &self.table[s * self.chunks..(s + 1) * self.chunks];
        let mut out = 0u64;
        for (k, t) in row.iter().enumerate() {
            out |= t[((b >> (8 * k)) & 0xFF) as usize];
        }
        out
    }

    /// The cell that symmetry `s` sends cell `c` to: the image of the one-cell board
    /// `1 << c` is `1 << image_of_cell(s, c)`.
    #[inline]
    pub fn image_of_cell(&self, s: usize, c: usize) -> usize {
        self.forth[s][c] as usize
    }

    /// The cell that symmetry `s` sends to cell `c` (the inverse image of `c`).
    #[inline]
    pub fn back(&self, s: usize, c: usize) -> usize {
        self.back[s][c] as usize
    }

    /// The canonical form of a pair of bitboards: the smallest image (compared as the
    /// pair) and the symmetry that gives it. Symmetric pairs have the same form.
    #[inline]
    pub fn canonical(&self, boards: [u64; 2]) -> (usize, [u64; 2]) {
        let mut best = (0, boards);
        for s in 1..self.count {
            let image = [self.apply(s, boards[0]), self.apply(s, boards[1])];
            if image < best.1 {
                best = (s, image);
            }
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_core::rng::Rng;

    #[test]
    fn tables_match_the_permutations() {
        for (r, c) in [(5, 5), (3, 7), (8, 8), (4, 3)] {
            let grid = Grid::new(r, c).unwrap();
            let t = SymmetryTables::get(&grid, Symmetries::All);
            let perms = grid.symmetry_perms(Symmetries::All);
            assert_eq!(t.count(), perms.len());
            let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
            for _ in 0..50 {
                let x = rng.next_u64();
                let b = x & grid.full();
                for (s, perm) in perms.iter().enumerate() {
                    assert_eq!(t.apply(s, b), Grid::permute(b, perm));
                    for (cell, &to) in perm.iter().enumerate() {
                        assert_eq!(t.back(s, to as usize), cell);
                        assert_eq!(t.image_of_cell(s, cell), to as usize);
                    }
                }
            }
            assert!(std::ptr::eq(t, SymmetryTables::get(&grid, Symmetries::All)));
        }
    }
}
