//! Coverage as the objective of greedy rule selection (paper §6.3.1),
//! incremental across steps. On every test transition it keeps the chosen
//! rules' rounds: a candidate that fills no unknown cell in any of them
//! leaves that transition's result unchanged, so the set is re-applied
//! only where the candidate fills something. A candidate's gain on a
//! transition is kept from one step to the next unless the rule chosen in
//! between fills or fails on a state of that transition's run, with or
//! without the candidate (then the runs, and so the gain, may differ;
//! elsewhere they are the same runs). Every state is memoised for all
//! rules, so that test is a look-up.

use super::apply::{newly_known, UnsoundFill};
use super::coverage::Coverage;
use super::fills::{Memo, Set, Trail};
use crate::domains::nonogram::line::model::Cell;
use crate::select::{greedy, Objective, Pick};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::Mutex;

/// A candidate's gain on one transition, with its run.
struct Gain {
    gain: i64,
    trail: Trail,
}

/// The rules chosen so far, with their rounds on every test transition:
/// coverage as a [`select::Objective`](Objective).
pub struct Chosen<'a> {
    coverage: Coverage<'a>,
    /// The chosen rules, sorted.
    rules: Vec<u32>,
    /// Per transition, its memo.
    memos: Vec<Mutex<Memo<'a>>>,
    /// Per transition, the state at the start of every round under the chosen rules.
    states: Vec<Vec<Vec<Cell>>>,
    /// Per transition, the rules filling some unknown cell in some round
    /// of the chosen rules, each with the first such round (once known).
    firsts: Option<Vec<Vec<(u32, usize)>>>,
    /// Per transition, the cells the chosen rules cover.
    before: Vec<usize>,
    score: usize,
    /// Per candidate, its gain on the transitions where it was scored.
    gains: Vec<Mutex<FxHashMap<usize, Gain>>>,
}

impl<'a> Coverage<'a> {
    /// The `k` rules that greedily add the most coverage; ties go to the
    /// cheaper rule (`cost`), then to the earlier one.
    pub fn top(&self, k: usize, cost: impl Fn(usize) -> u32 + Sync) -> Result<Vec<Pick>, UnsoundFill> {
        greedy(self.rules().len(), k, cost, &mut self.objective())
    }

    /// Coverage as the objective of a greedy selection, nothing chosen yet.
    pub fn objective(&self) -> Chosen<'a> {
        Chosen::new(self.clone())
    }
}

impl<'a> Chosen<'a> {
    /// Nothing chosen yet.
    fn new(coverage: Coverage<'a>) -> Chosen<'a> {
        let (tests, n) = (coverage.tests(), coverage.rules().len());
        Chosen {
            memos: tests.iter().map(|t| Mutex::new(coverage.memo(t).eager())).collect(),
            states: tests.iter().map(|t| vec![t.start.cells.clone()]).collect(),
            firsts: None,
            before: vec![0; tests.len()],
            score: 0,
            rules: vec![],
            gains: (0..n).map(|_| Mutex::default()).collect(),
            coverage,
        }
    }

    /// [`first_rounds`](Self::first_rounds) of every transition.
    fn all_first_rounds(&self) -> Result<Vec<Vec<(u32, usize)>>, UnsoundFill> {
        (0..self.states.len()).into_par_iter().map(|t| self.first_rounds(t)).collect()
    }

    /// The chosen rules and `extra`, sorted.
    fn with(&self, extra: u32) -> Vec<u32> {
        let mut list = self.rules.clone();
        if let Err(at) = list.binary_search(&extra) {
            list.insert(at, extra);
        }
        list
    }

    /// Per rule filling some unknown cell in a round of the chosen rules
    /// on transition `t`, the first such round.
    fn first_rounds(&self, t: usize) -> Result<Vec<(u32, usize)>, UnsoundFill> {
        let mut memo = self.memos[t].lock().expect("memo lock");
        let mut first: Vec<(u32, usize)> = vec![];
        for (r, cells) in self.states[t].iter().enumerate() {
            for i in memo.filling(cells)? {
                if !first.iter().any(|(j, _)| *j == i) {
                    first.push((i, r));
                }
            }
        }
        Ok(first)
    }

    /// Per transition, the cells the chosen rules leave unknown (known in
    /// the target): a bound on any candidate's gain there.
    fn left(&self) -> Vec<i64> {
        self.coverage.tests().iter().zip(&self.before).map(|(t, &b)| (newly_known(&t.start, &t.target) - b) as i64).collect()
    }

    /// The score with candidate `i` added, re-running the chosen rules and
    /// `i` only on the `affected` transitions (from the given round) where
    /// its gain is not kept, a chunk at a time, the most open transitions
    /// first; `None` as soon as the bound (the gains known so far plus
    /// `left` elsewhere) fails `can_win`. Every gain computed is kept.
    fn score_on(&self, i: u32, affected: &[(usize, usize)], left: &[i64], can_win: impl Fn(i64) -> bool) -> Result<Option<usize>, UnsoundFill> {
        const CHUNK: usize = 64;
        let list = self.with(i);
        let tests = self.coverage.tests();
        let kept = self.gains[i as usize].lock().expect("gains lock");
        let mut todo: Vec<(usize, usize)> = affected.iter().copied().filter(|(t, _)| !kept.contains_key(t)).collect();
        let mut bound = self.score as i64 + affected.iter().map(|&(t, _)| kept.get(&t).map_or(left[t], |g| g.gain)).sum::<i64>();
        drop(kept);
        todo.sort_by_key(|&(t, _)| (std::cmp::Reverse(left[t]), t));
        for chunk in todo.chunks(CHUNK) {
            if !can_win(bound) {
                return Ok(None);
            }
            let new = chunk
                .par_iter()
                .map(|&(t, r)| {
                    let (end, trail) = self.memos[t].lock().expect("memo lock").end(&self.states[t][r], &list)?;
                    Ok((t, Gain { gain: newly_known(&tests[t].start, &end) as i64 - self.before[t] as i64, trail }))
                })
                .collect::<Result<Vec<_>, UnsoundFill>>()?;
            let mut kept = self.gains[i as usize].lock().expect("gains lock");
            for (t, g) in new {
                bound -= left[t] - g.gain;
                kept.insert(t, g);
            }
        }
        Ok(Some(bound as usize))
    }
}

impl Objective for Chosen<'_> {
    type Error = UnsoundFill;

    fn score(&self) -> usize {
        self.score
    }

    fn score_with(&self, i: usize) -> Result<usize, UnsoundFill> {
        let affected: Vec<(usize, usize)> = (0..self.coverage.tests().len()).map(|t| (t, 0)).collect();
        Ok(self.score_on(i as u32, &affected, &self.left(), |_| true)?.expect("never abandoned"))
    }

    /// Per candidate, the transitions where it fills something in the
    /// chosen set's rounds; its gain there is the kept one or at most the
    /// cells the chosen set leaves unknown, so candidates are scored in
    /// order of that bound until no bound can reach the best score (exact).
    fn best(&self, candidates: &[usize], cost: &(dyn Fn(usize) -> u32 + Sync)) -> Result<Option<Pick>, UnsoundFill> {
        let n = self.coverage.rules().len();
        let computed;
        let firsts = match &self.firsts {
            Some(firsts) => firsts,
            None => {
                computed = self.all_first_rounds()?;
                &computed
            }
        };
        let mut affected: Vec<Vec<(usize, usize)>> = vec![vec![]; n];
        for (t, first) in firsts.iter().enumerate() {
            for &(i, r) in first.iter().filter(|(i, _)| self.rules.binary_search(i).is_err()) {
                affected[i as usize].push((t, r));
            }
        }
        let left = self.left();
        let bound: Vec<i64> = affected
            .par_iter()
            .enumerate()
            .map(|(i, ts)| {
                let kept = self.gains[i].lock().expect("gains lock");
                self.score as i64 + ts.iter().map(|&(t, _)| kept.get(&t).map_or(left[t], |g| g.gain)).sum::<i64>()
            })
            .collect();
        let mut order: Vec<usize> = candidates.iter().copied().filter(|&i| !affected[i].is_empty()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(bound[i]), cost(i), i));
        let mut best: Option<Pick> = None;
        for i in order {
            // whether a score of `bound` would make `i` the best so far
            let can_win = |bound: i64| {
                bound > self.score as i64
                    && best.as_ref().is_none_or(|b| (std::cmp::Reverse(bound), cost(i), i) < (std::cmp::Reverse(b.score as i64), cost(b.index), b.index))
            };
            if !can_win(bound[i]) {
                continue;
            }
            if let Some(score) = self.score_on(i as u32, &affected[i], &left, can_win)?.filter(|&s| can_win(s as i64)) {
                best = Some(Pick { index: i, score });
            }
        }
        Ok(best)
    }

    /// Re-runs the chosen rules only where the new rule fills something in
    /// their rounds; drops the kept gains it may change.
    fn choose(&mut self, i: usize) -> Result<(), UnsoundFill> {
        let j = i as u32;
        let list = self.with(j);
        let set = Set::Few(list.clone());
        let mut firsts = match self.firsts.take() {
            Some(firsts) => firsts,
            None => self.all_first_rounds()?,
        };
        let changed: Vec<usize> = (0..self.states.len()).filter(|&t| firsts[t].iter().any(|&(r, _)| r == j)).collect();
        let tests = self.coverage.tests();
        let runs = changed
            .par_iter()
            .map(|&t| self.memos[t].lock().expect("memo lock").run(&tests[t].start.cells, &set).map(|run| run.states))
            .collect::<Result<Vec<_>, _>>()?;
        for (&t, states) in changed.iter().zip(runs) {
            self.before[t] = newly_known(&tests[t].start, states.last().expect("the start"));
            self.states[t] = states;
        }
        self.rules = list;
        self.score = self.before.iter().sum();
        let again = changed.par_iter().map(|&t| self.first_rounds(t)).collect::<Result<Vec<_>, _>>()?;
        for (&t, first) in changed.iter().zip(again) {
            firsts[t] = first;
        }
        self.firsts = Some(firsts);
        self.gains[i].lock().expect("gains lock").clear();
        self.gains.par_iter_mut().for_each(|kept| {
            kept.get_mut().expect("gains lock").retain(|t, g| changed.binary_search(t).is_err() && !g.trail.touched_by(j));
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::rules::apply::ApplyOptions;
    use crate::domains::nonogram::rules::coverage::tests::setup;
    use crate::domains::Domain;
    use crate::dsl::ast::PatternKind;

    /// The greedy selection equals its definition (add the rule whose set
    /// with the chosen ones covers most; ties to the cheaper, then the
    /// earlier rule), on rules that include pattern specialisations of
    /// one another (the control rules, every twentieth learned one and
    /// specialisations: the definition saturates every candidate set in
    /// full at every step).
    #[test]
    fn incremental_greedy_equals_greedy_over_whole_sets() {
        let (domain, all, tests) = setup();
        let mut rules: Vec<_> = all[..13].iter().chain(all[13..].iter().step_by(20)).cloned().collect();
        for rule in &all[..8] {
            let Some(d) = rule.decls.iter().position(|d| d.kind == PatternKind::Arbitrary) else { continue };
            for kind in [PatternKind::Constant(0), PatternKind::Constant(1), PatternKind::Singleton] {
                let mut r = rule.clone();
                r.decls[d].kind = kind;
                r.name = format!("{}_{d}_{kind:?}", r.name);
                rules.push(r);
            }
        }
        let tests = &tests[..120];
        let cost = |i: usize| crate::dsl::cost::cost(&rules[i], domain.schema());
        for one_sided in [false, true] {
            let coverage = Coverage::new(&domain, &rules, tests, ApplyOptions { one_sided });
            let fast = coverage.top(8, cost).unwrap();
            let mut slow: Vec<Pick> = vec![];
            let mut chosen: Vec<usize> = vec![];
            while slow.len() < 8 {
                let current = slow.last().map_or(0, |p| p.score);
                let best = (0..rules.len())
                    .filter(|i| !chosen.contains(i))
                    .map(|i| (i, coverage.covered(&[chosen.clone(), vec![i]].concat()).unwrap()))
                    .filter(|&(_, s)| s > current)
                    .min_by_key(|&(i, s)| (std::cmp::Reverse(s), cost(i), i));
                let Some((index, score)) = best else { break };
                chosen.push(index);
                slow.push(Pick { index, score });
            }
            assert_eq!(fast, slow, "one_sided {one_sided}");
            assert!(fast.len() >= 6);
        }
    }
}
