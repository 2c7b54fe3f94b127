//! The line of best play from a position of a game: every turn plays the move the solver
//! finds best, and a store of proven positions answers the turns it settles without a
//! search. What `solvo game solve --line` prints, written once for every front end.

use crate::algorithm::{solve_with_proofs, SolverConfig};
use crate::outcome::Verdict;
use crate::proven::ProvenPositions;
use crate::tt::Bound;
use solvo_core::{Game, Status};

/// In a win/loss game, a move of `pos` the store answers without a search: one that
/// ends the game won or whose position is proven lost for its side to move (the mover
/// wins); else, when every move is proven to lose, the first of them, so that the line
/// goes on where the store knows the winner's answers. `None`: the turn needs a search.
pub fn proven_move<G: Game>(pos: &G, store: &mut dyn ProvenPositions) -> Option<G::Move> {
    if pos.max_value() != 1 {
        return None;
    }
    let mut legal = Vec::new();
    pos.generate_moves(&mut legal);
    let mut losing = None;
    let mut all_lose = true;
    for &m in &legal {
        let child = pos.play(m);
        let proof = match child.status() {
            Status::Over(v) => Some((v, Bound::Exact)),
            _ => store.proven(child.hash_key()),
        };
        match proof {
            Some((v, Bound::Upper | Bound::Exact)) if v <= -1 => return Some(m),
            Some((v, Bound::Lower | Bound::Exact)) if v >= 1 => losing = losing.or(Some(m)),
            _ => all_lose = false,
        }
    }
    losing.filter(|_| all_lose)
}

/// The line from `game` when every turn plays the move the solver finds best (`first`
/// at the root, already known), each turn solved with `config` and `proven`: the moves
/// and the nodes spent. A turn whose solve names no move plays its first legal move; a
/// turn the budget leaves undecided ends the line.
pub fn play_out<G: Game>(
    game: &G,
    first: Option<G::Move>,
    config: &SolverConfig,
    mut proven: Option<&mut dyn ProvenPositions>,
) -> (Vec<String>, u64) {
    let (mut line, mut nodes, mut pos, mut next) = (Vec::new(), 0, game.clone(), first);
    loop {
        match pos.status() {
            Status::Over(_) => break,
            Status::MustPass => {
                pos = pos.pass().expect("MustPass has a pass");
                line.push("pass".to_string());
                continue;
            }
            Status::ToMove => {}
        }
        let known = match &mut proven {
            Some(store) if next.is_none() => proven_move(&pos, &mut **store),
            _ => None,
        };
        let m = match next.take().or(known) {
            Some(m) => m,
            None => {
                let store = proven.as_mut().map(|store| &mut **store as &mut dyn ProvenPositions);
                let r = solve_with_proofs(&pos, config, store);
                nodes += r.stats.nodes;
                if r.verdict == Verdict::Unknown {
                    break;
                }
                let mut legal = Vec::new();
                pos.generate_moves(&mut legal);
                match r.best_move.or(legal.first().copied()) {
                    Some(m) => m,
                    None => break,
                }
            }
        };
        line.push(format!("{m:?}"));
        pos = pos.play(m);
    }
    (line, nodes)
}
