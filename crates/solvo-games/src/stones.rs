//! Blocks and liberties of stones on a [`Grid`], shared by Atarigo, Nogo and Go.

use crate::grid::{bits, Grid};

/// What the side to move needs to know about liberties before placing a stone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LibertyMap {
    /// Empty points that are the last liberty of some enemy block (placing there captures).
    pub capture_points: u64,
    /// Empty points that are the last liberty of some own block (that block is in atari).
    pub own_atari_points: u64,
    /// Empty points adjacent to an own block that has at least two liberties.
    pub own_safe_points: u64,
    /// Empty points that are liberties of an enemy block with exactly two liberties
    /// (placing there gives atari).
    pub atari_points: u64,
    /// Empty points with at least one empty neighbour.
    pub breathing_points: u64,
}

impl LibertyMap {
    /// Empty points where a stone of the side to move would have a liberty after the
    /// move, counting captures as giving liberties (the non-suicide points).
    #[inline]
    pub fn non_suicide(&self) -> u64 {
        self.breathing_points | self.own_safe_points | self.capture_points
    }
}

/// The liberties of every block for the side owning `own` against `opp`.
pub fn liberty_map(grid: &Grid, own: u64, opp: u64) -> LibertyMap {
    let empty = !(own | opp) & grid.full();
    let mut map = LibertyMap { breathing_points: empty & grid.neighbours(empty), ..Default::default() };
    let mut rest = opp;
    while rest != 0 {
        let block = grid.flood(rest & rest.wrapping_neg(), opp);
        rest &= !block;
        let libs = grid.neighbours(block) & empty;
        match libs.count_ones() {
            1 => map.capture_points |= libs,
            2 => map.atari_points |= libs,
            _ => {}
        }
    }
    let mut rest = own;
    while rest != 0 {
        let block = grid.flood(rest & rest.wrapping_neg(), own);
        rest &= !block;
        let libs = grid.neighbours(block) & empty;
        if libs.count_ones() == 1 {
            map.own_atari_points |= libs;
        } else {
            map.own_safe_points |= libs;
        }
    }
    map
}

/// The enemy stones captured by a stone of the mover placed on `point`: the enemy blocks
/// next to `point` left without a liberty.
#[inline]
pub fn captured_by(grid: &Grid, own: u64, opp: u64, point: usize) -> u64 {
    let p = 1u64 << point;
    let own = own | p;
    let empty = !(own | opp) & grid.full();
    let mut captured = 0u64;
    for n in bits(grid.neighbours(p) & opp) {
        let nb = 1u64 << n;
        if captured & nb != 0 {
            continue;
        }
        let block = grid.flood(nb, opp);
        if grid.neighbours(block) & empty == 0 {
            captured |= block;
        }
    }
    captured
}

/// The 4-neighbourhood of `point` as a code in `0..256`: for the cells above, below,
/// left and right, 0 = empty, 1 = own stone, 2 = enemy stone, 3 = off the board.
pub fn neighbour_pattern(grid: &Grid, own: u64, opp: u64, point: usize) -> u32 {
    let (r, c) = (grid.row(point) as i32, grid.col(point) as i32);
    let mut code = 0u32;
    for (dr, dc) in [(1, 0), (-1, 0), (0, -1), (0, 1)] {
        let (nr, nc) = (r + dr, c + dc);
        let state = if nr < 0 || nc < 0 || nr >= grid.rows() as i32 || nc >= grid.cols() as i32 {
            3
        } else {
            let b = 1u64 << grid.index(nr as usize, nc as usize);
            if own & b != 0 {
                1
            } else if opp & b != 0 {
                2
            } else {
                0
            }
        };
        code = code * 4 + state;
    }
    code
}

/// Area score of each side (Tromp–Taylor): its stones plus the empty regions whose
/// neighbours are all its stones. Returns `[first, second]`.
pub fn area_score(grid: &Grid, stones: [u64; 2]) -> [u32; 2] {
    let empty = !(stones[0] | stones[1]) & grid.full();
    let mut score = [stones[0].count_ones(), stones[1].count_ones()];
    let mut rest = empty;
    while rest != 0 {
        let region = grid.flood(rest & rest.wrapping_neg(), empty);
        rest &= !region;
        let border = grid.neighbours(region);
        let touches = [border & stones[0] != 0, border & stones[1] != 0];
        match touches {
            [true, false] => score[0] += region.count_ones(),
            [false, true] => score[1] += region.count_ones(),
            _ => {}
        }
    }
    score
}

/// A stone placed on a point (Atarigo, Nogo, Go). Prints as the point's name, like `b2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Point {
    /// The cell index.
    pub cell: u8,
    cols: u8,
}

impl Point {
    /// The point `cell` of a board `grid`.
    pub fn new(grid: &Grid, cell: usize) -> Point {
        Point { cell: cell as u8, cols: grid.cols() as u8 }
    }

    /// The point as a one-bit bitboard.
    #[inline]
    pub fn bit(self) -> u64 {
        1u64 << self.cell
    }
}

impl std::fmt::Display for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::grid::cell_name(self.cell as usize, self.cols as usize))
    }
}

impl std::fmt::Debug for Point {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(self, f)
    }
}

/// Reads a point name like `b2` on `grid` and checks it is in `legal`.
pub fn parse_point(grid: &Grid, legal: u64, text: &str) -> Result<Point, crate::GameError> {
    let bad = |reason: &str| crate::GameError::BadMove { text: text.to_string(), reason: reason.into() };
    let cell = grid.parse_cell(text.trim()).ok_or_else(|| bad("not a point of the board (like b2)"))?;
    if legal & (1u64 << cell) == 0 {
        return Err(bad("not a legal move of the side to move"));
    }
    Ok(Point::new(grid, cell))
}

/// Draws stones: `X` first player (Black), `O` second player (White), `.` empty.
pub fn draw_stones(grid: &Grid, stones: [u64; 2], f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
    grid.draw(f, |i| {
        let b = 1u64 << i;
        if stones[0] & b != 0 {
            'X'
        } else if stones[1] & b != 0 {
            'O'
        } else {
            '.'
        }
    })
}

/// The PPAF move code of a stone that `player` places at `point`: the player, the point
/// and its 4-neighbourhood pattern (empty / own / enemy / edge), Cazenave's code for
/// Atarigo and Nogo. Always below [`point_move_code_count`] of the same grid.
pub fn point_move_code(grid: &Grid, stones: [u64; 2], player: u8, point: usize) -> u32 {
    let own = stones[player as usize];
    let opp = stones[1 - player as usize];
    let pattern = neighbour_pattern(grid, own, opp, point);
    (player as u32 * grid.cells() as u32 + point as u32) * 256 + pattern
}

/// Exclusive upper bound of [`point_move_code`] on `grid`.
pub fn point_move_code_count(grid: &Grid) -> u32 {
    2 * grid.cells() as u32 * 256
}
