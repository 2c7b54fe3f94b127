//! Domineering and Misère Domineering.
//!
//! Rules: the board starts empty. Players alternately place a domino on two empty
//! orthogonally adjacent cells; one player places only **vertical** dominoes (covering
//! a cell and the one above it), the other only **horizontal** ones (a cell and the one to
//! its right). Normal play: the player who cannot place a domino **loses**. Misère: the
//! player who cannot place a domino **wins**. There are no passes.
//!
//! Options ([`DomineeringOptions`]): `first=vertical|horizontal` — who starts; default
//! **vertical** (the literature's convention: on an `m x n` board, `m` rows, Vertical
//! starts). On square boards the choice does not change the value (transpose symmetry).
//!
//! A move is written as its lower-left cell and its orientation: `c3v` covers c3 and c4,
//! `c3h` covers c3 and d3. Symmetries: row flip and column flip (vertical stays vertical).
//!
//! Symmetric keys (option `symmetry=on|off`, default **on**): `hash_key` is the same for
//! the four flipped images of a position, and moves are listed in the canonical image's
//! order (see [`crate::symmetry`]), so one table entry serves all images.
//!
//! Region keys (option `regions=on|off`, default **on**; boards up to 8x8): positions
//! whose regions of empty cells have the same shapes, each up to translation and flips,
//! share their key, and moves are listed region by region in a canonical order (see
//! [`crate::domineering_regions`]). This includes the flipped images of the board, so it
//! overrides `symmetry`. With `transpose=on|off` (default **off**) a position also shares
//! its key with its transpose with the other orientation to move.
//!
//! Move-count bounds (option `bounds=on|off`, default **on**): a position where the
//! bounds of [`crate::domineering_bounds`] prove which player will be the first unable to
//! move is over at once with that value (no moves listed); values never change.

use crate::domineering_bounds::first_stuck;
use crate::domineering_regions;
use crate::error::GameError;
use crate::grid::{bits, cell_name, hash_words, Grid, Symmetries};
use crate::options::{bad_option, parse_on_off, GameOptions};
use crate::symmetry::SymmetryTables;
use solvo_core::{Game, Status};
use std::fmt;

/// The rule options of Domineering (see the module documentation).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DomineeringOptions {
    /// Misère play: the player who cannot move wins. Default `false` (set by the game name).
    pub misere: bool,
    /// The first player places vertical dominoes. Default `true`.
    pub first_vertical: bool,
    /// Flipped positions share their hash key (see the module documentation). Default
    /// `true`.
    pub symmetry: bool,
    /// Positions decided by the move-count bounds are over at once (see the module
    /// documentation). Default `true`.
    pub bounds: bool,
    /// Positions with the same regions up to translation and flips share their key (see
    /// the module documentation). Default `true`.
    pub regions: bool,
    /// With region keys, a position and its transpose with the other side to move share
    /// their key (see [`crate::domineering_regions`]). Default `false`: it is not a gain on
    /// every board (misère 7x7 221 M -> 125 M nodes and 7x6 3.81 M -> 2.58 M, but 6x7
    /// 2.74 M -> 7.19 M and normal 7x7 1.59 M -> 1.74 M), and a key costs about twice the
    /// time.
    pub transpose: bool,
    /// Move ordering by blocking (option `ordering=blocking|plain`, default `blocking`;
    /// `plain` is the study's, which gives Domineering no heuristic: every move priority
    /// 0, so only the Monte Carlo order, when there is one, sorts them). Ordering only.
    pub blocking_ordering: bool,
}

impl Default for DomineeringOptions {
    fn default() -> Self {
        DomineeringOptions {
            misere: false,
            first_vertical: true,
            symmetry: true,
            bounds: true,
            regions: true,
            transpose: false,
            blocking_ordering: true,
        }
    }
}

impl DomineeringOptions {
    /// Reads the options of `game` (`first=vertical|horizontal`, `symmetry=on|off`,
    /// `bounds=on|off`, `regions=on|off`, `transpose=on|off`, `ordering=blocking|plain`);
    /// `misere` is given by the game's name. Unknown keys are refused.
    pub fn from_options(game: &'static str, misere: bool, options: &GameOptions) -> Result<Self, GameError> {
        let mut out = DomineeringOptions { misere, ..Default::default() };
        for (key, value) in options.pairs() {
            match key.as_str() {
                "first" => {
                    out.first_vertical = match value.to_ascii_lowercase().as_str() {
                        "vertical" | "v" => true,
                        "horizontal" | "h" => false,
                        _ => return Err(bad_option(game, key, value, "expected vertical or horizontal")),
                    }
                }
                "symmetry" => out.symmetry = parse_on_off(game, key, value)?,
                "bounds" => out.bounds = parse_on_off(game, key, value)?,
                "regions" => out.regions = parse_on_off(game, key, value)?,
                "transpose" => out.transpose = parse_on_off(game, key, value)?,
                "ordering" => {
                    out.blocking_ordering = match value.to_ascii_lowercase().as_str() {
                        "blocking" => true,
                        "plain" => false,
                        _ => return Err(bad_option(game, key, value, "expected blocking or plain")),
                    }
                }
                _ => {
                    return Err(bad_option(
                        game,
                        key,
                        value,
                        "unknown option (accepted: first, symmetry, bounds, regions, transpose, ordering)",
                    ))
                }
            }
        }
        Ok(out)
    }
}

/// A Domineering move: the domino's lower (vertical) or left (horizontal) cell.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct DomineeringMove {
    /// The cell index of the domino's lower-left cell.
    pub cell: u8,
    /// Vertical (covers `cell` and the cell above) or horizontal (and the cell right).
    pub vertical: bool,
    /// The board width (for naming the cell).
    cols: u8,
}

/// A Domineering position: the covered cells and the side to move.
#[derive(Clone, Debug)]
pub struct Domineering {
    grid: Grid,
    occupied: u64,
    /// Cells covered by vertical dominoes (for drawing only).
    vertical_cells: u64,
    player: u8,
    options: DomineeringOptions,
    /// The symmetry tables when keys are symmetric.
    sym: Option<&'static SymmetryTables>,
    /// The value for the side to move when the game is over (no move, or decided by the
    /// bounds).
    over: Option<i32>,
    /// Region keys are in use (option on and the board small enough).
    regions: bool,
    /// The region key, computed when a position still to be played is made (0: not yet).
    key: u64,
}

impl Domineering {
    /// The empty `rows x cols` board (at most 64 cells), first player to move.
    pub fn new(rows: usize, cols: usize, options: DomineeringOptions) -> Result<Self, GameError> {
        let name = if options.misere { "misere-domineering" } else { "domineering" };
        let grid =
            Grid::new(rows, cols).map_err(|reason| GameError::UnsupportedSize { game: name, rows, cols, reason })?;
        let sym = options.symmetry.then(|| SymmetryTables::get(&grid, Symmetries::Flips));
        let regions = options.regions && domineering_regions::supported(&grid);
        let mut game =
            Domineering { grid, occupied: 0, vertical_cells: 0, player: 0, options, sym, over: None, regions, key: 0 };
        game.refresh();
        Ok(game)
    }

    /// Recomputes what depends on the board: whether the game is over, and the region key
    /// of a position still to be played.
    fn refresh(&mut self) {
        self.over = self.compute_over();
        self.key = 0;
        if self.regions && self.over.is_none() {
            self.key = self.region_key();
        }
    }

    /// The region key (see [`crate::domineering_regions`]).
    fn region_key(&self) -> u64 {
        let mut rs = Vec::with_capacity(16);
        let vertical = domineering_regions::frame(
            &self.grid,
            self.occupied,
            self.vertical_to_move(),
            self.options.transpose,
            &mut rs,
        );
        domineering_regions::key(&rs, vertical)
    }

    /// The value for the side to move if the game is over: the first player unable to move
    /// loses (normal) or wins (misère), now or as proved by the bounds.
    fn compute_over(&self) -> Option<i32> {
        let vertical = self.vertical_to_move();
        let stuck = if self.placements(vertical) == 0 {
            Some(true)
        } else if self.options.bounds {
            first_stuck(&self.grid, self.occupied, vertical)
        } else {
            None
        };
        stuck.map(|me| if me == self.options.misere { 1 } else { -1 })
    }

    /// The same position with the move-count bounds on or off (the rules, hence the
    /// values, are the same; only when the game is declared over changes).
    pub fn with_bounds(&self, bounds: bool) -> Domineering {
        let mut game = Domineering { options: DomineeringOptions { bounds, ..self.options }, ..self.clone() };
        game.refresh();
        game
    }

    /// The same position with region keys on or off, transposed frames allowed or not
    /// (values never change; only which positions share a key, and the order moves are
    /// listed in).
    pub fn with_regions(&self, regions: bool, transpose: bool) -> Domineering {
        let options = DomineeringOptions { regions, transpose, ..self.options };
        let mut game =
            Domineering { options, regions: regions && domineering_regions::supported(&self.grid), ..self.clone() };
        game.refresh();
        game
    }

    /// The board geometry.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The covered cells.
    pub fn occupied(&self) -> u64 {
        self.occupied
    }

    /// The rule options.
    pub fn options(&self) -> DomineeringOptions {
        self.options
    }

    /// Whether the side to move places vertical dominoes.
    #[inline]
    pub fn vertical_to_move(&self) -> bool {
        (self.player == 0) == self.options.first_vertical
    }

    /// The lower-left cells of the legal placements in the given orientation.
    #[inline]
    fn placements(&self, vertical: bool) -> u64 {
        let empty = !self.occupied & self.grid.full();
        if vertical {
            empty & self.grid.shift(empty, -1, 0)
        } else {
            empty & self.grid.shift(empty, 0, -1)
        }
    }

    /// The two cells a move covers, as a bitboard.
    #[inline]
    fn cover(&self, mv: DomineeringMove) -> u64 {
        let second = if mv.vertical { mv.cell as usize + self.grid.cols() } else { mv.cell as usize + 1 };
        (1u64 << mv.cell) | (1u64 << second)
    }

    /// Reads a move like `c3v` or `c3` (orientation of the side to move) and checks it is legal.
    pub fn parse_move(&self, text: &str) -> Result<DomineeringMove, GameError> {
        let bad = |reason: &str| GameError::BadMove { text: text.to_string(), reason: reason.into() };
        if self.over.is_some() {
            return Err(bad("the game is over (no move, or decided by the move-count bounds)"));
        }
        let t = text.trim().to_ascii_lowercase();
        let vertical = self.vertical_to_move();
        let cell_text = match t.chars().last() {
            Some('v') => {
                if !vertical {
                    return Err(bad("the side to move places horizontal dominoes"));
                }
                &t[..t.len() - 1]
            }
            Some('h') => {
                if vertical {
                    return Err(bad("the side to move places vertical dominoes"));
                }
                &t[..t.len() - 1]
            }
            _ => &t[..],
        };
        let cell = self.grid.parse_cell(cell_text).ok_or_else(|| bad("not a cell of the board"))?;
        if self.placements(vertical) & (1u64 << cell) == 0 {
            return Err(bad("both cells of the domino must be on the board and empty"));
        }
        Ok(DomineeringMove { cell: cell as u8, vertical, cols: self.grid.cols() as u8 })
    }
}

impl Game for Domineering {
    type Move = DomineeringMove;

    fn generate_moves(&self, moves: &mut Vec<DomineeringMove>) {
        if self.over.is_some() {
            return;
        }
        let vertical = self.vertical_to_move();
        let cols = self.grid.cols() as u8;
        if self.regions {
            let mut rs = Vec::with_capacity(16);
            let in_frame =
                domineering_regions::frame(&self.grid, self.occupied, vertical, self.options.transpose, &mut rs);
            let mut cells = Vec::with_capacity(64);
            domineering_regions::placements_in_order(&self.grid, &rs, in_frame, &mut cells);
            moves.extend(cells.into_iter().map(|cell| DomineeringMove { cell, vertical, cols }));
            return;
        }
        let Some(t) = self.sym else {
            moves.extend(bits(self.placements(vertical)).map(|c| DomineeringMove { cell: c as u8, vertical, cols }));
            return;
        };
        // The canonical image's placements in its cell order, mapped back: the anchor
        // (lower or left cell) is the smaller of the two cells' pre-images.
        let (s, image) = t.canonical([self.occupied, 0]);
        let empty = !image[0] & self.grid.full();
        let step = if vertical { self.grid.cols() } else { 1 };
        let placements =
            if vertical { empty & self.grid.shift(empty, -1, 0) } else { empty & self.grid.shift(empty, 0, -1) };
        moves.extend(bits(placements).map(|c| {
            let cell = t.back(s, c).min(t.back(s, c + step));
            DomineeringMove { cell: cell as u8, vertical, cols }
        }));
    }

    fn play(&self, mv: DomineeringMove) -> Self {
        let cover = self.cover(mv);
        let mut next = self.clone();
        next.occupied |= cover;
        if mv.vertical {
            next.vertical_cells |= cover;
        }
        next.player ^= 1;
        next.refresh();
        next
    }

    fn status(&self) -> Status {
        match self.over {
            Some(v) => Status::Over(v),
            None => Status::ToMove,
        }
    }

    fn max_value(&self) -> i32 {
        1
    }

    /// Every final value is +1 or -1: the game has no draws.
    fn draws_possible(&self) -> bool {
        false
    }

    fn hash_key(&self) -> u64 {
        if self.regions {
            return if self.key != 0 { self.key } else { self.region_key() };
        }
        let occupied = self.sym.map_or(self.occupied, |t| t.canonical([self.occupied, 0]).1[0]);
        hash_words(&[occupied, self.player as u64])
    }

    /// The covered cells (8 bytes, little-endian) and the player to move (1 byte).
    fn encode(&self) -> Option<Vec<u8>> {
        Some(crate::grid::encode_words(&[self.occupied], &[self.player]))
    }

    fn symmetric_images(&self) -> Vec<Self> {
        self.grid
            .symmetry_perms(Symmetries::Flips)
            .iter()
            .map(|perm| {
                let mut image = Domineering {
                    occupied: Grid::permute(self.occupied, perm),
                    vertical_cells: Grid::permute(self.vertical_cells, perm),
                    ..self.clone()
                };
                image.refresh();
                image
            })
            .collect()
    }

    fn player_to_move(&self) -> u8 {
        self.player
    }

    /// Code: player, cell, and whether the domino touches an occupied cell or the edge
    /// along its long sides (a cheap "fits snugly" feature).
    fn move_code(&self, mv: DomineeringMove) -> u32 {
        let cover = self.cover(mv);
        let (a, b) = if mv.vertical { (0, 1) } else { (1, 0) };
        let side = self.grid.shift(cover, a, b) | self.grid.shift(cover, -a, -b);
        let open_sides = (side & !self.occupied).count_ones();
        let snug = (open_sides < 4) as u32;
        ((self.player as u32 * self.grid.cells() as u32) + mv.cell as u32) * 2 + snug
    }

    fn move_code_count(&self) -> u32 {
        4 * self.grid.cells() as u32
    }

    /// Priority: the opponent's placements this move destroys minus the mover's own
    /// placements it destroys (itself included), so "safe", blocking moves come first.
    /// In the misère game blocking counts three times (`--algo ab-tt-mc --etc`, nodes at
    /// weights 1:1 / 3:1: misère 6x6 481,497 / 384,766, 7x6 3,726,145 / 3,399,466, 6x7
    /// 2,530,329 / 2,346,263, 7x7 with `transpose=on` 124.7 M / 111.9 M; 1:2 and 0:0 were
    /// worse everywhere, 4:1 the same as 3:1; normal play 1:1 and 2:1 within 2%).
    fn move_priority(&self, mv: DomineeringMove) -> i32 {
        if !self.options.blocking_ordering {
            return 0;
        }
        let cover = self.cover(mv);
        let own = self.placements(mv.vertical);
        let opp = self.placements(!mv.vertical);
        let own_hit =
            if mv.vertical { cover | self.grid.shift(cover, -1, 0) } else { cover | self.grid.shift(cover, 0, -1) };
        let opp_hit =
            if mv.vertical { cover | self.grid.shift(cover, 0, -1) } else { cover | self.grid.shift(cover, -1, 0) };
        let (blocked, spent) = ((opp & opp_hit).count_ones() as i32, (own & own_hit).count_ones() as i32);
        if self.options.misere {
            3 * blocked - spent
        } else {
            blocked - spent
        }
    }
}

impl fmt::Display for Domineering {
    /// The board (`|` vertical domino, `-` horizontal, `.` empty) and who is to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.grid.draw(f, |i| {
            let b = 1u64 << i;
            if self.vertical_cells & b != 0 {
                '|'
            } else if self.occupied & b != 0 {
                '-'
            } else {
                '.'
            }
        })?;
        writeln!(
            f,
            "{} player to move ({})",
            if self.player == 0 { "first" } else { "second" },
            if self.vertical_to_move() { "vertical" } else { "horizontal" }
        )
    }
}

impl fmt::Display for DomineeringMove {
    /// The move as its lower-left cell and orientation, like `c3v` (what `parse_move` reads).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cell = cell_name(self.cell as usize, self.cols as usize);
        write!(f, "{cell}{}", if self.vertical { 'v' } else { 'h' })
    }
}

impl fmt::Debug for DomineeringMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
