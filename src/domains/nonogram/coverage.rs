//! Coverage of a rule set on test transitions (paper §6.3, §7.2): cells
//! unknown in START and known once the rules and the decomposition oracle
//! reach their fixpoint, summed; each rule's figure alone and its marginal
//! contribution; and the greedy top-K by coverage. The greedy step keeps
//! the chosen rules' rounds on every transition: a candidate that fills no
//! unknown cell in any of them leaves that transition's result unchanged,
//! so the set is re-applied only where the candidate fills something.

use super::apply::{newly_known, rounds, saturate, ApplyOptions, Prepared, UnsoundFill};
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
#[derive(Clone, Copy)]
pub struct Coverage<'a> {
    domain: &'a Nonogram,
    rules: &'a [Rule],
    tests: &'a [Transition],
    options: ApplyOptions,
}

impl<'a> Coverage<'a> {
    /// Coverage of `rules` on `tests`.
    pub fn new(domain: &'a Nonogram, rules: &'a [Rule], tests: &'a [Transition], options: ApplyOptions) -> Coverage<'a> {
        Coverage { domain, rules, tests, options }
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

    /// The whole set's coverage with every rule's figures.
    pub fn report(&self) -> Result<CoverageReport, UnsoundFill> {
        let all: Vec<usize> = (0..self.rules.len()).collect();
        let covered = self.covered(&all)?;
        let mut rules = vec![];
        for (i, rule) in self.rules.iter().enumerate() {
            let others: Vec<usize> = all.iter().copied().filter(|&j| j != i).collect();
            rules.push(RuleFigures {
                name: rule.name.clone(),
                alone: self.covered(&[i])?,
                marginal: covered - self.covered(&others)?,
            });
        }
        Ok(CoverageReport { transitions: self.tests.len(), covered, max_cells: self.max_cells(), rules })
    }

    /// The `k` rules that greedily add the most coverage; ties go to the
    /// cheaper rule (`cost`), then to the earlier one.
    pub fn top(&self, k: usize, cost: impl Fn(usize) -> u32) -> Result<Vec<Pick>, UnsoundFill> {
        greedy(self.rules.len(), k, cost, &mut self.objective())
    }

    /// Coverage as the objective of a greedy selection, nothing chosen yet.
    pub fn objective(&self) -> Chosen<'a> {
        Chosen {
            coverage: *self,
            rules: vec![],
            rounds: self.tests.iter().map(|t| vec![Prepared::new(self.domain, &t.start.hints, &t.start.cells, self.options)]).collect(),
            score: 0,
        }
    }
}

/// The rules chosen so far, with their rounds on every test transition:
/// coverage as a [`select::Objective`](Objective).
pub struct Chosen<'a> {
    coverage: Coverage<'a>,
    rules: Vec<usize>,
    /// Per transition, the state at the start of every round under the chosen rules.
    rounds: Vec<Vec<Prepared>>,
    score: usize,
}

impl Chosen<'_> {
    fn set(&self, extra: Option<usize>) -> Vec<&Rule> {
        self.rules.iter().chain(extra.as_ref()).map(|&i| &self.coverage.rules[i]).collect()
    }
}

impl Objective for Chosen<'_> {
    type Error = UnsoundFill;

    fn score(&self) -> usize {
        self.score
    }

    fn score_with(&self, i: usize) -> Result<usize, UnsoundFill> {
        let c = &self.coverage;
        let rule = &c.rules[i];
        c.tests
            .par_iter()
            .zip(&self.rounds)
            .map(|(t, states)| {
                // the chosen rules' rounds stay the same unless `rule` fills
                // an unknown cell at the start of one of them
                for state in states {
                    if !state.fills(c.domain, &[rule], &t.target)?.is_empty() {
                        let end = saturate(c.domain, &self.set(Some(i)), &t.start, &t.target, c.options)?;
                        return Ok(newly_known(&t.start, &end));
                    }
                }
                Ok(states.last().map_or(0, |end| newly_known(&t.start, end.cells())))
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))
    }

    fn choose(&mut self, i: usize) -> Result<(), UnsoundFill> {
        self.rules.push(i);
        let c = self.coverage;
        let set = self.set(None);
        self.rounds = c
            .tests
            .par_iter()
            .map(|t| rounds(c.domain, &set, &t.start, &t.target, c.options))
            .collect::<Result<_, _>>()?;
        self.score =
            c.tests.iter().zip(&self.rounds).map(|(t, s)| s.last().map_or(0, |end| newly_known(&t.start, end.cells()))).sum();
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::lines_file::read_lines_file;
    use crate::domains::Domain;
    use crate::dsl::parse::parse_rules;

    #[test]
    fn incremental_greedy_equals_greedy_over_whole_sets() {
        let root = env!("CARGO_MANIFEST_DIR");
        let domain = Nonogram::new();
        let path = format!("{root}/rules/nonogram/control.rules");
        let rules = parse_rules(&std::fs::read_to_string(&path).unwrap(), &path, domain.schema()).unwrap();
        let tests = read_lines_file(std::path::Path::new(&format!("{root}/specs/nonogram/traces.lines")), 30).unwrap();
        let tests = &tests[..1500];
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
