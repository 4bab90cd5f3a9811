//! Coverage of a rule set on test transitions (paper §6.3, §7.2): cells
//! unknown in START and known once the rules and the decomposition oracle
//! reach their fixpoint, summed; each rule's figure alone and its marginal
//! contribution. Incremental, for sets of thousands of rules: the rules'
//! actions on each line seen are shared by all transitions
//! ([`super::fills`]). The greedy top-K by coverage is [`super::chosen`]'s.

use super::apply::{newly_known, saturate, ApplyOptions, UnsoundFill};
use super::fills::{Lines, Memo, Set};
use crate::domains::nonogram::formats::lines::Transition;
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::dsl::ast::Rule;
use rayon::prelude::*;
use std::sync::Arc;

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
    lines: Arc<Lines<'a>>,
}

impl<'a> Coverage<'a> {
    /// Coverage of `rules` on `tests`.
    pub fn new(
        domain: &'a Nonogram,
        rules: &'a [Rule],
        tests: &'a [Transition],
        options: ApplyOptions,
    ) -> Coverage<'a> {
        Coverage { domain, rules, tests, options, lines: Arc::new(Lines::new(domain, rules)) }
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
            .map(|t| {
                saturate(self.domain, &rules, &t.start, &t.target, self.options).map(|end| newly_known(&t.start, &end))
            })
            .try_reduce(|| 0, |a, b| Ok(a + b))
    }

    /// The whole set's coverage with every rule's figures, incrementally:
    /// on each transition the whole set runs once (memoised per frame); a
    /// rule's alone figure is computed only where it fills something in
    /// the first round (rules in the same state sharing a round), and its
    /// marginal only where it is the only rule filling some cell in some
    /// round (elsewhere removing it changes no round), from the first such
    /// round on.
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
        let memo = self.memo(t);
        let run = memo.run(&t.start.cells, &Set::All)?;
        let covered = newly_known(&t.start, run.end());
        let mut first: Vec<u32> = run.rounds.first().map_or(vec![], |r| r.iter().map(|f| f.rule).collect());
        first.dedup();
        let mut alone = vec![];
        for (i, own) in first.iter().zip(memo.ends_alone(&t.start.cells, &first)) {
            alone.push((*i, newly_known(&t.start, &own?)));
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

    /// An empty memo for transition `t`, sharing the rules' actions on lines.
    pub(super) fn memo(&self, t: &'a Transition) -> Memo<'a> {
        Memo::new(self.domain, self.rules, &t.start.hints, &t.target, self.options, self.lines.clone())
    }

    /// The test transitions.
    pub(super) fn tests(&self) -> &'a [Transition] {
        self.tests
    }

    /// The rules.
    pub(super) fn rules(&self) -> &'a [Rule] {
        self.rules
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domains::nonogram::formats::lines::read_lines_file;
    use crate::domains::Domain;
    use crate::dsl::parse::parse_rules;

    /// The control and learned rules, and the first 800 bundled transitions.
    pub(crate) fn setup() -> (Nonogram, Vec<Rule>, Vec<Transition>) {
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

    /// On the control rules and every tenth learned one (so rules that
    /// overlap, with marginals of zero, and rules alone in some round), and
    /// 300 transitions: the definition saturates every rule set in full.
    #[test]
    fn incremental_figures_equal_the_definition() {
        let (domain, all, tests) = setup();
        let rules: Vec<Rule> = all[..13].iter().chain(all[13..].iter().step_by(10)).cloned().collect();
        let tests = &tests[..300];
        let coverage = Coverage::new(&domain, &rules, tests, ApplyOptions::default());
        let report = coverage.report().unwrap();
        let all: Vec<usize> = (0..rules.len()).collect();
        assert_eq!(report.covered, coverage.covered(&all).unwrap());
        for (i, figures) in report.rules.iter().enumerate() {
            let others: Vec<usize> = all.iter().copied().filter(|&j| j != i).collect();
            assert_eq!(figures.alone, coverage.covered(&[i]).unwrap(), "{}", figures.name);
            assert_eq!(figures.marginal, report.covered - coverage.covered(&others).unwrap(), "{}", figures.name);
        }
        // the preconditions that make the comparison say something: rules
        // that alone cover cells, some of them needed by the set, some not
        assert!(report.rules.iter().filter(|r| r.marginal > 0).count() >= 5);
        assert!(report.rules.iter().filter(|r| r.alone > 0 && r.marginal == 0).count() >= 5);
        assert!(report.covered > 0 && report.covered < report.max_cells);
    }

    /// A rule that fills a cell wrongly makes every figure an error, the
    /// same error as the definition's (checked one transition at a time).
    #[test]
    fn unsound_rules_are_the_definitions_errors() {
        let (domain, mut rules, tests) = setup();
        rules.truncate(13);
        let text =
            "def first_cell_filled:\n    with h = arbitrary(hint):\n    if size(h) >= 1:\n    then fill(true, 0, 1)\n";
        rules.extend(parse_rules(text, "unsound.rules", domain.schema()).unwrap());
        let all: Vec<usize> = (0..rules.len()).collect();
        let mut failed = 0;
        for t in tests.chunks(1).take(200) {
            let coverage = Coverage::new(&domain, &rules, t, ApplyOptions::default());
            match coverage.covered(&all) {
                Ok(covered) => assert_eq!(coverage.report().unwrap().covered, covered),
                Err(e) => {
                    failed += 1;
                    assert_eq!(coverage.report().unwrap_err(), e);
                    assert_eq!(coverage.top(crate::select::Selection::top(3), |_| 0).unwrap_err(), e);
                }
            }
        }
        assert!(failed >= 20, "{failed}");
    }
}
