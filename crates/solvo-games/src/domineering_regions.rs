//! Region keys for Domineering: a position is a disjoint sum of its regions, so positions
//! whose regions have the same shapes (up to moving them about and flipping each one on
//! its own) are the same game and can share a transposition-table entry.
//!
//! Two empty cells side by side can always take a domino of one of the players, so the
//! regions are the 4-connected components of the empty cells; a lone empty cell (no empty
//! neighbour) can never be covered and is ignored. A move covers two cells of one region
//! and changes no other, so the game tree of a position is, move for move, that of any
//! arrangement of the same region shapes: translate any region, flip any region upside
//! down or left to right (flips keep vertical dominoes vertical), or swap regions of equal
//! shape, and every move maps to a move, the side to move and the rules are unchanged.
//! This is an isomorphism of game trees, not an arithmetic of values, so it holds for
//! normal and misère play alike. The move-count bounds are sums over runs of cells inside
//! regions, hence also equal.
//!
//! A region's shape is written on an 8-column grid (bit `8 * row + col`), moved to touch
//! row 0 and column 0; its canonical form is the smallest of its four flipped images. The
//! key is a hash of the sorted canonical forms and the side to move. Moves are listed
//! region by region in that sorted order, each region's in its canonical image's cell
//! order, so the `i`-th move of two positions with one key are images of each other under
//! such an isomorphism (a stored best-move index means the same move).
//!
//! Transposition (option `transpose`): mirroring every region in the diagonal turns
//! vertical dominoes into horizontal ones, so a position with Vertical to move is the same
//! game, for the side to move, as the transposed regions with Horizontal to move (whatever
//! the board's shape: only the regions matter). With it, the key is taken in whichever of
//! the two frames has the smaller (sorted forms, mover places vertical dominoes), and
//! moves are listed in that frame.
//!
//! Boards of at most 8 rows and 8 columns only (callers fall back to whole-board keys).

use crate::grid::{hash_words, Grid};

/// Column 0 of the 8-column layout.
const COL0: u64 = 0x0101_0101_0101_0101;
/// Column 7 of the 8-column layout.
const COL7: u64 = COL0 << 7;

/// One region of a position: its canonical shape and how to map it back to the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// The canonical form (8-column layout, touching row 0 and column 0).
    pub canon: u64,
    /// Board row and column of the region's bounding box's first row and column.
    origin: (u8, u8),
    /// Height and width of the bounding box.
    size: (u8, u8),
    /// The canonical image is flipped upside down / left to right.
    flip: (bool, bool),
    /// The region was taken from the transposed board (origin and size are in that frame).
    transposed: bool,
}

/// Whether region keys can be used on `grid` (at most 8 rows and 8 columns).
pub fn supported(grid: &Grid) -> bool {
    grid.rows() <= 8 && grid.cols() <= 8
}

/// The board's cells `b` in the 8-column layout.
#[inline]
fn to8(grid: &Grid, b: u64) -> u64 {
    let cols = grid.cols();
    let line = (1u64 << cols) - 1;
    let mut out = 0;
    for r in 0..grid.rows() {
        out |= ((b >> (r * cols)) & line) << (8 * r);
    }
    out
}

/// The orthogonal neighbours of the cells of `x` in the 8-column layout (may leave the
/// board's rows and columns; callers intersect with board cells).
#[inline]
fn neighbours8(x: u64) -> u64 {
    ((x << 1) & !COL0) | ((x >> 1) & !COL7) | (x << 8) | (x >> 8)
}

/// The regions of the board with `occupied` cells covered, canonical forms in increasing
/// order, written to `out` (cleared first): what the tests check [`collect`] by.
#[cfg(test)]
fn regions(grid: &Grid, occupied: u64, out: &mut Vec<Region>) {
    collect(to8(grid, !occupied & grid.full()), false, out);
}

/// The 8x8 bit matrix `x` (bit `8 * row + col`) mirrored in its diagonal (bit
/// `8 * col + row`).
#[inline]
pub fn transpose8(mut x: u64) -> u64 {
    let t = 0x0F0F_0F0F_0000_0000 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = 0x3333_0000_3333_0000 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = 0x5500_5500_5500_5500 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The regions of the position in the frame its key is taken in, sorted, written to `out`;
/// returns whether the side to move places vertical dominoes in that frame. `vertical`:
/// the side to move places vertical dominoes on the board; `transpose`: the transposed
/// frame may be chosen (see the module documentation).
pub fn frame(grid: &Grid, occupied: u64, vertical: bool, transpose: bool, out: &mut Vec<Region>) -> bool {
    let empty = to8(grid, !occupied & grid.full());
    collect(empty, false, out);
    if !transpose {
        return vertical;
    }
    let mut other = Vec::with_capacity(out.len());
    collect(transpose8(empty), true, &mut other);
    let order = other.iter().map(|r| r.canon).cmp(out.iter().map(|r| r.canon));
    // Frames compare by (sorted forms, mover places vertical dominoes).
    if order.is_lt() || (order.is_eq() && vertical) {
        *out = other;
        return !vertical;
    }
    vertical
}

/// The sorted regions of `empty` (8-column layout), taken from the board or its transpose.
fn collect(empty: u64, transposed: bool, out: &mut Vec<Region>) {
    out.clear();
    let mut live = empty & neighbours8(empty);
    while live != 0 {
        let mut comp = live & live.wrapping_neg();
        loop {
            let grown = (comp | neighbours8(comp)) & live;
            if grown == comp {
                break;
            }
            comp = grown;
        }
        live &= !comp;
        out.push(Region { transposed, ..canonical(comp) });
    }
    out.sort_unstable_by_key(|r| r.canon);
}

/// The canonical form of one region given in the 8-column layout.
#[inline]
fn canonical(comp: u64) -> Region {
    let min_r = comp.trailing_zeros() / 8;
    let max_r = (63 - comp.leading_zeros()) / 8;
    let mut fold = comp | (comp >> 32);
    fold |= fold >> 16;
    fold |= fold >> 8;
    let fold = fold as u8;
    let min_c = fold.trailing_zeros();
    let max_c = 7 - fold.leading_zeros();
    let (h, w) = (max_r - min_r + 1, max_c - min_c + 1);
    let t = comp >> (8 * min_r + min_c);
    let up_down = |x: u64| x.swap_bytes() >> (8 * (8 - h));
    let left_right = |x: u64| x.reverse_bits().swap_bytes() >> (8 - w);
    let lr = left_right(t);
    let mut best = (t, (false, false));
    for (image, flip) in [(up_down(t), (true, false)), (lr, (false, true)), (up_down(lr), (true, true))] {
        if image < best.0 {
            best = (image, flip);
        }
    }
    Region {
        canon: best.0,
        origin: (min_r as u8, min_c as u8),
        size: (h as u8, w as u8),
        flip: best.1,
        transposed: false,
    }
}

/// The key of a position with these (sorted) regions, the side to move placing vertical
/// dominoes (`vertical`) or horizontal ones.
pub fn key(regions: &[Region], vertical: bool) -> u64 {
    let mut words = [0u64; 34];
    words[0] = u64::from(vertical) | (regions.len() as u64) << 8;
    for (w, r) in words[1..].iter_mut().zip(regions) {
        *w = r.canon;
    }
    hash_words(&words[..1 + regions.len().min(33)])
}

/// The board cell of bit `p` of a region's canonical image.
#[inline]
fn back(grid: &Grid, r: &Region, p: u32) -> usize {
    let (mut row, mut col) = ((p / 8) as u8, (p % 8) as u8);
    if r.flip.0 {
        row = r.size.0 - 1 - row;
    }
    if r.flip.1 {
        col = r.size.1 - 1 - col;
    }
    let (row, col) = ((row + r.origin.0) as usize, (col + r.origin.1) as usize);
    if r.transposed {
        grid.index(col, row)
    } else {
        grid.index(row, col)
    }
}

/// The placements (board cells of the lower or left cell) for the side placing
/// `vertical` dominoes in the regions' frame (horizontal ones on the board if the frame
/// is transposed), region by region in the regions' order, each region's in its canonical
/// image's cell order.
pub fn placements_in_order(grid: &Grid, regions: &[Region], vertical: bool, out: &mut Vec<u8>) {
    let step = if vertical { 8 } else { 1 };
    for r in regions {
        let c = r.canon;
        let mut fits = if vertical { c & (c >> 8) } else { c & (c >> 1) & !COL7 };
        while fits != 0 {
            let p = fits.trailing_zeros();
            fits &= fits - 1;
            out.push(back(grid, r, p).min(back(grid, r, p + step)) as u8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use solvo_core::rng::Rng;

    #[test]
    fn transpose8_mirrors_the_diagonal() {
        let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..100 {
            let x = rng.next_u64();
            let naive = (0..64).filter(|&p| x >> p & 1 != 0).fold(0u64, |acc, p| acc | 1 << (8 * (p % 8) + p / 8));
            assert_eq!(transpose8(x), naive);
        }
    }

    /// Regions cover exactly the empty cells with an empty neighbour; moving a shape
    /// about or flipping it keeps its canonical form; the listed placements are exactly
    /// the legal ones.
    #[test]
    fn regions_cover_live_cells_and_list_all_placements() {
        let grid = Grid::new(7, 7).unwrap();
        let mut rng = Rng::new(0x0F1E_2D3C_4B5A_6978);
        let mut rs = Vec::new();
        // The placements listed for `rs` (in the frame's orientation `in_frame`) are the
        // legal placements of `vertical` on the board whose empty cells are `empty`.
        let lists_legal_placements = |rs: &[Region], in_frame: bool, empty: u64, vertical: bool| {
            let mut listed = Vec::new();
            placements_in_order(&grid, rs, in_frame, &mut listed);
            let mut expected: Vec<u8> =
                crate::grid::bits(crate::domineering_bounds::fits(&grid, empty, vertical)).map(|c| c as u8).collect();
            listed.sort_unstable();
            expected.sort_unstable();
            assert_eq!(listed, expected);
        };
        for _ in 0..3000 {
            let x = rng.next_u64();
            let occupied = (x | (x >> 5)) & grid.full();
            regions(&grid, occupied, &mut rs);
            let empty = !occupied & grid.full();
            let live = empty & grid.neighbours(empty);
            let cells: u32 = rs.iter().map(|r| r.canon.count_ones()).sum();
            assert_eq!(cells, live.count_ones());
            for vertical in [false, true] {
                lists_legal_placements(&rs, vertical, empty, vertical);
            }
            // The upside-down board has the same regions.
            let flipped = (0..7).fold(0u64, |acc, r| acc | ((occupied >> (7 * r)) & 0x7F) << (7 * (6 - r)));
            let mut fr = Vec::new();
            regions(&grid, flipped, &mut fr);
            assert_eq!(key(&rs, false), key(&fr, false));
            assert_ne!(key(&rs, false), key(&rs, true));
            // Transposed frames list the board's own placements too.
            for vertical in [false, true] {
                let mut fr = Vec::new();
                let in_frame = frame(&grid, occupied, vertical, true, &mut fr);
                lists_legal_placements(&fr, in_frame, empty, vertical);
            }
        }
    }
}
