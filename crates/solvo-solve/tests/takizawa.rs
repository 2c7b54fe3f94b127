//! The first stage of the published 6x6 reopening alpha-beta run (positions with 4-10
//! discs, their node kinds and bounds; ../shared/data/takizawa/README.md) against
//! solvo's exact solver: every exact value there equals solvo's, every bound there
//! holds for solvo's value.
//!
//! The CI test checks the file's shape and every 12th bound row with 10 discs (26
//! empties; a bound costs about a second, an exact 26-empty value minutes on a
//! loaded 2-core machine);
//! `cargo test --release -p solvo-solve --test takizawa -- --ignored` checks all 465
//! rows (the 4-9 disc rows need long solves: the 4-disc row is the whole 6x6 solve).

use solvo_othello::{Board, BoardSize, Color, Position, Variant};
use solvo_othello_search::{solve, SolveOptions, Window};
use solvo_solve::kind;
use std::time::Instant;

const FILE: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../../shared/data/takizawa/",
    "optimal_reopening_ab_transposition_table---------------------------OX------XO---------------------------.csv"
);

struct Row {
    board: Board,
    discs: u32,
    kinds: u8,
    lower: i32,
    upper: i32,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(FILE).unwrap_or_else(|e| panic!("{FILE}: {e}"));
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("obf,disccount,nodekindcode,lowerbound,upperbound"));
    lines
        .enumerate()
        .map(|(i, line)| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 5, "line {}", i + 2);
            let obf = f[0].as_bytes();
            assert_eq!(&f[0][64..], " X;", "line {}: side to move is written as X", i + 2);
            let mut board = Board::default();
            for (sq, c) in obf[..64].iter().enumerate() {
                match c {
                    b'X' => board.player |= 1 << sq,
                    b'O' => board.opponent |= 1 << sq,
                    b'-' => {}
                    _ => panic!("line {}: bad square {}", i + 2, *c as char),
                }
            }
            assert_eq!((board.player | board.opponent) & !BoardSize::Six.mask(), 0, "line {}", i + 2);
            let row = Row {
                board,
                discs: f[1].parse().unwrap(),
                kinds: f[2].parse().unwrap(),
                lower: f[3].parse().unwrap(),
                upper: f[4].parse().unwrap(),
            };
            assert_eq!(row.discs, (board.player | board.opponent).count_ones(), "line {}", i + 2);
            row
        })
        .collect()
}

/// Checks `row` against solvo: exact rows by an exact solve, bound rows by a solve
/// with a window just around the bound. Returns seconds spent.
fn check(row: &Row, opts: &mut SolveOptions) -> f64 {
    let pos = Position { board: row.board, side: Color::Black, size: BoardSize::Six, variant: Variant::Normal };
    let t = Instant::now();
    if row.lower == row.upper {
        let (v, _, _) = solvo_solve::exact::exact_value(&pos, opts);
        assert_eq!(v, row.lower, "{:?} kinds {}", row.board, row.kinds);
    } else {
        // Only one side of the interval is informative (the other is +-36).
        if row.lower > -36 {
            opts.window = Window { lo: row.lower - 1, hi: row.lower - 1 };
            let r = solve(&pos, opts);
            assert!(
                r.lower >= row.lower,
                "{:?}: solvo {}..{} vs lower bound {}",
                row.board,
                r.lower,
                r.upper,
                row.lower
            );
        }
        if row.upper < 36 {
            opts.window = Window { lo: row.upper + 1, hi: row.upper + 1 };
            let r = solve(&pos, opts);
            assert!(
                r.upper <= row.upper,
                "{:?}: solvo {}..{} vs upper bound {}",
                row.board,
                r.lower,
                r.upper,
                row.upper
            );
        }
    }
    t.elapsed().as_secs_f64()
}

#[test]
fn file_shape_matches_the_readme() {
    let rows = rows();
    assert_eq!(rows.len(), 465);
    let per_disc: Vec<usize> = (4..=10).map(|d| rows.iter().filter(|r| r.discs == d).count()).collect();
    assert_eq!(per_disc, [1, 1, 3, 14, 32, 118, 296]);
    for r in &rows {
        assert_eq!(r.board, r.board.canonical(), "rows are canonical in solvo's order too");
        assert!(r.board.moves(BoardSize::Six) != 0);
        let exact = r.kinds & (kind::P | kind::A_PRIME | kind::P_PRIME) != 0;
        assert_eq!(exact, r.lower == r.upper, "{:?}", r.board);
        if !exact {
            assert_eq!(r.kinds & !(kind::A | kind::C), 0, "{:?}", r.board);
            assert!(r.kinds & kind::A != 0 || r.upper == 36, "{:?}: only A rows have upper bounds", r.board);
            assert!(r.kinds & kind::C != 0 || r.lower == -36, "{:?}: only C rows have lower bounds", r.board);
        }
    }
    assert_eq!(rows.iter().filter(|r| r.lower == r.upper).count(), 119);
    let start = rows.iter().find(|r| r.discs == 4).unwrap();
    assert_eq!((start.board, start.lower, start.upper), (Board::start(), -4, -4));
}

#[test]
fn sampled_bound_rows_with_10_discs_agree_with_solvo() {
    let mut opts = SolveOptions::new(256);
    opts.threads = 2;
    let rows = rows();
    let (mut n, mut secs) = (0, 0.0);
    for (i, r) in rows.iter().enumerate() {
        let exact = r.lower == r.upper;
        if r.discs == 10 && !exact && i % 12 == 0 {
            let s = check(r, &mut opts);
            eprintln!("row {}: kinds {} [{}, {}] agrees ({s:.2} s)", i + 2, r.kinds, r.lower, r.upper);
            secs += s;
            n += 1;
        }
    }
    eprintln!("{n} rows checked in {secs:.1} s");
    assert!(n >= 10, "{n}");
}

#[test]
#[ignore = "solves all 465 rows, including the start (minutes)"]
fn every_row_agrees_with_solvo() {
    let mut opts = SolveOptions::new(1024);
    opts.threads = 2;
    let mut rows = rows();
    rows.sort_by_key(|r| std::cmp::Reverse(r.discs));
    let mut secs = 0.0;
    for r in &rows {
        let s = check(r, &mut opts);
        secs += s;
        eprintln!("{} discs kinds {:>2} [{}, {}]: {s:.2} s", r.discs, r.kinds, r.lower, r.upper);
    }
    eprintln!("465 rows in {secs:.1} s");
}
