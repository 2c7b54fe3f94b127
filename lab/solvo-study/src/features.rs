//! The study's feature evaluation (8x8), from the side to move: a per-stage weight for
//! each square class (own disc +1, opponent disc -1), mobility, discs made stable by
//! the corners, frontier discs and the disc difference, each a weighted difference
//! between the two sides, and the report's "greedy" term, which looks at the line of
//! play that led to the position (see [`greedy_term`]). The weights decide what is
//! good, so one evaluation serves both variants (the misère weights favour few discs,
//! no corners, no mobility).

use solvo_othello::{Board, BoardSize, Variant};
use std::fmt;
use std::str::FromStr;

/// Game stages of the square table: up to 20 discs, up to 44, then the end.
pub const STAGES: usize = 3;
/// Square classes under the board's 8 symmetries (a1, b1, c1, d1, b2, c2, d2, c3, d3, d4).
pub const CLASSES: usize = 10;
/// Scalar features after the square table.
pub const SCALARS: usize = 5;
/// Number of weights: the square table, then mobility, stable, frontier, discs, greedy.
pub const WEIGHTS: usize = STAGES * CLASSES + SCALARS;

/// The names of the scalar features, in weight order.
pub const SCALAR_NAMES: [&str; SCALARS] = ["mobility", "stable", "frontier", "discs", "greedy"];

/// The index of the greedy weight.
const GREEDY: usize = STAGES * CLASSES + 4;

/// The class of each square (row-major from a1).
const CLASS: [usize; 64] = {
    let mut c = [0; 64];
    let mut i = 0;
    while i < 64 {
        let (r, col) = (i / 8, i % 8);
        let r = if r > 3 { 7 - r } else { r };
        let col = if col > 3 { 7 - col } else { col };
        let (a, b) = if r < col { (r, col) } else { (col, r) };
        // (a, b) with a <= b <= 3: a1=(0,0) b1=(0,1) c1=(0,2) d1=(0,3) b2=(1,1) c2=(1,2)
        // d2=(1,3) c3=(2,2) d3=(2,3) d4=(3,3).
        c[i] = match (a, b) {
            (0, x) => x,
            (1, x) => 3 + x,
            (2, x) => 5 + x,
            _ => 9,
        };
        i += 1;
    }
    c
};

/// The report's Figure 3 (its genetic algorithm's misère position matrix), one weight
/// per square class in the order of [`CLASSES`] (a1 b1 c1 d1 b2 c2 d2 c3 d3 d4): the
/// figure's 64 squares are these 10 under the board's 8 symmetries.
pub const REPORT_FIGURE_3: [i32; CLASSES] = [-497, 29, -12, -7, 44, -23, -27, -3, 0, -23];

/// A weight vector of the evaluation.
#[derive(Clone, Debug, PartialEq)]
pub struct FeatureWeights(pub [i32; WEIGHTS]);

impl FeatureWeights {
    /// Hand-set weights: for the misère game the report's Figure 3 square table
    /// ([`REPORT_FIGURE_3`]: corners -497, X-squares +44, C-squares +29, ...) in every
    /// stage, few discs now and along the line (greedy),
    /// no mobility, no stable discs; for the normal game a classic table with the signs
    /// the other way and no weight on discs (greedy 0: emphasising it changes nothing).
    pub fn hand_set(variant: Variant) -> FeatureWeights {
        // a1 b1 c1 d1 b2 c2 d2 c3 d3 d4
        let reversed = REPORT_FIGURE_3;
        let normal = [120, -20, 20, 5, -40, -5, -5, 15, 3, 3];
        let (table, scalars) = match variant {
            Variant::Reversed => (reversed, [-8, -30, 6, -4, -4]),
            Variant::Normal => (normal, [8, 30, -6, 0, 0]),
        };
        let mut w = [0; WEIGHTS];
        for s in 0..STAGES {
            w[s * CLASSES..(s + 1) * CLASSES].copy_from_slice(&table);
        }
        w[STAGES * CLASSES..].copy_from_slice(&scalars);
        FeatureWeights(w)
    }

    /// These weights with scalar feature `name` multiplied by `factor` ("position"
    /// multiplies the square table): the report's "emphasised" players.
    pub fn emphasised(&self, name: &str, factor: i32) -> Result<FeatureWeights, String> {
        let mut w = self.clone();
        if name == "position" {
            w.0[..STAGES * CLASSES].iter_mut().for_each(|x| *x *= factor);
            return Ok(w);
        }
        let i = SCALAR_NAMES
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| format!("unknown feature {name:?} (position, {})", SCALAR_NAMES.join(", ")))?;
        w.0[STAGES * CLASSES + i] *= factor;
        Ok(w)
    }

    /// The evaluation of `board` for its side to move (8x8), in weight units, with the
    /// greedy term of the line that reached it: `line` holds the disc differences (own
    /// minus opponent's) for the side to move at the root of the search, after each
    /// ply from the root to `board` (passes included), first ply first; empty at the
    /// root (no greedy term). Every ply changes the side to move, so `board`'s side is
    /// the root's when `line` has an even length, and the term is turned to its side.
    pub fn evaluate_line(&self, board: &Board, line: &[i32]) -> i32 {
        let greedy = greedy_term(self.0[GREEDY], line);
        self.evaluate(board) + if line.len().is_multiple_of(2) { greedy } else { -greedy }
    }

    /// The static part of the evaluation of `board` for its side to move (8x8), in
    /// weight units: every feature but greedy (which needs the line, see
    /// [`FeatureWeights::evaluate_line`]).
    pub fn evaluate(&self, board: &Board) -> i32 {
        let (p, o) = (board.player, board.opponent);
        let discs = (p | o).count_ones();
        let stage = if discs <= 20 {
            0
        } else if discs <= 44 {
            1
        } else {
            2
        };
        let table = &self.0[stage * CLASSES..(stage + 1) * CLASSES];
        let mut score = 0;
        let mut bits = p | o;
        while bits != 0 {
            let i = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let v = table[CLASS[i]];
            score += if p >> i & 1 != 0 { v } else { -v };
        }
        let s = &self.0[STAGES * CLASSES..];
        let size = BoardSize::Eight;
        let mobility = board.moves(size).count_ones() as i32 - board.pass().moves(size).count_ones() as i32;
        let stable = corner_stable(p).count_ones() as i32 - corner_stable(o).count_ones() as i32;
        let empty = !(p | o);
        let frontier = (frontier(p, empty).count_ones() as i32) - (frontier(o, empty).count_ones() as i32);
        let disc_diff = p.count_ones() as i32 - o.count_ones() as i32;
        score + s[0] * mobility + s[1] * stable + s[2] * frontier + s[3] * disc_diff
    }
}

impl fmt::Display for FeatureWeights {
    /// The weights as one line of whole numbers.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let words: Vec<String> = self.0.iter().map(|w| w.to_string()).collect();
        f.write_str(&words.join(" "))
    }
}

impl FromStr for FeatureWeights {
    type Err = String;

    /// [`WEIGHTS`] whole numbers separated by white space.
    fn from_str(s: &str) -> Result<FeatureWeights, String> {
        let nums: Result<Vec<i32>, _> = s.split_whitespace().map(str::parse).collect();
        let nums = nums.map_err(|e| format!("feature weights: {e}"))?;
        let arr: [i32; WEIGHTS] = nums
            .try_into()
            .map_err(|v: Vec<i32>| format!("feature weights: {} numbers, expected {WEIGHTS}", v.len()))?;
        Ok(FeatureWeights(arr))
    }
}

/// The report's greedy term, `weight` times a weighted mean of the disc differences
/// along the line searched: with `line[j]` the disc difference after ply `j + 1` of the
/// `n` plies from the root (j = 0..n-1), `weight x sum_j (n - j) line[j] / (1 + 2 +
/// ... + n)`, the nearest ply weighing `n`, the last one 1 (0 for an empty line).
///
/// The report's words are "a weighted count of opponent discs kept over the next n
/// plies, (sum over j of (n - j) x reserve_j) / (sum of j)". We read the n plies as
/// the line the search follows from the root to the evaluated position (the only next
/// n plies a depth-n search has), and reserve_j as the disc difference after ply j (the
/// opponent's disc count less a constant: the discs on the board after ply j are fixed
/// by j, passes aside), so the term is a difference between the sides like the others
/// and its weight's sign says which variant it serves (negative in the misère game: let
/// the opponent keep discs all along the line, not only at its end).
pub fn greedy_term(weight: i32, line: &[i32]) -> i32 {
    let n = line.len() as i64;
    if n == 0 || weight == 0 {
        return 0;
    }
    let sum: i64 = line.iter().enumerate().map(|(j, &d)| (n - j as i64) * i64::from(d)).sum();
    (i64::from(weight) * sum / (n * (n + 1) / 2)) as i32
}

/// Discs of `own` made stable by the corners: from each owned corner, the run of own
/// discs along both edges.
pub fn corner_stable(own: u64) -> u64 {
    let mut stable = 0;
    // (corner, step along the row, step along the column) as square indices.
    for (corner, steps) in [(0i32, [1i32, 8]), (7, [-1, 8]), (56, [1, -8]), (63, [-1, -8])] {
        if own >> corner & 1 == 0 {
            continue;
        }
        stable |= 1 << corner;
        for step in steps {
            let mut sq = corner + step;
            for _ in 0..7 {
                if own >> sq & 1 == 0 {
                    break;
                }
                stable |= 1 << sq;
                sq += step;
            }
        }
    }
    stable
}

/// Discs of `own` next to at least one empty square.
pub fn frontier(own: u64, empty: u64) -> u64 {
    const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
    const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let near = (empty << 8)
        | (empty >> 8)
        | ((empty << 1) & NOT_A)
        | ((empty >> 1) & NOT_H)
        | ((empty << 9) & NOT_A)
        | ((empty >> 7) & NOT_A)
        | ((empty << 7) & NOT_H)
        | ((empty >> 9) & NOT_H);
    own & near
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_greedy_term_is_a_weighted_mean_nearest_ply_first() {
        assert_eq!(greedy_term(5, &[]), 0);
        // One ply: the disc difference itself.
        assert_eq!(greedy_term(3, &[4]), 12);
        // Three plies weighted 3, 2, 1 over 6: (3*6 + 2*0 + 1*-6) / 6 = 2.
        assert_eq!(greedy_term(1, &[6, 0, -6]), 2);
        assert_eq!(greedy_term(-2, &[6, 0, -6]), -4);
        // A constant line gives that constant.
        assert_eq!(greedy_term(1, &[7; 9]), 7);
        let w = FeatureWeights::hand_set(Variant::Reversed);
        let b = Board::start();
        assert_eq!(w.evaluate_line(&b, &[2, -2]), w.evaluate(&b) + greedy_term(-4, &[2, -2]));
        // An odd line ends with the other side to move: the term turns round.
        assert_eq!(w.evaluate_line(&b, &[2]), w.evaluate(&b) + 8);
    }

    #[test]
    fn the_misere_table_is_the_reports_figure_3() {
        // The report's Figure 3, row by row from a1 (rows 5-8 mirror rows 4-1).
        let figure: [[i32; 8]; 4] = [
            [-497, 29, -12, -7, -7, -12, 29, -497],
            [29, 44, -23, -27, -27, -23, 44, 29],
            [-12, -23, -3, 0, 0, -3, -23, -12],
            [-7, -27, 0, -23, -23, 0, -27, -7],
        ];
        let w = FeatureWeights::hand_set(Variant::Reversed);
        for stage in 0..STAGES {
            for (sq, class) in CLASS.iter().enumerate() {
                let (r, c) = (sq / 8, sq % 8);
                let expected = figure[if r > 3 { 7 - r } else { r }][c];
                assert_eq!(w.0[stage * CLASSES + class], expected, "stage {stage}, square {sq}");
            }
        }
    }

    #[test]
    fn classes_are_symmetric_and_features_count_what_they_say() {
        assert_eq!((CLASS[0], CLASS[7], CLASS[56], CLASS[63]), (0, 0, 0, 0));
        assert_eq!((CLASS[9], CLASS[54]), (4, 4)); // b2, g7: X-squares
        assert_eq!((CLASS[27], CLASS[36]), (9, 9)); // d4, e5
                                                    // a1, b1, c1 and a2 owned: all four stable; a lone b1 is not.
        assert_eq!(corner_stable(0b111 | 1 << 8).count_ones(), 4);
        assert_eq!(corner_stable(0b10), 0);
        let start = Board::start();
        assert_eq!(frontier(start.player, !(start.player | start.opponent)).count_ones(), 2);
        // The start is symmetric: every feature cancels.
        assert_eq!(FeatureWeights::hand_set(Variant::Normal).evaluate(&start), 0);
        let w = FeatureWeights::hand_set(Variant::Reversed);
        assert_eq!(w.to_string().parse::<FeatureWeights>().unwrap(), w);
        assert!("1 2".parse::<FeatureWeights>().is_err());
        assert_eq!(w.emphasised("mobility", 3).unwrap().0[STAGES * CLASSES], -24);
        assert_eq!(w.emphasised("greedy", 3).unwrap().0[GREEDY], -12);
        assert!(w.emphasised("luck", 2).is_err());
    }
}
