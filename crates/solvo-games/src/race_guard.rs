//! The guard against two-move threats of Knightthrough (a rule of
//! [`crate::race_tactics`], option `guard=on|off`): when the opponent threatens no
//! arrival (or after a capture of its only threatening knight), a move of the side to move loses if, after it, some enemy knight can leap to
//! an enemy launch cell (a cell from which a knight reaches its far row) that none of
//! our knights attacks, unless the move lands on one of our own launch cells. Knights
//! are never blocked, so that enemy knight would then threaten to arrive, we could
//! neither arrive first nor take it, and we would lose: the position after the move is
//! one the look-ahead of the tactics decides as won for the opponent.
//!
//! [`Guard`] computes what the rule needs once per position, so that each move costs a
//! few bit operations; `Race::loses_to_threat` (tests only) is the rule written plainly.

use crate::race::{Race, RaceKind, RaceMove};

/// What the guard needs about a position, computed once ([`Guard::new`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Guard {
    /// The side to move (0 or 1).
    me: u8,
    /// Our launch cells: a move landing there is a counter-threat, never left out.
    launch_me: u64,
    /// The enemy's launch cells.
    launch_opp: u64,
    /// The enemy launch cells some enemy knight can leap to now.
    landings: u64,
    /// The cells our knights attack at least once.
    once: u64,
    /// The cells our knights attack at least twice.
    twice: u64,
}

impl Guard {
    /// The guard of `race` (knights, the side to move unable to arrive, the opponent
    /// threatening no arrival or with one knight, whose captures are then the only
    /// candidate moves), or `None` when no move can lose to a two-move threat:
    /// no enemy knight attacks an enemy launch cell, so none can land on one after any
    /// move of ours (our captures only remove enemy knights).
    pub(crate) fn new(race: &Race) -> Option<Guard> {
        debug_assert_eq!(race.kind, RaceKind::Knight);
        let me = race.player;
        let opp = race.pieces[1 - me as usize];
        let launch_opp = race.launch_cells(1 - me);
        let attacked = race.attacked_by(1 - me, opp);
        if attacked & launch_opp == 0 {
            return None;
        }
        let (mut once, mut twice) = (0u64, 0u64);
        let mut own = race.pieces[me as usize];
        while own != 0 {
            let a = race.attacked_by(me, own & own.wrapping_neg());
            twice |= once & a;
            once |= a;
            own &= own - 1;
        }
        Some(Guard {
            me,
            launch_me: race.launch_cells(me),
            launch_opp,
            landings: attacked & !opp & launch_opp,
            once,
            twice,
        })
    }

    /// Whether the move `mv` of the side to move of `race` (the position this guard was
    /// made from) loses to a two-move threat: exactly `Race::loses_to_threat` (tests
    /// only), the rule computed from the position after the move.
    #[inline]
    pub(crate) fn loses(&self, race: &Race, mv: RaceMove) -> bool {
        let to = 1u64 << mv.to;
        if self.launch_me & to != 0 {
            return false;
        }
        let landings = if mv.capture {
            let opp = race.pieces[1 - self.me as usize] & !to;
            race.attacked_by(1 - self.me, opp) & !opp & self.launch_opp
        } else {
            self.landings
        };
        if landings == 0 {
            return false;
        }
        // Our attacks after the move: a cell attacked twice stays attacked when one
        // knight leaves; a cell attacked once stays unless the mover attacked it.
        let from_attacks = race.attacked_by(self.me, 1u64 << mv.from);
        let guarded = self.twice | (self.once & !from_attacks) | race.attacked_by(self.me, to);
        landings & !guarded != 0
    }
}

#[cfg(test)]
impl Race {
    /// The position after at most `plies` random legal moves from `self` (`pick(n)`
    /// chooses among `n` moves), stopping early at a finished game: the random positions
    /// the tactics' tests check.
    pub(crate) fn random_walk(mut self, plies: usize, mut pick: impl FnMut(usize) -> usize) -> Race {
        let mut moves = Vec::new();
        for _ in 0..plies {
            if self.rule_status() != solvo_core::Status::ToMove {
                break;
            }
            moves.clear();
            self.all_moves(&mut moves);
            self = solvo_core::Game::play(&self, moves[pick(moves.len())]);
        }
        self
    }

    /// Knights, the side to move unable to arrive, the opponent threatening no arrival
    /// (or `mv` capturing its only threatening knight): whether `mv` loses to a two-move threat (the rule of the module
    /// documentation), computed from the position after the move. The search uses
    /// [`Guard::loses`], which gives the same answer.
    pub(crate) fn loses_to_threat(&self, mv: RaceMove) -> bool {
        let me = self.player;
        if self.launch_cells(me) & (1u64 << mv.to) != 0 {
            return false;
        }
        let child = self.play_plain(mv);
        let opp = child.pieces[1 - me as usize];
        let landings = child.attacked_by(1 - me, opp) & !opp & child.launch_cells(1 - me);
        landings & !child.attacked_by(me, child.pieces[me as usize]) != 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::race::RaceOptions;
    use solvo_core::{Game, Status};

    /// On random Knightthrough positions of many sizes (narrow boards, where knights
    /// get stuck, included): the fast guard agrees with the plain rule move by move, and
    /// every move it leaves out leads to a position the tactics without the guard
    /// (their look-ahead) decide as won for the opponent.
    #[test]
    fn guard_agrees_with_the_plain_rule_and_the_look_ahead() {
        let mut rng = solvo_core::rng::Rng::new(0x6A4D);
        let mut next = move || (rng.next_u64() >> 33) as usize;
        let plain = RaceOptions { tactics: false, ..Default::default() };
        let unguarded = RaceOptions { threat_guard: false, ..Default::default() };
        let (mut positions, mut dropped) = (0, 0);
        for (r, c) in [(7, 6), (7, 5), (7, 4), (6, 6), (8, 4), (5, 3), (4, 4), (6, 2)] {
            for _ in 0..400 {
                let plies = next() % 24;
                let race = Race::new(RaceKind::Knight, r, c, plain).unwrap().random_walk(plies, |n| next() % n);
                let me = race.player;
                let threats = race.arrivers(1 - me);
                if race.rule_status() != Status::ToMove || race.arrivers(me) != 0 || threats.count_ones() > 1 {
                    continue;
                }
                positions += 1;
                let guard = Guard::new(&race);
                let mut moves = Vec::new();
                race.all_moves(&mut moves);
                // Against a threatening knight only its captures are candidates.
                moves.retain(|m| threats == 0 || threats & 1u64 << m.to != 0);
                for &mv in &moves {
                    let loses = race.loses_to_threat(mv);
                    assert_eq!(guard.is_some_and(|g| g.loses(&race, mv)), loses, "{mv:?} in\n{race}");
                    if loses {
                        dropped += 1;
                        let child = race.play_plain(mv);
                        let child = Race::from_pieces(
                            RaceKind::Knight,
                            r,
                            c,
                            unguarded,
                            child.pieces[0],
                            child.pieces[1],
                            child.player,
                        )
                        .unwrap();
                        assert_eq!(child.status(), Status::Over(1), "{mv:?} in\n{race}");
                    }
                }
            }
        }
        assert!(positions > 500 && dropped > 1000, "{positions} positions, {dropped} moves left out");
    }

    /// A position the guard decides: W (up) to move on 7x4 cannot take the black knight
    /// on c4, which threatens to leap to d2, a launch cell only a knight on b1 would
    /// attack, and has no counter-threat, so every move loses; without the guard the
    /// position is open.
    #[test]
    fn guard_decides_a_lost_position() {
        let board = Race::new(RaceKind::Knight, 7, 4, RaceOptions::default()).unwrap();
        let cells =
            |names: &[&str]| names.iter().map(|n| 1u64 << board.grid().parse_cell(n).unwrap()).fold(0, |a, b| a | b);
        let (w, b) = (cells(&["a1", "d1"]), cells(&["c4", "d7"]));
        let guarded = Race::from_pieces(RaceKind::Knight, 7, 4, RaceOptions::default(), w, b, 0).unwrap();
        let open = RaceOptions { threat_guard: false, ..Default::default() };
        let unguarded = Race::from_pieces(RaceKind::Knight, 7, 4, open, w, b, 0).unwrap();
        assert_eq!(unguarded.status(), Status::ToMove, "{unguarded}");
        assert_eq!(guarded.status(), Status::Over(-1), "{guarded}");
    }
}
