//! What must be proven about a position's value, and what is known of it.
//!
//! Values are final disc differences for the side to move (empties to the winner), in
//! `[-S, S]` with `S` the board's square count, and always even (every board has an even
//! number of squares). A [`Goal`] `lo..=hi` asks to prove `lo <= value <= hi`; `lo = -S`
//! or `hi = S` means that side needs no proof. [`Bounds`] hold what is proven.

/// A value requirement: prove `lo <= value <= hi` for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Goal {
    /// Smallest value allowed (`-S`: no lower requirement).
    pub lo: i32,
    /// Largest value allowed (`S`: no upper requirement).
    pub hi: i32,
}

impl Goal {
    /// The same requirement seen from the other side (after a move or a pass).
    pub fn negated(self) -> Goal {
        Goal { lo: -self.hi, hi: -self.lo }
    }

    /// Both requirements at once (a position asked for twice must meet both).
    pub fn merged(self, other: Goal) -> Goal {
        Goal { lo: self.lo.max(other.lo), hi: self.hi.min(other.hi) }
    }

    /// What a child must meet when its parent needs `self` on a board of `squares`
    /// squares: the chosen child (the one carrying `value >= lo`) the whole goal, seen from
    /// its side; every other child only `value >= -hi` (when `hi` is asked), else nothing.
    pub fn for_child(self, chosen: bool, squares: i32) -> Option<Goal> {
        if chosen {
            Some(self.negated())
        } else if self.hi < squares {
            Some(Goal { lo: -self.hi, hi: squares })
        } else {
            None
        }
    }

    /// The exact-value requirement `value == v`.
    pub fn exact(v: i32) -> Goal {
        Goal { lo: v, hi: v }
    }
}

/// Proven bounds of a value: `lower <= value <= upper`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bounds {
    /// Proven lower bound.
    pub lower: i32,
    /// Proven upper bound.
    pub upper: i32,
}

impl Bounds {
    /// Nothing known on a board of `squares` squares.
    pub fn unknown(squares: i32) -> Bounds {
        Bounds { lower: -squares, upper: squares }
    }

    /// Both facts at once; `None` when they contradict each other (a damaged record).
    pub fn merged(self, other: Bounds) -> Option<Bounds> {
        let b = Bounds { lower: self.lower.max(other.lower), upper: self.upper.min(other.upper) };
        (b.lower <= b.upper).then_some(b)
    }

    /// True when the bounds prove `goal`.
    pub fn proves(self, goal: Goal) -> bool {
        self.lower >= goal.lo && self.upper <= goal.hi
    }

    /// True when the bounds prove `goal` can never hold.
    pub fn refutes(self, goal: Goal) -> bool {
        self.upper < goal.lo || self.lower > goal.hi
    }

    /// `v` moved inside the bounds (an estimate corrected by what is proven), rounded
    /// to the even value on the bounds' side.
    pub fn clamp_estimate(self, v: i32) -> i32 {
        let lo = self.lower + (self.lower & 1);
        let hi = self.upper - (self.upper & 1);
        if lo > hi {
            return even(v);
        }
        even(v).clamp(lo, hi)
    }
}

/// `v` rounded to an even value (towards zero on ties), the only values a board takes.
pub fn even(v: i32) -> i32 {
    v - v % 2
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn negation_merge_and_proofs() {
        let g = Goal { lo: 0, hi: 36 };
        assert_eq!(g.negated(), Goal { lo: -36, hi: 0 });
        assert_eq!(g.merged(Goal { lo: -36, hi: 4 }), Goal { lo: 0, hi: 4 });
        let b = Bounds { lower: 2, upper: 6 };
        assert!(b.proves(g) && !b.refutes(g));
        assert!(b.refutes(Goal::exact(0)));
        assert_eq!(b.merged(Bounds { lower: -36, upper: 4 }), Some(Bounds { lower: 2, upper: 4 }));
        assert_eq!(b.merged(Bounds { lower: 8, upper: 8 }), None);
        assert_eq!(Bounds { lower: -3, upper: 5 }.clamp_estimate(9), 4);
        assert_eq!(Bounds { lower: -3, upper: 5 }.clamp_estimate(-9), -2);
        assert_eq!(even(-3), -2);
    }
}
