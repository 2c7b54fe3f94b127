//! Tuning the feature weights by a genetic algorithm or simulated annealing. The
//! fitness of a weight vector is its score rate against the hand-set weights in a
//! small match (fixed seeded openings, both colours, fixed depth), so it is
//! deterministic: the same seed gives the same run. Each generation (GA) or step (SA)
//! reports its best individual; a run started from a logged best continues from it.

use crate::features::{FeatureWeights, WEIGHTS};
use crate::players::{FeaturePlayer, REPORT_ENDGAME};
use solvo_core::rng::Rng;
use solvo_engine::arena::{play_game, MatchStats};
use solvo_engine::openings::random_openings;
use solvo_engine::TimeControl;
use solvo_othello::formats::transcript::Replay;
use solvo_othello::{BoardSize, Position, Variant};

/// How to tune.
#[derive(Clone, Debug)]
pub struct TuneSettings {
    /// The variant played.
    pub variant: Variant,
    /// Openings of the fitness match (each played twice).
    pub openings: usize,
    /// Search depth of the fitness games.
    pub depth: u32,
    /// Generations (GA) or steps (SA).
    pub rounds: u32,
    /// GA population size (at least 4).
    pub population: usize,
    /// The seed of the openings, mutations and selections.
    pub seed: u64,
}

/// One round's best: the round, its fitness (score rate against the hand-set
/// weights), and the weights.
#[derive(Clone, Debug)]
pub struct RoundBest {
    /// Generation or step number, from 1.
    pub round: u32,
    /// Score rate in the fitness match.
    pub fitness: f64,
    /// The weights.
    pub weights: FeatureWeights,
}

fn fitness(w: &FeatureWeights, reference: &FeatureWeights, openings: &[Replay], depth: u32) -> f64 {
    let mut stats = MatchStats::default();
    let player = |weights: &FeatureWeights| FeaturePlayer {
        weights: weights.clone(),
        depth,
        presort: true,
        prune: true,
        endgame: REPORT_ENDGAME,
        label: String::new(),
    };
    for opening in openings {
        let (mut a, mut b) = (player(w), player(reference));
        let r = play_game(opening, &mut a, &mut b, TimeControl::None);
        stats.add(r.black_score);
        let r = play_game(opening, &mut b, &mut a, TimeControl::None);
        stats.add(-r.black_score);
    }
    stats.score_rate()
}

fn mutate(w: &FeatureWeights, rng: &mut Rng, rate: f64) -> FeatureWeights {
    let mut out = w.clone();
    for x in out.0.iter_mut() {
        if rng.next_f64() < rate {
            // A step of about a quarter of the weight, at least 4 units, either way.
            let scale = (f64::from(x.abs()) / 4.0).max(4.0);
            let step = (rng.next_f64() * 2.0 - 1.0) * scale;
            *x += step.round() as i32;
        }
    }
    out
}

fn setup(s: &TuneSettings) -> (Vec<Replay>, FeatureWeights, Rng) {
    let start = Position::start(BoardSize::Eight, s.variant);
    (random_openings(&start, s.openings.max(1), 6, s.seed), FeatureWeights::hand_set(s.variant), Rng::new(s.seed))
}

/// A genetic algorithm from `initial` (population around it, the best half kept,
/// uniform crossover, mutation); `on_round` sees each generation's best.
pub fn genetic(s: &TuneSettings, initial: &FeatureWeights, on_round: &mut dyn FnMut(&RoundBest)) -> RoundBest {
    let (openings, reference, mut rng) = setup(s);
    let n = s.population.max(4);
    let mut pop: Vec<FeatureWeights> =
        (0..n).map(|i| if i == 0 { initial.clone() } else { mutate(initial, &mut rng, 0.5) }).collect();
    let mut best = RoundBest { round: 0, fitness: f64::NEG_INFINITY, weights: initial.clone() };
    for round in 1..=s.rounds {
        let mut scored: Vec<(f64, FeatureWeights)> =
            pop.drain(..).map(|w| (fitness(&w, &reference, &openings, s.depth), w)).collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0));
        if scored[0].0 > best.fitness {
            best = RoundBest { round, fitness: scored[0].0, weights: scored[0].1.clone() };
        }
        on_round(&RoundBest { round, fitness: scored[0].0, weights: scored[0].1.clone() });
        let parents: Vec<FeatureWeights> = scored.into_iter().take(n / 2).map(|(_, w)| w).collect();
        pop = parents.clone();
        while pop.len() < n {
            let (a, b) = (&parents[rng.below(parents.len())], &parents[rng.below(parents.len())]);
            let mut child = a.clone();
            for i in 0..WEIGHTS {
                if rng.next_f64() < 0.5 {
                    child.0[i] = b.0[i];
                }
            }
            pop.push(mutate(&child, &mut rng, 0.15));
        }
    }
    best
}

/// Simulated annealing from `initial`: a neighbour is a mutation of a few weights,
/// accepted when better or with probability `exp(gain / T)`, `T` falling from 0.05 to
/// 0.001 of score rate; `on_round` sees each step with the best found so far.
pub fn annealing(s: &TuneSettings, initial: &FeatureWeights, on_round: &mut dyn FnMut(&RoundBest)) -> RoundBest {
    let (openings, reference, mut rng) = setup(s);
    let mut current = (fitness(initial, &reference, &openings, s.depth), initial.clone());
    let mut best = RoundBest { round: 0, fitness: current.0, weights: current.1.clone() };
    let rounds = s.rounds.max(1);
    for round in 1..=rounds {
        let t = 0.05 * (0.001f64 / 0.05).powf(f64::from(round - 1) / f64::from(rounds));
        let next = mutate(&current.1, &mut rng, 0.15);
        let f = fitness(&next, &reference, &openings, s.depth);
        if f >= current.0 || rng.next_f64() < ((f - current.0) / t).exp() {
            current = (f, next);
        }
        if current.0 > best.fitness {
            best = RoundBest { round, fitness: current.0, weights: current.1.clone() };
        }
        on_round(&RoundBest { round, ..best.clone() });
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tuning_is_seeded_and_never_reports_worse_than_its_start() {
        let s = TuneSettings { variant: Variant::Reversed, openings: 2, depth: 1, rounds: 2, population: 4, seed: 3 };
        let hand = FeatureWeights::hand_set(Variant::Reversed);
        let mut log = Vec::new();
        let a = genetic(&s, &hand, &mut |r| log.push(r.fitness));
        let b = genetic(&s, &hand, &mut |_| {});
        assert_eq!(a.weights, b.weights, "seeded");
        assert_eq!(log.len(), 2);
        let sa = annealing(&s, &hand, &mut |_| {});
        assert!(sa.fitness >= 0.5 - 1e-9 || sa.round == 0, "the start plays itself: 0.5");
    }
}
