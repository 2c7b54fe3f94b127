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

use crate::race::{Analysis, Race, RaceKind, RaceMove};
use solvo_core::Status;

impl Race {
    /// The tactics' verdict (computed once per position).
    pub(crate) fn analysis(&self) -> Analysis {
        *self.analysis.get_or_init(|| self.analyse(true))
    }

    /// Whether player `p` has a move that lands on its far row now.
    fn can_arrive(&self, p: u8) -> bool {
        let goal = self.goal_row(p);
        self.kind.dirs().iter().any(|d| self.targets_of(p, d) & goal != 0)
    }

    /// Whether `mv` (of the side to move) leaves the opponent without an arrival next move.
    pub(crate) fn is_safe(&self, mv: RaceMove) -> bool {
        let child = self.play_plain(mv);
        !child.can_arrive(child.player)
    }

    /// The position after `mv` without computing any tactics.
    fn play_plain(&self, mv: RaceMove) -> Race {
        let mut next = self.clone();
        let me = self.player as usize;
        next.pieces[me] ^= (1u64 << mv.from) | (1u64 << mv.to);
        next.pieces[1 - me] &= !(1u64 << mv.to);
        next.player ^= 1;
        next.analysis = Default::default();
        next
    }

    /// The cells from which a piece of player `p` could land on its far row.
    fn launch_cells(&self, p: u8) -> u64 {
        let goal = self.goal_row(p);
        let mut cells = 0;
        for d in self.kind.dirs() {
            let dr = if p == 0 { d.dr } else { -d.dr };
            cells |= self.grid.shift(goal, -dr, -d.dc);
        }
        cells
    }

    /// The rules of the module documentation, with the look-ahead when `lookahead`.
    fn analyse(&self, lookahead: bool) -> Analysis {
        if let Status::Over(v) = self.rule_status() {
            return Analysis { decided: Some(v), filter: false };
        }
        let me = self.player;
        if self.can_arrive(me) {
            return Analysis { decided: Some(1), filter: false };
        }
        let filter = self.can_arrive(1 - me) || (self.kind == RaceKind::Pawn && self.grid.cols() < 2);
        if !filter && !lookahead {
            return Analysis { decided: None, filter };
        }
        let mut moves = Vec::new();
        self.all_moves(&mut moves);
        if filter {
            moves.retain(|&m| self.is_safe(m));
            if moves.is_empty() {
                return Analysis { decided: Some(-1), filter };
            }
        }
        if lookahead {
            let single = moves.len() == 1;
            let launch = self.launch_cells(me);
            for &m in &moves {
                if !single && launch & (1u64 << m.to) == 0 {
                    continue;
                }
                match self.play_plain(m).analyse(false).decided {
                    Some(-1) => return Analysis { decided: Some(1), filter },
                    Some(1) if single => return Analysis { decided: Some(-1), filter },
                    _ => {}
                }
            }
        }
        Analysis { decided: None, filter }
    }
}
