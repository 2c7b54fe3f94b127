//! The alpha-beta solvers over proofs kept from an earlier run: the root's moves are
//! reported as they are settled, and a resumed solve goes straight to a root move the
//! proofs show winning.

mod common;

use common::Domineering;
use solvo_core::Game;
use solvo_search::alphabeta::{alpha_beta, alpha_beta_with_proofs, AbOptions};
use solvo_search::proven::{ProvenPositions, MIN_RECORD_NODES};
use solvo_search::tt::Bound;
use solvo_search::{Budget, Verdict};
use std::collections::HashMap;

/// Proofs in memory, with the root moves reported.
#[derive(Default)]
struct Memory {
    proofs: HashMap<u64, (i32, Bound)>,
    roots: Vec<(String, i32, Bound, u64)>,
}

impl ProvenPositions for Memory {
    fn proven(&mut self, key: u64) -> Option<(i32, Bound)> {
        self.proofs.get(&key).copied()
    }

    fn record(&mut self, key: u64, value: i32, bound: Bound, nodes: u64) {
        assert!(nodes >= MIN_RECORD_NODES);
        self.proofs.insert(key, (value, bound));
    }

    fn checkpoint(&mut self, _nodes: u64) -> bool {
        true
    }

    fn root_move(&mut self, mv: &str, value: i32, bound: Bound, nodes: u64) {
        self.roots.push((mv.to_string(), value, bound, nodes));
    }
}

#[test]
fn root_moves_are_reported_and_a_proven_winning_move_is_taken_first() {
    // Domineering 6x4: the first player wins (34,008 nodes of plain alpha-beta). The
    // children's values are checked against plain alpha-beta, itself checked against
    // negamax on smaller boards (tests/agree.rs).
    let game = Domineering::new(6, 4, false);
    let options = AbOptions { etc: true, ..AbOptions::default() };
    let value = |g: &Domineering| match alpha_beta(g, &options, None, Budget::default()).verdict {
        Verdict::Exact(v) => v,
        v => panic!("{v:?}"),
    };
    assert_eq!(value(&game), 1);
    let mut memory = Memory::default();
    let first = alpha_beta_with_proofs(&game, &options, None, Budget::default(), Some(&mut memory));
    assert_eq!(first.verdict, Verdict::Exact(1));
    // Every root move searched is reported with a true value of its child; the last
    // one reported is the winning move found.
    assert!(!memory.roots.is_empty());
    let mut moves = Vec::new();
    game.generate_moves(&mut moves);
    for (mv, v, _, nodes) in &memory.roots {
        let m = moves.iter().find(|m| format!("{m:?}") == *mv).expect("a root move");
        assert!(*nodes > 0);
        assert_eq!(*v, -value(&game.play(*m)), "{mv}");
    }
    let (last, last_value, _, _) = memory.roots.last().unwrap();
    assert_eq!((last.as_str(), *last_value), (format!("{:?}", first.best_move.unwrap()).as_str(), 1));

    // Resumed with the proofs: the winning child is read, not searched, and played first.
    memory.roots.clear();
    let resumed = alpha_beta_with_proofs(&game, &options, None, Budget::default(), Some(&mut memory));
    assert_eq!(resumed.verdict, Verdict::Exact(1));
    assert!(resumed.stats.nodes <= 2, "{} nodes", resumed.stats.nodes);
    assert!(memory.roots.iter().any(|(_, v, _, n)| *v == 1 && *n == 0), "{:?}", memory.roots);
    let mv = resumed.best_move.expect("a winning move");
    assert_eq!(-value(&game.play(mv)), 1);
}

#[test]
fn iterative_deepening_reports_each_root_move_once() {
    // Iterative deepening visits the root once per depth; the proofs are looked up and
    // each settled root move reported once per solve, first run and resumed run alike.
    let game = Domineering::new(6, 4, false);
    let options = AbOptions { iterative: true, etc: true, killers: true, history: true, ..AbOptions::default() };
    let mut memory = Memory::default();
    let once = |memory: &Memory| {
        let mut names: Vec<&str> = memory.roots.iter().map(|(m, ..)| m.as_str()).collect();
        let reported = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), reported, "a root move reported twice: {:?}", memory.roots);
    };
    let first = alpha_beta_with_proofs(&game, &options, None, Budget::default(), Some(&mut memory));
    assert_eq!(first.verdict, Verdict::Exact(1));
    assert!(first.stats.iterations > 1);
    assert!(!memory.roots.is_empty());
    once(&memory);
    memory.roots.clear();
    let resumed = alpha_beta_with_proofs(&game, &options, None, Budget::default(), Some(&mut memory));
    assert_eq!(resumed.verdict, Verdict::Exact(1));
    assert!(!memory.roots.is_empty());
    once(&memory);
}
