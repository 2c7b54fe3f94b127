//! [`Race`]: the engine shared by Breakthrough and Knightthrough — two armies fill their
//! two home rows and race forward; the first piece to reach the far row decides the game.
//!
//! The first player starts on rows 1–2 and moves **up** (towards higher row numbers);
//! the second player starts on the top two rows and moves down. `rows` is always the
//! direction of movement. The per-game rules (which moves a piece has) are in
//! [`crate::breakthrough`] and [`crate::knightthrough`].

use crate::error::GameError;
use crate::grid::{bits, cell_name, hash_words, Grid, Symmetries};
use crate::lazy_word::LazyWord;
use crate::options::{bad_option, parse_no_move, parse_on_off, GameOptions, NoMoveRule};
use crate::race_guard::Guard;
use crate::symmetry::SymmetryTables;
use solvo_core::{Game, Status};
use std::fmt;

/// Which piece the armies are made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RaceKind {
    /// Breakthrough pawns: straight forward to an empty cell, diagonally forward to an
    /// empty cell or capturing.
    Pawn,
    /// Knightthrough knights: the four forward knight leaps, to an empty cell or capturing.
    Knight,
}

/// One direction of movement for the first player: rows up, columns right, whether it
/// may capture. The second player uses the same with the row step negated.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Dir {
    pub(crate) dr: i32,
    pub(crate) dc: i32,
    pub(crate) captures: bool,
}

const PAWN_DIRS: [Dir; 3] = [
    Dir { dr: 1, dc: -1, captures: true },
    Dir { dr: 1, dc: 0, captures: false },
    Dir { dr: 1, dc: 1, captures: true },
];

const KNIGHT_DIRS: [Dir; 4] = [
    Dir { dr: 1, dc: -2, captures: true },
    Dir { dr: 2, dc: -1, captures: true },
    Dir { dr: 2, dc: 1, captures: true },
    Dir { dr: 1, dc: 2, captures: true },
];

impl RaceKind {
    pub(crate) fn dirs(self) -> &'static [Dir] {
        match self {
            RaceKind::Pawn => &PAWN_DIRS,
            RaceKind::Knight => &KNIGHT_DIRS,
        }
    }

    /// The catalogue name of the game (normal or misère).
    pub fn game_name(self, misere: bool) -> &'static str {
        match (self, misere) {
            (RaceKind::Pawn, false) => "breakthrough",
            (RaceKind::Pawn, true) => "misere-breakthrough",
            (RaceKind::Knight, false) => "knightthrough",
            (RaceKind::Knight, true) => "misere-knightthrough",
        }
    }
}

/// The rule options of a race game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RaceOptions {
    /// Misère: the first player to reach the far row **loses**. Default `false` (set by
    /// the game name).
    pub misere: bool,
    /// In misère play, what happens to a side with no legal move (in practice: all its
    /// pieces captured). Default [`NoMoveRule::Lose`], the generic "no move ⇒ lose" of
    /// Cazenave's code and of normal play. Normal play always uses `Lose`.
    pub misere_no_move: NoMoveRule,
    /// Normal play only: decide positions where a side can reach the far row at once,
    /// and leave out moves that let the opponent do so (see [`crate::race_tactics`]);
    /// values are unchanged. Default `true`.
    pub tactics: bool,
    /// Mirrored positions (left-right) share their hash key, and moves are listed in
    /// the canonical image's order (see [`crate::symmetry`]). Default `true`.
    pub symmetry: bool,
    /// Normal play only: move ordering by the safety of the landing cell (option
    /// `ordering=safety|plain`): within captures and within quiet moves, a piece that
    /// lands where no enemy piece can take it comes first, then one an own piece would
    /// avenge, then one left hanging; then by progress. Ordering only: values are
    /// unchanged. Default: on for Breakthrough (5x5, ab-tt-mc: 8.0 M nodes instead of
    /// 20.9 M), off for Knightthrough (6x6, id-ab-tt-mc: 2.7 M instead of 0.9 M), which
    /// uses [`RaceOptions::threat_ordering`].
    pub safety_ordering: bool,
    /// Knightthrough in normal play, with `tactics`: also leave out the moves that lose to
    /// a two-move threat (after them the opponent lands a knight on a cell next to its
    /// far row where no knight of ours can take it; see [`crate::race_tactics`]), and call
    /// a position lost when every move does (option `guard=on|off`). Values are
    /// unchanged. Default `true`.
    pub threat_guard: bool,
    /// Knightthrough in normal play (option `ordering=threat`): the plain order, but
    /// within captures and within quiet moves, a move landing on one of our launch cells
    /// (a threat to arrive) comes first, then one whose knight attacks a launch cell of
    /// ours that no enemy knight attacks (a threat to threaten). Ordering only:
    /// values are unchanged. Default `false`; on for `knightthrough` by name
    /// ([`RaceOptions::from_options`]; 7x5 ab-tt: 113 M nodes instead of 134 M).
    pub threat_ordering: bool,
    /// Normal play (option `ordering=study`): the study's own ordering, its Algorithm 5
    /// (printed for Knightthrough; its text gives Breakthrough the same kind), in place
    /// of the above; see [`Race::study_order`]. Default `false`.
    pub study_ordering: bool,
}

impl Default for RaceOptions {
    fn default() -> Self {
        RaceOptions {
            misere: false,
            misere_no_move: NoMoveRule::Lose,
            tactics: true,
            symmetry: true,
            safety_ordering: false,
            threat_guard: true,
            threat_ordering: false,
            study_ordering: false,
        }
    }
}

impl RaceOptions {
    /// Reads the options of `game` (`no-move=lose|win`, misère only; `tactics=on|off`,
    /// `ordering=safety|plain`, normal play only; `guard=on|off`, Knightthrough only; `symmetry=on|off`); `misere` is given by
    /// the game's name. Unknown keys are refused.
    pub fn from_options(game: &'static str, misere: bool, options: &GameOptions) -> Result<Self, GameError> {
        let mut out = RaceOptions {
            misere,
            safety_ordering: game == "breakthrough",
            threat_ordering: game == "knightthrough",
            ..Default::default()
        };
        for (key, value) in options.pairs() {
            match key.as_str() {
                "no-move" if misere => out.misere_no_move = parse_no_move(game, key, value)?,
                "no-move" => return Err(bad_option(game, key, value, "only the misère game has a no-move option")),
                "tactics" if !misere => out.tactics = parse_on_off(game, key, value)?,
                "guard" if game == "knightthrough" => out.threat_guard = parse_on_off(game, key, value)?,
                "ordering" if !misere => {
                    (out.safety_ordering, out.threat_ordering, out.study_ordering) =
                        match value.to_ascii_lowercase().as_str() {
                            "safety" => (true, false, false),
                            "plain" => (false, false, false),
                            "threat" if game == "knightthrough" => (false, true, false),
                            "study" => (false, false, true),
                            _ => {
                                return Err(bad_option(
                                    game,
                                    key,
                                    value,
                                    "expected safety, plain, study or (Knightthrough) threat",
                                ))
                            }
                        }
                }
                "symmetry" => out.symmetry = parse_on_off(game, key, value)?,
                _ => {
                    let accepted = match (misere, game) {
                        (true, _) => "no-move, symmetry",
                        (false, "knightthrough") => "tactics, guard, ordering, symmetry",
                        (false, _) => "tactics, ordering, symmetry",
                    };
                    return Err(bad_option(game, key, value, &format!("unknown option (accepted: {accepted})")));
                }
            }
        }
        Ok(out)
    }
}

/// A race move: from a cell to a cell, with the direction index (for move codes) and
/// whether it captures.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct RaceMove {
    /// The cell the piece leaves.
    pub from: u8,
    /// The cell the piece lands on.
    pub to: u8,
    /// Index of the direction in the piece's direction list (left to right).
    pub dir: u8,
    /// Whether an enemy piece stood on `to`.
    pub capture: bool,
    cols: u8,
}

/// A Breakthrough or Knightthrough position.
#[derive(Clone, Debug)]
pub struct Race {
    pub(crate) grid: Grid,
    /// Pieces of the first (index 0, moves up) and second player.
    pub(crate) pieces: [u64; 2],
    pub(crate) player: u8,
    pub(crate) kind: RaceKind,
    pub(crate) options: RaceOptions,
    /// What the position computes about itself on first use; a new position starts
    /// with none of it (`Facts::default()`).
    pub(crate) facts: Facts,
    /// The mirror tables when keys are symmetric.
    sym: Option<&'static SymmetryTables>,
    /// Per player, the cells from which a piece could land on its far row (see
    /// [`Race::launch_cells`]).
    pub(crate) launch: [u64; 2],
}

/// Facts a position computes about itself on first use and keeps.
#[derive(Clone, Debug, Default)]
pub(crate) struct Facts {
    /// The tactics' verdict (see [`crate::race_tactics`]), packed.
    pub(crate) analysis: LazyWord,
    /// The position's [`Game::hash_key`] (asked by its parent's enhanced transposition
    /// cutoff and again by its own search).
    pub(crate) key: LazyWord,
}

/// What the tactics found about a position (normal play with tactics only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Analysis {
    /// The value when the position is over or decided.
    pub(crate) decided: Option<i32>,
    /// Whether some moves lose at once and `generate_moves` must leave them out.
    pub(crate) filter: bool,
    /// With `filter`: the landing cells of the moves that do not lose at once, when they
    /// are known without playing the moves (`None`: test each move).
    pub(crate) safe_landings: Option<u64>,
    /// With `filter` (knights, the opponent threatening no arrival or with one knight):
    /// the moves left out are also those that lose to a two-move threat (see
    /// [`crate::race_guard`]).
    pub(crate) guard: bool,
}

impl Race {
    /// The starting position on `rows x cols` (rows are the direction of movement):
    /// needs at least 4 rows (two home rows each) and at most 64 cells.
    pub fn new(kind: RaceKind, rows: usize, cols: usize, options: RaceOptions) -> Result<Race, GameError> {
        let game = kind.game_name(options.misere);
        let unsupported = |reason: String| GameError::UnsupportedSize { game, rows, cols, reason };
        let grid = Grid::new(rows, cols).map_err(unsupported)?;
        if rows < 4 {
            return Err(unsupported("at least 4 rows are needed (two home rows per side)".into()));
        }
        let first = grid.row_mask(0) | grid.row_mask(1);
        let second = grid.row_mask(rows - 1) | grid.row_mask(rows - 2);
        let sym = options.symmetry.then(|| SymmetryTables::get(&grid, Symmetries::MirrorColumns));
        let mut race = Race {
            grid,
            pieces: [first, second],
            player: 0,
            kind,
            options,
            facts: Facts::default(),
            sym,
            launch: [0; 2],
        };
        race.launch = [race.launch_cells_of_grid(0), race.launch_cells_of_grid(1)];
        Ok(race)
    }

    /// A position from explicit piece sets (for tests and puzzles): `first` moves up,
    /// `second` moves down, `player` (0 or 1) is to move. Refuses overlapping sets or
    /// pieces off the board.
    pub fn from_pieces(
        kind: RaceKind,
        rows: usize,
        cols: usize,
        options: RaceOptions,
        first: u64,
        second: u64,
        player: u8,
    ) -> Result<Race, GameError> {
        let mut race = Race::new(kind, rows, cols, options)?;
        let game = kind.game_name(options.misere);
        if first & second != 0 || (first | second) & !race.grid.full() != 0 || player > 1 {
            return Err(GameError::BadPosition {
                game,
                reason: "pieces overlap, lie off the board, or the player is not 0/1".into(),
            });
        }
        race.pieces = [first, second];
        race.player = player;
        race.facts = Facts::default();
        Ok(race)
    }

    /// The board geometry.
    pub fn grid(&self) -> &Grid {
        &self.grid
    }

    /// The pieces of player `p` (0 = first, moving up).
    pub fn pieces(&self, p: usize) -> u64 {
        self.pieces[p]
    }

    /// The piece kind (Breakthrough pawns or Knightthrough knights).
    pub fn kind(&self) -> RaceKind {
        self.kind
    }

    /// The rule options.
    pub fn options(&self) -> RaceOptions {
        self.options
    }

    /// The row player `p` must reach.
    #[inline]
    pub(crate) fn goal_row(&self, p: u8) -> u64 {
        if p == 0 {
            self.grid.row_mask(self.grid.rows() - 1)
        } else {
            self.grid.row_mask(0)
        }
    }

    /// Landing cells of the side to move in direction `d`.
    #[inline]
    pub(crate) fn targets(&self, d: &Dir) -> u64 {
        self.targets_of(self.player, d)
    }

    /// Landing cells of player `p` in direction `d` (as if `p` were to move).
    #[inline]
    pub(crate) fn targets_of(&self, p: u8, d: &Dir) -> u64 {
        let own = self.pieces[p as usize];
        let opp = self.pieces[1 - p as usize];
        let dr = if p == 0 { d.dr } else { -d.dr };
        let reach = self.grid.shift(own, dr, d.dc);
        let empty = !(own | opp) & self.grid.full();
        if d.captures {
            reach & !own
        } else {
            reach & empty
        }
    }

    /// Cells where player `p`'s pieces `pieces` could capture.
    #[inline]
    pub(crate) fn attacked_by(&self, p: u8, pieces: u64) -> u64 {
        if self.kind == RaceKind::Knight {
            // The four leaps, written out (the generic fold over the direction list was
            // not inlined: 8% of a Knightthrough solve with the guard).
            let up = if p == 0 { 1 } else { -1 };
            let g = &self.grid;
            return g.shift(pieces, up, -2)
                | g.shift(pieces, 2 * up, -1)
                | g.shift(pieces, 2 * up, 1)
                | g.shift(pieces, up, 2);
        }
        self.kind
            .dirs()
            .iter()
            .filter(|d| d.captures)
            .map(|d| self.grid.shift(pieces, if p == 0 { d.dr } else { -d.dr }, d.dc))
            .fold(0, |a, b| a | b)
    }

    /// The study's Algorithm 5 for `mv`, read as printed (lower is tried first): 0 when it
    /// reaches the far row; 1 when it captures within the mover's first 3 rows (an
    /// intruder near home); 2 when it lands within the last 3 rows on a cell that more
    /// own pieces attack (the moved one aside) than enemy pieces do; else 100 (the
    /// Monte Carlo order then ranks these, as the study's `orderMC`).
    pub fn study_order(&self, mv: RaceMove) -> i32 {
        let me = self.player;
        let to = 1u64 << mv.to;
        if self.goal_row(me) & to != 0 {
            return 0;
        }
        let rows = self.grid.rows() as i32;
        let r = self.grid.row(mv.to as usize) as i32;
        let from_home = if me == 0 { r } else { rows - 1 - r };
        if mv.capture && from_home < 3 {
            return 1;
        }
        if from_home >= rows - 3 {
            let own = self.pieces[me as usize] & !(1u64 << mv.from);
            let opp = self.pieces[1 - me as usize] & !to;
            let attackers = |p: u8, mut pieces: u64| {
                let mut n = 0;
                while pieces != 0 {
                    let piece = pieces & pieces.wrapping_neg();
                    pieces &= pieces - 1;
                    n += i32::from(self.attacked_by(p, piece) & to != 0);
                }
                n
            };
            if attackers(me, own) > attackers(1 - me, opp) {
                return 2;
            }
        }
        100
    }

    /// After `mv`: 2 if no enemy piece can take the moved piece, 1 if one can but an
    /// own piece could take back, 0 if it hangs.
    fn landing_safety(&self, mv: RaceMove) -> i32 {
        let me = self.player as usize;
        let to = 1u64 << mv.to;
        let own = (self.pieces[me] & !(1u64 << mv.from)) | to;
        let opp = self.pieces[1 - me] & !to;
        if self.attacked_by(1 - self.player, opp) & to == 0 {
            2
        } else if self.attacked_by(self.player, own & !to) & to != 0 {
            1
        } else {
            0
        }
    }

    /// Whether the player who just moved reached its far row (the game is over).
    #[inline]
    pub(crate) fn last_mover_arrived(&self) -> bool {
        let last = 1 - self.player;
        self.pieces[last as usize] & self.goal_row(last) != 0
    }

    /// Whether the side to move has any legal move.
    pub(crate) fn has_move(&self) -> bool {
        self.kind.dirs().iter().any(|d| self.targets(d) != 0)
    }

    /// Reads a move like `a2-a3`, `a2xb3` or `a2b3` and checks it is legal.
    pub fn parse_move(&self, text: &str) -> Result<RaceMove, GameError> {
        let bad = |reason: &str| GameError::BadMove { text: text.to_string(), reason: reason.into() };
        let t: String = text.trim().to_ascii_lowercase().chars().filter(|c| *c != '-' && *c != 'x').collect();
        let split = t.char_indices().skip(1).find(|(_, c)| c.is_ascii_alphabetic()).map(|(i, _)| i);
        let split = split.ok_or_else(|| bad("expected two cells, like a2-a3"))?;
        let from = self.grid.parse_cell(&t[..split]).ok_or_else(|| bad("first cell is not on the board"))?;
        let to = self.grid.parse_cell(&t[split..]).ok_or_else(|| bad("second cell is not on the board"))?;
        if self.rule_status() != Status::ToMove {
            return Err(bad("the game is over"));
        }
        let mut moves = Vec::new();
        self.all_moves(&mut moves);
        moves
            .into_iter()
            .find(|m| m.from as usize == from && m.to as usize == to)
            .ok_or_else(|| bad("not a legal move of the side to move"))
    }

    /// Every legal move of the side to move under the plain rules (none once the game
    /// is over), appended to `moves`.
    pub(crate) fn all_moves(&self, moves: &mut Vec<RaceMove>) {
        if self.last_mover_arrived() {
            return;
        }
        for (k, d) in self.kind.dirs().iter().enumerate() {
            for to in bits(self.targets(d)) {
                moves.push(self.move_to(k, d, to));
            }
        }
    }

    /// The move of the side to move in direction number `k` (`d`) landing on `to` (a
    /// cell of `targets(d)`).
    #[inline]
    pub(crate) fn move_to(&self, k: usize, d: &Dir, to: usize) -> RaceMove {
        let cols = self.grid.cols() as i32;
        let dr = if self.player == 0 { d.dr } else { -d.dr };
        RaceMove {
            from: (to as i32 - (dr * cols + d.dc)) as u8,
            to: to as u8,
            dir: k as u8,
            capture: self.pieces[1 - self.player as usize] & (1u64 << to) != 0,
            cols: cols as u8,
        }
    }

    /// The status under the plain rules (no tactics: [`Game::status`] may also call a
    /// position decided).
    pub(crate) fn rule_status(&self) -> Status {
        if self.last_mover_arrived() {
            return Status::Over(if self.options.misere { 1 } else { -1 });
        }
        if self.has_move() {
            Status::ToMove
        } else if self.options.misere {
            Status::Over(self.options.misere_no_move.value())
        } else {
            Status::Over(-1)
        }
    }

    /// The moves `generate_moves` lists, in this position's own cell order: all legal
    /// moves, or with the tactics those not decided and not losing at once.
    pub(crate) fn own_frame_moves(&self, moves: &mut Vec<RaceMove>) {
        if self.options.tactics && !self.options.misere {
            let a = self.analysis();
            if a.decided.is_some() {
                return;
            }
            if a.filter {
                let start = moves.len();
                self.all_moves(moves);
                let guard = if a.guard { Guard::new(self) } else { None };
                let mut k = start;
                for i in start..moves.len() {
                    let kept = match &guard {
                        // Knights: without a threat every move is safe, against one only
                        // its captures.
                        Some(g) => {
                            a.safe_landings.is_none_or(|c| c & 1u64 << moves[i].to != 0) && !g.loses(self, moves[i])
                        }
                        None => self.passes_filter(&a, moves[i]),
                    };
                    if kept {
                        moves[k] = moves[i];
                        k += 1;
                    }
                }
                moves.truncate(k);
                return;
            }
        }
        self.all_moves(moves);
    }
}

impl Game for Race {
    type Move = RaceMove;

    fn generate_moves(&self, moves: &mut Vec<RaceMove>) {
        let start = moves.len();
        self.own_frame_moves(moves);
        if let Some(t) = self.sym {
            // The canonical image lists its moves by direction, then landing cell: sort
            // ours by the image's direction and landing cell.
            let (s, _) = t.canonical(self.pieces);
            if s != 0 {
                // A direction and a landing cell name one move, so the keys are distinct
                // and an unstable sort gives one order. A key is a cell lookup (the
                // image of the one-cell board, computed at every comparison, took 10% of
                // a Knightthrough solve's time).
                let n = self.kind.dirs().len() as u16;
                moves[start..]
                    .sort_unstable_by_key(|m| (n - 1 - m.dir as u16) << 8 | t.image_of_cell(s, m.to as usize) as u16);
            }
        }
    }

    fn play(&self, mv: RaceMove) -> Self {
        self.play_plain(mv)
    }

    fn status(&self) -> Status {
        if self.options.tactics && !self.options.misere {
            return match self.analysis().decided {
                Some(v) => Status::Over(v),
                None => Status::ToMove,
            };
        }
        self.rule_status()
    }

    fn max_value(&self) -> i32 {
        1
    }

    /// Every final value is +1 or -1: the game has no draws.
    fn draws_possible(&self) -> bool {
        false
    }

    fn hash_key(&self) -> u64 {
        self.facts.key.get_or_init(|| {
            let pieces = self.sym.map_or(self.pieces, |t| t.canonical(self.pieces).1);
            hash_words(&[pieces[0], pieces[1], self.player as u64])
        })
    }

    /// Both players' pieces (8 bytes each, little-endian) and the player to move.
    fn encode(&self) -> Option<Vec<u8>> {
        Some(crate::grid::encode_words(&self.pieces, &[self.player]))
    }

    fn symmetric_images(&self) -> Vec<Self> {
        self.grid
            .symmetry_perms(Symmetries::MirrorColumns)
            .iter()
            .map(|perm| Race {
                pieces: [Grid::permute(self.pieces[0], perm), Grid::permute(self.pieces[1], perm)],
                facts: Facts::default(),
                ..self.clone()
            })
            .collect()
    }

    fn player_to_move(&self) -> u8 {
        self.player
    }

    /// Code: player, from-cell, direction, capture flag (Cazenave's PPAF code).
    fn move_code(&self, mv: RaceMove) -> u32 {
        let ndirs = self.kind.dirs().len() as u32;
        let cells = self.grid.cells() as u32;
        ((self.player as u32 * cells + mv.from as u32) * ndirs + mv.dir as u32) * 2 + mv.capture as u32
    }

    fn move_code_count(&self) -> u32 {
        2 * self.grid.cells() as u32 * self.kind.dirs().len() as u32 * 2
    }

    /// Priority: reaching the far row first (last in misère), then captures (of the most
    /// advanced enemy pieces first), then advancing moves; with the study's ordering,
    /// minus [`Race::study_order`] (higher first).
    fn move_priority(&self, mv: RaceMove) -> i32 {
        if self.options.study_ordering && !self.options.misere {
            return -self.study_order(mv);
        }
        if self.goal_row(self.player) & (1u64 << mv.to) != 0 {
            return if self.options.misere { -1000 } else { 1000 };
        }
        let rows = self.grid.rows() as i32;
        // How far the landing cell is from the mover's home side (0..rows-1).
        let progress = |cell: u8, p: u8| {
            let r = self.grid.row(cell as usize) as i32;
            if p == 0 {
                r
            } else {
                rows - 1 - r
            }
        };
        if self.options.threat_ordering && !self.options.misere {
            let me = self.player;
            let to = 1u64 << mv.to;
            let opp = self.pieces[1 - me as usize] & !to;
            let own = self.pieces[me as usize] & !(1u64 << mv.from);
            let open = self.launch[me as usize] & !own & !self.attacked_by(1 - me, opp);
            let prepares = self.attacked_by(me, to) & open != 0;
            let base = if mv.capture { 100 + progress(mv.to, 1 - me) } else { progress(mv.to, me) };
            let threatens = self.launch[me as usize] & to != 0;
            return base
                + if threatens {
                    50
                } else if prepares {
                    40
                } else {
                    0
                };
        }
        if !self.options.safety_ordering || self.options.misere {
            return if mv.capture {
                // The captured piece's progress towards our home row.
                100 + progress(mv.to, 1 - self.player)
            } else {
                progress(mv.to, self.player)
            };
        }
        let safety = 20 * self.landing_safety(mv);
        if mv.capture {
            100 + safety + progress(mv.to, 1 - self.player)
        } else {
            safety + progress(mv.to, self.player)
        }
    }
}

impl fmt::Display for Race {
    /// The board (`W` first player, moving up; `B` second player; `.` empty) and who moves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.grid.draw(f, |i| {
            let b = 1u64 << i;
            if self.pieces[0] & b != 0 {
                'W'
            } else if self.pieces[1] & b != 0 {
                'B'
            } else {
                '.'
            }
        })?;
        writeln!(f, "{} to move", if self.player == 0 { "W (first player, up)" } else { "B (second player, down)" })
    }
}

impl fmt::Display for RaceMove {
    /// The move like `a2-a3` or, capturing, `a2xb3` (what `parse_move` reads).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cols = self.cols as usize;
        let sep = if self.capture { 'x' } else { '-' };
        write!(f, "{}{sep}{}", cell_name(self.from as usize, cols), cell_name(self.to as usize, cols))
    }
}

impl fmt::Debug for RaceMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}
