//! Greedy rule-set selection: repeatedly add the candidate that raises a
//! set's score most (ties: lower cost, then earlier candidate), as the
//! paper's §6.3.1. The score is an [`Objective`] supplied by the caller
//! (cells covered on test transitions, paths pruned, ...), which may keep
//! what it learnt about the chosen set to score one more candidate
//! cheaply; this module knows no domain.

use rayon::prelude::*;

/// One step of a greedy selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Index of the chosen candidate.
    pub index: usize,
    /// The score of the set chosen so far, this candidate included.
    pub score: usize,
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
    /// The candidate of `candidates` whose addition raises the score most
    /// (ties: lower `cost`, then lower index), with that score; `None` if
    /// none raises it. By default every candidate is scored, in parallel;
    /// an objective may prune candidates it can bound.
    fn best(&self, candidates: &[usize], cost: &(dyn Fn(usize) -> u32 + Sync)) -> Result<Option<Pick>, Self::Error> {
        let scores: Vec<usize> = candidates.par_iter().map(|&i| self.score_with(i)).collect::<Result<_, _>>()?;
        let current = self.score();
        Ok(candidates
            .iter()
            .zip(scores)
            .filter(|&(_, s)| s > current)
            .min_by_key(|&(&i, s)| (std::cmp::Reverse(s), cost(i), i))
            .map(|(&index, score)| Pick { index, score }))
    }
    /// Adds candidate `i` to the chosen set.
    fn choose(&mut self, i: usize) -> Result<(), Self::Error>;
}

/// Chooses up to `k` of `n` candidates greedily, starting from the
/// objective's current set; `cost(i)` breaks ties. Stops early when no
/// candidate raises the score. Candidates are scored in parallel.
pub fn greedy<O: Objective>(
    n: usize,
    k: usize,
    cost: impl Fn(usize) -> u32 + Sync,
    objective: &mut O,
) -> Result<Vec<Pick>, O::Error> {
    let mut chosen: Vec<usize> = vec![];
    let mut picks = vec![];
    while picks.len() < k {
        let candidates: Vec<usize> = (0..n).filter(|i| !chosen.contains(i)).collect();
        let Some(pick) = objective.best(&candidates, &cost)? else { break };
        objective.choose(pick.index)?;
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
        let picks = greedy(sets.len(), 10, |i| costs[i], &mut Union { sets: &sets, have: vec![] }).unwrap();
        let order: Vec<usize> = picks.iter().map(|p| p.index).collect();
        // {1,2,3,4} first; then {5,6} from the cheaper candidate 3; then nothing adds
        assert_eq!(order, vec![1, 3]);
        assert_eq!(picks.last().unwrap().score, 6);
    }
}
