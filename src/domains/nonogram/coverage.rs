//! Coverage of a rule set on test transitions (paper §6.3, §7.2): cells
//! unknown in START and known once the rules and the decomposition oracle
//! reach their fixpoint, summed; each rule's figure alone and its marginal
//! contribution; and the greedy top-K by coverage. Both are incremental,
//! for sets of thousands of rules: each transition keeps a memo of what
//! every rule fills on every frame seen ([`super::fills`]). The greedy step
//! keeps the chosen rules' rounds on every transition: a candidate that
//! fills no unknown cell in any of them leaves that transition's result
//! unchanged, so the set is re-applied only where the candidate fills
//! something, and one memoised round finds those candidates for all.

use super::apply::{newly_known, saturate, ApplyOptions, UnsoundFill};
use super::fills::{Lines, Memo, Set};
use super::line::Cell;
use std::sync::{Arc, Mutex};
use super::domain::Nonogram;
use super::lines_file::Transition;
use crate::dsl::ast::Rule;
use crate::select::{greedy, Objective, Pick};
use rayon::prelude::*;

/// One rule's figures.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct RuleFigures {
    /// Rule name.
    pub name: String,
    /// Cells the rule covers on its own (with the decomposition oracle).
    pub alone: usize,
    /// Cells lost when the rule is removed from the whole set.
    pub marginal: usize,
}

/// The coverage of a rule set on a test set.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct CoverageReport {
    /// Number of test transitions.
    pub transitions: usize,
    /// Cells covered by the whole set.
    pub covered: usize,
    /// Cells unknown in START and known in TARGET, summed.
    pub max_cells: usize,
    /// Per rule, in the set's order.
    pub rules: Vec<RuleFigures>,
}

/// Measures coverage of rule subsets on one test set.
#[derive(Clone)]
pub struct Coverage<'a> {
    domain: &'a Nonogram,
    rules: &'a [Rule],
    tests: &'a [Transition],
    options: ApplyOptions,
    /// Every rule's actions on each line seen, shared by all transitions.
    lines: Arc<Lines>,
}

impl<'a> Coverage<'a> {
    /// Coverage of `rules` on `tests`.
    pub fn new(domain: &'a Nonogram, rules: &'a [Rule], tests: &'a [Transition], options: ApplyOptions) -> Coverage<'a> {
        Coverage { domain, rules, tests, options, lines: Arc::default() }
    }

    /// Cells unknown in START and known in TARGET, summed.
    pub fn max_cells(&self) -> usize {
        self.tests.iter().map(|t| newly_known(&t.start, &t.target)).sum()
    }

    /// Cells covered by the rules at `subset` (indices into the rule list).
    pub fn covered(&self, subset: &[usize]) -> Result<usize, UnsoundFill> {
        let rules: Vec<&Rule> = subset.iter().map(|&i| &self.rules[i]).collect();
        if rules.is_empty() {
            return Ok(0);
        }
        self.tests
            .par_iter()
            .map(|t| saturate(self.domain, &rules, &t.start, &t.target, self.options).map(|end| newly_known(&t.start, &end)))
            .try_reduce(|| 0, |a, b| Ok(a + b))
    }

    /// The whole set's coverage with every rule's figures, incrementally:
    /// on each transition the whole set runs once (memoised per frame); a
    /// rule's alone figure is computed only where it fills something in
    /// the first round, and its marginal only where it is the only rule
    /// filling some cell in some round (elsewhere removing it changes no
    /// round), from the first such round on.
    pub fn report(&self) -> Result<CoverageReport, UnsoundFill> {
        let per = self.tests.par_iter().map(|t| self.figures(t)).collect::<Result<Vec<_>, _>>()?;
        let mut rules: Vec<RuleFigures> =
            self.rules.iter().map(|r| RuleFigures { name: r.name.clone(), alone: 0, marginal: 0 }).collect();
        let mut covered = 0;
        for (c, alone, marginal) in per {
            covered += c;
            alone.into_iter().for_each(|(i, n)| rules[i as usize].alone += n);
            marginal.into_iter().for_each(|(i, n)| rules[i as usize].marginal += n);
        }
        Ok(CoverageReport { transitions: self.tests.len(), covered, max_cells: self.max_cells(), rules })
    }

    /// One transition's figures: cells covered by the set, and per rule
    /// (where not zero) alone and marginal.
    #[allow(clippy::type_complexity)]
    fn figures(&self, t: &'a Transition) -> Result<(usize, Vec<(u32, usize)>, Vec<(u32, usize)>), UnsoundFill> {
        let mut memo = self.memo(t);
        let run = memo.run(&t.start.cells, &Set::All)?;
        let covered = newly_known(&t.start, run.end());
        let mut first: Vec<u32> = run.rounds.first().map_or(vec![], |r| r.iter().map(|f| f.rule).collect());
        first.dedup();
        let mut alone = vec![];
        for i in first {
            let own = memo.run(&t.start.cells, &Set::Few(vec![i]))?;
            alone.push((i, newly_known(&t.start, own.end())));
        }
        // per rule, the first round in which it alone fills some cell
        let mut sole: Vec<(u32, usize)> = vec![];
        for (r, fills) in run.rounds.iter().enumerate() {
            let mut by_cell: Vec<(u32, u32)> = fills.iter().map(|f| (f.at, f.rule)).collect();
            by_cell.sort_unstable();
            by_cell.dedup();
            for group in by_cell.chunk_by(|a, b| a.0 == b.0) {
                if let [(_, rule)] = group {
                    if !sole.iter().any(|(i, _)| i == rule) {
                        sole.push((*rule, r));
                    }
                }
            }
        }
        let mut marginal = vec![];
        for (i, r) in sole {
            let without = memo.run(&run.states[r], &Set::AllBut(i))?;
            marginal.push((i, covered - newly_known(&t.start, without.end())));
        }
        Ok((covered, alone, marginal))
    }

    fn memo(&self, t: &'a Transition) -> Memo<'a> {
        Memo::new(self.domain, self.rules, &t.start.hints, &t.target, self.options, self.lines.clone())
    }

    /// The `k` rules that greedily add the most coverage; ties go to the
    /// cheaper rule (`cost`), then to the earlier one.
    pub fn top(&self, k: usize, cost: impl Fn(usize) -> u32 + Sync) -> Result<Vec<Pick>, UnsoundFill> {
        greedy(self.rules.len(), k, cost, &mut self.objective())
    }

    /// Coverage as the objective of a greedy selection, nothing chosen yet.
    pub fn objective(&self) -> Chosen<'a> {
        Chosen {
            coverage: self.clone(),
            rules: vec![],
            memos: self.tests.iter().map(|t| Mutex::new(self.memo(t))).collect(),
            states: self.tests.iter().map(|t| vec![t.start.cells.clone()]).collect(),
            before: vec![0; self.tests.len()],
            score: 0,
        }
    }
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
    /// Per transition, the cells the chosen rules cover.
    before: Vec<usize>,
    score: usize,
}

impl Chosen<'_> {
    /// The chosen rules and `extra`, sorted.
    fn with(&self, extra: u32) -> Vec<u32> {
        let mut list = self.rules.clone();
        if let Err(at) = list.binary_search(&extra) {
            list.insert(at, extra);
        }
        list
    }
}

impl Chosen<'_> {
    /// The score with candidate `i` added, re-running the chosen rules and
    /// `i` only on the `affected` transitions, from the given round.
    fn score_on(&self, i: u32, affected: &[(usize, usize)]) -> Result<usize, UnsoundFill> {
        let set = Set::Few(self.with(i));
        let c = &self.coverage;
        let gain = affected
            .par_iter()
            .map(|&(t, r)| {
                let run = self.memos[t].lock().expect("memo lock").run(&self.states[t][r], &set)?;
                Ok(newly_known(&c.tests[t].start, run.end()) as i64 - self.before[t] as i64)
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))?;
        Ok((self.score as i64 + gain) as usize)
    }
}

impl Objective for Chosen<'_> {
    type Error = UnsoundFill;

    fn score(&self) -> usize {
        self.score
    }

    fn score_with(&self, i: usize) -> Result<usize, UnsoundFill> {
        let affected: Vec<(usize, usize)> = (0..self.coverage.tests.len()).map(|t| (t, 0)).collect();
        self.score_on(i as u32, &affected)
    }

    /// The chosen rules' rounds stay the same unless a candidate fills an
    /// unknown cell at the start of one of them: one memoised round of all
    /// rules per state finds, per candidate, the transitions to re-run
    /// (from that round on). A candidate's gain there is at most the cells
    /// the chosen set leaves unknown, so candidates are scored in order of
    /// that bound until no bound can reach the best score (exact).
    fn best(&self, candidates: &[usize], cost: &(dyn Fn(usize) -> u32 + Sync)) -> Result<Option<Pick>, UnsoundFill> {
        let c = &self.coverage;
        let firsts = self
            .memos
            .par_iter()
            .zip(&self.states)
            .map(|(memo, states)| {
                let mut memo = memo.lock().expect("memo lock");
                let mut first: Vec<(u32, usize)> = vec![];
                for (r, cells) in states.iter().enumerate() {
                    for f in memo.round(cells, &Set::All)? {
                        if self.rules.binary_search(&f.rule).is_err() && !first.iter().any(|(i, _)| *i == f.rule) {
                            first.push((f.rule, r));
                        }
                    }
                }
                Ok(first)
            })
            .collect::<Result<Vec<_>, UnsoundFill>>()?;
        // per candidate, the transitions (and first round) where it may gain
        let mut affected: Vec<Vec<(usize, usize)>> = vec![vec![]; c.rules.len()];
        let mut bound = vec![self.score; c.rules.len()];
        for (t, first) in firsts.into_iter().enumerate() {
            let left = newly_known(&c.tests[t].start, &c.tests[t].target) - self.before[t];
            for (i, r) in first {
                affected[i as usize].push((t, r));
                bound[i as usize] += left;
            }
        }
        let mut order: Vec<usize> = candidates.iter().copied().filter(|&i| !affected[i].is_empty()).collect();
        order.sort_by_key(|&i| (std::cmp::Reverse(bound[i]), cost(i), i));
        let mut best: Option<Pick> = None;
        for i in order {
            if let Some(b) = &best {
                if bound[i] < b.score || (bound[i] == b.score && (cost(i), i) > (cost(b.index), b.index)) {
                    continue;
                }
            }
            let score = self.score_on(i as u32, &affected[i])?;
            let beats = best.as_ref().is_none_or(|b| (std::cmp::Reverse(score), cost(i), i) < (std::cmp::Reverse(b.score), cost(b.index), b.index));
            if score > self.score && beats {
                best = Some(Pick { index: i, score });
            }
        }
        Ok(best)
    }

    fn choose(&mut self, i: usize) -> Result<(), UnsoundFill> {
        let list = self.with(i as u32);
        let set = Set::Few(list.clone());
        let c = &self.coverage;
        self.states = c
            .tests
            .par_iter()
            .zip(&self.memos)
            .map(|(t, memo)| memo.lock().expect("memo lock").run(&t.start.cells, &set).map(|run| run.states))
            .collect::<Result<_, _>>()?;
        self.rules = list;
        self.before = c.tests.iter().zip(&self.states).map(|(t, s)| newly_known(&t.start, s.last().expect("the start"))).collect();
        self.score = self.before.iter().sum();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::lines_file::read_lines_file;
    use crate::domains::Domain;
    use crate::dsl::parse::parse_rules;

    fn setup() -> (Nonogram, Vec<Rule>, Vec<Transition>) {
        let root = env!("CARGO_MANIFEST_DIR");
        let domain = Nonogram::new();
        let mut rules = vec![];
        for file in ["control", "learned"] {
            let path = format!("{root}/rules/nonogram/{file}.rules");
            rules.extend(parse_rules(&std::fs::read_to_string(&path).unwrap(), &path, domain.schema()).unwrap());
        }
        let tests = read_lines_file(std::path::Path::new(&format!("{root}/specs/nonogram/traces.lines")), 30).unwrap();
        (domain, rules, tests[..800].to_vec())
    }

    #[test]
    fn incremental_figures_equal_the_definition() {
        let (domain, rules, tests) = setup();
        let coverage = Coverage::new(&domain, &rules, &tests, ApplyOptions::default());
        let report = coverage.report().unwrap();
        let all: Vec<usize> = (0..rules.len()).collect();
        assert_eq!(report.covered, coverage.covered(&all).unwrap());
        for (i, figures) in report.rules.iter().enumerate() {
            let others: Vec<usize> = all.iter().copied().filter(|&j| j != i).collect();
            assert_eq!(figures.alone, coverage.covered(&[i]).unwrap(), "{}", figures.name);
            assert_eq!(figures.marginal, report.covered - coverage.covered(&others).unwrap(), "{}", figures.name);
        }
        assert!(report.rules.iter().filter(|r| r.marginal > 0).count() >= 5);
    }

    #[test]
    fn incremental_greedy_equals_greedy_over_whole_sets() {
        let (domain, rules, tests) = setup();
        let rules = &rules[..13];
        let tests = &tests[..];
        let cost = |i: usize| crate::dsl::cost::cost(&rules[i], domain.schema());
        for one_sided in [false, true] {
            let coverage = Coverage::new(&domain, &rules, tests, ApplyOptions { one_sided });
            let fast = coverage.top(rules.len(), cost).unwrap();
            // the definition: add the rule whose set with the chosen covers most
            let mut slow: Vec<Pick> = vec![];
            let mut chosen: Vec<usize> = vec![];
            loop {
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
            assert!(fast.len() >= 8);
        }
    }
}
