//! Test helpers: a memoized win/loss solver and generic invariant checks.
#![allow(dead_code)]

use solvo_core::{Game, Status};
use std::collections::HashMap;

/// Exact negamax value with a memo keyed by `hash_key` and a cut as soon as a move wins
/// (values are -1, 0 or +1, so a child worth -1 cannot be improved on). Moves are tried
/// in `move_priority` order. Counts visited nodes.
pub struct Memo {
    pub table: HashMap<u64, i32>,
    pub nodes: u64,
}

impl Memo {
    pub fn new() -> Memo {
        Memo { table: HashMap::new(), nodes: 0 }
    }

    pub fn value<G: Game>(&mut self, g: &G) -> i32 {
        self.nodes += 1;
        match g.status() {
            Status::Over(v) => return v,
            Status::MustPass => return -self.value(&g.pass().expect("MustPass has a pass")),
            Status::ToMove => {}
        }
        let key = g.hash_key();
        if let Some(&v) = self.table.get(&key) {
            return v;
        }
        let mut moves = Vec::new();
        g.generate_moves(&mut moves);
        moves.sort_by_key(|&m| -g.move_priority(m));
        let mut best = -g.max_value() - 1;
        for m in moves {
            let v = -self.value(&g.play(m));
            if v > best {
                best = v;
                if best >= g.max_value() {
                    break;
                }
            }
        }
        self.table.insert(key, best);
        best
    }
}

/// The exact value of `g` by the memoized solver.
pub fn solve<G: Game>(g: &G) -> i32 {
    Memo::new().value(g)
}

/// Walks the whole tree of `g` to `depth` plies checking the trait's guarantees: status
/// agrees with generate_moves, values within bounds, move codes within the count,
/// the player alternates, moves are distinct.
pub fn check_invariants<G: Game>(g: &G, depth: u32) {
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    match g.status() {
        Status::ToMove => assert!(!moves.is_empty(), "ToMove without moves"),
        Status::MustPass => {
            assert!(moves.is_empty());
            assert!(g.pass().is_some());
        }
        Status::Over(v) => {
            assert!(moves.is_empty(), "Over with moves");
            assert!(v.abs() <= g.max_value());
            assert!(g.pass().is_none());
            return;
        }
    }
    let set: std::collections::HashSet<_> = moves.iter().collect();
    assert_eq!(set.len(), moves.len(), "duplicate moves");
    for &m in &moves {
        assert!(g.move_code(m) < g.move_code_count(), "move code out of range for {m:?}");
        let _ = g.move_priority(m);
        let child = g.play(m);
        assert_ne!(child.player_to_move(), g.player_to_move(), "the player must alternate");
        if depth > 0 {
            check_invariants(&child, depth - 1);
        }
    }
}

/// Checks that every symmetric image of every position up to `depth` plies has the
/// value of the position (by the memoized solver) and that the identity comes first.
pub fn check_symmetries<G: Game>(g: &G, depth: u32, memo: &mut Memo) {
    let images = g.symmetric_images();
    assert_eq!(images[0].hash_key(), g.hash_key(), "the first image must be the position itself");
    let v = memo.value(g);
    for im in &images {
        assert_eq!(memo.value(im), v, "a symmetric image has another value");
    }
    if depth == 0 || !matches!(g.status(), Status::ToMove) {
        return;
    }
    let mut moves = Vec::new();
    g.generate_moves(&mut moves);
    for m in moves {
        check_symmetries(&g.play(m), depth - 1, memo);
    }
}

/// Compares, once each, every position reachable from `plain` within `depth` plies (under
/// `plain`'s rules) with the same position rebuilt by `convert` (other rules or options):
/// their values by the memoized solver must be equal. Returns how many were compared.
pub fn compare_tree<G: Game + std::fmt::Display, H: Game>(
    plain: &G,
    depth: u32,
    convert: &impl Fn(&G) -> H,
    memos: &mut (Memo, Memo),
    seen: &mut std::collections::HashSet<u64>,
) -> u32 {
    if plain.status() != Status::ToMove || !seen.insert(plain.hash_key()) {
        return 0;
    }
    assert_eq!(memos.0.value(plain), memos.1.value(&convert(plain)), "the rules change the value of\n{plain}");
    let mut count = 1;
    if depth == 0 {
        return count;
    }
    let mut moves = Vec::new();
    plain.generate_moves(&mut moves);
    for m in moves {
        count += compare_tree(&plain.play(m), depth - 1, convert, memos, seen);
    }
    count
}

/// Checks that every symmetric image of `g` has `g`'s key and lists its moves in the
/// corresponding order: the i-th move of an image leads to a position with the same key
/// as the i-th move of `g` (so a stored move index means the same move in every image).
pub fn check_images_list_corresponding_moves<G: Game + std::fmt::Display>(g: &G) {
    let mut own = Vec::new();
    g.generate_moves(&mut own);
    for image in g.symmetric_images() {
        assert_eq!(image.hash_key(), g.hash_key());
        let mut theirs = Vec::new();
        image.generate_moves(&mut theirs);
        assert_eq!(theirs.len(), own.len());
        for (&a, &b) in own.iter().zip(&theirs) {
            assert_eq!(g.play(a).hash_key(), image.play(b).hash_key(), "move {a:?} vs {b:?} in\n{g}");
        }
    }
}

/// Plays the move sequence given as texts, with the game's parser.
pub fn play_all<G: Game>(g: &G, parse: impl Fn(&G, &str) -> G::Move, moves: &[&str]) -> G {
    let mut cur = g.clone();
    for t in moves {
        let m = parse(&cur, t);
        cur = cur.play(m);
    }
    cur
}
