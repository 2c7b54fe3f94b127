//! The figures of the Monte Carlo Game Solver study (Cazenave), table by table: what
//! `solvo-lab bench games --table N` reproduces and prints beside its own (source:
//! `shared/design/mc-solver-tables.md`).
//!
//! Games and sizes are written as solvo-games' catalogue takes them (`RxC`, rows along
//! the movement for the race games). Figures are the study's "moves" (its node count)
//! and seconds, or `None` where the study gives none; a run stopped unsolved at the
//! study's limit is marked [`StudyCell::Stopped`].

/// One cell of the study: solved with so many moves in so many seconds, or stopped
/// after so many moves unsolved, or not run.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum StudyCell {
    /// Solved: moves, seconds.
    Solved(u64, f64),
    /// Stopped unsolved after this many moves (usually at 86,400 s).
    Stopped(u64),
    /// Not given.
    Blank,
}

impl std::fmt::Display for StudyCell {
    /// `3,956,049 / 12.79 s`, `> 35.54 G`, or `-`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            StudyCell::Solved(n, s) => write!(f, "{} / {s:.2} s", thousands(n)),
            StudyCell::Stopped(n) => write!(f, "> {:.2} G", n as f64 / 1e9),
            StudyCell::Blank => f.write_str("-"),
        }
    }
}

/// `1234567` as `1,234,567`.
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The study's columns, in its order, by this crate's solver names.
pub const STUDY_COLUMNS: [&str; 5] = ["pn2", "id-ab-tt", "ab-tt", "id-ab-tt-mc", "ab-tt-mc"];

/// One row of the study's tables 1, 2 and 4-10.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct StudyRow {
    /// The study's table number.
    pub table: u32,
    /// Catalogue name of the game.
    pub game: &'static str,
    /// Size `RxC` as this crate's catalogue takes it (rows along the movement for the
    /// race games).
    pub size: &'static str,
    /// The size as the study writes it. The study does not say which side of a race
    /// game's board the pieces run along; rows whose `size` differs from this one read
    /// the study's size the other way (see [`StudyRow::reading`]).
    pub study_size: &'static str,
    /// The study's result for the first player: `true` won, `false` lost.
    pub first_player_wins: bool,
    /// The cells, in [`STUDY_COLUMNS`] order.
    pub cells: [StudyCell; 5],
    /// Playouts of the Monte Carlo ordering in the study's best cell (10,000 unless
    /// the study says otherwise).
    pub playouts: u32,
}

use StudyCell::{Blank, Solved, Stopped};

/// The study's misère Breakthrough 4x5 cells (two rows read the size).
const MISERE_BREAKTHROUGH_4X5: [StudyCell; 5] = [
    Stopped(42_630_000_000),
    Stopped(43_350_000_000),
    Stopped(42_910_000_000),
    Solved(1_540_153_635, 3_661.50),
    Solved(447_879_697, 1_055.32),
];

/// The study's Knightthrough 7x6 cells (two rows read the size).
const KNIGHTTHROUGH_7X6: [StudyCell; 5] = [
    Stopped(30_090_000_000),
    Stopped(17_500_000_000),
    Stopped(29_980_000_000),
    Solved(2_540_383_012, 13_716.36),
    Solved(6_650_804_159, 23_958.04),
];

/// Every row of tables 1, 2 and 4-10.
pub const STUDY_ROWS: &[StudyRow] = &[
    StudyRow {
        table: 1,
        game: "atarigo",
        size: "5x5",
        study_size: "5x5",
        first_player_wins: true,
        cells: [
            Solved(14_784_088_742, 37_901.56),
            Stopped(35_540_000_000),
            Stopped(37_660_000_000),
            Solved(62_800_334, 126.84),
            Solved(3_956_049, 12.79),
        ],
        playouts: 10_000,
    },
    StudyRow {
        table: 1,
        game: "atarigo",
        size: "6x5",
        study_size: "6x5",
        first_player_wins: true,
        cells: [
            Stopped(33_150_000_000),
            Stopped(37_190_000_000),
            Stopped(7_090_000_000),
            Solved(12_713_931_627, 27_298.35),
            Solved(329_780_434, 787.17),
        ],
        playouts: 10_000,
    },
    StudyRow {
        table: 2,
        game: "nogo",
        size: "7x3",
        study_size: "7x3",
        first_player_wins: true,
        cells: [
            Stopped(80_390_000_000),
            Solved(10_921_978_839, 12_261.64),
            Solved(3_742_927_598, 4_412.21),
            Solved(1_927_635_856, 2_648.91),
            Solved(35_178_886, 49.72),
        ],
        playouts: 100_000,
    },
    StudyRow {
        table: 2,
        game: "nogo",
        size: "5x4",
        study_size: "5x4",
        first_player_wins: true,
        cells: [
            Stopped(101_140_000_000),
            Solved(1_394_182_870, 1_573.72),
            Solved(1_446_922_704, 1_675.64),
            Solved(73_387_083, 134.26),
            Solved(33_850_535, 74.77),
        ],
        playouts: 1_000_000,
    },
    StudyRow {
        table: 2,
        game: "nogo",
        size: "5x5",
        study_size: "5x5",
        first_player_wins: true,
        cells: [Blank, Blank, Blank, Blank, Solved(46_092_056_485, 61_430.88)],
        playouts: 10_000_000,
    },
    StudyRow {
        table: 4,
        game: "go",
        size: "3x3",
        study_size: "3x3",
        first_player_wins: true,
        cells: [
            Solved(246_394, 3.72),
            Solved(840_707, 11.34),
            Solved(420_265, 11.50),
            Solved(375_414, 5.62),
            Solved(6_104, 0.16),
        ],
        playouts: 10_000,
    },
    StudyRow {
        table: 4,
        game: "go",
        size: "4x3",
        study_size: "4x3",
        first_player_wins: true,
        cells: [
            Solved(43_202_038, 619.98),
            Solved(39_590_950, 515.71),
            Solved(107_815_563, 1_977.86),
            Solved(22_382_730, 348.08),
            Solved(4_296_893, 96.63),
        ],
        playouts: 10_000,
    },
    StudyRow {
        table: 5,
        game: "breakthrough",
        size: "5x5",
        study_size: "5x5",
        first_player_wins: false,
        cells: [
            Stopped(38_780_000_000),
            Solved(13_083_392_799, 33_590.59),
            Solved(19_163_127_770, 43_406.79),
            Solved(3_866_853_361, 11_319.39),
            Solved(3_499_173_137, 9_243.66),
        ],
        playouts: 10_000,
    },
    StudyRow {
        table: 6,
        game: "misere-breakthrough",
        size: "4x5",
        study_size: "4x5",
        first_player_wins: false,
        cells: MISERE_BREAKTHROUGH_4X5,
        playouts: 10_000,
    },
    StudyRow {
        table: 6,
        game: "misere-breakthrough",
        size: "5x4",
        study_size: "4x5",
        first_player_wins: false,
        cells: MISERE_BREAKTHROUGH_4X5,
        playouts: 10_000,
    },
    StudyRow {
        table: 7,
        game: "knightthrough",
        size: "6x6",
        study_size: "6x6",
        first_player_wins: true,
        cells: [
            Stopped(33_110_000_000),
            Solved(1_153_730_169, 4_894.69),
            Solved(2_284_038_427, 6_541.08),
            Solved(17_747_503, 102.60),
            Solved(528_783_129, 1_699.01),
        ],
        playouts: 10_000,
    },
    StudyRow {
        table: 7,
        game: "knightthrough",
        size: "7x6",
        study_size: "7x6",
        first_player_wins: true,
        cells: KNIGHTTHROUGH_7X6,
        playouts: 10_000,
    },
    StudyRow {
        table: 7,
        game: "knightthrough",
        size: "6x7",
        study_size: "7x6",
        first_player_wins: true,
        cells: KNIGHTTHROUGH_7X6,
        playouts: 10_000,
    },
    StudyRow {
        table: 8,
        game: "misere-knightthrough",
        size: "5x5",
        study_size: "5x5",
        first_player_wins: false,
        cells: [
            Stopped(45_290_000_000),
            Stopped(52_640_000_000),
            Stopped(56_230_000_000),
            Stopped(41_840_000_000),
            Solved(20_375_687_163, 42_425.41),
        ],
        playouts: 10_000,
    },
    StudyRow {
        table: 9,
        game: "domineering",
        size: "7x7",
        study_size: "7x7",
        first_player_wins: true,
        cells: [
            Stopped(41_270_000_000),
            Solved(18_958_604_687, 35_196.62),
            Solved(197_471_137, 376.23),
            Solved(2_342_641_133, 5_282.06),
            Solved(29_803_373, 123.76),
        ],
        playouts: 10_000,
    },
    StudyRow {
        table: 10,
        game: "misere-domineering",
        size: "7x7",
        study_size: "7x7",
        first_player_wins: true,
        cells: [
            Stopped(44_560_000_000),
            Stopped(49_290_000_000),
            Stopped(49_580_000_000),
            Solved(7_013_298_932, 14_936.03),
            Solved(72_728_678, 212.25),
        ],
        playouts: 10_000,
    },
];

/// Table 3: the Nogo winner by board size, `NOGO_GRID[r - 1][c - 1]` for an `r x c`
/// board: `Some(1)` the first player wins, `Some(2)` the second, `None` not given.
pub const NOGO_GRID: [[Option<u8>; 10]; 10] = {
    const N: Option<u8> = None;
    const A: Option<u8> = Some(1);
    const B: Option<u8> = Some(2);
    [
        [B, A, A, B, A, A, A, A, A, A],
        [A, A, B, B, A, A, A, A, B, B],
        [A, B, A, B, A, A, A, A, N, N],
        [B, B, B, B, A, A, N, N, N, N],
        [A, A, A, A, A, N, N, N, N, N],
        [A, A, A, A, N, N, N, N, N, N],
        [A, A, A, N, N, N, N, N, N, N],
        [A, A, A, N, N, N, N, N, N, N],
        [A, B, N, N, N, N, N, N, N, N],
        [A, B, N, N, N, N, N, N, N, N],
    ]
};

impl StudyRow {
    /// For a row that reads the study's size the other way: how (`"the study's 7x6 read
    /// as 6 rows along the movement, 7 columns"`); `None` for every other row.
    pub fn reading(&self) -> Option<String> {
        if self.size == self.study_size {
            return None;
        }
        let (rows, cols) = self.size.split_once('x')?;
        Some(format!("the study's {} read as {rows} rows along the movement, {cols} columns", self.study_size))
    }
}

/// The study's Nogo 5x5 winning line for the first player (Black).
pub const NOGO_5X5_LINE: &str = "e3 d3 b4 d2 c2 c3 e1 c4 e5 d4 a3 b5 a1 d5 b2 e2 c1 a5 a4 b3 d1 c5 a2";

/// The rows of study table `table` (none for table 3, the Nogo grid).
pub fn rows_of(table: u32) -> impl Iterator<Item = &'static StudyRow> {
    STUDY_ROWS.iter().filter(move |r| r.table == table)
}

/// One part of the study's settings, to switch solvo's own choices back to the study's
/// one part at a time, so that a node saving can be put down to its cause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StudyPart {
    /// The study's transposition table: 1,048,575 entries always replaced, iterative
    /// deepening called with a null window, and no key shared by symmetric positions
    /// (`symmetry=off`; Domineering also `regions=off`).
    Table,
    /// The study's move orderings: its Algorithm 4 for Atarigo (`ordering=study`, or
    /// `study-mc` for the Monte Carlo solvers), its Algorithm 5 for Breakthrough and
    /// Knightthrough (`ordering=study`), none but the Monte Carlo order for Nogo and
    /// Domineering (`ordering=plain`). Go and the misère race games keep solvo's order
    /// (they have no ordering option).
    Ordering,
    /// No game tactics: Atarigo's and the race games' forced moves and decided positions
    /// (`tactics=off`), Domineering's move-count bounds (`bounds=off`).
    Tactics,
}

impl StudyPart {
    /// Every part, in the order they are named.
    pub const ALL: [StudyPart; 3] = [StudyPart::Table, StudyPart::Ordering, StudyPart::Tactics];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            StudyPart::Table => "table",
            StudyPart::Ordering => "ordering",
            StudyPart::Tactics => "tactics",
        }
    }
}

impl std::str::FromStr for StudyPart {
    type Err = String;

    /// `table`, `ordering` or `tactics`; the error names the three.
    fn from_str(s: &str) -> Result<StudyPart, String> {
        StudyPart::ALL
            .into_iter()
            .find(|p| p.name() == s)
            .ok_or_else(|| format!("unknown part of the study's settings '{s}' (expected table, ordering or tactics)"))
    }
}

/// The game options (key, value) that give `game` (a catalogue name) the study's
/// settings `parts`, for a solver that uses the Monte Carlo ordering when `mc`.
pub fn study_game_options(game: &str, mc: bool, parts: &[StudyPart]) -> Vec<(&'static str, &'static str)> {
    let race = matches!(game, "breakthrough" | "knightthrough");
    let domineering = matches!(game, "domineering" | "misere-domineering");
    let mut out = Vec::new();
    for part in parts {
        match part {
            StudyPart::Table => {
                out.push(("symmetry", "off"));
                if domineering {
                    out.push(("regions", "off"));
                }
            }
            StudyPart::Ordering => match game {
                "atarigo" => out.push(("ordering", if mc { "study-mc" } else { "study" })),
                _ if race => out.push(("ordering", "study")),
                "nogo" => out.push(("ordering", "plain")),
                _ if domineering => out.push(("ordering", "plain")),
                _ => {}
            },
            StudyPart::Tactics => match game {
                "atarigo" => out.push(("tactics", "off")),
                _ if race => out.push(("tactics", "off")),
                _ if domineering => out.push(("bounds", "off")),
                _ => {}
            },
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_names_a_game_of_the_catalogue_and_a_valid_size() {
        for r in STUDY_ROWS {
            assert!(solvo_games::find(r.game).is_some(), "{}", r.game);
            assert!(solvo_games::parse_size(r.size).is_ok(), "{}", r.size);
            // A row reads the study's size as written, or with rows and columns swapped.
            let swapped = r.study_size.split_once('x').map(|(a, b)| format!("{b}x{a}"));
            assert!(r.size == r.study_size || swapped.as_deref() == Some(r.size), "{} {}", r.game, r.size);
            assert_eq!(r.reading().is_some(), r.size != r.study_size);
        }
        // Every game of the study takes the options of every part of its settings.
        struct Accept;
        impl solvo_games::GameVisitor for Accept {
            type Output = ();
            fn visit<G: solvo_core::Game + std::fmt::Display + 'static>(self, _: G) {}
        }
        for r in STUDY_ROWS {
            for mc in [false, true] {
                let mut options = solvo_games::GameOptions::new();
                for (key, value) in study_game_options(r.game, mc, &StudyPart::ALL) {
                    options.set(key, value);
                }
                solvo_games::dispatch_with(r.game, 4, 4, &options, Accept)
                    .unwrap_or_else(|e| panic!("{} {options:?}: {e}", r.game));
            }
        }
        assert_eq!("ordering".parse::<StudyPart>(), Ok(StudyPart::Ordering));
        assert!("luck".parse::<StudyPart>().is_err());
        assert_eq!(thousands(3_956_049), "3,956,049");
        assert_eq!(StudyCell::Stopped(35_540_000_000).to_string(), "> 35.54 G");
        // The grid is symmetric where both cells are given (rows and columns swap).
        for (r, row) in NOGO_GRID.iter().enumerate() {
            for (c, cell) in row.iter().enumerate() {
                if let (Some(a), Some(b)) = (*cell, NOGO_GRID[c][r]) {
                    assert_eq!(a, b, "{}x{} vs {}x{}", r + 1, c + 1, c + 1, r + 1);
                }
            }
        }
    }
}
