//! PPAF: a softmax playout policy over move codes, adapted online after each playout
//! (Playout Policy Adaptation with move Features, Cazenave 2015/2016).

use crate::rng::Rng;

/// One decision of a recorded game: who chose, among which move codes, which one.
#[derive(Clone, Copy, Debug)]
pub struct Step {
    /// 0 for the side to move at the search root, 1 for the other side.
    pub side: u8,
    /// Range of the legal moves' codes in the recorded code list.
    pub start: u32,
    /// End (exclusive) of that range.
    pub end: u32,
    /// Index (into the range) of the chosen move.
    pub chosen: u32,
}

/// Weights indexed by move code; a move is sampled with probability proportional to
/// `exp(weight)`. All weights start at 0 (a uniform policy).
#[derive(Clone, Debug)]
pub struct Policy {
    /// The weight of each move code.
    pub weights: Vec<f64>,
    /// The learning rate.
    pub alpha: f64,
    delta: Vec<f64>,
    touched: Vec<u32>,
    probs: Vec<f64>,
}

impl Policy {
    /// A uniform policy over `code_count` codes with learning rate `alpha`.
    pub fn new(code_count: u32, alpha: f64) -> Policy {
        let n = code_count.max(1) as usize;
        Policy { weights: vec![0.0; n], alpha, delta: vec![0.0; n], touched: Vec::new(), probs: Vec::new() }
    }

    fn weight(&self, code: u32) -> f64 {
        self.weights.get(code as usize).copied().unwrap_or(0.0)
    }

    /// Samples an index into `codes` with softmax probabilities.
    pub fn sample(&mut self, codes: &[u32], rng: &mut Rng) -> usize {
        if codes.len() == 1 {
            return 0;
        }
        let mut total = 0.0;
        self.probs.clear();
        for &c in codes {
            let p = self.weight(c).exp();
            total += p;
            self.probs.push(total);
        }
        let r = rng.next_f64() * total;
        self.probs.iter().position(|&cum| r < cum).unwrap_or(codes.len() - 1)
    }

    /// Adapts the policy to the winner's choices in a recorded game: at each of the
    /// winner's decisions the chosen code gains `alpha` and every legal code loses
    /// `alpha` times its probability (computed from the weights before this update).
    pub fn adapt(&mut self, codes: &[u32], steps: &[Step], winner: u8) {
        for s in steps.iter().filter(|s| s.side == winner) {
            let legal = &codes[s.start as usize..s.end as usize];
            let z: f64 = legal.iter().map(|&c| self.weight(c).exp()).sum();
            for &c in legal {
                let p = self.weight(c).exp() / z;
                self.bump(c, -self.alpha * p);
            }
            self.bump(legal[s.chosen as usize], self.alpha);
        }
        for &c in &self.touched {
            let c = c as usize;
            self.weights[c] += self.delta[c];
            self.delta[c] = 0.0;
        }
        self.touched.clear();
    }

    fn bump(&mut self, code: u32, amount: f64) {
        let c = code as usize;
        if c >= self.delta.len() {
            return;
        }
        if self.delta[c] == 0.0 {
            self.touched.push(code);
        }
        // A code whose delta returns to 0 may be listed twice: applying 0 is harmless.
        self.delta[c] += amount;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winners_choice_gains_weight_and_sampling_follows() {
        let mut p = Policy::new(4, 0.32);
        let codes = [0u32, 1, 2];
        let steps = [Step { side: 0, start: 0, end: 3, chosen: 1 }, Step { side: 1, start: 0, end: 3, chosen: 2 }];
        for _ in 0..20 {
            p.adapt(&codes, &steps, 0);
        }
        assert!(p.weights[1] > 1.0 && p.weights[0] < 0.0 && p.weights[2] < 0.0, "{:?}", p.weights);
        // The loser's choice (code 2) was not reinforced; the weights still sum to 0.
        assert!(p.weights.iter().sum::<f64>().abs() < 1e-9);
        let mut rng = Rng::new(7);
        let picks = (0..1000).filter(|_| p.sample(&codes, &mut rng) == 1).count();
        assert!(picks > 800, "{picks}");
    }
}
