//! Coverage of a rule set on test transitions (paper §6.3, §7.2): cells
//! unknown in START and known once the rules and the decomposition oracle
//! reach their fixpoint, summed; each rule's figure alone and its marginal
//! contribution; and the greedy top-K by coverage.

use super::apply::{newly_known, saturate, ApplyOptions, UnsoundFill};
use super::domain::Nonogram;
use super::lines_file::Transition;
use crate::dsl::ast::Rule;
use crate::select::{greedy, Pick};
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
    pub fn top(&self, k: usize, cost: impl Fn(usize) -> u32 + Sync) -> Result<Vec<Pick>, UnsoundFill> {
        greedy(self.rules.len(), k, cost, |set| self.covered(set), |_, _| true)
    }
}
