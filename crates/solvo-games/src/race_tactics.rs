//! Tactics of the race games (Breakthrough, Knightthrough) in normal play: rules that
//! decide a position, or leave out moves, without changing any value (option
//! `tactics=on|off`, default on; misère play never uses them). Tests check every value
//! against the plain rules.
//!
//! For the side to move (it has a legal move and nobody has arrived yet):
//! - **it can reach the far row this move**: it wins (+1);
//! - **moves that let the opponent reach its far row next move are left out** (they
//!   lose at once); if no move is left, it loses (-1). On boards of at least two
//!   columns (and always with knights) a side cannot create an arrival for the
//!   opponent — an enemy piece that could arrive after the move could arrive before it
//!   (its diagonal or knight landings on the far row can never be blocked) — so the
//!   filter runs only when the opponent threatens to arrive, and then only moves that
//!   capture every threatening piece survive;
//! - **look-ahead**: for the moves that threaten to arrive next turn (and for the only
//!   move left, if just one is), the position after the move is judged by the two
//!   rules above: if the opponent is decided as lost there, the side to move wins (+1);
//!   if its only move leaves the opponent decided as winning, it loses (-1).
//! - **guard against two-move threats** (knights, option `guard=on|off`, default on;
//!   when the opponent threatens no arrival, or with one knight: then for the captures
//!   of that knight, the only moves left): a move loses if, after it, some enemy
//!   knight can land on a launch cell of the enemy (a cell from which a knight reaches
//!   its far row) where none of our knights can capture it, unless the move lands on one
//!   of our own launch cells (a counter-threat). Knights are never blocked, so the enemy
//!   knight would then threaten to arrive, we could neither arrive first nor take it,
//!   and we would lose: exactly what the look-ahead of the position after the move
//!   finds. Such moves are left out; if every move is, the side to move loses (-1). The
//!   look-ahead's verdict on the position after a threat applies the guard to the
//!   captures of the threatening knight (see [`crate::race_guard`]).

use crate::grid::bits;
use crate::race::{Analysis, Facts, Race, RaceKind, RaceMove};
use crate::race_guard::Guard;
use solvo_core::Status;

impl Analysis {
    /// The analysis as a non-zero word (kept in the position's [`Facts`]): bit 0 set; bits 1-2 the decided value plus 2
    /// (0: undecided); bit 3 the filter; bits 4-5 the safe landings (0 unknown, 1 none,
    /// 2 one cell), bit 6 the guard against two-move threats, bits 8-13 that cell. The
    /// tactics decide only wins and losses and name at most one safe landing cell.
    fn pack(self) -> u64 {
        let decided = self.decided.map_or(0, |v| {
            debug_assert!(v.abs() <= 1, "decided value {v}");
            (v.clamp(-1, 1) + 2) as u64
        });
        let landings = match self.safe_landings {
            None => 0,
            Some(0) => 1,
            Some(cells) => {
                debug_assert_eq!(cells.count_ones(), 1, "safe landings {cells:#x}");
                2 | u64::from(cells.trailing_zeros()) << 4
            }
        };
        1 | decided << 1 | u64::from(self.filter) << 3 | landings << 4 | u64::from(self.guard) << 6
    }

    /// The analysis packed by [`Analysis::pack`].
    #[inline]
    fn unpack(word: u64) -> Analysis {
        let decided = match word >> 1 & 3 {
            0 => None,
            d => Some(d as i32 - 2),
        };
        let safe_landings = match word >> 4 & 3 {
            0 => None,
            1 => Some(0),
            _ => Some(1u64 << (word >> 8 & 63)),
        };
        Analysis { decided, filter: word >> 3 & 1 == 1, safe_landings, guard: word >> 6 & 1 == 1 }
    }
}

impl Race {
    /// The tactics' verdict (computed once per position).
    pub(crate) fn analysis(&self) -> Analysis {
        Analysis::unpack(self.facts.analysis.get_or_init(|| self.analyse(true).pack()))
    }

    /// Whether player `p` has a move that lands on its far row now.
    fn can_arrive(&self, p: u8) -> bool {
        let goal = self.goal_row(p);
        self.kind.dirs().iter().any(|d| self.targets_of(p, d) & goal != 0)
    }

    /// Whether `mv` (of the side to move) leaves the opponent without an arrival next move
    /// (the definition; the search uses [`Analysis::safe_landings`] where it applies).
    pub(crate) fn is_safe(&self, mv: RaceMove) -> bool {
        let child = self.play_plain(mv);
        !child.can_arrive(child.player)
    }

    /// Whether a move of the side to move passes the filter of `analysis` (one without
    /// the guard: [`Race::own_frame_moves`] asks a [`Guard`] for those): by its landing
    /// cell when the analysis knows the safe landings, else by [`Race::is_safe`].
    pub(crate) fn passes_filter(&self, analysis: &Analysis, mv: RaceMove) -> bool {
        match analysis.safe_landings {
            Some(cells) => cells & (1u64 << mv.to) != 0,
            None => self.is_safe(mv),
        }
    }

    /// The pieces of player `p` that could land on its far row now.
    pub(crate) fn arrivers(&self, p: u8) -> u64 {
        let goal = self.goal_row(p);
        let own = self.pieces[p as usize];
        let empty = !(own | self.pieces[1 - p as usize]) & self.grid.full();
        let mut cells = 0;
        for d in self.kind.dirs() {
            let dr = if p == 0 { d.dr } else { -d.dr };
            let landing = if d.captures { goal & !own } else { goal & empty };
            cells |= self.grid.shift(landing, -dr, -d.dc) & own;
        }
        cells
    }

    /// The landing cells of the safe moves when the opponent threatens to arrive and the
    /// rule "only capturing every threatening piece saves" holds (knights, or pawns on at
    /// least two columns: no move of the side to move can block or create an arrival,
    /// see the module documentation): the threatening piece's cell when there is one,
    /// none when there are several. `None` where the rule does not hold.
    fn safe_landings(&self, threats: u64) -> Option<u64> {
        let blockable = self.kind == RaceKind::Pawn && self.grid.cols() < 2;
        (!blockable).then_some(if threats.count_ones() == 1 { threats } else { 0 })
    }

    /// The position after `mv` (what [`solvo_core::Game::play`] gives), without
    /// computing any tactics.
    pub(crate) fn play_plain(&self, mv: RaceMove) -> Race {
        let mut next = self.clone();
        let me = self.player as usize;
        next.pieces[me] ^= (1u64 << mv.from) | (1u64 << mv.to);
        next.pieces[1 - me] &= !(1u64 << mv.to);
        next.player ^= 1;
        next.facts = Facts::default();
        next
    }

    /// Whether the guard against two-move threats is on for this game (knights, normal
    /// play with the tactics and the option on).
    pub(crate) fn guards(&self) -> bool {
        self.kind == RaceKind::Knight && self.options.tactics && !self.options.misere && self.options.threat_guard
    }

    /// The cells from which a piece of player `p` could land on its far row (computed
    /// with the position, kept in [`Race::launch`]).
    #[inline]
    pub(crate) fn launch_cells(&self, p: u8) -> u64 {
        self.launch[p as usize]
    }

    /// [`Race::launch_cells`] computed from the board's geometry.
    pub(crate) fn launch_cells_of_grid(&self, p: u8) -> u64 {
        let goal = self.goal_row(p);
        let mut cells = 0;
        for d in self.kind.dirs() {
            let dr = if p == 0 { d.dr } else { -d.dr };
            cells |= self.grid.shift(goal, -dr, -d.dc);
        }
        cells
    }

    /// [`Race::analyse`] with the guard against two-move threats, for a position where
    /// it applies (knights; `threats`: the opponent's one threatening knight, or none):
    /// `None` when no candidate move loses to a two-move threat (the plain analysis then
    /// holds), else the verdict with the guard's filter.
    fn analyse_guarded(&self, guard: &Guard, threats: u64) -> Option<Analysis> {
        // Without a threat every move is a candidate; against one threatening knight
        // only the captures of it (the guard then asks what follows the capture).
        let (allowed, safe_landings) = if threats == 0 { (u64::MAX, None) } else { (threats, Some(threats)) };
        let launch_me = self.launch_cells(self.player);
        let dirs = self.kind.dirs();
        let (mut left, mut dropped) = (0u32, 0u32);
        let mut last = None;
        for (k, d) in dirs.iter().enumerate() {
            for to in bits(self.targets(d) & allowed) {
                let mv = self.move_to(k, d, to);
                if guard.loses(self, mv) {
                    dropped += 1;
                } else {
                    left += 1;
                    last = Some(mv);
                }
            }
        }
        if dropped == 0 {
            return None;
        }
        let verdict = |decided| Analysis { decided, filter: true, safe_landings, guard: true };
        let Some(last) = last else {
            return Some(verdict(Some(-1)));
        };
        // The look-ahead over the moves left: threats to arrive (which the guard always
        // keeps), or the only move.
        if left == 1 {
            return Some(verdict(match self.play_plain(last).analyse(false).decided {
                Some(-1) => Some(1),
                Some(1) => Some(-1),
                _ => None,
            }));
        }
        for (k, d) in dirs.iter().enumerate() {
            for to in bits(self.targets(d) & allowed & launch_me) {
                if self.play_plain(self.move_to(k, d, to)).analyse(false).decided == Some(-1) {
                    return Some(verdict(Some(1)));
                }
            }
        }
        Some(verdict(None))
    }

    /// The rules of the module documentation, with the look-ahead when `lookahead`.
    fn analyse(&self, lookahead: bool) -> Analysis {
        if let Status::Over(v) = self.rule_status() {
            return Analysis { decided: Some(v), filter: false, safe_landings: None, guard: false };
        }
        let me = self.player;
        if self.can_arrive(me) {
            return Analysis { decided: Some(1), filter: false, safe_landings: None, guard: false };
        }
        let threats = self.arrivers(1 - me);
        let filter = threats != 0 || (self.kind == RaceKind::Pawn && self.grid.cols() < 2);
        let safe_landings = if filter { self.safe_landings(threats) } else { None };
        let verdict = |decided| Analysis { decided, filter, safe_landings, guard: false };
        if !filter && !lookahead {
            return verdict(None);
        }
        if lookahead && threats.count_ones() <= 1 && self.guards() {
            if let Some(a) = Guard::new(self).and_then(|g| self.analyse_guarded(&g, threats)) {
                return a;
            }
        }
        if !lookahead {
            if let Some(cells) = safe_landings {
                if cells != 0 && self.guards() {
                    // Knights against one threatening knight: is there a capture of it
                    // that the guard keeps? (So the look-ahead also sees a threat whose
                    // every capture leaves an unguarded landing to the threatening side.)
                    let guard = Guard::new(self);
                    let kept = |k: usize, d, to| guard.is_none_or(|g| !g.loses(self, self.move_to(k, d, to)));
                    let any = self
                        .kind
                        .dirs()
                        .iter()
                        .enumerate()
                        .any(|(k, d)| bits(self.targets(d) & cells).any(|to| kept(k, d, to)));
                    return verdict((!any).then_some(-1));
                }
                // Is there a move landing on a safe cell at all? No move list needed.
                let any = self.kind.dirs().iter().any(|d| self.targets(d) & cells != 0);
                return verdict((!any).then_some(-1));
            }
        }
        // The moves left, known by their landing cells: counted and visited without
        // a move list.
        let allowed = match (filter, safe_landings) {
            (false, _) => u64::MAX,
            (true, Some(cells)) => cells,
            // Pawns on one column: a landing cell is one move's, tested by playing it.
            (true, None) => {
                let mut moves = Vec::new();
                self.all_moves(&mut moves);
                moves.iter().filter(|&&m| self.is_safe(m)).fold(0, |cells, m| cells | 1u64 << m.to)
            }
        };
        let dirs = self.kind.dirs();
        let left: u32 = dirs.iter().map(|d| (self.targets(d) & allowed).count_ones()).sum();
        if left == 0 {
            return verdict(Some(-1));
        }
        if lookahead {
            let single = left == 1;
            let watched = if single { allowed } else { allowed & self.launch_cells(me) };
            for (k, d) in dirs.iter().enumerate() {
                for to in bits(self.targets(d) & watched) {
                    match self.play_plain(self.move_to(k, d, to)).analyse(false).decided {
                        Some(-1) => return verdict(Some(1)),
                        Some(1) if single => return verdict(Some(-1)),
                        _ => {}
                    }
                }
            }
        }
        verdict(None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::race::RaceOptions;

    /// Every analysis the tactics can give survives packing into the cache's word.
    #[test]
    fn analyses_pack_and_unpack() {
        for decided in [None, Some(1), Some(-1), Some(0)] {
            for filter in [false, true] {
                for safe_landings in [None, Some(0), Some(1), Some(1u64 << 41), Some(1u64 << 63)] {
                    let a = Analysis { decided, filter, safe_landings, guard: filter };
                    assert_ne!(a.pack(), 0);
                    assert_eq!(Analysis::unpack(a.pack()), a);
                }
            }
        }
    }

    /// The safe landings known without playing the moves pick exactly the moves that
    /// [`Race::is_safe`] keeps, and the quick verdict (no move list) is the one the
    /// move-by-move test gives, on random positions of both kinds and many sizes.
    #[test]
    fn safe_landings_agree_with_playing_each_move() {
        let mut rng = solvo_core::rng::Rng::new(0xC0FFEE);
        let mut next = move || (rng.next_u64() >> 33) as usize;
        let mut checked = 0;
        for (kind, r, c) in [
            (RaceKind::Knight, 7, 6),
            (RaceKind::Knight, 6, 6),
            (RaceKind::Knight, 5, 3),
            (RaceKind::Pawn, 5, 5),
            (RaceKind::Pawn, 6, 2),
            (RaceKind::Pawn, 6, 1),
        ] {
            for _ in 0..300 {
                let plies = next() % 30;
                let start = Race::new(kind, r, c, RaceOptions { tactics: false, ..Default::default() }).unwrap();
                let race = start.random_walk(plies, |n| next() % n);
                if race.rule_status() != Status::ToMove {
                    continue;
                }
                for p in 0..2 {
                    assert_eq!(race.arrivers(p) != 0, race.can_arrive(p), "{race}");
                }
                let quick = race.analyse(false);
                let mut moves = Vec::new();
                race.all_moves(&mut moves);
                let safe: Vec<_> = moves.iter().filter(|&&m| race.is_safe(m)).collect();
                if quick.filter {
                    let kept: Vec<_> = moves.iter().filter(|&&m| race.passes_filter(&quick, m)).collect();
                    assert_eq!(kept, safe, "{race}");
                    checked += 1;
                }
                if !race.can_arrive(race.player) {
                    let lost = quick.filter && safe.is_empty();
                    assert_eq!(quick.decided, lost.then_some(-1), "{race}");
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }
}
