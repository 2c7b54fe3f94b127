//! Nogo (NoGo, "anti-Atari-Go").
//!
//! Rules (Müller's standard rules, the default): the board starts empty; the first player
//! (Black, `X`) and the second (White, `O`) alternately place a stone on an empty point.
//! **Capturing and suicide are both illegal**: after a move every block on the board must
//! have a liberty. No passes. The side to move with no legal move **loses** (the last
//! player to move wins).
//!
//! Option `capture=illegal|loses` ([`NogoOptions::capture_loses`]): Cazenave's
//! formulation "the first to capture has lost" makes capturing moves legal and ends the
//! game at once with the capturer losing (suicide stays illegal). Both give the same value
//! but different trees; default **illegal** (Müller).
//!
//! Moves are written as the point (`b2`). Symmetries: all symmetries of the rectangle.
//!
//! Symmetric keys (option `symmetry=on|off`, default **on**): `hash_key` is the same for
//! the symmetric images of a position, and moves are listed in the canonical image's
//! cell order (see [`crate::symmetry`]), so one table entry serves all images.

use crate::error::GameError;
use crate::grid::{bits, hash_words, Grid, Symmetries};
use crate::options::{bad_option, parse_on_off, GameOptions};
use crate::stones::{draw_stones, liberty_map, parse_point, point_move_code, point_move_code_count, Point};
use crate::symmetry::SymmetryTables;
use solvo_core::{Game, Status};
use std::fmt;
use std::sync::OnceLock;

/// The rule options of Nogo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NogoOptions {
    /// Capturing is legal but loses at once (Cazenave) instead of illegal (Müller).
    /// Default `false`.
    pub capture_loses: bool,
    /// Symmetric positions share their hash key (see the module documentation).
    /// Default `true`.
    pub symmetry: bool,
    /// Move ordering by mobility (option `ordering=mobility|plain`, default `mobility`;
    /// `plain` is the study's, which has no Nogo heuristic: every move priority 0, so
    /// only the Monte Carlo order, when there is one, sorts them). Ordering only.
    pub mobility_ordering: bool,
}

impl Default for NogoOptions {
    fn default() -> Self {
        NogoOptions { capture_loses: false, symmetry: true, mobility_ordering: true }
    }
}

impl NogoOptions {
    /// Reads `capture=illegal|loses`, `symmetry=on|off` and `ordering=mobility|plain`;
    /// unknown keys are refused.
    pub fn from_options(options: &GameOptions) -> Result<Self, GameError> {
        let mut out = NogoOptions::default();
        for (key, value) in options.pairs() {
            match key.as_str() {
                "capture" => {
                    out.capture_loses = match value.to_ascii_lowercase().as_str() {
                        "illegal" => false,
                        "loses" | "lose" => true,
                        _ => return Err(bad_option("nogo", key, value, "expected illegal or loses")),
                    }
                }
                "symmetry" => out.symmetry = parse_on_off("nogo", key, value)?,
                "ordering" => {
                    out.mobility_ordering = match value.to_ascii_lowercase().as_str() {
                        "mobility" => true,
                        "plain" => false,
                        _ => return Err(bad_option("nogo", key, value, "expected mobility or plain")),
                    }
                }
                _ => {
                    let accepted = "unknown option (accepted: capture, symmetry, ordering)";
                    return Err(bad_option("nogo", key, value, accepted));
                }
            }
        }
        Ok(out)
    }
}

/// A Nogo position. The legal points of the side to move are computed when the position is
/// made.
#[derive(Clone, Debug)]
pub struct Nogo {
    grid: Grid,
    stones: [u64; 2],
    player: u8,
    /// The last move captured (only with `capture_loses`): the side to move has won.
    captured: bool,
    /// Legal points of the side to move (captures included when they are legal).
    legal: u64,
    /// Points where the side to move would capture.
    capture_points: u64,
    options: NogoOptions,
    /// The symmetry tables when keys are symmetric.
    sym: Option<&'static SymmetryTables>,
    /// The symmetry that gives the canonical image (0 without symmetric keys).
    canon: u8,
    /// The hash key.
    key: u64,
    /// The blocks of both sides and their liberties, found on first use by
    /// [`Game::move_priority`] (which asks once per legal move).
    blocks: OnceLock<Box<Blocks>>,
}

/// The blocks of stones of one position with their liberties, so that the position
/// after any one stone can be judged without flood fills (see [`Nogo::mobility_after`]).
#[derive(Clone, Debug, Default)]
struct Blocks {
    /// `(stones, liberties)` of each block of the side to move.
    own: Vec<(u64, u64)>,
    /// `(stones, liberties)` of each block of the opponent.
    opp: Vec<(u64, u64)>,
}

impl Blocks {
    fn of(grid: &Grid, own: u64, opp: u64) -> Blocks {
        let empty = !(own | opp) & grid.full();
        let list = |mut rest: u64, stones: u64| {
            let mut out = Vec::new();
            while rest != 0 {
                let block = grid.flood(rest & rest.wrapping_neg(), stones);
                rest &= !block;
                out.push((block, grid.neighbours(block) & empty));
            }
            out
        };
        Blocks { own: list(own, own), opp: list(opp, opp) }
    }
}

impl Nogo {
    /// The empty `rows x cols` board (at most 64 points), first player to move.
    pub fn new(rows: usize, cols: usize, options: NogoOptions) -> Result<Self, GameError> {
        let grid =
            Grid::new(rows, cols).map_err(|reason| GameError::UnsupportedSize { game: "nogo", rows, cols, reason })?;
        let sym = options.symmetry.then(|| SymmetryTables::get(&grid, Symmetries::All));
        Ok(Nogo::with_stones(grid, sym, [0, 0], 0, false, options))
    }

    /// A position with the given stones (`[first, second]`, disjoint, every block with a
    /// liberty) and `player` (0/1) to move, for tests and puzzles.
    pub fn from_stones(
        rows: usize,
        cols: usize,
        options: NogoOptions,
        stones: [u64; 2],
        player: u8,
    ) -> Result<Self, GameError> {
        let game = Nogo::new(rows, cols, options)?;
        let grid = game.grid;
        let empty = !(stones[0] | stones[1]) & grid.full();
        let breathless = [0, 1]
            .iter()
            .any(|&p| bits(stones[p]).any(|c| grid.neighbours(grid.flood(1u64 << c, stones[p])) & empty == 0));
        if stones[0] & stones[1] != 0 || (stones[0] | stones[1]) & !grid.full() != 0 || player > 1 || breathless {
            return Err(GameError::BadPosition {
                game: "nogo",
                reason: "stones overlap, lie off the board, a block has no liberty, or the player is not 0/1".into(),
            });
        }
        Ok(Nogo::with_stones(grid, game.sym, stones, player, false, options))
    }

    fn with_stones(
        grid: Grid,
        sym: Option<&'static SymmetryTables>,
        stones: [u64; 2],
        player: u8,
        captured: bool,
        options: NogoOptions,
    ) -> Self {
        let own = stones[player as usize];
        let opp = stones[1 - player as usize];
        let empty = !(own | opp) & grid.full();
        let map = liberty_map(&grid, own, opp);
        let quiet = empty & !map.capture_points & (map.breathing_points | map.own_safe_points);
        let legal = if captured {
            0
        } else if options.capture_loses {
            quiet | (empty & map.capture_points)
        } else {
            quiet
        };
        let (canon, image) = sym.map_or((0, stones), |t| t.canonical(stones));
        let key = hash_words(&[image[0], image[1], player as u64 | (captured as u64) << 1]);
        let capture_points = map.capture_points & empty;
        Nogo {
            grid,
            stones,
            player,
            captured,
            legal,
            capture_points,
            options,
            sym,
            canon: canon as u8,
            key,
            blocks: OnceLock::new(),
        }
    }

    /// The board geometry.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The stones, `[first player, second player]`.
    pub fn stones(&self) -> [u64; 2] {
        self.stones
    }

    /// The legal points of the side to move (empty when the game is over).
    pub fn legal_points(&self) -> u64 {
        self.legal
    }

    /// After a non-capturing stone of the side to move on `b`: how many points the
    /// mover could then play, and how many the opponent could (each as if it were to
    /// move; the count of [`Nogo::legal_points`] under Müller's rules). Only the blocks
    /// next to `b` change (they merge with the stone, or lose the liberty `b`), so the
    /// answer comes from this position's blocks without a flood fill.
    fn mobility_after(&self, b: u64) -> (u32, u32) {
        let blocks = self.blocks.get_or_init(|| {
            let me = self.player as usize;
            Box::new(Blocks::of(&self.grid, self.stones[me], self.stones[1 - me]))
        });
        let empty = !(self.stones[0] | self.stones[1] | b) & self.grid.full();
        let around = self.grid.neighbours(b);
        // The mover's blocks after the stone: its merged block, the others unchanged.
        let (mut merged, mut own_last, mut own_safe) = (around & empty, 0u64, 0u64);
        for &(block, libs) in &blocks.own {
            if block & around != 0 {
                merged |= libs;
            } else if libs.count_ones() == 1 {
                own_last |= libs;
            } else {
                own_safe |= libs;
            }
        }
        merged &= !b;
        if merged.count_ones() == 1 {
            own_last |= merged;
        } else {
            own_safe |= merged;
        }
        // The opponent's blocks lose the liberty `b`.
        let (mut opp_last, mut opp_safe) = (0u64, 0u64);
        for &(_, libs) in &blocks.opp {
            let libs = libs & !b;
            if libs.count_ones() == 1 {
                opp_last |= libs;
            } else {
                opp_safe |= libs;
            }
        }
        let breathing = empty & self.grid.neighbours(empty);
        let mine = empty & !opp_last & (breathing | own_safe);
        let theirs = empty & !own_last & (breathing | opp_safe);
        (mine.count_ones(), theirs.count_ones())
    }

    /// Reads a move like `b2` and checks it is legal.
    pub fn parse_move(&self, text: &str) -> Result<Point, GameError> {
        parse_point(&self.grid, self.legal, text)
    }
}

impl Game for Nogo {
    type Move = Point;

    fn generate_moves(&self, moves: &mut Vec<Point>) {
        match self.sym {
            Some(t) => {
                let s = self.canon as usize;
                moves.extend(bits(t.apply(s, self.legal)).map(|c| Point::new(&self.grid, t.back(s, c))));
            }
            None => moves.extend(bits(self.legal).map(|c| Point::new(&self.grid, c))),
        }
    }

    fn play(&self, mv: Point) -> Self {
        let mut stones = self.stones;
        stones[self.player as usize] |= mv.bit();
        let captured = self.capture_points & mv.bit() != 0;
        Nogo::with_stones(self.grid, self.sym, stones, 1 - self.player, captured, self.options)
    }

    fn status(&self) -> Status {
        if self.captured {
            Status::Over(1)
        } else if self.legal == 0 {
            Status::Over(-1)
        } else {
            Status::ToMove
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
        self.key
    }

    /// Both players' stones (8 bytes each, little-endian), the player to move and
    /// whether the last move captured.
    fn encode(&self) -> Option<Vec<u8>> {
        Some(crate::grid::encode_words(&self.stones, &[self.player, self.captured as u8]))
    }

    fn symmetric_images(&self) -> Vec<Self> {
        self.grid
            .symmetry_perms(Symmetries::All)
            .iter()
            .map(|perm| {
                let stones = [Grid::permute(self.stones[0], perm), Grid::permute(self.stones[1], perm)];
                Nogo::with_stones(self.grid, self.sym, stones, self.player, self.captured, self.options)
            })
            .collect()
    }

    fn player_to_move(&self) -> u8 {
        self.player
    }

    /// Code: player, point, and the 4-neighbourhood (empty/own/enemy/edge) — Cazenave's
    /// PPAF code for Nogo.
    fn move_code(&self, mv: Point) -> u32 {
        point_move_code(&self.grid, self.stones, self.player, mv.cell as usize)
    }

    fn move_code_count(&self) -> u32 {
        point_move_code_count(&self.grid)
    }

    /// Priority, a one-move look-ahead on mobility: after the stone, (the points the mover
    /// could then play) minus twice (the points the opponent could then play), so moves
    /// that take points away from the opponent and keep the mover's own reserve come
    /// first; capturing moves (legal only with `capture=loses`, and losing) come last.
    /// Only the order changes, never a value.
    fn move_priority(&self, mv: Point) -> i32 {
        if !self.options.mobility_ordering {
            return 0;
        }
        let b = mv.bit();
        if self.capture_points & b != 0 {
            return -100_000;
        }
        let (mine, theirs) = self.mobility_after(b);
        mine as i32 - 2 * theirs as i32
    }
}

impl fmt::Display for Nogo {
    /// The board (`X` first player, `O` second, `.` empty) and who is to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        draw_stones(&self.grid, self.stones, f)?;
        writeln!(f, "{} to move", if self.player == 0 { "X (first player)" } else { "O (second player)" })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stones::LibertyMap;

    /// The mobility counts from the blocks equal those of the position after the stone
    /// computed from scratch (flood fills), for every legal move of random positions.
    #[test]
    fn mobility_from_blocks_equals_a_fresh_count() {
        let mut rng = solvo_core::rng::Rng::new(0xBADC0DE);
        let mut next = move || (rng.next_u64() >> 33) as usize;
        let mut checked = 0;
        for (r, c) in [(5, 5), (7, 3), (4, 4), (6, 6), (1, 7)] {
            for capture_loses in [false, true] {
                for _ in 0..200 {
                    let options = NogoOptions { capture_loses, symmetry: next() % 2 == 0, mobility_ordering: true };
                    let mut game = Nogo::new(r, c, options).unwrap();
                    for _ in 0..next() % (r * c) {
                        let mut moves = Vec::new();
                        game.generate_moves(&mut moves);
                        if moves.is_empty() {
                            break;
                        }
                        game = game.play(moves[next() % moves.len()]);
                    }
                    let mut moves = Vec::new();
                    game.generate_moves(&mut moves);
                    for m in moves.into_iter().filter(|m| game.capture_points & m.bit() == 0) {
                        let me = game.player as usize;
                        let own = game.stones[me] | m.bit();
                        let opp = game.stones[1 - me];
                        let empty = !(own | opp) & game.grid.full();
                        let playable =
                            |l: LibertyMap| empty & !l.capture_points & (l.breathing_points | l.own_safe_points);
                        let mine = playable(liberty_map(&game.grid, own, opp)).count_ones();
                        let theirs = playable(liberty_map(&game.grid, opp, own)).count_ones();
                        assert_eq!(game.mobility_after(m.bit()), (mine, theirs), "{game}{m:?}");
                        checked += 1;
                    }
                }
            }
        }
        assert!(checked > 5000, "{checked}");
    }
}
