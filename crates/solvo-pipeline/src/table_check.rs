//! The pipeline's table against results computed another way: the exact solver (a
//! strong solution on demand) on every table position or an even sample per number of
//! empties, and a semi-strong record with proven bounds (the published 6x6 reopening
//! alpha-beta table, `../shared/data/takizawa/`). Both are facts, so each of the table's
//! proven bounds must hold for the solver's value, and a position in both the table and
//! the record must have overlapping bounds.

use crate::goal::Bounds;
use solvo_othello::formats::obf::parse_obf_line;
use solvo_othello::{Board, BoardSize, Color, Position, Variant};
use solvo_othello_search::{solve, SolveOptions, Window};
use std::collections::{BTreeMap, HashMap};

/// One number of empties of a solver check.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EmptiesCheck {
    /// Table positions with this many empties.
    pub positions: usize,
    /// Of them, checked by the solver.
    pub checked: usize,
    /// Solver nodes.
    pub nodes: u64,
    /// Seconds.
    pub seconds_ms: u64,
}

/// A table position whose bounds contradict the other source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The position (canonical).
    pub board: Board,
    /// The table's proven bounds.
    pub table: Bounds,
    /// What the other source proved.
    pub other: Bounds,
}

/// What a solver check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SolverCheck {
    /// Per number of empties.
    pub by_empties: BTreeMap<u32, EmptiesCheck>,
    /// Positions whose proven bounds the solver contradicts (none when the table is right).
    pub disagreements: Vec<Disagreement>,
}

/// At most `per_empties` positions of `table` (sorted) per number of empties, evenly
/// spaced, the first included (0: all).
pub fn sample(table: &[(Board, Bounds)], size: BoardSize, per_empties: usize) -> Vec<(Board, Bounds)> {
    let mut groups: BTreeMap<u32, Vec<(Board, Bounds)>> = BTreeMap::new();
    for &(b, k) in table {
        groups.entry(b.empties(size)).or_default().push((b, k));
    }
    let mut out = Vec::new();
    for (_, g) in groups {
        if per_empties == 0 || g.len() <= per_empties {
            out.extend(g);
        } else {
            out.extend((0..per_empties).map(|i| g[i * g.len() / per_empties]));
        }
    }
    out
}

/// Checks each table position of `chosen` with the exact solver: a null-window solve just
/// outside each finite proven bound (value >= lower: window {lower - 1}; value <= upper:
/// window {upper + 1}). `table` gives the position counts per number of empties.
pub fn check_with_solver(
    table: &[(Board, Bounds)],
    chosen: &[(Board, Bounds)],
    size: BoardSize,
    options: &mut SolveOptions,
) -> SolverCheck {
    let m = size.squares() as i32;
    let mut out = SolverCheck::default();
    for (b, _) in table {
        out.by_empties.entry(b.empties(size)).or_default().positions += 1;
    }
    for &(b, k) in chosen {
        let start = std::time::Instant::now();
        let pos = Position { board: b, side: Color::Black, size, variant: Variant::Normal };
        let mut found = Bounds::unknown(m);
        let mut nodes = 0;
        if k.lower > -m {
            options.window = Window { lo: k.lower - 1, hi: k.lower - 1 };
            let r = solve(&pos, options);
            nodes += r.nodes;
            found = Bounds { lower: found.lower.max(r.lower), upper: found.upper.min(r.upper) };
        }
        if k.upper < m {
            options.window = Window { lo: k.upper + 1, hi: k.upper + 1 };
            let r = solve(&pos, options);
            nodes += r.nodes;
            found = Bounds { lower: found.lower.max(r.lower), upper: found.upper.min(r.upper) };
        }
        if (k.lower > -m && found.lower < k.lower) || (k.upper < m && found.upper > k.upper) {
            out.disagreements.push(Disagreement { board: b, table: k, other: found });
        }
        let e = out.by_empties.entry(b.empties(size)).or_default();
        e.checked += 1;
        e.nodes += nodes;
        e.seconds_ms += start.elapsed().as_millis() as u64;
    }
    out
}

/// The rows of a semi-strong record in the published reopening alpha-beta CSV format
/// (`obf,disccount,nodekindcode,lowerbound,upperbound`; an OBF board and side to move,
/// the published file writing the side to move as `X`): canonical boards with their proven bounds. An error names
/// the line and what is wrong.
pub fn parse_semi_strong_csv(text: &str, size: BoardSize) -> Result<Vec<(Board, Bounds)>, String> {
    let m = size.squares() as i32;
    let mut lines = text.lines();
    match lines.next() {
        Some(h) if h.trim() == "obf,disccount,nodekindcode,lowerbound,upperbound" => {}
        other => {
            return Err(format!(
                "line 1: expected the header obf,disccount,nodekindcode,lowerbound,upperbound, found {other:?}"
            ))
        }
    }
    let mut out = Vec::new();
    for (i, line) in lines.enumerate() {
        let n = i + 2;
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.trim().split(',').collect();
        if f.len() != 5 {
            return Err(format!("line {n}: {} fields, expected 5", f.len()));
        }
        // The OBF board (its side to move is the board's player), checked by the OBF parser.
        let b = parse_obf_line(f[0], Some(size), Variant::Normal)
            .map_err(|e| format!("line {n}, column {}: {}", e.column, e.message))?
            .position
            .board;
        let num = |s: &str, what: &str| {
            s.trim().parse::<i32>().map_err(|_| format!("line {n}: {what} {s:?} is not a number"))
        };
        let discs = num(f[1], "disc count")?;
        if discs != (b.player | b.opponent).count_ones() as i32 {
            return Err(format!(
                "line {n}: disc count {discs} but the board has {}",
                (b.player | b.opponent).count_ones()
            ));
        }
        num(f[2], "node kind")?;
        let k = Bounds { lower: num(f[3], "lower bound")?, upper: num(f[4], "upper bound")? };
        if k.lower > k.upper || k.lower < -m || k.upper > m {
            return Err(format!("line {n}: impossible bounds {}..{}", k.lower, k.upper));
        }
        out.push((b.canonical(), k));
    }
    Ok(out)
}

/// What a comparison with a semi-strong record found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RecordComparison {
    /// Record rows.
    pub rows: usize,
    /// Record positions that are in the table too.
    pub shared: usize,
    /// Of them, where either side's bounds are exact.
    pub shared_exact: usize,
    /// Shared positions whose bounds do not overlap.
    pub disagreements: Vec<Disagreement>,
}

/// Compares the table with `record` (canonical boards with proven bounds).
pub fn compare_with_record(table: &[(Board, Bounds)], record: &[(Board, Bounds)]) -> RecordComparison {
    let index: HashMap<Board, Bounds> = table.iter().copied().collect();
    let mut out = RecordComparison { rows: record.len(), ..RecordComparison::default() };
    for &(b, other) in record {
        let Some(&k) = index.get(&b) else { continue };
        out.shared += 1;
        if k.lower == k.upper || other.lower == other.upper {
            out.shared_exact += 1;
        }
        if k.merged(other).is_none() {
            out.disagreements.push(Disagreement { board: b, table: k, other });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(moves: &[&str]) -> Board {
        crate::test_positions::six_by_six_after(moves).board.canonical()
    }

    /// The solver check accepts true bounds and reports false ones (the value of the
    /// 20-empty position on the published optimal line is -4).
    #[test]
    fn solver_check_reports_only_false_bounds() {
        let b = board(&crate::test_positions::OPTIMAL_12);
        let table = vec![
            (b, Bounds { lower: -4, upper: -4 }),
            (b, Bounds { lower: -6, upper: 36 }),
            (b, Bounds { lower: -2, upper: 36 }),
            (b, Bounds { lower: -36, upper: -6 }),
        ];
        let r = check_with_solver(&table, &table, BoardSize::Six, &mut SolveOptions::new(16));
        let wrong: Vec<Bounds> = r.disagreements.iter().map(|d| d.table).collect();
        assert_eq!(wrong, vec![table[2].1, table[3].1]);
        assert_eq!(r.by_empties[&20].positions, 4);
        assert_eq!(r.by_empties[&20].checked, 4);
        assert!(r.disagreements.iter().all(|d| d.other.lower <= -4 && -4 <= d.other.upper));
    }

    /// Sampling keeps the first position of each number of empties and at most N each.
    #[test]
    fn sample_is_even_per_number_of_empties() {
        let a = board(&["f5"]);
        let b = board(&["f5", "d6"]);
        let k = Bounds::unknown(36);
        let table: Vec<_> = (0..10).map(|_| (a, k)).chain((0..3).map(|_| (b, k))).collect();
        assert_eq!(sample(&table, BoardSize::Six, 0).len(), 13);
        assert_eq!(sample(&table, BoardSize::Six, 4).len(), 7);
        assert_eq!(sample(&table, BoardSize::Six, 1).len(), 2);
    }

    /// The record parser reads the published format (canonicalising boards) and names the
    /// line of a malformed row; overlapping bounds agree, disjoint ones are reported.
    #[test]
    fn record_rows_are_parsed_and_compared() {
        let start = "---------------------------OX------XO--------------------------- X;";
        let text = format!("obf,disccount,nodekindcode,lowerbound,upperbound\n{start},4,1,-4,-4\n");
        let rows = parse_semi_strong_csv(&text, BoardSize::Six).unwrap();
        let s = Position::start(BoardSize::Six, Variant::Normal).board.canonical();
        assert_eq!(rows, vec![(s, Bounds { lower: -4, upper: -4 })]);
        let bad = format!("obf,disccount,nodekindcode,lowerbound,upperbound\n{start},4,1,-4,-4\n{start},5,1,0,0\n");
        assert!(parse_semi_strong_csv(&bad, BoardSize::Six).unwrap_err().starts_with("line 3: disc count 5"));
        assert!(parse_semi_strong_csv("x\n", BoardSize::Six).unwrap_err().starts_with("line 1"));
        let square =
            format!("obf,disccount,nodekindcode,lowerbound,upperbound\n{},4,1,0,0\n", start.replace("OX", "OZ"));
        assert!(parse_semi_strong_csv(&square, BoardSize::Six).unwrap_err().starts_with("line 2, column"));
        let agree = compare_with_record(&[(s, Bounds { lower: -4, upper: 36 })], &rows);
        assert_eq!((agree.rows, agree.shared, agree.shared_exact, agree.disagreements.len()), (1, 1, 1, 0));
        let wrong = compare_with_record(&[(s, Bounds { lower: -2, upper: 36 })], &rows);
        assert_eq!(wrong.disagreements.len(), 1);
        let none = compare_with_record(&[], &rows);
        assert_eq!((none.shared, none.disagreements.len()), (0, 0));
    }
}
