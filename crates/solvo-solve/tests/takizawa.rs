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
//! The start's value, -4, is pinned in about a second through the published line
//! (`the_start_is_minus_4_through_the_published_line`: solvo's solve at 10 discs, the
//! table's siblings above it).

use solvo_othello::{Board, BoardSize, Color, Position, Square, Variant};
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

const HEADER: &str = "obf,disccount,nodekindcode,lowerbound,upperbound";

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(FILE).unwrap_or_else(|e| panic!("{FILE}: {e}"));
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(HEADER));
    lines.map(parse_row).collect()
}

/// One line of [`FILE`] (after its header).
fn parse_row(line: &str) -> Row {
    let f: Vec<&str> = line.split(',').collect();
    assert_eq!(f.len(), 5, "{line}");
    let obf = f[0].as_bytes();
    assert_eq!(&f[0][64..], " X;", "{line}: side to move is written as X");
    let mut board = Board::default();
    for (sq, c) in obf[..64].iter().enumerate() {
        match c {
            b'X' => board.player |= 1 << sq,
            b'O' => board.opponent |= 1 << sq,
            b'-' => {}
            _ => panic!("{line}: bad square {}", *c as char),
        }
    }
    assert_eq!((board.player | board.opponent) & !BoardSize::Six.mask(), 0, "{line}");
    let row = Row {
        board,
        discs: f[1].parse().unwrap(),
        kinds: f[2].parse().unwrap(),
        lower: f[3].parse().unwrap(),
        upper: f[4].parse().unwrap(),
    };
    assert_eq!(row.discs, (board.player | board.opponent).count_ones(), "{line}");
    row
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

/// The rows of [`FILE`] that [`the_start_is_minus_4_through_the_published_line`] reads,
/// copied verbatim (so that the pin runs without the data set;
/// [`the_line_rows_are_rows_of_the_file`] checks them against it): the positions of the
/// published line with 4-10 discs (kind 1, PV) and the other children of those with 4-9
/// discs (20 positions with 6-10 discs, all kind 2, A', exact).
const LINE_ROWS: [&str; 27] = [
    "---------------------------OX------XO--------------------------- X;,4,1,-4,-4",
    "---------------------------XO------OOO-------------------------- X;,5,1,4,4",
    "--------------------------XXX-----OOO--------------------------- X;,6,2,-2,-2",
    "-------------------X-------XX-----OOO--------------------------- X;,6,1,-4,-4",
    "------------------OX-------OX------XO--------------------------- X;,6,2,20,20",
    "-------------------O------XOX------OO------O-------------------- X;,7,1,4,4",
    "-------------------X-------XOO-----OO-----O--------------------- X;,7,2,14,14",
    "-------------------X-------XOO----OOO--------------------------- X;,7,2,6,6",
    "------------------O-------XOX------OO------O-------------------- X;,7,2,18,18",
    "-----------------O--------OXX------OO------O-------------------- X;,7,2,10,10",
    "-------------------O------XXOX-----OOO-------------------------- X;,8,1,-4,-4",
    "-------------------X-------XX-----OXO------O--------O----------- X;,8,2,0,0",
    "-------------------X-------XX-----OXO------O------O------------- X;,8,2,2,2",
    "------------------O-O-----XOXX-----XO--------------------------- X;,8,2,20,20",
    "-------------------OX------XO-----XOOO-----O-------------------- X;,9,1,4,4",
    "-------------------OX------XXO----XOO------O-------------------- X;,9,2,6,6",
    "-------------------X------OOXO-----XOO-------O------------------ X;,9,2,20,20",
    "-------------------XO------XX------XOOO-----O------------------- X;,9,2,10,10",
    "-------------------XO------XX-O----XOO------O------------------- X;,9,2,8,8",
    "--------------------O-----XOOX----OXO-------O-------O----------- X;,10,2,6,6",
    "--------------------X-----OXX-----XOOOO-----O------------------- X;,10,2,0,0",
    "--------------------X-----OXX-O---XOXO------O------------------- X;,10,2,6,6",
    "--------------------X-----XXXO-----XO------OO-------O----------- X;,10,2,-2,-2",
    "--------------------X-----XXXO-----XO------OOO------------------ X;,10,2,16,16",
    "-------------------X------OOOO----XXOX-----O-------------------- X;,10,2,-2,-2",
    "-------------------XO------XOO----XXOX-----O-------------------- X;,10,1,-4,-4",
    "------------------OX-------OXO----XXOX-----O-------------------- X;,10,2,20,20",
];

/// The published line's first 6 plies (the P line of the published run; solvo names
/// the 6x6 board's squares as on 8x8, b2..g7, as the published program does).
const LINE: [&str; 6] = ["f5", "d6", "c5", "f4", "d3", "e3"];

/// **6x6 = -4, pinned in about a second through a checkpointed line.** The deepest link
/// is solvo's own exact solve of the published line's 10-disc position (26 empties: -4,
/// about 18 M nodes, a second on one thread of the loaded 2-core machine; its first
/// window is the table's recorded value, which only makes it cheaper: the solve proves
/// the value, whatever it is). Each shallower link, from 9 discs up to the start, follows
/// by negamax from the table's recorded values of the line position's other children:
/// every one of them is recorded at least as good for its own side to move (a lower
/// bound at least the line child's value), so the line's move is a best move and the
/// parent's value is minus the line child's. Children are looked up by their canonical
/// form (the table's rows are canonical in solvo's order, see
/// `file_shape_matches_the_readme`); the start's four moves are one position.
///
/// What is proven here: the start's value is -4 **if** the 20 recorded values of the
/// siblings (6-10 discs, A' rows of the published run, [`LINE_ROWS`]) hold. They are
/// taken from the published table, not re-proven by this test; the ignored
/// `every_row_agrees_with_solvo` solves all 465 rows (minutes), and the whole solve is
/// `solvo solution weak --size 6` (25 s). The table's recorded values of the line
/// positions themselves are checked against the chain's (they agree) but not used.
#[test]
fn the_start_is_minus_4_through_the_published_line() {
    use std::collections::HashMap;
    let table: HashMap<Board, Row> = LINE_ROWS.iter().map(|l| parse_row(l)).map(|r| (r.board, r)).collect();
    let mut line = vec![Position::start(BoardSize::Six, Variant::Normal)];
    for m in LINE {
        let next = line.last().unwrap().play(Square::parse(m).unwrap()).expect("a legal move");
        line.push(next);
    }
    let deepest = line.last().unwrap();
    assert_eq!(deepest.empties(), 26);
    let recorded = table[&deepest.board.canonical()].lower;
    let mut opts = SolveOptions::new(64);
    let t = Instant::now();
    let (mut value, _, nodes) = solvo_solve::exact::exact_value_from(deepest, &mut opts, recorded);
    eprintln!("10 discs: {value}, {nodes} nodes, {:.2} s", t.elapsed().as_secs_f64());
    for i in (0..LINE.len()).rev() {
        let (parent, child) = (&line[i], line[i + 1].board.canonical());
        assert_ne!(parent.moves(), 0, "no pass on the line before 10 discs");
        for m in Square::iter(parent.moves()) {
            let sibling = parent.play(m).unwrap().board.canonical();
            if sibling == child {
                continue;
            }
            let row = table.get(&sibling).unwrap_or_else(|| panic!("{m} at ply {i}: not in the table"));
            assert!(row.lower >= value, "{m} at ply {i}: recorded {}..{}, the line {value}", row.lower, row.upper);
        }
        value = -value;
        let row = &table[&parent.board.canonical()];
        assert_eq!((row.kinds & kind::P, row.lower, row.upper), (kind::P, value, value), "ply {i}");
    }
    assert_eq!(value, -4);
}

/// [`LINE_ROWS`] are lines of [`FILE`], letter for letter.
#[test]
fn the_line_rows_are_rows_of_the_file() {
    let text = std::fs::read_to_string(FILE).unwrap_or_else(|e| panic!("{FILE}: {e}"));
    let lines: std::collections::HashSet<&str> = text.lines().collect();
    for row in LINE_ROWS {
        assert!(lines.contains(row), "{row}");
    }
}
