//! [`Grid`]: a rectangular board of at most 64 cells as a `u64` bitboard, shared by every
//! game of the crate.
//!
//! Cell `r * cols + c` is row `r` (0 = bottom, the first player's side), column `c`
//! (0 = left). Cells are named like chess squares: a column letter then a 1-based row
//! number, so `a1` is the bottom-left cell and `b3` is column 1, row 2.

use std::fmt;

/// Largest number of columns (they are named by one letter).
pub const MAX_COLS: usize = 26;

/// The geometry of a `rows x cols` board: masks that make bitboard shifts stay on the
/// board. Cheap to copy (games carry it by value).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Grid {
    rows: u8,
    cols: u8,
    full: u64,
    /// `keep_right[d]`: cells with `c + d < cols` (may move `d` columns right).
    keep_right: [u64; 3],
    /// `keep_left[d]`: cells with `c >= d` (may move `d` columns left).
    keep_left: [u64; 3],
}

/// Which of the board's symmetries a game keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetries {
    /// Only the left-right mirror (games whose pieces move up or down the board).
    MirrorColumns,
    /// Row flip, column flip and their composition (Domineering: vertical stays vertical).
    Flips,
    /// Every symmetry of the rectangle: 4 on a rectangle, 8 on a square (Go-like games).
    All,
}

impl Grid {
    /// A `rows x cols` grid, or why not: both at least 1, `cols <= 26`, at most 64 cells.
    pub fn new(rows: usize, cols: usize) -> Result<Grid, String> {
        if rows == 0 || cols == 0 {
            return Err("rows and columns must both be at least 1".into());
        }
        if cols > MAX_COLS {
            return Err(format!("at most {MAX_COLS} columns (named a..z)"));
        }
        if rows * cols > 64 {
            return Err(format!("{} cells, but at most 64 fit a bitboard", rows * cols));
        }
        let cells = rows * cols;
        let full = if cells == 64 { u64::MAX } else { (1u64 << cells) - 1 };
        let mut keep_right = [0u64; 3];
        let mut keep_left = [0u64; 3];
        for i in 0..cells {
            let c = i % cols;
            for d in 0..3 {
                if c + d < cols {
                    keep_right[d] |= 1 << i;
                }
                if c >= d {
                    keep_left[d] |= 1 << i;
                }
            }
        }
        Ok(Grid { rows: rows as u8, cols: cols as u8, full, keep_right, keep_left })
    }

    /// Number of rows.
    #[inline]
    pub fn rows(&self) -> usize {
        self.rows as usize
    }

    /// Number of columns.
    #[inline]
    pub fn cols(&self) -> usize {
        self.cols as usize
    }

    /// Number of cells (`rows * cols <= 64`).
    #[inline]
    pub fn cells(&self) -> usize {
        self.rows as usize * self.cols as usize
    }

    /// The bitboard with every cell set.
    #[inline]
    pub fn full(&self) -> u64 {
        self.full
    }

    /// The index of the cell in row `r`, column `c`.
    #[inline]
    pub fn index(&self, r: usize, c: usize) -> usize {
        r * self.cols as usize + c
    }

    /// The row of cell `i`.
    #[inline]
    pub fn row(&self, i: usize) -> usize {
        i / self.cols as usize
    }

    /// The column of cell `i`.
    #[inline]
    pub fn col(&self, i: usize) -> usize {
        i % self.cols as usize
    }

    /// The bitboard of row `r` (empty when `r` is off the board).
    pub fn row_mask(&self, r: usize) -> u64 {
        if r >= self.rows() {
            return 0;
        }
        let line = (1u64 << self.cols) - 1;
        line << (r * self.cols())
    }

    /// Every set cell moved by `dr` rows and `dc` columns (`|dc| <= 2`); cells that would
    /// leave the board are dropped.
    #[inline]
    pub fn shift(&self, b: u64, dr: i32, dc: i32) -> u64 {
        let kept = if dc >= 0 { b & self.keep_right[dc as usize] } else { b & self.keep_left[(-dc) as usize] };
        let s = dr * self.cols as i32 + dc;
        let moved = if s >= 0 { kept << s } else { kept >> (-s) };
        moved & self.full
    }

    /// The cells orthogonally adjacent to some cell of `b` (may include cells of `b`).
    #[inline]
    pub fn neighbours(&self, b: u64) -> u64 {
        let c = self.cols as u32;
        (((b & self.keep_right[1]) << 1) | ((b & self.keep_left[1]) >> 1) | (b << c) | (b >> c)) & self.full
    }

    /// The 4-connected region of `within` that contains `seed` (`seed` must be in `within`).
    #[inline]
    pub fn flood(&self, seed: u64, within: u64) -> u64 {
        let mut region = seed;
        loop {
            let grown = (region | self.neighbours(region)) & within;
            if grown == region {
                return region;
            }
            region = grown;
        }
    }

    /// The name of cell `i`, like `b3`.
    pub fn cell_name(&self, i: usize) -> String {
        cell_name(i, self.cols())
    }

    /// The cell named `text` (like `b3`), if it is on the board.
    pub fn parse_cell(&self, text: &str) -> Option<usize> {
        let mut chars = text.chars();
        let letter = chars.next()?.to_ascii_lowercase();
        if !letter.is_ascii_lowercase() {
            return None;
        }
        let c = (letter as u8 - b'a') as usize;
        let number: usize = chars.as_str().parse().ok()?;
        if c >= self.cols() || number == 0 || number > self.rows() {
            return None;
        }
        Some(self.index(number - 1, c))
    }

    /// The permutations of the cells under the chosen symmetries, identity first:
    /// `perm[i]` is where cell `i` goes.
    pub fn symmetry_perms(&self, which: Symmetries) -> Vec<Vec<u8>> {
        let (rows, cols) = (self.rows(), self.cols());
        // (transpose, flip rows, flip cols), applied as: transpose first, then flips.
        let mut maps: Vec<(bool, bool, bool)> = match which {
            Symmetries::MirrorColumns => vec![(false, false, false), (false, false, true)],
            Symmetries::Flips | Symmetries::All => {
                vec![(false, false, false), (false, true, false), (false, false, true), (false, true, true)]
            }
        };
        if which == Symmetries::All && rows == cols {
            for &(rf, cf) in &[(false, false), (true, false), (false, true), (true, true)] {
                maps.push((true, rf, cf));
            }
        }
        maps.iter()
            .map(|&(tr, rf, cf)| {
                (0..self.cells())
                    .map(|i| {
                        let (mut r, mut c) = (self.row(i), self.col(i));
                        if tr {
                            std::mem::swap(&mut r, &mut c);
                        }
                        if rf {
                            r = rows - 1 - r;
                        }
                        if cf {
                            c = cols - 1 - c;
                        }
                        self.index(r, c) as u8
                    })
                    .collect()
            })
            .collect()
    }

    /// The bitboard `b` with every cell moved by the permutation `perm`.
    pub fn permute(b: u64, perm: &[u8]) -> u64 {
        let mut out = 0u64;
        let mut rest = b;
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out |= 1u64 << perm[i];
        }
        out
    }

    /// Draws the board, top row first, with row numbers on the left and column letters
    /// below; `cell(i)` gives the character of cell `i`.
    pub fn draw(&self, f: &mut fmt::Formatter<'_>, cell: impl Fn(usize) -> char) -> fmt::Result {
        for r in (0..self.rows()).rev() {
            write!(f, "{:>2} ", r + 1)?;
            for c in 0..self.cols() {
                write!(f, "{}", cell(self.index(r, c)))?;
                if c + 1 < self.cols() {
                    write!(f, " ")?;
                }
            }
            writeln!(f)?;
        }
        write!(f, "   ")?;
        for c in 0..self.cols() {
            write!(f, "{}", (b'a' + c as u8) as char)?;
            if c + 1 < self.cols() {
                write!(f, " ")?;
            }
        }
        writeln!(f)
    }
}

/// A well-mixed 64-bit hash of a few words (a position's bitboards and flags). Equal
/// inputs give equal hashes; it replaces incremental Zobrist keys because it costs a few
/// multiplications per call and needs no tables.
#[inline]
pub fn hash_words(words: &[u64]) -> u64 {
    let mut h: u64 = 0x9E37_79B9_7F4A_7C15;
    for (k, &w) in words.iter().enumerate() {
        h = mix64(h ^ w.wrapping_add((k as u64 + 1).wrapping_mul(0xD6E8_FEB8_6659_FD93)));
    }
    h
}

pub use solvo_core::rng::mix64;

/// The words (8 bytes each, little-endian) followed by the bytes: the exact encodings
/// the games give [`solvo_core::Game::encode`].
pub fn encode_words(words: &[u64], bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(8 * words.len() + bytes.len());
    for w in words {
        out.extend_from_slice(&w.to_le_bytes());
    }
    out.extend_from_slice(bytes);
    out
}

/// Iterates the indices of the set bits of `b`, lowest first.
#[inline]
pub fn bits(mut b: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if b == 0 {
            None
        } else {
            let i = b.trailing_zeros() as usize;
            b &= b - 1;
            Some(i)
        }
    })
}

/// The name of cell `i` on a board `cols` wide, like `b3` (used by moves, which carry
/// the board width so that they can print themselves).
pub fn cell_name(i: usize, cols: usize) -> String {
    let letter = (b'a' + (i % cols) as u8) as char;
    format!("{letter}{}", i / cols + 1)
}
