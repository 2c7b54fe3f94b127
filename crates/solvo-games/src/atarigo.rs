//! Atarigo (capture Go, "first capture wins").
//!
//! Rules: the board (points = cells) starts empty; the first player (Black, `X`) and the
//! second (White, `O`) alternately place a stone on an empty point. Blocks and liberties
//! are as in Go (4-connectivity). A move that removes the last liberty of an enemy block
//! **captures it and wins at once**. A move that leaves its own block without liberty and
//! captures nothing (suicide) is **illegal**; a move that captures is legal even if its
//! own block had no liberty before the capture (it wins anyway). No passes.
//!
//! No legal move: a full board cannot be reached without a capture, but a side may be left
//! with only suicide points. Option `no-move=lose|win` ([`AtarigoOptions::no_move`]),
//! default **lose** (Cazenave's generic "no move ⇒ lose"). On 3x3, 3x4 and 4x4 the value
//! does not depend on it.
//!
//! Moves are written as the point (`b2`). Symmetries: all symmetries of the rectangle.
//!
//! Tactics (option `tactics=on|off`, default **on**): rules that decide a position's
//! value without search and never change it (tests check every value against the plain
//! rules). With them, a position counts as over ([`Status::Over`]) when:
//! - the side to move can capture (a capture point is always legal): it wins (+1);
//! - otherwise, it has a block in atari on two or more different points: whatever it
//!   plays (not a capture), one of those points still captures next move: it loses (-1);
//! - otherwise, it has blocks in atari on exactly one point `p`: any move but `p` lets
//!   the opponent capture at `p`, so `p` is the only move searched; if `p` is a suicide,
//!   or the block it makes still has one liberty (the opponent captures there), it
//!   loses (-1).
//!
//! A position without any legal move is over by the no-move rule before these apply.
//!
//! Look-ahead (option `lookahead=on|off`, default **on**, only with tactics): one ply
//! deeper, for the moves that give atari (and the only move of a forced position): if
//! such a move leaves the opponent in a position the tactics decide as lost, the side to
//! move wins (+1); if the only move leaves the opponent decided as winning, it loses (-1).
//!
//! Symmetric keys (option `symmetry=on|off`, default **on**): `hash_key` is the same for
//! the (up to 8) symmetric images of a position, and moves are listed in the canonical
//! image's cell order (see [`crate::symmetry`]), so one table entry serves all images.

use crate::error::GameError;
use crate::grid::{bits, hash_words, Grid, Symmetries};
use crate::options::{bad_option, parse_no_move, parse_on_off, GameOptions, NoMoveRule};
use crate::stones::{draw_stones, liberty_map, parse_point, point_move_code, point_move_code_count, LibertyMap, Point};
use crate::symmetry::SymmetryTables;
use solvo_core::{Game, Status};
use std::fmt;

/// The rule options of Atarigo.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct AtarigoOptions {
    /// What happens to a side whose only empty points are suicides. Default `Lose`.
    pub no_move: NoMoveRule,
    /// Decide forced positions without search (see the module documentation); values are
    /// unchanged. Default `true`.
    pub tactics: bool,
    /// With tactics: also decide a position by the tactics one ply deeper (see the module
    /// documentation). Default `true`.
    pub lookahead: bool,
    /// Symmetric positions share their hash key (see the module documentation).
    /// Default `true`.
    pub symmetry: bool,
    /// Move ordering by liberties (option `ordering=liberties|plain`, default
    /// `liberties`): within each tactical tier (capture, save, atari, other), moves whose
    /// block keeps more liberties and that take more from an adjacent enemy block come
    /// first. Ordering only: values are unchanged.
    pub liberty_ordering: bool,
    /// The study's own ordering, its Algorithm 4, in place of the above (option
    /// `ordering=study|study-mc`; default `None`). See [`Atarigo::study_order`].
    pub study_ordering: Option<StudyOrdering>,
}

/// How the study's Algorithm 4 orders the moves its formula leaves out (those next to
/// no enemy stone).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StudyOrdering {
    /// As printed for the solvers without Monte Carlo ordering: by 20 minus the number
    /// of empty neighbours (`ordering=study`).
    Printed,
    /// As the Monte Carlo solvers use it: all after the formula's moves, in the Monte
    /// Carlo order (`ordering=study-mc`; without a Monte Carlo ordering, in generation
    /// order).
    MonteCarlo,
}

impl Default for AtarigoOptions {
    fn default() -> Self {
        AtarigoOptions {
            no_move: NoMoveRule::Lose,
            tactics: true,
            lookahead: true,
            symmetry: true,
            liberty_ordering: true,
            study_ordering: None,
        }
    }
}

impl AtarigoOptions {
    /// Reads `no-move=lose|win`, `tactics=on|off`, `lookahead=on|off`,
    /// `symmetry=on|off` and `ordering=liberties|plain|study|study-mc`; unknown keys are
    /// refused.
    pub fn from_options(options: &GameOptions) -> Result<Self, GameError> {
        let mut out = AtarigoOptions::default();
        for (key, value) in options.pairs() {
            match key.as_str() {
                "no-move" => out.no_move = parse_no_move("atarigo", key, value)?,
                "tactics" => out.tactics = parse_on_off("atarigo", key, value)?,
                "lookahead" => out.lookahead = parse_on_off("atarigo", key, value)?,
                "symmetry" => out.symmetry = parse_on_off("atarigo", key, value)?,
                "ordering" => {
                    (out.liberty_ordering, out.study_ordering) = match value.to_ascii_lowercase().as_str() {
                        "liberties" => (true, None),
                        "plain" => (false, None),
                        "study" => (false, Some(StudyOrdering::Printed)),
                        "study-mc" => (false, Some(StudyOrdering::MonteCarlo)),
                        _ => {
                            let expected = "expected liberties, plain, study or study-mc";
                            return Err(bad_option("atarigo", key, value, expected));
                        }
                    }
                }
                _ => {
                    let accepted = "unknown option (accepted: no-move, tactics, lookahead, symmetry, ordering)";
                    return Err(bad_option("atarigo", key, value, accepted));
                }
            }
        }
        Ok(out)
    }
}

/// An Atarigo position. The legal moves of the side to move are computed when the
/// position is made, so `status` and `generate_moves` are cheap.
#[derive(Clone, Debug)]
pub struct Atarigo {
    grid: Grid,
    stones: [u64; 2],
    player: u8,
    /// The last move captured: the side to move has lost.
    captured: bool,
    legal: u64,
    /// The moves searched: `legal`, or fewer when a tactic forces the choice.
    moves: u64,
    /// The value when the game is over or decided by a tactic.
    decided: Option<i32>,
    map: LibertyMap,
    options: AtarigoOptions,
    /// The symmetry tables when keys are symmetric.
    sym: Option<&'static SymmetryTables>,
    /// The symmetry that gives the canonical image (0 without symmetric keys).
    canon: u8,
    /// The hash key.
    key: u64,
}

impl Atarigo {
    /// The liberty formula of the ordering (0 to 125): 5 per liberty (up to 5) of the
    /// block the stone joins, plus 20 per liberty (up to 5) the weakest adjacent enemy
    /// block is left short of 5 after the stone. Pressing the enemy weighs four times
    /// its own liberties (`ab-tt-mc --etc --killers`, nodes with weights 10:5 / 5:20:
    /// 5x5 2.39 M / 0.13 M, 6x4 0.63 M / 0.25 M, 4x6 0.76 M / 0.30 M; 10:10 1.18 M in
    /// all three, 3:10 and 2:10 as 5:20).
    fn liberty_score(&self, cell: usize) -> i32 {
        let me = self.player as usize;
        let stone = 1u64 << cell;
        let own = self.stones[me] | stone;
        let opp = self.stones[1 - me];
        let empty = !(own | opp) & self.grid.full();
        let block = self.grid.flood(stone, own);
        let own_libs = (self.grid.neighbours(block) & empty).count_ones().min(5) as i32;
        let mut weakest = 5;
        let mut enemies = self.grid.neighbours(stone) & opp;
        while enemies != 0 {
            let seed = enemies & enemies.wrapping_neg();
            let enemy_block = self.grid.flood(seed, opp);
            enemies &= !enemy_block;
            weakest = weakest.min((self.grid.neighbours(enemy_block) & empty).count_ones().min(5) as i32);
        }
        5 * own_libs + 20 * (5 - weakest)
    }

    /// The study's Algorithm 4 for the move at `cell`, read as printed (lower is tried
    /// first): 0 when it captures (an adjacent enemy block has one liberty); else, over
    /// the adjacent enemy blocks, the least of (the block's liberties - 4 x the move's
    /// empty neighbours); but 1 when the move is on the last liberty of an own block in
    /// atari (the printed "escapes an atari"), whatever that least value; `None` when no enemy stone is adjacent (the caller
    /// orders those, see [`StudyOrdering`]). As printed, a move next to a short enemy
    /// block with room around it (least value below 0) comes before a capture; solvo's
    /// tactics decide a position with a capture before any ordering, so this matters
    /// only with `tactics=off`.
    pub fn study_order(&self, cell: usize) -> Option<i32> {
        let me = self.player as usize;
        let stone = 1u64 << cell;
        let opp = self.stones[1 - me];
        let empty = !(self.stones[0] | self.stones[1]) & self.grid.full();
        let around = self.grid.neighbours(stone);
        let free = (around & empty).count_ones() as i32;
        let mut least: Option<i32> = None;
        let mut enemies = around & opp;
        while enemies != 0 {
            let block = self.grid.flood(enemies & enemies.wrapping_neg(), opp);
            enemies &= !block;
            let libs = (self.grid.neighbours(block) & empty).count_ones() as i32;
            if libs == 1 {
                return Some(0);
            }
            least = Some(least.map_or(libs - 4 * free, |l| l.min(libs - 4 * free)));
        }
        if self.map.own_atari_points & stone != 0 {
            return Some(1);
        }
        least
    }

    /// The empty `rows x cols` board (at most 64 points), first player to move.
    pub fn new(rows: usize, cols: usize, options: AtarigoOptions) -> Result<Self, GameError> {
        let grid = Grid::new(rows, cols).map_err(|reason| GameError::UnsupportedSize {
            game: "atarigo",
            rows,
            cols,
            reason,
        })?;
        let sym = options.symmetry.then(|| SymmetryTables::get(&grid, Symmetries::All));
        Ok(Atarigo::with_stones(grid, sym, [0, 0], 0, false, options))
    }

    /// A position with the given stones (`[first, second]`, disjoint) and `player` (0/1)
    /// to move, for tests and puzzles. The stones are taken as they are (no capture check).
    pub fn from_stones(
        rows: usize,
        cols: usize,
        options: AtarigoOptions,
        stones: [u64; 2],
        player: u8,
    ) -> Result<Self, GameError> {
        let game = Atarigo::new(rows, cols, options)?;
        if stones[0] & stones[1] != 0 || (stones[0] | stones[1]) & !game.grid.full() != 0 || player > 1 {
            return Err(GameError::BadPosition {
                game: "atarigo",
                reason: "stones overlap, lie off the board, or the player is not 0/1".into(),
            });
        }
        Ok(Atarigo::with_stones(game.grid, game.sym, stones, player, false, options))
    }

    fn with_stones(
        grid: Grid,
        sym: Option<&'static SymmetryTables>,
        stones: [u64; 2],
        player: u8,
        captured: bool,
        options: AtarigoOptions,
    ) -> Self {
        let own = stones[player as usize];
        let opp = stones[1 - player as usize];
        let map = liberty_map(&grid, own, opp);
        let empty = !(own | opp) & grid.full();
        let legal = if captured { 0 } else { empty & map.non_suicide() };
        let (moves, decided) = if captured {
            (0, Some(-1))
        } else if legal == 0 {
            (0, Some(options.no_move.value()))
        } else if options.tactics {
            match tactics(&grid, own, opp, &map, legal) {
                (moves, None) if options.lookahead => match lookahead(&grid, own, opp, &map, moves, options.no_move) {
                    Some(v) => (0, Some(v)),
                    None => (moves, None),
                },
                decided => decided,
            }
        } else {
            (legal, None)
        };
        let (canon, image) = sym.map_or((0, stones), |t| t.canonical(stones));
        let key = hash_words(&[image[0], image[1], player as u64 | (captured as u64) << 1]);
        Atarigo { grid, stones, player, captured, legal, moves, decided, map, options, sym, canon: canon as u8, key }
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

    /// Reads a move like `b2` and checks it is legal.
    pub fn parse_move(&self, text: &str) -> Result<Point, GameError> {
        parse_point(&self.grid, self.legal, text)
    }
}

impl Game for Atarigo {
    type Move = Point;

    fn generate_moves(&self, moves: &mut Vec<Point>) {
        match self.sym {
            Some(t) => {
                let s = self.canon as usize;
                moves.extend(bits(t.apply(s, self.moves)).map(|c| Point::new(&self.grid, t.back(s, c))));
            }
            None => moves.extend(bits(self.moves).map(|c| Point::new(&self.grid, c))),
        }
    }

    fn play(&self, mv: Point) -> Self {
        let me = self.player as usize;
        let mut stones = self.stones;
        stones[me] |= mv.bit();
        let captured = self.map.capture_points & mv.bit() != 0;
        // The captured stones stay on the board: the game is over anyway.
        Atarigo::with_stones(self.grid, self.sym, stones, 1 - self.player, captured, self.options)
    }

    fn status(&self) -> Status {
        match self.decided {
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
                Atarigo::with_stones(self.grid, self.sym, stones, self.player, self.captured, self.options)
            })
            .collect()
    }

    fn player_to_move(&self) -> u8 {
        self.player
    }

    /// Code: player, point, and the 4-neighbourhood (empty/own/enemy/edge) — Cazenave's
    /// PPAF code for Atarigo.
    fn move_code(&self, mv: Point) -> u32 {
        point_move_code(&self.grid, self.stones, self.player, mv.cell as usize)
    }

    fn move_code_count(&self) -> u32 {
        point_move_code_count(&self.grid)
    }

    /// Priority: capturing (winning) moves, then saving an own block in atari, then
    /// giving atari, then the rest; with the liberty ordering, by
    /// [`Atarigo::liberty_score`] within each tier; with the study's ordering, minus its
    /// [`Atarigo::study_order`] (higher first).
    fn move_priority(&self, mv: Point) -> i32 {
        if let Some(rule) = self.options.study_ordering {
            let cell = mv.cell as usize;
            let free = (self.grid.neighbours(1u64 << cell) & !(self.stones[0] | self.stones[1]) & self.grid.full())
                .count_ones() as i32;
            return match (self.study_order(cell), rule) {
                (Some(order), _) => -order,
                (None, StudyOrdering::Printed) => -(20 - free),
                (None, StudyOrdering::MonteCarlo) => -1000,
            };
        }
        let b = mv.bit();
        let tier = if self.map.capture_points & b != 0 {
            3
        } else if self.map.own_atari_points & b != 0 {
            2
        } else if self.map.atari_points & b != 0 {
            1
        } else {
            0
        };
        if self.options.liberty_ordering {
            tier * 200 + self.liberty_score(mv.cell as usize)
        } else {
            [0, 10, 100, 1000][tier as usize]
        }
    }
}

/// The tactics of the module documentation for a side to move with stones `own` against
/// `opp`, liberty map `map` and legal points `legal` (not empty): the moves worth
/// searching and, when the rules decide the position, its value.
fn tactics(grid: &Grid, own: u64, opp: u64, map: &LibertyMap, legal: u64) -> (u64, Option<i32>) {
    if map.capture_points != 0 {
        return (0, Some(1));
    }
    let threats = map.own_atari_points;
    match threats.count_ones() {
        0 => (legal, None),
        1 if threats & legal != 0 => {
            let own = own | threats;
            let empty = !(own | opp) & grid.full();
            let block = grid.flood(threats, own);
            if (grid.neighbours(block) & empty).count_ones() <= 1 {
                (0, Some(-1))
            } else {
                (threats, None)
            }
        }
        _ => (0, Some(-1)),
    }
}

/// The look-ahead of the module documentation, for a position the tactics left open
/// with `moves` to search (so no capture is available): the value it proves, if any.
fn lookahead(grid: &Grid, own: u64, opp: u64, map: &LibertyMap, moves: u64, no_move: NoMoveRule) -> Option<i32> {
    let single = moves.count_ones() == 1;
    let candidates = if single { moves } else { moves & map.atari_points };
    for a in bits(candidates) {
        let own = own | 1u64 << a;
        let child_map = liberty_map(grid, opp, own);
        let empty = !(own | opp) & grid.full();
        let child_legal = empty & child_map.non_suicide();
        let child =
            if child_legal == 0 { Some(no_move.value()) } else { tactics(grid, opp, own, &child_map, child_legal).1 };
        match child {
            Some(-1) => return Some(1),
            Some(1) if single => return Some(-1),
            _ => {}
        }
    }
    None
}

impl fmt::Display for Atarigo {
    /// The board (`X` first player, `O` second, `.` empty) and who is to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        draw_stones(&self.grid, self.stones, f)?;
        writeln!(f, "{} to move", if self.player == 0 { "X (first player)" } else { "O (second player)" })
    }
}
