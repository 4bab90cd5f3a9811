//! Greedy rule-set selection: repeatedly add the candidate that raises a
//! set's score most (ties: lower cost, then earlier candidate), as the
//! paper's §6.3.1; or, given a bound on the chosen rules' mean cost, the
//! candidate that raises it most per unit of cost among those that keep
//! the mean within it (the cost-effective greedy of budgeted maximum
//! coverage: the paper notes its selection "greedily maximizes coverage
//! while ignoring cost", and its top 10 came out dearer than the rules a
//! person writes). The score is an
//! [`Objective`] supplied by the caller (cells covered on test
//! transitions, paths pruned, ...), which may keep what it learnt about
//! the chosen set to score one more candidate cheaply; this module knows
//! no domain.

use rayon::prelude::*;
use std::cmp::{Ordering, Reverse};

/// One step of a greedy selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Index of the chosen candidate.
    pub index: usize,
    /// The score of the set chosen so far, this candidate included.
    pub score: usize,
}

/// How many candidates a selection takes, and whether their costs are
/// weighed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selection {
    /// At most this many candidates.
    pub k: usize,
    /// If set, the chosen candidates' mean cost stays at most this (at
    /// every step: any first few of them too), and each step takes the
    /// candidate adding the most per unit of cost among those that keep
    /// it so; else the one adding the most.
    pub max_mean_cost: Option<u32>,
}

impl Selection {
    /// The `k` candidates that add the most, costs breaking ties only.
    pub fn top(k: usize) -> Selection {
        Selection { k, max_mean_cost: None }
    }

    /// Whether a candidate costing `cost` may join `chosen` candidates
    /// costing `total` together.
    pub fn fits(&self, total: u64, chosen: usize, cost: u32) -> bool {
        self.max_mean_cost.is_none_or(|m| total + cost as u64 <= m as u64 * (chosen as u64 + 1))
    }
}

/// How one step weighs the candidates: by what they add to the chosen
/// set's score (`current`), or by that per unit of their cost; then the
/// cheaper, then the earlier candidate.
pub struct Weigh<'a> {
    /// The chosen set's score.
    pub current: usize,
    /// A candidate's cost.
    pub cost: &'a (dyn Fn(usize) -> u32 + Sync),
    /// Whether the gain is divided by the cost.
    pub per_cost: bool,
}

impl Weigh<'_> {
    /// Whether candidate `i` scoring `score` raises the chosen set's score
    /// and comes before `best` (if any).
    pub fn beats(&self, i: usize, score: usize, best: Option<&Pick>) -> bool {
        score > self.current && best.is_none_or(|b| self.order((i, score), (b.index, b.score)) == Ordering::Less)
    }

    /// `a` before `b` (each a candidate and its score) when it adds more
    /// (per unit of cost if weighed so), then when it is cheaper, then
    /// when it is earlier.
    pub fn order(&self, (i, si): (usize, usize), (j, sj): (usize, usize)) -> Ordering {
        let (ci, cj) = ((self.cost)(i), (self.cost)(j));
        let gain = |s: usize| s.saturating_sub(self.current) as u128;
        let (vi, vj) = if self.per_cost {
            (gain(si) * cj.max(1) as u128, gain(sj) * ci.max(1) as u128)
        } else {
            (gain(si), gain(sj))
        };
        (Reverse(vi), ci, i).cmp(&(Reverse(vj), cj, j))
    }
}

/// A set function to maximise, evaluated incrementally: it holds the set
/// chosen so far, scores that set with one more candidate, and grows.
pub trait Objective: Sync {
    /// What can go wrong while scoring.
    type Error: Send;
    /// The score of the chosen set.
    fn score(&self) -> usize;
    /// The score of the chosen set with candidate `i` added.
    fn score_with(&self, i: usize) -> Result<usize, Self::Error>;
    /// The candidate of `candidates` that comes first by `weigh` among
    /// those raising the score, with its score; `None` if none raises it.
    /// By default every candidate is scored, in parallel; an objective may
    /// prune candidates it can bound.
    fn best(&self, candidates: &[usize], weigh: &Weigh<'_>) -> Result<Option<Pick>, Self::Error> {
        let scores: Vec<usize> = candidates.par_iter().map(|&i| self.score_with(i)).collect::<Result<_, _>>()?;
        Ok(candidates.iter().zip(scores).fold(None, |best, (&index, score)| {
            if weigh.beats(index, score, best.as_ref()) {
                Some(Pick { index, score })
            } else {
                best
            }
        }))
    }
    /// Adds candidate `i` to the chosen set.
    fn choose(&mut self, i: usize) -> Result<(), Self::Error>;
}

/// Chooses up to `selection.k` of `n` candidates greedily (keeping their
/// mean cost within its bound, if any), starting from the objective's
/// current set; `cost(i)` breaks ties (and weighs gains under a bound).
/// Stops early when no candidate that fits raises the score. Candidates
/// are scored in parallel.
pub fn greedy<O: Objective>(
    n: usize,
    selection: Selection,
    cost: impl Fn(usize) -> u32 + Sync,
    objective: &mut O,
) -> Result<Vec<Pick>, O::Error> {
    let mut chosen: Vec<usize> = vec![];
    let mut picks = vec![];
    let mut total = 0u64;
    while picks.len() < selection.k {
        let fits = |i: usize| selection.fits(total, chosen.len(), cost(i));
        let candidates: Vec<usize> = (0..n).filter(|&i| !chosen.contains(&i) && fits(i)).collect();
        let weigh = Weigh { current: objective.score(), cost: &cost, per_cost: selection.max_mean_cost.is_some() };
        let Some(pick) = objective.best(&candidates, &weigh)? else { break };
        objective.choose(pick.index)?;
        total += cost(pick.index) as u64;
        chosen.push(pick.index);
        picks.push(pick);
    }
    Ok(picks)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Candidates cover sets of items; the score is the union's size.
    struct Union<'a> {
        sets: &'a [Vec<u32>],
        have: Vec<u32>,
    }

    impl Objective for Union<'_> {
        type Error = ();
        fn score(&self) -> usize {
            self.have.len()
        }
        fn score_with(&self, i: usize) -> Result<usize, ()> {
            Ok(self.have.len() + self.sets[i].iter().filter(|x| !self.have.contains(x)).count())
        }
        fn choose(&mut self, i: usize) -> Result<(), ()> {
            for x in &self.sets[i] {
                if !self.have.contains(x) {
                    self.have.push(*x);
                }
            }
            Ok(())
        }
    }

    #[test]
    fn greedy_takes_largest_gain_then_cheapest() {
        let sets = vec![vec![1, 2], vec![1, 2, 3, 4], vec![5, 6], vec![5, 6], vec![4]];
        let costs = [1, 1, 5, 2, 1];
        let picks =
            greedy(sets.len(), Selection::top(10), |i| costs[i], &mut Union { sets: &sets, have: vec![] }).unwrap();
        let order: Vec<usize> = picks.iter().map(|p| p.index).collect();
        // {1,2,3,4} first; then {5,6} from the cheaper candidate 3; then nothing adds
        assert_eq!(order, vec![1, 3]);
        assert_eq!(picks.last().unwrap().score, 6);
    }

    #[test]
    fn under_a_mean_cost_greedy_takes_most_per_cost_among_what_fits() {
        let sets = vec![vec![1, 2, 3, 4, 5, 6], vec![1, 2, 3], vec![4, 5], vec![6, 7], vec![7]];
        let costs = [10, 2, 2, 4, 1];
        let pick = |k, max_mean_cost| {
            let mut union = Union { sets: &sets, have: vec![] };
            let picks = greedy(sets.len(), Selection { k, max_mean_cost }, |i| costs[i], &mut union).unwrap();
            (picks.iter().map(|p| p.index).collect::<Vec<_>>(), picks.last().map_or(0, |p| p.score))
        };
        // unbounded: the biggest first, then {6,7}'s 7 from the cheaper {7}
        assert_eq!(pick(3, None), (vec![0, 4], 7));
        // mean at most 2: {1..6} never fits; {1,2,3} adds 3 for 2; {4,5} and
        // {7} tie at 1 per unit of cost: the cheaper {7} (mean 1.5); then
        // {4,5} (mean 5/3); {6,7} would make the mean 9/4, so {6} is left
        assert_eq!(pick(4, Some(2)), (vec![1, 4, 2], 6));
        // mean at most 3: after those three (5 for three) {6,7} fits (9 for 4)
        assert_eq!(pick(4, Some(3)), (vec![1, 4, 2, 3], 7));
        // a bound below every cost but one: only that one
        assert_eq!(pick(4, Some(1)), (vec![4], 1));
    }
}
