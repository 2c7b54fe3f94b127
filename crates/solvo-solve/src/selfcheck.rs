//! Engine-against-everything checks of the perfect player: the engine side plays its
//! chosen move; the other side plays every reply (exhaustive) or random ones. Along
//! every game the engine's guaranteed value (the exact value of the position from the
//! engine's side) must never drop, each engine move must keep it exactly, and the
//! final result must be at least the value at the start.

use crate::player::Player;
use solvo_core::rng::Rng;
use solvo_othello::{Board, Square};

/// What a self-check saw.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CheckReport {
    /// Games played to the end.
    pub games: u64,
    /// Engine moves made (passes included).
    pub engine_moves: u64,
    /// Opponent moves made (passes included).
    pub opponent_moves: u64,
    /// Opponent moves that raised the engine's value (mistakes punished).
    pub mistakes: u64,
    /// Smallest (final result - start value) over the games, engine's side; >= 0.
    pub worst_margin: i32,
}

/// One game state of a check: the board and whether the engine is to move on it.
#[derive(Clone, Copy)]
struct State {
    board: Board,
    engine_to_move: bool,
}

impl State {
    /// The engine's value of this state.
    fn engine_value(&self, player: &Player) -> Result<i32, String> {
        let v = player.value(&self.board)?.0;
        Ok(if self.engine_to_move { v } else { -v })
    }

    fn after(&self, mv: Option<Square>, player: &Player) -> State {
        let board = match mv {
            Some(sq) => self.board.play(sq, player.size()).expect("legal move"),
            None => self.board.pass(),
        };
        State { board, engine_to_move: !self.engine_to_move }
    }

    fn is_over(&self, player: &Player) -> bool {
        self.board.is_game_over(player.size())
    }

    /// The final result for the engine of a finished game.
    fn engine_result(&self, player: &Player) -> i32 {
        let v = player.variant().apply(self.board.final_score(player.size()));
        if self.engine_to_move {
            v
        } else {
            -v
        }
    }
}

/// Checks one ply: the engine's move keeps its value exactly; an opponent ply never
/// lowers it. Returns the state after the ply and its engine value.
fn step(
    player: &Player,
    s: State,
    v: i32,
    opponent_move: Option<Option<Square>>,
    report: &mut CheckReport,
) -> Result<(State, i32), String> {
    let mv = if s.engine_to_move {
        report.engine_moves += 1;
        player.choose(&s.board)?.mv
    } else {
        report.opponent_moves += 1;
        opponent_move.expect("opponent ply needs a move")
    };
    let next = s.after(mv, player);
    let nv = next.engine_value(player)?;
    let where_ = || format!("board {:016x}/{:016x}", s.board.player, s.board.opponent);
    let mv_name = mv.map_or_else(|| "pass".to_string(), |m| m.to_string());
    if nv < v {
        return Err(format!("the engine's value dropped from {v:+} to {nv:+} after {mv_name} at {}", where_()));
    }
    if s.engine_to_move && nv != v {
        return Err(format!("the engine's move {mv_name} changed its value from {v:+} to {nv:+} at {}", where_()));
    }
    if !s.engine_to_move && nv > v {
        report.mistakes += 1;
    }
    Ok((next, nv))
}

fn finish(player: &Player, s: State, start_value: i32, report: &mut CheckReport) -> Result<(), String> {
    let result = s.engine_result(player);
    if result < start_value {
        return Err(format!("a game ended {result:+} for the engine, below its start value {start_value:+}"));
    }
    let margin = result - start_value;
    report.worst_margin = if report.games == 0 { margin } else { report.worst_margin.min(margin) };
    report.games += 1;
    Ok(())
}

fn replies(board: &Board, player: &Player) -> Vec<Option<Square>> {
    let moves = board.moves(player.size());
    if moves == 0 {
        vec![None]
    } else {
        Square::iter(moves).map(Some).collect()
    }
}

fn walk(player: &Player, s: State, v: i32, start_value: i32, report: &mut CheckReport) -> Result<(), String> {
    if s.is_over(player) {
        return finish(player, s, start_value, report);
    }
    if s.engine_to_move {
        let (next, nv) = step(player, s, v, None, report)?;
        return walk(player, next, nv, start_value, report);
    }
    for reply in replies(&s.board, player) {
        let (next, nv) = step(player, s, v, Some(reply), report)?;
        walk(player, next, nv, start_value, report)?;
    }
    Ok(())
}

/// Plays the engine against every possible sequence of opponent replies from `board`
/// (a small board only: the tree is walked completely), the engine moving first when
/// `engine_first`. Errors describe the first violation.
pub fn check_exhaustive(player: &Player, board: Board, engine_first: bool) -> Result<CheckReport, String> {
    let s = State { board, engine_to_move: engine_first };
    let v = s.engine_value(player)?;
    let mut report = CheckReport::default();
    walk(player, s, v, v, &mut report)?;
    Ok(report)
}

/// A random position of `player`'s board reached from `board` by random moves until
/// at most `max_empties` empties remain (or the game would end), for checks that
/// start late enough to solve quickly.
pub fn random_position(player: &Player, board: Board, max_empties: u32, rng: &mut Rng) -> Board {
    let size = player.size();
    let mut b = board;
    while b.empties(size) > max_empties {
        let moves = replies(&b, player);
        let next = match rng.pick(&moves) {
            Some(sq) => b.play(sq, size).expect("legal"),
            None => b.pass(),
        };
        if next.is_game_over(size) {
            break;
        }
        b = next;
    }
    b
}

/// Plays one game from `board` with the opponent choosing uniformly random replies.
pub fn check_random_game(
    player: &Player,
    board: Board,
    engine_first: bool,
    rng: &mut Rng,
    report: &mut CheckReport,
) -> Result<(), String> {
    let mut s = State { board, engine_to_move: engine_first };
    let start_value = s.engine_value(player)?;
    let mut v = start_value;
    while !s.is_over(player) {
        let reply = (!s.engine_to_move).then(|| rng.pick(&replies(&s.board, player)));
        (s, v) = step(player, s, v, reply, report)?;
    }
    finish(player, s, start_value, report)
}
