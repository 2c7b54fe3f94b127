//! The perfect player over a pipeline's proof (a weak solution): it plays from the
//! proven bounds while the proof covers the position, and falls back to the exact
//! solver near the end or off the proof, as the published 8x8 player does.
//!
//! Guarantee: when [`TablePlayer::choose`] answers from the proof with `guaranteed = L`,
//! the position is proven `value >= L` for the side to move and the chosen child is
//! proven `value <= -L` for the opponent, so the mover's guaranteed result never drops
//! below `L`. A proof of `value >= v` covers every reply of the opponent (a `<=` goal
//! needs every child), so a player starting on the proof of the root's value `v` keeps
//! `v` until the game ends. When the proof says nothing (`L` would be the worst score),
//! the move and its exact value come from the exact solver.

use crate::config::Config;
use crate::goal::Bounds;
use crate::node::solver_position;
use crate::proof::Prover;
use crate::store::{PipelineStore, PipelineStoreResult};
use crate::verify::load_knowledge;
use solvo_othello::{Board, BoardSize, Position, Square};
use solvo_othello_search::{solve, SolveOptions, Window};
use std::collections::HashMap;

/// Where a choice came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChoiceSource {
    /// The proof (knowledge rows or table file): `guaranteed` is a proven lower bound.
    Proof,
    /// The exact solver: `guaranteed` is the position's exact value.
    Solver,
    /// A forced pass.
    Pass,
}

/// A move chosen by the player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableChoice {
    /// The move (`None`: pass).
    pub mv: Option<Square>,
    /// What the mover is guaranteed after it (proven lower bound, or the exact value).
    pub guaranteed: i32,
    /// Where it came from.
    pub source: ChoiceSource,
}

/// The proof the player reads.
enum ProofSource {
    /// Knowledge rows of a pipeline store, proofs rebuilt on demand down to the leaves.
    Knowledge(Box<Prover<HashMap<Board, Bounds>>>),
    /// A table file written by `solvo pipeline table`: proven bounds of positions above
    /// the leaf depth.
    Table(HashMap<Board, Bounds>),
}

/// A player over a pipeline's proof.
pub struct TablePlayer {
    size: BoardSize,
    leaf_empties: u32,
    proof: ProofSource,
    options: SolveOptions,
}

impl TablePlayer {
    /// A player over the valid knowledge rows of `store` (damaged rows are left out and
    /// returned as messages); `options` for the exact solver.
    pub fn from_store(
        store: &dyn PipelineStore,
        cfg: &Config,
        options: SolveOptions,
    ) -> PipelineStoreResult<(TablePlayer, Vec<String>)> {
        let (knowledge, bad) = load_knowledge(store, cfg)?;
        let prover = Prover::new(cfg.size, cfg.leaf_empties, knowledge);
        let proof = ProofSource::Knowledge(Box::new(prover));
        Ok((TablePlayer { size: cfg.size, leaf_empties: cfg.leaf_empties, proof, options }, bad))
    }

    /// The player over the weak-solve proof `source` names: a pipeline store (a
    /// PostgreSQL URL, or a file whose `bytes` start with SQLite's header; opened without
    /// creating anything) or a table file whose contents are `bytes` (text, as `solvo
    /// pipeline table` writes; it needs `size`). Returns the damaged knowledge rows left out. Errors say what `source` is
    /// not: no settings, not text, a proof of another board size than `size`.
    pub fn open_proof(
        source: &str,
        bytes: &[u8],
        size: Option<BoardSize>,
        options: SolveOptions,
    ) -> Result<(TablePlayer, Vec<String>), String> {
        let (player, bad) = if crate::is_postgres(source) || bytes.starts_with(b"SQLite format 3\0") {
            let store = crate::open_store(source).map_err(|e| e.to_string())?;
            let cfg = Config::load(&*store)
                .map_err(|e| e.to_string())?
                .ok_or_else(|| "not a pipeline store (no settings)".to_string())?;
            TablePlayer::from_store(&*store, &cfg, options).map_err(|e| e.to_string())?
        } else {
            let text = std::str::from_utf8(bytes).map_err(|_| "not a text table file".to_string())?;
            let size = size.ok_or_else(|| "a table file needs a board size".to_string())?;
            (TablePlayer::from_table_text(size, text, options)?, Vec::new())
        };
        match size {
            Some(s) if s != player.size() => Err(format!("a {} proof, not {s}", player.size())),
            _ => Ok((player, bad)),
        }
    }

    /// A player over a table file's text (`player opponent lower upper class` in hex and
    /// decimal, one canonical position a line, as `solvo pipeline table` writes); the
    /// error names the line.
    pub fn from_table_text(size: BoardSize, text: &str, options: SolveOptions) -> Result<TablePlayer, String> {
        let m = size.squares() as i32;
        let mut table = HashMap::new();
        let mut deepest = u32::MAX;
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let bad = |what: &str| format!("table line {}: {what}: {line:?}", i + 1);
            let f: Vec<&str> = line.split_whitespace().collect();
            if f.len() != 5 {
                return Err(bad("expected 5 fields (player opponent lower upper class)"));
            }
            let hex = |s: &str| u64::from_str_radix(s, 16).map_err(|_| bad("not a hexadecimal bitboard"));
            let b = Board { player: hex(f[0])?, opponent: hex(f[1])? };
            let num = |s: &str| s.parse::<i32>().map_err(|_| bad("not a number"));
            let k = Bounds { lower: num(f[2])?, upper: num(f[3])? };
            if b.player & b.opponent != 0 || (b.player | b.opponent) & !size.mask() != 0 || b.canonical() != b {
                return Err(bad(&format!("not a canonical {size} position")));
            }
            if k.lower > k.upper || k.lower < -m || k.upper > m {
                return Err(bad("impossible bounds"));
            }
            deepest = deepest.min(b.empties(size));
            table.insert(b, k);
        }
        if table.is_empty() {
            return Err("the table is empty".into());
        }
        // Positions below the table's deepest entries are left to the solver.
        let leaf_empties = deepest.saturating_sub(1);
        Ok(TablePlayer { size, leaf_empties, proof: ProofSource::Table(table), options })
    }

    /// The board size.
    pub fn size(&self) -> BoardSize {
        self.size
    }

    fn position(&self, b: &Board) -> Position {
        solver_position(b, self.size)
    }

    /// Is `value(b) >= x` proven (for the side to move)?
    fn proves_ge(&mut self, b: &Board, x: i32) -> bool {
        match &mut self.proof {
            ProofSource::Knowledge(p) => p.proves_ge(b, x),
            ProofSource::Table(t) => t.get(&b.canonical()).is_some_and(|k| k.lower >= x),
        }
    }

    /// Is `value(b) <= x` proven? On a table file, positions at or below the leaf depth
    /// (absent from the table) are settled by a windowed exact solve.
    fn proves_le(&mut self, b: &Board, x: i32) -> bool {
        if let ProofSource::Knowledge(p) = &mut self.proof {
            return p.proves_le(b, x);
        }
        let known = match &self.proof {
            ProofSource::Table(t) => t.get(&b.canonical()).copied(),
            ProofSource::Knowledge(_) => None,
        };
        if let Some(k) = known {
            return k.upper <= x;
        }
        if b.empties(self.size) > self.leaf_empties && !b.is_game_over(self.size) {
            return false;
        }
        let mut opts = self.options.clone();
        opts.window = Window { lo: x, hi: x + 1 };
        let r = solve(&self.position(b), &opts);
        r.upper <= x
    }

    /// The largest even `L` with `value(b) >= L` proven, `None` when nothing is.
    fn proven_lower(&mut self, b: &Board) -> Option<i32> {
        let m = self.size.squares() as i32;
        (-m + 2..=m).rev().step_by(2).find(|&x| self.proves_ge(b, x))
    }

    /// A move from the proof alone: `Some` when the proof covers `b` (a proven lower bound
    /// better than the worst score, a child proven to hold it) or `b` must pass; `None`
    /// when the proof says nothing here (ask a search or the solver).
    pub fn from_proof(&mut self, b: &Board) -> Option<TableChoice> {
        let moves = b.moves(self.size);
        if moves == 0 {
            return (b.pass().moves(self.size) != 0).then_some(TableChoice {
                mv: None,
                guaranteed: 0,
                source: ChoiceSource::Pass,
            });
        }
        if b.empties(self.size) <= self.leaf_empties {
            return None;
        }
        let l = self.proven_lower(b)?;
        for sq in Square::iter(moves) {
            let child = b.play(sq, self.size)?;
            if self.proves_le(&child, -l) {
                return Some(TableChoice { mv: Some(sq), guaranteed: l, source: ChoiceSource::Proof });
            }
        }
        None
    }

    /// A move for the side to move of `b`: from the proof when it covers `b`, else from
    /// the exact solver; an error on a finished game or a stopped solve.
    pub fn choose(&mut self, b: &Board) -> Result<TableChoice, String> {
        if b.is_game_over(self.size) {
            return Err("the game is over".into());
        }
        if let Some(c) = self.from_proof(b) {
            return Ok(c);
        }
        let mut opts = self.options.clone();
        opts.window = Window::FULL;
        let r = solve(&self.position(b), &opts);
        let v = r.score().ok_or_else(|| format!("the solver stopped with bounds [{}, {}]", r.lower, r.upper))?;
        Ok(TableChoice { mv: r.best_move, guaranteed: v, source: ChoiceSource::Solver })
    }
}
