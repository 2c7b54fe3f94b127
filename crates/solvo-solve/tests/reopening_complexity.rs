//! The complexity of reopening alpha-beta (semi-strong paper, section 2.2.3) checked
//! exactly on synthetic uniform trees: a [`Game`] with branching `b`, depth `D` (the
//! root at depth 1, leaves at depth `D`), no transpositions and distinct leaf values,
//! searched by the paper's Algorithm 2 (principal variation search that reopens the
//! window at P and A' nodes) with optimal move ordering. The number of nodes of each
//! kind at every depth must equal the paper's closed forms:
//!
//! - `N(P,d) = 1`
//! - `N(A',d) = b^ceil((d-1)/2) - 1`, `N(P',d) = b^ceil((d-2)/2) - 1`
//! - `N(C,d) = ceil((d-2)/2) b^ceil(d/2) - ceil(d/2) b^ceil((d-2)/2) + 1`
//! - `N(A,d) = ceil((d-3)/2) b^ceil((d-1)/2) - ceil((d-1)/2) b^ceil((d-3)/2) + 1`
//!
//! (each for `d >= 2`; at depth 1 only the root, a P node). Plain alpha-beta on the same
//! trees visits Knuth and Moore's minimal tree, `b^ceil((d-1)/2) + b^floor((d-1)/2) - 1`
//! nodes at depth `d`; the ratio of the two totals is what the paper compares with the
//! depth (see `docs/results/papers-table3.md`).

use solvo_core::{Game, Status};

/// A node of a uniform tree: `b` moves everywhere above depth `depth_max`, leaves there.
#[derive(Clone, Debug)]
struct Uniform {
    b: u64,
    depth_max: u32,
    /// Depth of this node (the root is 1).
    depth: u32,
    /// Index of the node among those of its depth (children of `i` are `b*i .. b*i+b`).
    index: u64,
}

/// A prime above every leaf count used here; leaf values `index * K mod PRIME` are
/// distinct because `K` is invertible modulo it.
const PRIME: i64 = 1_000_003;
const K: i64 = 7_919;

impl Game for Uniform {
    type Move = u64;
    fn generate_moves(&self, moves: &mut Vec<u64>) {
        if self.depth < self.depth_max {
            moves.extend(0..self.b);
        }
    }
    fn play(&self, mv: u64) -> Self {
        Uniform { depth: self.depth + 1, index: self.index * self.b + mv, ..*self }
    }
    fn status(&self) -> Status {
        if self.depth < self.depth_max {
            Status::ToMove
        } else {
            Status::Over((self.index as i64 * K % PRIME - PRIME / 2) as i32)
        }
    }
    fn max_value(&self) -> i32 {
        PRIME as i32
    }
    fn hash_key(&self) -> u64 {
        (u64::from(self.depth) << 56) ^ self.index
    }
}

fn negamax<G: Game>(g: &G) -> i32 {
    match g.status() {
        Status::Over(v) => v,
        _ => {
            let mut moves = Vec::new();
            g.generate_moves(&mut moves);
            moves.iter().map(|&m| -negamax(&g.play(m))).max().expect("a node to move has moves")
        }
    }
}

/// Node kinds, in the paper's order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    P,
    APrime,
    PPrime,
    C,
    A,
}

const KINDS: [Kind; 5] = [Kind::P, Kind::APrime, Kind::PPrime, Kind::C, Kind::A];

/// The paper's Algorithm 1.
fn child_kind(k: Kind, first: bool) -> Kind {
    match (k, first) {
        (Kind::P, true) => Kind::P,
        (Kind::P, false) => Kind::APrime,
        (Kind::APrime, true) => Kind::PPrime,
        (Kind::APrime, false) => Kind::C,
        (Kind::PPrime, _) => Kind::APrime,
        (Kind::C, _) => Kind::A,
        (Kind::A, _) => Kind::C,
    }
}

struct Search {
    /// Visits per depth (index = depth) and kind.
    visits: Vec<[u64; 5]>,
    reopening: bool,
    /// Re-searches after a null window failed high (none with optimal ordering).
    researches: u64,
}

impl Search {
    /// Algorithm 2 (reopening) or plain PVS (`reopening == false`: P's later children
    /// are C, no window is reopened), with optimal ordering: children best first.
    fn search<G: Game>(&mut self, g: &G, depth: usize, mut alpha: i32, mut beta: i32, k: Kind) -> i32 {
        self.visits[depth][KINDS.iter().position(|&x| x == k).unwrap()] += 1;
        if let Status::Over(v) = g.status() {
            return v;
        }
        let max = g.max_value() + 1;
        if self.reopening && (k == Kind::P || k == Kind::APrime) {
            (alpha, beta) = (-max, max);
        }
        let mut moves = Vec::new();
        g.generate_moves(&mut moves);
        let mut children: Vec<(i32, G)> = moves.iter().map(|&m| g.play(m)).map(|c| (-negamax(&c), c)).collect();
        children.sort_by_key(|(v, _)| -v);
        let other = if self.reopening {
            child_kind(k, false)
        } else if k == Kind::P {
            Kind::C
        } else {
            child_kind(k, false)
        };
        for (i, (_, c)) in children.iter().enumerate() {
            let score = if i == 0 {
                -self.search(c, depth + 1, -beta, -alpha, child_kind(k, true))
            } else {
                let s = -self.search(c, depth + 1, -alpha - 1, -alpha, other);
                if alpha < s && s < beta {
                    self.researches += 1;
                    alpha = s;
                    -self.search(c, depth + 1, -beta, -alpha, child_kind(k, true))
                } else {
                    s
                }
            };
            alpha = alpha.max(score);
            if alpha >= beta {
                return alpha;
            }
        }
        alpha
    }
}

fn ceil_half(x: i64) -> u32 {
    ((x + 1).div_euclid(2)).max(0) as u32
}

/// The paper's closed forms at depth `d >= 2` (P, A', P', C, A).
fn closed_forms(b: u64, d: u32) -> [u64; 5] {
    let d = i64::from(d);
    let p = |e: u32| b.pow(e) as i64;
    let c = (ceil_half(d - 2) as i64) * p(ceil_half(d)) - (ceil_half(d) as i64) * p(ceil_half(d - 2)) + 1;
    let a = (ceil_half(d - 3) as i64) * p(ceil_half(d - 1)) - (ceil_half(d - 1) as i64) * p(ceil_half(d - 3)) + 1;
    [1, (p(ceil_half(d - 1)) - 1) as u64, (p(ceil_half(d - 2)) - 1) as u64, c as u64, a as u64]
}

/// Knuth and Moore's minimal tree at depth `d`.
fn minimal_tree(b: u64, d: u32) -> u64 {
    b.pow(d / 2) + b.pow((d - 1) / 2) - 1
}

fn run(b: u64, depth_max: u32, reopening: bool) -> Search {
    let mut s = Search { visits: vec![[0; 5]; depth_max as usize + 1], reopening, researches: 0 };
    let root = Uniform { b, depth_max, depth: 1, index: 0 };
    let v = s.search(&root, 1, -PRIME as i32 - 1, PRIME as i32 + 1, Kind::P);
    assert_eq!(v, negamax(&root));
    s
}

#[test]
fn node_kinds_per_depth_equal_the_closed_forms_of_section_2_2_3() {
    for (b, depth_max) in [(2, 12), (3, 9), (4, 7), (5, 6), (7, 5)] {
        let s = run(b, depth_max, true);
        assert_eq!(s.researches, 0, "b={b}: optimal ordering never re-searches");
        assert_eq!(s.visits[1], [1, 0, 0, 0, 0]);
        for d in 2..=depth_max {
            assert_eq!(s.visits[d as usize], closed_forms(b, d), "b={b} D={depth_max} depth {d} (P, A', P', C, A)");
        }
    }
}

#[test]
fn plain_alpha_beta_visits_the_minimal_tree() {
    for (b, depth_max) in [(2, 12), (3, 9), (5, 6)] {
        let s = run(b, depth_max, false);
        for d in 1..=depth_max {
            assert_eq!(s.visits[d as usize].iter().sum::<u64>(), minimal_tree(b, d), "b={b} depth {d}");
        }
    }
}

#[test]
fn the_ratio_to_plain_alpha_beta_grows_with_the_depth() {
    // Totals from the closed forms: reopening / plain for a fixed b grows about linearly
    // in D (O(D b^(D/2)) against O(b^(D/2))), towards D - 2 for a large b.
    let total = |b: u64, dm: u32| -> (u64, u64) {
        let reop: u64 = 1 + (2..=dm).map(|d| closed_forms(b, d).iter().sum::<u64>()).sum::<u64>();
        let plain: u64 = (1..=dm).map(|d| minimal_tree(b, d)).sum();
        (reop, plain)
    };
    let ratio = |b, dm| {
        let (r, p) = total(b, dm);
        r as f64 / p as f64
    };
    // The 6x6 game: 32 plies (depth 33 with the root); published ratio 42,987,234,221 /
    // 1,339,211,721 = 32.1. A uniform tree gives 24-32 for b = 5-10 at depth 32.
    assert!((ratio(5, 32) - 24.1).abs() < 0.1, "{}", ratio(5, 32));
    assert!((ratio(10, 32) - 32.6).abs() < 0.1, "{}", ratio(10, 32));
    assert!(ratio(8, 16) < ratio(8, 32) && ratio(8, 32) < 33.0);
    // And the closed forms agree with the search on a tree small enough to run.
    let s = run(3, 9, true);
    let p = run(3, 9, false);
    let (r, q) = total(3, 9);
    assert_eq!(s.visits.iter().flatten().sum::<u64>(), r);
    assert_eq!(p.visits.iter().flatten().sum::<u64>(), q);
}
