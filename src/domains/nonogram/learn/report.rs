//! The report of a nonogram learning run, computed once, in the domain,
//! from what the learner already measured: the learned rules named after
//! the documented strategy each is or generalises (compared by what each
//! rule covers alone, which deduplication measured), the coverage of the
//! selection, of every learned rule, of the control rules and of both
//! together on the test transitions.

use super::learner::NonogramLearner;
use crate::domains::nonogram::rules::apply::{ApplyOptions, UnsoundFill};
use crate::domains::nonogram::rules::compare::{covered_alone, verdicts};
use crate::domains::nonogram::rules::coverage::Coverage;
use crate::domains::nonogram::rules::describe::{name_rules, strategies};
use crate::dsl::ast::Rule;
use crate::select::Pick;

/// A rule set's size and the cells it covers on the test transitions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SetCoverage {
    /// Rules in the set.
    pub rules: usize,
    /// Cells covered (both orientations, with the decomposition oracle).
    pub cells: usize,
}

/// The report of a learning run.
#[derive(Clone, Debug)]
pub struct LearnReport {
    /// The learned rules in their order, renamed readably, each comment
    /// starting with the rule's English sentence.
    pub named: Vec<Rule>,
    /// The selection's coverage.
    pub top: SetCoverage,
    /// Every learned rule's.
    pub learned: SetCoverage,
    /// The control rules'.
    pub control: SetCoverage,
    /// The control and every learned rule's together.
    pub union: SetCoverage,
    /// Cells unknown in START and known in TARGET, summed: what the exact
    /// line solver covers.
    pub max_cells: usize,
}

/// The report on `learned` (the learner's deduplicated rules), `picks`
/// (its selection from them) and the `control` rules.
pub fn report(
    learner: &NonogramLearner<'_>,
    learned: &[Rule],
    picks: &[Pick],
    control: &[Rule],
) -> Result<LearnReport, UnsoundFill> {
    let (domain, tests, options) = (learner.domain, learner.tests, ApplyOptions::default());
    let learned_cover = learned.iter().map(|r| learner.covered_alone(r)).collect::<Result<Vec<_>, _>>()?;
    let control_cover =
        control.iter().map(|r| covered_alone(domain, r, tests, options)).collect::<Result<Vec<_>, _>>()?;
    let found = strategies(learned.len(), control, &verdicts(learned, &learned_cover, control, &control_cover));
    let mut named = learned.to_vec();
    name_rules(domain, &mut named, &found);
    let measure = |coverage: &Coverage<'_>, rules: usize| -> Result<SetCoverage, UnsoundFill> {
        Ok(SetCoverage { rules, cells: coverage.covered(&(0..rules).collect::<Vec<_>>())? })
    };
    let union: Vec<Rule> = named.iter().chain(control).cloned().collect();
    let whole = Coverage::new(domain, &named, tests, options);
    Ok(LearnReport {
        top: SetCoverage { rules: picks.len(), cells: picks.last().map_or(0, |p| p.score) },
        learned: measure(&whole, named.len())?,
        control: measure(&Coverage::new(domain, control, tests, options), control.len())?,
        union: measure(&Coverage::new(domain, &union, tests, options), union.len())?,
        max_cells: whole.max_cells(),
        named,
    })
}
