//! Greedy rule-set selection: repeatedly add the candidate that raises a
//! set's score most (ties: lower cost, then earlier candidate), as the
//! paper's §6.3.1. The score is supplied by the caller (cells covered on
//! test transitions, paths pruned, ...); this module knows no domain.

use rayon::prelude::*;

/// One step of a greedy selection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pick {
    /// Index of the chosen candidate.
    pub index: usize,
    /// The score of the set chosen so far, this candidate included.
    pub score: usize,
}

/// Chooses up to `k` of `n` candidates greedily. `score(set)` is the value
/// of a set of candidate indices; `cost(i)` breaks ties. Stops early when no
/// candidate raises the score. `relevant(set, i)` may say that candidate `i`
/// cannot raise the score of `set` (to skip evaluating it); pass
/// `|_, _| true` to evaluate every candidate.
pub fn greedy<E: Send>(
    n: usize,
    k: usize,
    cost: impl Fn(usize) -> u32 + Sync,
    score: impl Fn(&[usize]) -> Result<usize, E> + Sync,
    relevant: impl Fn(&[usize], usize) -> bool + Sync,
) -> Result<Vec<Pick>, E> {
    let mut chosen: Vec<usize> = vec![];
    let mut picks = vec![];
    let mut current = score(&chosen)?;
    while picks.len() < k {
        let scored: Vec<(usize, usize)> = (0..n)
            .into_par_iter()
            .filter(|i| !chosen.contains(i) && relevant(&chosen, *i))
            .map(|i| {
                let mut set = chosen.clone();
                set.push(i);
                score(&set).map(|s| (i, s))
            })
            .collect::<Result<_, E>>()?;
        let best = scored
            .into_iter()
            .filter(|&(_, s)| s > current)
            .min_by_key(|&(i, s)| (std::cmp::Reverse(s), cost(i), i));
        let Some((index, s)) = best else { break };
        chosen.push(index);
        current = s;
        picks.push(Pick { index, score: s });
    }
    Ok(picks)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Candidates cover sets of items; the score is the union's size.
    fn union_score(sets: &[Vec<u32>], chosen: &[usize]) -> Result<usize, ()> {
        let mut all: Vec<u32> = chosen.iter().flat_map(|&i| sets[i].clone()).collect();
        all.sort();
        all.dedup();
        Ok(all.len())
    }

    #[test]
    fn greedy_takes_largest_gain_then_cheapest() {
        let sets = vec![vec![1, 2], vec![1, 2, 3, 4], vec![5, 6], vec![5, 6], vec![4]];
        let costs = [1, 1, 5, 2, 1];
        let picks = greedy(sets.len(), 10, |i| costs[i], |c| union_score(&sets, c), |_, _| true).unwrap();
        let order: Vec<usize> = picks.iter().map(|p| p.index).collect();
        // {1,2,3,4} first; then {5,6} from the cheaper candidate 3; then nothing adds
        assert_eq!(order, vec![1, 3]);
        assert_eq!(picks.last().unwrap().score, 6);
    }
}
