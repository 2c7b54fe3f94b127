//! Go on tiny boards (area scoring, komi, positional superko, move limit).
//!
//! Rules implemented (each choice a [`GoOptions`] field):
//! - The board starts empty; the first player is **Black** (`X`), the second **White**
//!   (`O`). A move places a stone on an empty point or **passes**.
//! - Enemy blocks left without liberty by a stone are removed. **Suicide** (a stone whose
//!   own block has no liberty after the captures) is **illegal**.
//! - **Positional superko** (default on, option `superko=positional|none`): a stone may not
//!   recreate any whole-board arrangement that occurred earlier in the game (the initial
//!   empty board included), whoever was to move then. Passing is always legal.
//! - The game ends after **two consecutive passes**, or when the number of moves played
//!   (passes included) reaches the **move limit**, default **2 × cells** (option
//!   `move-limit=N`), as in the paper; `move-limit=none` removes it (then superko must stay on).
//!   A game stopped by the move limit is worth **0** ("unknown", as in the paper; option
//!   `at-limit=zero|score`, default zero), one ended by two passes its area score.
//! - **Area scoring** (Tromp–Taylor): stones plus empty regions that touch stones of one
//!   colour only; White adds the **komi** (option `komi=K`, a multiple of 0.5). Default komi:
//!   3x3 8.5, 3x4 and 4x3 3.5 (the paper's), 4x4 1.5, 5x5 24.5 (the literature's optimal
//!   area scores minus 0.5, so that Black wins by half a point), 0.5 otherwise. The value
//!   is +1 for the side to move if its score is higher, -1 if lower, 0 if equal (possible
//!   only with an integer komi).
//!
//! Passes are [`GoMove::Pass`], always among the generated moves while the game is on:
//! `status` is never `MustPass`. Because superko makes legality depend on the history,
//! `hash_key` includes the earlier board arrangements that could still be recreated before
//! the move limit (an order-independent hash of them; option `history-key=full` keeps
//! them all), the move count and the consecutive passes, so a transposition table keyed
//! by it never mixes positions with different futures (up to hash collisions); see
//! [`crate::go_key`] for why dropping the others is sound.
//!
//! Moves are written as the point (`b2`) or `pass`. Symmetries: all symmetries of the
//! rectangle (the history is transformed too). Symmetric keys (option `symmetry=on|off`,
//! default **on**): the key is the same for symmetric images (board and history mapped),
//! and points are listed in the canonical frame's order (pass last), so one table entry
//! serves all images.

use crate::error::GameError;
use crate::go_key::{cells_in_frame, go_key, KeyParts};
use crate::grid::{cell_name, Grid, Symmetries};
use crate::options::{bad_option, parse_on_off, GameOptions};
use crate::stones::{area_score, captured_by, draw_stones, liberty_map, neighbour_pattern};
use crate::symmetry::SymmetryTables;
use solvo_core::{Game, Status};
use std::fmt;
use std::sync::Arc;

/// The rule options of tiny Go.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GoOptions {
    /// Komi in half points, added to White's score (17 = 8.5).
    pub komi_halves: i32,
    /// The game ends when this many moves (passes included) have been played; `None`:
    /// no limit. Default `2 * cells`.
    pub move_limit: Option<u32>,
    /// Positional superko. Default `true`.
    pub superko: bool,
    /// Symmetric positions share their key (see the module documentation). Default `true`.
    pub symmetry: bool,
    /// The key covers every earlier arrangement, not only those that could still be
    /// recreated. Default `false` (both are sound; the filtered key finds transpositions).
    pub full_history_key: bool,
    /// A game stopped by the move limit (not by two passes) is worth 0, as in the
    /// study, instead of its area score. Default `true`.
    pub limit_is_zero: bool,
}

impl GoOptions {
    /// The default options for a `rows x cols` board (see the module documentation).
    pub fn default_for(rows: usize, cols: usize) -> GoOptions {
        let komi_halves = match (rows.min(cols), rows.max(cols)) {
            (3, 3) => 17,
            (3, 4) => 7,
            (4, 4) => 3,
            (5, 5) => 49,
            _ => 1,
        };
        GoOptions {
            komi_halves,
            move_limit: Some(2 * (rows * cols) as u32),
            superko: true,
            symmetry: true,
            full_history_key: false,
            limit_is_zero: true,
        }
    }

    /// Reads `komi=K`, `move-limit=N|none`, `at-limit=zero|score`,
    /// `superko=positional|none`, `symmetry=on|off` and `history-key=relevant|full` over the defaults of the size; unknown keys and
    /// unusable values are refused.
    pub fn from_options(rows: usize, cols: usize, options: &GameOptions) -> Result<Self, GameError> {
        let mut out = GoOptions::default_for(rows, cols);
        for (key, value) in options.pairs() {
            match key.as_str() {
                "komi" => {
                    let k: f64 =
                        value.parse().map_err(|_| bad_option("go", key, value, "expected a number like 8.5"))?;
                    let halves = k * 2.0;
                    if !halves.is_finite() || halves.fract() != 0.0 || halves.abs() > 1000.0 {
                        return Err(bad_option("go", key, value, "komi must be a multiple of 0.5 within ±500"));
                    }
                    out.komi_halves = halves as i32;
                }
                "move-limit" => {
                    out.move_limit = if value.eq_ignore_ascii_case("none") {
                        None
                    } else {
                        let n: u32 = value
                            .parse()
                            .map_err(|_| bad_option("go", key, value, "expected a positive number or none"))?;
                        if n == 0 {
                            return Err(bad_option("go", key, value, "expected a positive number or none"));
                        }
                        Some(n)
                    }
                }
                "superko" => {
                    out.superko = match value.to_ascii_lowercase().as_str() {
                        "positional" | "psk" | "on" | "true" => true,
                        "none" | "off" | "false" => false,
                        _ => return Err(bad_option("go", key, value, "expected positional or none")),
                    }
                }
                "symmetry" => out.symmetry = parse_on_off("go", key, value)?,
                "at-limit" => {
                    out.limit_is_zero = match value.to_ascii_lowercase().as_str() {
                        "zero" | "0" => true,
                        "score" => false,
                        _ => return Err(bad_option("go", key, value, "expected zero or score")),
                    }
                }
                "history-key" => {
                    out.full_history_key = match value.to_ascii_lowercase().as_str() {
                        "relevant" => false,
                        "full" => true,
                        _ => return Err(bad_option("go", key, value, "expected relevant or full")),
                    }
                }
                _ => {
                    return Err(bad_option(
                        "go",
                        key,
                        value,
                        "unknown option (accepted: komi, move-limit, at-limit, superko, symmetry, history-key)",
                    ))
                }
            }
        }
        if out.move_limit.is_none() && !out.superko {
            return Err(bad_option("go", "move-limit", "none", "without superko the game needs a move limit"));
        }
        Ok(out)
    }
}

/// A Go move: a stone on a point, or a pass.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum GoMove {
    /// A stone on the cell (with the board width, for printing).
    Place {
        /// The cell index.
        cell: u8,
        /// The board width.
        cols: u8,
    },
    /// A pass.
    Pass,
}

/// A tiny-Go position with its history (earlier board arrangements, for superko).
#[derive(Clone, Debug)]
pub struct Go {
    grid: Grid,
    stones: [u64; 2],
    player: u8,
    /// Consecutive passes just played (0, 1 or 2).
    passes: u8,
    /// Moves played so far (passes included).
    ply: u32,
    /// Every distinct board arrangement so far, the current one included (shared, copied
    /// on write).
    history: Arc<Vec<[u64; 2]>>,
    options: GoOptions,
    /// The symmetry tables when keys are symmetric.
    sym: Option<&'static SymmetryTables>,
    /// The symmetry of the canonical frame (0 without symmetric keys).
    canon: u8,
    /// The hash key (see [`crate::go_key`]).
    key: u64,
}

impl Go {
    /// The empty `rows x cols` board (at most 64 points), Black (first player) to move.
    pub fn new(rows: usize, cols: usize, options: GoOptions) -> Result<Self, GameError> {
        let grid =
            Grid::new(rows, cols).map_err(|reason| GameError::UnsupportedSize { game: "go", rows, cols, reason })?;
        let empty = [0u64, 0u64];
        let sym = options.symmetry.then(|| SymmetryTables::get(&grid, Symmetries::All));
        let mut game = Go {
            grid,
            stones: empty,
            player: 0,
            passes: 0,
            ply: 0,
            history: Arc::new(vec![empty]),
            options,
            sym,
            canon: 0,
            key: 0,
        };
        game.finish();
        Ok(game)
    }

    /// Computes the key and the canonical frame after the state changed.
    fn finish(&mut self) {
        let (key, canon) = go_key(&KeyParts {
            grid: &self.grid,
            stones: self.stones,
            player: self.player,
            passes: self.passes,
            ply: self.ply,
            move_limit: self.options.move_limit,
            history: &self.history,
            full_history: self.options.full_history_key,
            sym: self.sym,
        });
        self.key = key;
        self.canon = canon;
    }

    /// The board geometry.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The stones, `[Black (first player), White]`.
    pub fn stones(&self) -> [u64; 2] {
        self.stones
    }

    /// The rule options.
    pub fn options(&self) -> GoOptions {
        self.options
    }

    /// The same position (board, history, move count) keyed under other key options:
    /// `symmetry` and `full_history_key` of [`GoOptions`] (they change keys and the order
    /// moves are listed in, never the rules), for comparing them.
    pub fn with_key_options(&self, symmetry: bool, full_history_key: bool) -> Go {
        let options = GoOptions { symmetry, full_history_key, ..self.options };
        let sym = symmetry.then(|| SymmetryTables::get(&self.grid, Symmetries::All));
        let mut game = Go { options, sym, ..self.clone() };
        game.finish();
        game
    }

    /// Moves played so far (passes included).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// Area scores `[Black, White]` in half points, komi included in White's.
    pub fn score_halves(&self) -> [i32; 2] {
        let s = area_score(&self.grid, self.stones);
        [2 * s[0] as i32, 2 * s[1] as i32 + self.options.komi_halves]
    }

    fn over(&self) -> bool {
        self.passes >= 2 || self.options.move_limit.is_some_and(|l| self.ply >= l)
    }

    /// The board after the side to move places a stone on `cell`, or `None` if that is
    /// suicide or (with superko) repeats an earlier arrangement.
    fn after_stone(&self, cell: usize) -> Option<[u64; 2]> {
        let me = self.player as usize;
        let (own, opp) = (self.stones[me], self.stones[1 - me]);
        let captured = captured_by(&self.grid, own, opp, cell);
        let mut next = self.stones;
        next[me] |= 1u64 << cell;
        next[1 - me] &= !captured;
        if captured == 0 {
            let empty = !(next[0] | next[1]) & self.grid.full();
            let block = self.grid.flood(1u64 << cell, next[me]);
            if self.grid.neighbours(block) & empty == 0 {
                return None;
            }
        }
        if self.options.superko && self.history.contains(&next) {
            return None;
        }
        Some(next)
    }

    /// Reads a move like `b2` or `pass` and checks it is legal.
    pub fn parse_move(&self, text: &str) -> Result<GoMove, GameError> {
        let bad = |reason: &str| GameError::BadMove { text: text.to_string(), reason: reason.into() };
        if self.over() {
            return Err(bad("the game is over"));
        }
        if text.trim().eq_ignore_ascii_case("pass") {
            return Ok(GoMove::Pass);
        }
        let cell =
            self.grid.parse_cell(text.trim()).ok_or_else(|| bad("not a point of the board (like b2) or pass"))?;
        if (self.stones[0] | self.stones[1]) & (1u64 << cell) != 0 {
            return Err(bad("the point is occupied"));
        }
        if self.after_stone(cell).is_none() {
            return Err(bad("suicide or a repetition of an earlier position (superko)"));
        }
        Ok(GoMove::Place { cell: cell as u8, cols: self.grid.cols() as u8 })
    }
}

impl Game for Go {
    type Move = GoMove;

    fn generate_moves(&self, moves: &mut Vec<GoMove>) {
        if self.over() {
            return;
        }
        let me = self.player as usize;
        let (own, opp) = (self.stones[me], self.stones[1 - me]);
        let map = liberty_map(&self.grid, own, opp);
        let empty = !(own | opp) & self.grid.full();
        let cols = self.grid.cols() as u8;
        for cell in cells_in_frame(self.sym, self.canon, empty & map.non_suicide()) {
            if !self.options.superko || self.after_stone(cell).is_some() {
                moves.push(GoMove::Place { cell: cell as u8, cols });
            }
        }
        moves.push(GoMove::Pass);
    }

    fn play(&self, mv: GoMove) -> Self {
        let mut next = self.clone();
        next.player ^= 1;
        next.ply += 1;
        match mv {
            GoMove::Pass => next.passes += 1,
            GoMove::Place { cell, .. } => {
                next.passes = 0;
                let me = self.player as usize;
                let captured = captured_by(&self.grid, self.stones[me], self.stones[1 - me], cell as usize);
                next.stones[me] |= 1u64 << cell;
                next.stones[1 - me] &= !captured;
                if !self.history.contains(&next.stones) {
                    Arc::make_mut(&mut next.history).push(next.stones);
                }
            }
        }
        next.finish();
        next
    }

    fn status(&self) -> Status {
        if !self.over() {
            return Status::ToMove;
        }
        if self.passes < 2 && self.options.limit_is_zero {
            return Status::Over(0);
        }
        let [black, white] = self.score_halves();
        let v = (black - white).signum();
        Status::Over(if self.player == 0 { v } else { -v })
    }

    fn max_value(&self) -> i32 {
        1
    }

    fn hash_key(&self) -> u64 {
        self.key
    }

    /// The stones (8 bytes each), the player to move, the passes just played, the move
    /// count (with a move limit) and, with superko, every earlier arrangement in sorted
    /// order (the set decides which moves are legal; its order does not).
    fn encode(&self) -> Option<Vec<u8>> {
        let ply = if self.options.move_limit.is_some() { self.ply } else { 0 };
        let mut words = vec![self.stones[0], self.stones[1], u64::from(ply)];
        if self.options.superko {
            let mut earlier: Vec<[u64; 2]> = self.history.iter().copied().filter(|s| *s != self.stones).collect();
            earlier.sort_unstable();
            words.extend(earlier.into_iter().flatten());
        }
        Some(crate::grid::encode_words(&words, &[self.player, self.passes]))
    }

    fn symmetric_images(&self) -> Vec<Self> {
        self.grid
            .symmetry_perms(Symmetries::All)
            .iter()
            .map(|perm| {
                let map = |s: [u64; 2]| [Grid::permute(s[0], perm), Grid::permute(s[1], perm)];
                let history: Vec<[u64; 2]> = self.history.iter().map(|&s| map(s)).collect();
                let mut image = Go { stones: map(self.stones), history: Arc::new(history), ..self.clone() };
                image.finish();
                image
            })
            .collect()
    }

    fn player_to_move(&self) -> u8 {
        self.player
    }

    /// Code: player, point and 4-neighbourhood (as Atarigo); a pass has its own code per player.
    fn move_code(&self, mv: GoMove) -> u32 {
        let cells = self.grid.cells() as u32;
        match mv {
            GoMove::Pass => 2 * cells * 256 + self.player as u32,
            GoMove::Place { cell, .. } => {
                let me = self.player as usize;
                let pattern = neighbour_pattern(&self.grid, self.stones[me], self.stones[1 - me], cell as usize);
                (self.player as u32 * cells + cell as u32) * 256 + pattern
            }
        }
    }

    fn move_code_count(&self) -> u32 {
        2 * self.grid.cells() as u32 * 256 + 2
    }

    /// Priority (Go shape knowledge, values unaffected): passing after the opponent passed
    /// when that ends the game with a win comes first; then captures (more stones first),
    /// saving an own block in atari, giving atari, other contact moves, quiet moves (the
    /// more central first); then passing; last, moves that fill one of the mover's own
    /// one-point eyes or put the mover's own block in atari without capturing.
    fn move_priority(&self, mv: GoMove) -> i32 {
        match mv {
            GoMove::Pass => {
                if self.passes == 1 {
                    let [black, white] = self.score_halves();
                    let mine = if self.player == 0 { black - white } else { white - black };
                    if mine > 0 {
                        return 1000;
                    }
                }
                -100
            }
            GoMove::Place { cell, .. } => self.stone_priority(cell as usize),
        }
    }
}

impl Go {
    /// The [`Game::move_priority`] of a stone on `cell` (see there).
    fn stone_priority(&self, cell: usize) -> i32 {
        let me = self.player as usize;
        let (own, opp) = (self.stones[me], self.stones[1 - me]);
        let grid = &self.grid;
        let b = 1u64 << cell;
        let around = grid.neighbours(b);
        let centrality = around.count_ones() as i32;
        let captured = captured_by(grid, own, opp, cell);
        if captured != 0 {
            return 500 + 10 * captured.count_ones() as i32;
        }
        let own_after = own | b;
        let empty_after = !(own_after | opp) & grid.full();
        let block = grid.flood(b, own_after);
        let liberties = (grid.neighbours(block) & empty_after).count_ones();
        if around & !own == 0 || liberties == 1 {
            // Fills an own eye, or self-atari.
            return -200 + centrality;
        }
        let map = liberty_map(grid, own, opp);
        if map.own_atari_points & b != 0 {
            300 + centrality
        } else if map.atari_points & b != 0 {
            200 + centrality
        } else if around & opp != 0 {
            100 + centrality
        } else {
            centrality
        }
    }
}

impl fmt::Display for Go {
    /// The board (`X` Black/first, `O` White/second, `.` empty), who is to move, the move
    /// count and the komi.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        draw_stones(&self.grid, self.stones, f)?;
        writeln!(
            f,
            "{} to move, move {}, komi {}{}",
            if self.player == 0 { "X (Black, first player)" } else { "O (White, second player)" },
            self.ply + 1,
            self.options.komi_halves as f64 / 2.0,
            if self.passes > 0 { ", last move was a pass" } else { "" }
        )
    }
}

impl fmt::Display for GoMove {
    /// The point's name (`b2`) or `pass`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            GoMove::Pass => f.write_str("pass"),
            GoMove::Place { cell, cols } => f.write_str(&cell_name(cell as usize, cols as usize)),
        }
    }
}

impl fmt::Debug for GoMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
