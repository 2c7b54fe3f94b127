//! perft against published counts (8x8, three conventions), the computed 6x6 table, a
//! deliberately naive reference implementation (6x6 and the whole 4x4 tree) and the
//! generic perft over the `Game` trait.

use solvo_othello::formats::transcript::parse_transcript;
use solvo_othello::perft::{perft, perft_parallel, PerftMode};
use solvo_othello::{Board, BoardSize, Position, Variant};
use solvo_search::PassRule;

/// Rows of `shared/data/takizawa/perft_8x8.csv`, depths 1..=11: (a, b, c) conventions.
const PERFT_8X8: [(u64, u64, u64); 11] = [
    (4, 4, 4),
    (12, 12, 12),
    (56, 56, 56),
    (244, 244, 244),
    (1396, 1396, 1396),
    (8200, 8200, 8200),
    (55092, 55092, 55092),
    (390216, 390216, 390216),
    (3005288, 3005288, 3005320),
    (24571284, 24571056, 24571420),
    (212258800, 212258216, 212260880),
];

/// Rows of `shared/data/takizawa/perft_6x6_computed.csv`, depths 1..=12.
const PERFT_6X6: [(u64, u64, u64); 12] = [
    (4, 4, 4),
    (12, 12, 12),
    (56, 56, 56),
    (244, 244, 244),
    (1364, 1364, 1364),
    (7604, 7604, 7604),
    (47740, 47740, 47740),
    (308716, 308716, 308716),
    (2114912, 2114912, 2115128),
    (14976792, 14976684, 14978604),
    (108820292, 108820072, 108843700),
    (811201176, 811198864, 811369936),
];

fn by_mode(row: (u64, u64, u64), mode: PerftMode) -> u64 {
    match mode {
        PerftMode::PassPlyEndCounted => row.0,
        PerftMode::PassPlyEndNotCounted => row.1,
        PerftMode::PassNoPlyEndCounted => row.2,
    }
}

fn rule(mode: PerftMode) -> PassRule {
    match mode {
        PerftMode::PassPlyEndCounted => PassRule { pass_is_ply: true, count_ended_games: true },
        PerftMode::PassPlyEndNotCounted => PassRule { pass_is_ply: true, count_ended_games: false },
        PerftMode::PassNoPlyEndCounted => PassRule { pass_is_ply: false, count_ended_games: true },
    }
}

fn csv_rows(name: &str) -> Option<Vec<(u32, u64, u64, u64)>> {
    let path = format!("{}/../../../shared/data/takizawa/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(path).ok()?;
    Some(
        text.lines()
            .skip(1)
            .filter_map(|l| {
                let f: Vec<&str> = l.split(',').collect();
                Some((f[0].parse().ok()?, f[1].parse().ok()?, f[2].parse().ok()?, f[3].parse().ok()?))
            })
            .collect(),
    )
}

#[test]
fn perft_8x8_matches_published_counts_in_all_conventions() {
    for (d, &row) in PERFT_8X8.iter().enumerate() {
        let depth = d as u32 + 1;
        for mode in PerftMode::ALL {
            let n = if depth >= 10 {
                perft_parallel(Board::start(), BoardSize::Eight, depth, mode, 2)
            } else {
                perft(Board::start(), BoardSize::Eight, depth, mode)
            };
            assert_eq!(n, by_mode(row, mode), "8x8 depth {depth} {mode:?}");
        }
    }
    // The fixture above is the shared CSV (checked when the file is there).
    if let Some(rows) = csv_rows("perft_8x8.csv") {
        for (depth, a, b, c) in rows.into_iter().filter(|r| r.0 <= 11) {
            assert_eq!(PERFT_8X8[depth as usize - 1], (a, b, c), "fixture row {depth}");
        }
    }
}

#[test]
fn perft_6x6_matches_the_computed_table() {
    for (d, &row) in PERFT_6X6.iter().enumerate() {
        let depth = d as u32 + 1;
        for mode in PerftMode::ALL {
            let n = perft_parallel(Board::start(), BoardSize::Six, depth, mode, 2);
            assert_eq!(n, by_mode(row, mode), "6x6 depth {depth} {mode:?}");
        }
    }
    if let Some(rows) = csv_rows("perft_6x6_computed.csv") {
        for (depth, a, b, c) in rows {
            assert_eq!(PERFT_6X6[depth as usize - 1], (a, b, c), "fixture row {depth}");
        }
    }
}

/// A deliberately simple Othello: an array of squares, flips by walking directions.
mod reference {
    #[derive(Clone, Copy, PartialEq)]
    pub enum Cell {
        Empty,
        Mine,
        Theirs,
    }

    #[derive(Clone)]
    pub struct Game {
        pub n: i32,
        pub cells: Vec<Cell>,
    }

    impl Game {
        pub fn start(n: i32) -> Game {
            let mut cells = vec![Cell::Empty; (n * n) as usize];
            let c = n / 2;
            // Black (to move) on e4/d5, white on d4/e5, in the centre of an n x n board.
            cells[((c - 1) * n + c) as usize] = Cell::Mine;
            cells[(c * n + c - 1) as usize] = Cell::Mine;
            cells[((c - 1) * n + c - 1) as usize] = Cell::Theirs;
            cells[(c * n + c) as usize] = Cell::Theirs;
            Game { n, cells }
        }

        fn at(&self, r: i32, c: i32) -> Option<Cell> {
            (r >= 0 && c >= 0 && r < self.n && c < self.n).then(|| self.cells[(r * self.n + c) as usize])
        }

        /// The squares flipped by playing (r, c).
        fn flips(&self, r: i32, c: i32) -> Vec<(i32, i32)> {
            let mut out = Vec::new();
            if self.at(r, c) != Some(Cell::Empty) {
                return out;
            }
            for dr in -1..=1 {
                for dc in -1..=1 {
                    if (dr, dc) == (0, 0) {
                        continue;
                    }
                    let mut run = Vec::new();
                    let (mut rr, mut cc) = (r + dr, c + dc);
                    while self.at(rr, cc) == Some(Cell::Theirs) {
                        run.push((rr, cc));
                        rr += dr;
                        cc += dc;
                    }
                    if !run.is_empty() && self.at(rr, cc) == Some(Cell::Mine) {
                        out.extend(run);
                    }
                }
            }
            out
        }

        pub fn children(&self) -> Vec<Game> {
            let mut out = Vec::new();
            for r in 0..self.n {
                for c in 0..self.n {
                    let f = self.flips(r, c);
                    if f.is_empty() {
                        continue;
                    }
                    let mut g = self.clone();
                    g.cells[(r * self.n + c) as usize] = Cell::Mine;
                    for (fr, fc) in f {
                        g.cells[(fr * self.n + fc) as usize] = Cell::Mine;
                    }
                    out.push(g.swapped());
                }
            }
            out
        }

        pub fn swapped(&self) -> Game {
            let cells = self
                .cells
                .iter()
                .map(|&x| match x {
                    Cell::Mine => Cell::Theirs,
                    Cell::Theirs => Cell::Mine,
                    Cell::Empty => Cell::Empty,
                })
                .collect();
            Game { n: self.n, cells }
        }
    }

    /// perft with explicit pass handling: `pass_is_ply`, `count_ended`.
    pub fn perft(g: &Game, depth: u32, pass_is_ply: bool, count_ended: bool) -> u64 {
        if depth == 0 {
            return 1;
        }
        let kids = g.children();
        if !kids.is_empty() {
            return kids.iter().map(|k| perft(k, depth - 1, pass_is_ply, count_ended)).sum();
        }
        let passed = g.swapped();
        if passed.children().is_empty() {
            return u64::from(count_ended);
        }
        perft(&passed, if pass_is_ply { depth - 1 } else { depth }, pass_is_ply, count_ended)
    }
}

#[test]
fn fast_perft_equals_the_naive_reference_on_6x6_and_the_whole_4x4_tree() {
    for mode in PerftMode::ALL {
        let r = rule(mode);
        for depth in 1..=7 {
            let naive = reference::perft(&reference::Game::start(6), depth, r.pass_is_ply, r.count_ended_games);
            assert_eq!(perft(Board::start(), BoardSize::Six, depth, mode), naive, "6x6 depth {depth} {mode:?}");
        }
        // 4x4: every depth until the tree is exhausted (no game lasts more than 12 moves + passes).
        for depth in 1..=16 {
            let naive = reference::perft(&reference::Game::start(4), depth, r.pass_is_ply, r.count_ended_games);
            assert_eq!(perft(Board::start(), BoardSize::Four, depth, mode), naive, "4x4 depth {depth} {mode:?}");
        }
    }
}

#[test]
fn generic_perft_over_the_game_trait_equals_the_fast_path() {
    for size in BoardSize::ALL {
        for variant in [Variant::Normal, Variant::Reversed] {
            let start = Position::start(size, variant);
            for mode in PerftMode::ALL {
                let depth = if size == BoardSize::Four { 14 } else { 7 };
                for d in 0..=depth {
                    let generic = solvo_search::perft(&start, d, rule(mode));
                    assert_eq!(generic, perft(start.board, size, d, mode), "{size} {variant} depth {d} {mode:?}");
                }
            }
        }
    }
}

#[test]
fn perft_from_other_positions_agrees_with_the_generic_version() {
    let start = Position::start(BoardSize::Eight, Variant::Normal);
    // Late positions with passes: the perfect 8x8 line up to 48 plies, and some openings.
    let line = "F5D6C3D3C4F4F6F3E6E7D7C5B6D8C6C7D2B5A5A6A7G5E3B4C8G6G4C2E8D1F7E2G3H4F1E1F2G1B1F8G8B3H3B2H5B7";
    for len in [2, 10, 30, 40, 46] {
        let pos = parse_transcript(&line[..2 * len], &start).unwrap().end();
        for mode in PerftMode::ALL {
            for d in 1..=5 {
                assert_eq!(
                    perft(pos.board, pos.size, d, mode),
                    solvo_search::perft(&pos, d, rule(mode)),
                    "after {len} plies, depth {d}, {mode:?}"
                );
                assert_eq!(
                    perft_parallel(pos.board, pos.size, d + 3, mode, 2),
                    perft(pos.board, pos.size, d + 3, mode)
                );
            }
        }
    }
}
