//! Coverage as the objective of greedy rule selection (paper §6.3.1),
//! incremental across steps. Identical test transitions are one, counted
//! with their multiplicity. On every distinct transition it keeps the
//! chosen rules' rounds: a candidate that fills no unknown cell in any of
//! them leaves that transition's result unchanged, so the set is re-applied
//! only where the candidate fills something. Those candidates are listed
//! per transition, each with its gain there once computed; a gain is kept
//! from one step to the next unless the rule chosen in between fills or
//! fails on a state of that candidate's run (then the runs, and so the
//! gain, may differ; elsewhere they are the same runs). Every state met is
//! memoised with the rules acting on it, so that test is a look-up, and a
//! run is kept as the set of its states' numbers (one word).

use super::apply::{newly_known, UnsoundFill};
use super::coverage::Coverage;
use super::fills::{Memo, Set, States};
use crate::domains::nonogram::formats::lines::Transition;
use crate::domains::nonogram::line::model::Cell;
use crate::select::{greedy, Objective, Pick, Selection, Weigh};
use rayon::prelude::*;
use rustc_hash::FxHashMap;
use std::sync::Mutex;

/// A rule not chosen that fills or fails in some round of the chosen rules
/// on one transition, with its gain there once computed.
#[derive(Clone, Copy)]
struct Candidate {
    rule: u32,
    /// Cells it adds to the chosen rules' (for one copy of the transition),
    /// or [`UNKNOWN`].
    gain: i32,
    /// The states its run with the chosen rules went through.
    trail: States,
}

/// The gain of a [`Candidate`] not computed (or no longer valid).
const UNKNOWN: i32 = i32::MIN;

/// One distinct test transition under the chosen rules.
struct Test<'a> {
    transition: &'a Transition,
    /// How many times it occurs in the test set.
    copies: u32,
    memo: Memo<'a>,
    /// The state at the start of every round under the chosen rules.
    states: Vec<Box<[Cell]>>,
    /// The cells the chosen rules cover (one copy).
    before: u32,
    /// The candidates acting in the chosen rules' rounds, by rule
    /// (increasing); `None` until first needed.
    candidates: Option<Vec<Candidate>>,
}

impl Test<'_> {
    /// The cells the chosen rules leave unknown (known in the target), all
    /// copies: a bound on any candidate's gain here.
    fn left(&self) -> i64 {
        (newly_known(&self.transition.start, &self.transition.target) as i64 - self.before as i64) * self.copies as i64
    }

    /// The candidates, listed if not yet: every rule not in `chosen`
    /// filling some unknown cell in a round of the chosen rules.
    fn candidates(&mut self, chosen: &[u32]) -> Result<&mut Vec<Candidate>, UnsoundFill> {
        if self.candidates.is_none() {
            let mut rules: Vec<u32> = vec![];
            for cells in &self.states {
                rules.extend(self.memo.filling(cells)?);
            }
            rules.sort_unstable();
            rules.dedup();
            rules.retain(|i| chosen.binary_search(i).is_err());
            self.candidates = Some(
                rules.into_iter().map(|rule| Candidate { rule, gain: UNKNOWN, trail: States::default() }).collect(),
            );
        }
        Ok(self.candidates.as_mut().expect("listed"))
    }

    /// Candidate `i` here, if it is one (candidates listed).
    fn candidate(&mut self, i: u32) -> Option<&mut Candidate> {
        let list = self.candidates.as_mut().expect("candidates listed");
        list.binary_search_by_key(&i, |c| c.rule).ok().map(|k| &mut list[k])
    }

    /// Computes and keeps the gain of candidate `i` with the rules of
    /// `list` (the chosen ones and `i`): its run from the first chosen
    /// round where it acts. Returns the gain over all copies.
    fn score(&mut self, i: u32, list: &[u32]) -> Result<i64, UnsoundFill> {
        let r = (0..self.states.len())
            .find(|&r| self.memo.acts(&self.states[r], i))
            .expect("a candidate acts in some round");
        let (end, trail) = self.memo.end(&self.states[r], list)?;
        let gain = newly_known(&self.transition.start, &end) as i32 - self.before as i32;
        let candidate = self.candidate(i).expect("a candidate");
        (candidate.gain, candidate.trail) = (gain, trail);
        Ok(gain as i64 * self.copies as i64)
    }

    /// Rule `j` joins the chosen rules `before`, making `list`: where it
    /// acts in their rounds, they run again and every gain is dropped;
    /// elsewhere only the gains of runs through a state where `j` acts.
    fn choose(&mut self, j: u32, before: &[u32], list: &[u32]) -> Result<(), UnsoundFill> {
        if self.candidates(before)?.binary_search_by_key(&j, |c| c.rule).is_ok() {
            let run = self.memo.run(&self.transition.start.cells, &Set::Few(list.to_vec()))?;
            self.before = newly_known(&self.transition.start, run.end()) as u32;
            self.states = run.states.into_iter().map(Vec::into_boxed_slice).collect();
            self.candidates = None;
            self.candidates(list)?;
        } else {
            let touched = self.memo.touched_by(j);
            for c in self.candidates.as_mut().expect("listed").iter_mut().filter(|c| c.trail.meet(touched)) {
                c.gain = UNKNOWN;
            }
        }
        Ok(())
    }
}

/// The rules chosen so far, with their rounds on every distinct test
/// transition: coverage as a [`select::Objective`](Objective).
pub struct Chosen<'a> {
    coverage: Coverage<'a>,
    /// The chosen rules, sorted.
    rules: Vec<u32>,
    tests: Vec<Mutex<Test<'a>>>,
    score: usize,
}

impl<'a> Coverage<'a> {
    /// The rules that greedily add the most coverage (per unit of cost,
    /// under `selection`'s budget); ties go to the cheaper rule (`cost`),
    /// then to the earlier one.
    pub fn top(&self, selection: Selection, cost: impl Fn(usize) -> u32 + Sync) -> Result<Vec<Pick>, UnsoundFill> {
        greedy(self.rules().len(), selection, cost, &mut self.objective())
    }

    /// Coverage as the objective of a greedy selection, nothing chosen yet.
    pub fn objective(&self) -> Chosen<'a> {
        Chosen::new(self.clone())
    }
}

impl<'a> Chosen<'a> {
    /// Nothing chosen yet.
    fn new(coverage: Coverage<'a>) -> Chosen<'a> {
        let mut copies: FxHashMap<&'a Transition, u32> = FxHashMap::default();
        let mut distinct = vec![];
        for t in coverage.tests() {
            *copies.entry(t).or_insert_with(|| {
                distinct.push(t);
                0
            }) += 1;
        }
        let tests = distinct
            .into_iter()
            .map(|t| {
                let memo = coverage.memo(t).eager();
                let states = vec![t.start.cells.clone().into_boxed_slice()];
                Mutex::new(Test { transition: t, copies: copies[t], memo, states, before: 0, candidates: None })
            })
            .collect();
        Chosen { coverage, rules: vec![], tests, score: 0 }
    }

    /// The chosen rules and `extra`, sorted.
    fn with(&self, extra: u32) -> Vec<u32> {
        let mut list = self.rules.clone();
        if let Err(at) = list.binary_search(&extra) {
            list.insert(at, extra);
        }
        list
    }

    /// Test `t`, locked.
    fn test(&self, t: usize) -> std::sync::MutexGuard<'_, Test<'a>> {
        self.tests[t].lock().expect("test lock")
    }

    /// Lists the candidates of every transition not yet listed.
    fn list_candidates(&self) -> Result<(), UnsoundFill> {
        (0..self.tests.len()).into_par_iter().try_for_each(|t| self.test(t).candidates(&self.rules).map(|_| ()))
    }

    /// Per rule, the bound on its score: the chosen set's, plus on every
    /// transition where it is a candidate its kept gain or else the cells
    /// left there; and on how many transitions it is a candidate.
    fn bounds(&self) -> (Vec<i64>, Vec<usize>) {
        let n = self.coverage.rules().len();
        (0..self.tests.len())
            .into_par_iter()
            .fold(
                || (vec![0i64; n], vec![0usize; n]),
                |(mut bound, mut count), t| {
                    let test = self.test(t);
                    let left = test.left();
                    for c in test.candidates.as_ref().expect("listed") {
                        bound[c.rule as usize] +=
                            if c.gain == UNKNOWN { left } else { c.gain as i64 * test.copies as i64 };
                        count[c.rule as usize] += 1;
                    }
                    (bound, count)
                },
            )
            .reduce(
                || (vec![0i64; n], vec![0usize; n]),
                |(mut b, mut c), (b2, c2)| {
                    b.iter_mut().zip(b2).for_each(|(x, y)| *x += y);
                    c.iter_mut().zip(c2).for_each(|(x, y)| *x += y);
                    (b, c)
                },
            )
    }

    /// The score with candidate `i` added, running the chosen rules and
    /// `i` only on the transitions where `i` is a candidate and its gain is
    /// not kept, a chunk at a time, the most open transitions first;
    /// `None` as soon as the bound (the gains known so far plus the cells
    /// left elsewhere) fails `can_win`. Every gain computed is kept.
    fn score_on(&self, i: u32, can_win: impl Fn(i64) -> bool) -> Result<Option<usize>, UnsoundFill> {
        const CHUNK: usize = 64;
        let list = self.with(i);
        // per transition where `i` is a candidate: its gain if kept, else the cells left
        let found: Vec<(usize, i64, bool)> = (0..self.tests.len())
            .into_par_iter()
            .filter_map(|t| {
                let mut test = self.test(t);
                let (left, copies) = (test.left(), test.copies as i64);
                let gain = test.candidate(i)?.gain;
                Some(if gain == UNKNOWN { (t, left, true) } else { (t, gain as i64 * copies, false) })
            })
            .collect();
        let mut bound = self.score as i64 + found.iter().map(|&(_, b, _)| b).sum::<i64>();
        let mut todo: Vec<(usize, i64)> =
            found.into_iter().filter(|&(_, _, open)| open).map(|(t, left, _)| (t, left)).collect();
        todo.sort_by_key(|&(t, left)| (std::cmp::Reverse(left), t));
        for chunk in todo.chunks(CHUNK) {
            if !can_win(bound) {
                return Ok(None);
            }
            let lost = chunk
                .par_iter()
                .map(|&(t, left)| Ok(left - self.test(t).score(i, &list)?))
                .collect::<Result<Vec<i64>, UnsoundFill>>()?;
            bound -= lost.iter().sum::<i64>();
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
        self.list_candidates()?;
        Ok(self.score_on(i as u32, |_| true)?.expect("never abandoned"))
    }

    /// Per candidate, its bound (the kept gains, or at most the cells the
    /// chosen set leaves unknown, where it is a candidate); candidates are
    /// scored in the order `weigh` gives their bounds until no bound can
    /// come before the best (exact: a bound only overstates a score).
    fn best(&self, candidates: &[usize], weigh: &Weigh<'_>) -> Result<Option<Pick>, UnsoundFill> {
        self.list_candidates()?;
        let (gains, counts) = self.bounds();
        let bound = |i: usize| (self.score as i64 + gains[i]).max(0) as usize;
        let mut order: Vec<usize> = candidates.iter().copied().filter(|&i| counts[i] > 0).collect();
        order.sort_by(|&i, &j| weigh.order((i, bound(i)), (j, bound(j))));
        let mut best: Option<Pick> = None;
        for i in order {
            // whether a score of `bound` would make `i` the best so far
            let can_win = |bound: i64| weigh.beats(i, bound.max(0) as usize, best.as_ref());
            if !can_win(bound(i) as i64) {
                continue;
            }
            if let Some(score) = self.score_on(i as u32, can_win)?.filter(|&s| can_win(s as i64)) {
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
        let before = &self.rules;
        self.tests.par_iter_mut().try_for_each(|test| test.get_mut().expect("test lock").choose(j, before, &list))?;
        self.rules = list;
        self.score = self
            .tests
            .iter_mut()
            .map(|t| t.get_mut().expect("test lock"))
            .map(|t| t.before as usize * t.copies as usize)
            .sum();
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
    /// with the chosen ones covers most, or most per unit of cost among
    /// those within the budget; ties to the cheaper, then the earlier
    /// rule), on rules that include pattern specialisations of
    /// one another (the control rules, every fourth learned one and
    /// specialisations: the definition saturates every candidate set in
    /// full at every step).
    #[test]
    fn incremental_greedy_equals_greedy_over_whole_sets() {
        let (domain, all, tests) = setup();
        let mut rules: Vec<_> = all[..13].iter().chain(all[13..].iter().step_by(4)).cloned().collect();
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
        // unbounded, and under a mean cost of 18 at every rank (by cells per
        // unit of cost)
        for (one_sided, max_mean_cost) in [(false, None), (true, None), (false, Some(18))] {
            let coverage = Coverage::new(&domain, &rules, tests, ApplyOptions { one_sided });
            let fast = coverage.top(Selection { k: 8, max_mean_cost }, cost).unwrap();
            let mut slow: Vec<Pick> = vec![];
            let mut chosen: Vec<usize> = vec![];
            let mut total = 0u32;
            while slow.len() < 8 {
                let current = slow.last().map_or(0, |p| p.score);
                let best = (0..rules.len())
                    .filter(|&i| {
                        let within = max_mean_cost.is_none_or(|m| total + cost(i) <= m * (chosen.len() as u32 + 1));
                        !chosen.contains(&i) && within
                    })
                    .map(|i| (i, coverage.covered(&[chosen.clone(), vec![i]].concat()).unwrap()))
                    .filter(|&(_, s)| s > current)
                    .min_by(|&(i, si), &(j, sj)| {
                        let (gi, gj) = ((si - current) as u64, (sj - current) as u64);
                        let (wi, wj) =
                            if max_mean_cost.is_some() { (gi * cost(j) as u64, gj * cost(i) as u64) } else { (gi, gj) };
                        (std::cmp::Reverse(wi), cost(i), i).cmp(&(std::cmp::Reverse(wj), cost(j), j))
                    });
                let Some((index, score)) = best else { break };
                chosen.push(index);
                total += cost(index);
                slow.push(Pick { index, score });
            }
            assert_eq!(fast, slow, "one_sided {one_sided}, max_mean_cost {max_mean_cost:?}");
            assert!(fast.len() >= 6);
            if max_mean_cost.is_some() {
                assert!(fast.iter().map(|p| cost(p.index)).sum::<u32>() <= 8 * 18);
            }
        }
    }

    /// A test set with every transition twice selects the same rules, each
    /// step's score doubled (identical transitions are kept once, with
    /// their copies).
    #[test]
    fn repeated_transitions_count_with_their_copies() {
        let (domain, all, tests) = setup();
        let rules: Vec<_> = all.iter().step_by(7).cloned().collect();
        let once = &tests[..200];
        let twice: Vec<_> = once.iter().chain(once).cloned().collect();
        let cost = |i: usize| crate::dsl::cost::cost(&rules[i], domain.schema());
        let single =
            Coverage::new(&domain, &rules, once, ApplyOptions::default()).top(Selection::top(6), cost).unwrap();
        let double =
            Coverage::new(&domain, &rules, &twice, ApplyOptions::default()).top(Selection::top(6), cost).unwrap();
        assert_eq!(single.len(), 6);
        let doubled: Vec<Pick> = single.iter().map(|p| Pick { index: p.index, score: 2 * p.score }).collect();
        assert_eq!(double, doubled);
    }
}
