//! Small games written for the solver tests (independent of solvo-games).
#![allow(dead_code)]

use solvo_core::{Game, Status};

fn mix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Nim: take 1..=3 from one heap; whoever cannot move loses.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Nim {
    pub heaps: Vec<u8>,
    pub side: u8,
}

impl Game for Nim {
    type Move = (u8, u8);
    fn generate_moves(&self, moves: &mut Vec<(u8, u8)>) {
        for (i, &h) in self.heaps.iter().enumerate() {
            for k in 1..=h.min(3) {
                moves.push((i as u8, k));
            }
        }
    }
    fn play(&self, (i, k): (u8, u8)) -> Self {
        let mut n = self.clone();
        n.heaps[i as usize] -= k;
        n.side ^= 1;
        n
    }
    fn status(&self) -> Status {
        if self.heaps.iter().all(|&h| h == 0) {
            Status::Over(-1)
        } else {
            Status::ToMove
        }
    }
    fn max_value(&self) -> i32 {
        1
    }
    fn hash_key(&self) -> u64 {
        self.heaps.iter().fold(mix(u64::from(self.side) + 7), |h, &x| mix(h ^ u64::from(x)))
    }
    fn player_to_move(&self) -> u8 {
        self.side
    }
    fn move_code(&self, (_, k): (u8, u8)) -> u32 {
        u32::from(self.side) * 4 + u32::from(k)
    }
    fn move_code_count(&self) -> u32 {
        8
    }
}

/// Domineering on rows x cols (<= 64 cells): side 0 places vertical dominoes, side 1
/// horizontal ones; whoever cannot move loses (misère: wins).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Domineering {
    pub rows: u32,
    pub cols: u32,
    pub filled: u64,
    pub side: u8,
    pub misere: bool,
}

impl Domineering {
    pub fn new(rows: u32, cols: u32, misere: bool) -> Self {
        Domineering { rows, cols, filled: 0, side: 0, misere }
    }
    fn second_cell(&self, cell: u32) -> Option<u32> {
        let (r, c) = (cell / self.cols, cell % self.cols);
        if self.side == 0 {
            (r + 1 < self.rows).then_some(cell + self.cols)
        } else {
            (c + 1 < self.cols).then_some(cell + 1)
        }
    }
}

impl Game for Domineering {
    type Move = u8;
    fn generate_moves(&self, moves: &mut Vec<u8>) {
        for cell in 0..self.rows * self.cols {
            if let Some(o) = self.second_cell(cell) {
                if self.filled & (1 << cell | 1 << o) == 0 {
                    moves.push(cell as u8);
                }
            }
        }
    }
    fn play(&self, mv: u8) -> Self {
        let o = self.second_cell(u32::from(mv)).unwrap();
        Domineering { filled: self.filled | 1 << mv | 1 << o, side: self.side ^ 1, ..*self }
    }
    fn status(&self) -> Status {
        let mut v = Vec::new();
        self.generate_moves(&mut v);
        if v.is_empty() {
            Status::Over(if self.misere { 1 } else { -1 })
        } else {
            Status::ToMove
        }
    }
    fn max_value(&self) -> i32 {
        1
    }
    fn hash_key(&self) -> u64 {
        mix(self.filled ^ (u64::from(self.side) << 63))
    }
    fn encode(&self) -> Option<Vec<u8>> {
        let mut out = self.filled.to_le_bytes().to_vec();
        out.push(self.side);
        Some(out)
    }
    fn player_to_move(&self) -> u8 {
        self.side
    }
    fn move_code(&self, mv: u8) -> u32 {
        u32::from(self.side) * 64 + u32::from(mv)
    }
    fn move_code_count(&self) -> u32 {
        128
    }
}

/// Nogo on rows x cols (<= 32 points): placing a stone that captures or leaves its own
/// group without liberties is illegal; whoever cannot move loses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Nogo {
    pub rows: u32,
    pub cols: u32,
    /// Stones of the side to move, of the other side.
    pub mine: u32,
    pub theirs: u32,
    pub side: u8,
}

impl Nogo {
    pub fn new(rows: u32, cols: u32) -> Self {
        Nogo { rows, cols, mine: 0, theirs: 0, side: 0 }
    }
    fn neighbours(&self, set: u32) -> u32 {
        let mut out = 0;
        for p in 0..self.rows * self.cols {
            if set & 1 << p != 0 {
                let (r, c) = (p / self.cols, p % self.cols);
                if r > 0 {
                    out |= 1 << (p - self.cols);
                }
                if r + 1 < self.rows {
                    out |= 1 << (p + self.cols);
                }
                if c > 0 {
                    out |= 1 << (p - 1);
                }
                if c + 1 < self.cols {
                    out |= 1 << (p + 1);
                }
            }
        }
        out
    }
    fn group(&self, p: u32, stones: u32) -> u32 {
        let mut g = 1 << p;
        loop {
            let next = (g | self.neighbours(g)) & stones;
            if next == g {
                return g;
            }
            g = next;
        }
    }
    fn legal(&self, p: u32) -> bool {
        let full = if self.rows * self.cols == 32 { u32::MAX } else { (1 << (self.rows * self.cols)) - 1 };
        let mine = self.mine | 1 << p;
        let empty = full & !(mine | self.theirs);
        if self.neighbours(self.group(p, mine)) & empty == 0 {
            return false;
        }
        let adj = self.neighbours(1 << p) & self.theirs;
        (0..self.rows * self.cols)
            .filter(|&q| adj & 1 << q != 0)
            .all(|q| self.neighbours(self.group(q, self.theirs)) & empty != 0)
    }
}

impl Game for Nogo {
    type Move = u8;
    fn generate_moves(&self, moves: &mut Vec<u8>) {
        for p in 0..self.rows * self.cols {
            if (self.mine | self.theirs) & 1 << p == 0 && self.legal(p) {
                moves.push(p as u8);
            }
        }
    }
    fn play(&self, mv: u8) -> Self {
        Nogo { mine: self.theirs, theirs: self.mine | 1 << mv, side: self.side ^ 1, ..*self }
    }
    fn status(&self) -> Status {
        let mut v = Vec::new();
        self.generate_moves(&mut v);
        if v.is_empty() {
            Status::Over(-1)
        } else {
            Status::ToMove
        }
    }
    fn max_value(&self) -> i32 {
        1
    }
    fn hash_key(&self) -> u64 {
        mix(u64::from(self.mine) | u64::from(self.theirs) << 32 ^ u64::from(self.side) << 63)
    }
    fn player_to_move(&self) -> u8 {
        self.side
    }
    fn move_code(&self, mv: u8) -> u32 {
        u32::from(self.side) * 32 + u32::from(mv)
    }
    fn move_code_count(&self) -> u32 {
        64
    }
}

/// Any game seen as won/lost: a final value > 0 for the side to move is +1, else -1.
#[derive(Clone, Debug)]
pub struct WinLoss<G>(pub G);

impl<G: Game> Game for WinLoss<G> {
    type Move = G::Move;
    fn generate_moves(&self, moves: &mut Vec<G::Move>) {
        self.0.generate_moves(moves)
    }
    fn play(&self, mv: G::Move) -> Self {
        WinLoss(self.0.play(mv))
    }
    fn status(&self) -> Status {
        match self.0.status() {
            Status::Over(v) => Status::Over(if v > 0 { 1 } else { -1 }),
            s => s,
        }
    }
    fn pass(&self) -> Option<Self> {
        self.0.pass().map(WinLoss)
    }
    fn max_value(&self) -> i32 {
        1
    }
    fn hash_key(&self) -> u64 {
        self.0.hash_key()
    }
    fn player_to_move(&self) -> u8 {
        self.0.player_to_move()
    }
    fn move_code(&self, mv: G::Move) -> u32 {
        self.0.move_code(mv)
    }
    fn move_code_count(&self) -> u32 {
        self.0.move_code_count()
    }
    fn move_priority(&self, mv: G::Move) -> i32 {
        self.0.move_priority(mv)
    }
}
