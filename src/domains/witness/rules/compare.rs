//! Which rules of a control set (say Shen's hand-written inference rules)
//! a learned Witness rule set recovers, and where it goes beyond them,
//! judged on test states: the frontier paths of a list of puzzles (the
//! incompletable paths with a completable parent that local checking
//! misses, [`crate::domains::witness::synthesis::mine`]), where pruning pays.
//!
//! Per control rule, the states it prunes (fires on) alone; its verdict:
//! `exact` (a learned rule that is the same up to names and orders),
//! `same states` / `more general` (a learned rule pruning exactly those
//! states / all of them and more), `partial` (the learned rule pruning most
//! of them, with its share), `none`, or `uncovered` (the control rule
//! prunes none of the test states). Beyond: the test states the learned
//! set prunes and no control rule does, per learned rule and in all.

use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::search::predicates::baseline;
use crate::domains::witness::synthesis::domain::{Witness, WitnessState};
use crate::domains::witness::synthesis::mine::{mine, Scope};
use crate::dsl::ast::Rule;
use crate::dsl::eval::Interpreter;
use crate::dsl::normal::same_rule;
use crate::synth::Domain;

/// How a learned set covers one control rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The same rule up to names and orders.
    Exact(usize),
    /// A learned rule prunes exactly the control rule's states.
    SameStates(usize),
    /// A learned rule prunes all of them and more.
    MoreGeneral(usize),
    /// The learned rule pruning most of them, and how many.
    Partial(usize, usize),
    /// No learned rule prunes any of them.
    None,
    /// The control rule prunes no test state.
    Uncovered,
}

/// One control rule's row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// The control rule's index.
    pub control: usize,
    /// Test states it prunes.
    pub states: usize,
    /// Of those, the ones some learned rule prunes.
    pub by_set: usize,
    /// The verdict.
    pub verdict: Verdict,
}

/// The comparison of a learned set with a control set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Comparison {
    /// Test states.
    pub states: usize,
    /// One row per control rule, in order.
    pub rows: Vec<Row>,
    /// Per learned rule: the test states it prunes, and of those the ones no
    /// control rule prunes.
    pub learned: Vec<(usize, usize)>,
    /// Test states the learned set prunes and the control set does not.
    pub beyond: usize,
    /// Test states the control set prunes and the learned set does not.
    pub missed: usize,
}

/// The test states of `puzzles`: their frontier paths local checking
/// misses, one per view, in mining order.
pub fn test_states(puzzles: &[Puzzle]) -> Vec<WitnessState> {
    mine(puzzles, &|p, path| baseline(p, path), Scope::Frontier)
}

/// Per rule, per state: whether the rule fires.
fn fire_table(domain: &Witness, rules: &[Rule], states: &[WitnessState]) -> Vec<Vec<bool>> {
    let views: Vec<_> = states.iter().map(|s| domain.view(s)).collect();
    let size = domain.schema().size_feature;
    rules
        .iter()
        .map(|r| views.iter().map(|v| !Interpreter::new(r, v, size).applications().is_empty()).collect())
        .collect()
}

/// Compares `learned` with `control` on `states`.
pub fn compare(domain: &Witness, learned: &[Rule], control: &[Rule], states: &[WitnessState]) -> Comparison {
    let l = fire_table(domain, learned, states);
    let c = fire_table(domain, control, states);
    let any = |t: &[Vec<bool>], s: usize| t.iter().any(|r| r[s]);
    let rows = c
        .iter()
        .enumerate()
        .map(|(ci, cf)| {
            let mine: Vec<usize> = (0..states.len()).filter(|&s| cf[s]).collect();
            let hits = |li: usize| mine.iter().filter(|&&s| l[li][s]).count();
            let extra = |li: usize| (0..states.len()).filter(|&s| l[li][s] && !cf[s]).count();
            let verdict = if let Some(li) = learned.iter().position(|r| same_rule(r, &control[ci])) {
                Verdict::Exact(li)
            } else if mine.is_empty() {
                Verdict::Uncovered
            } else if let Some(li) = (0..learned.len()).find(|&li| hits(li) == mine.len() && extra(li) == 0) {
                Verdict::SameStates(li)
            } else if let Some(li) = (0..learned.len()).find(|&li| hits(li) == mine.len()) {
                Verdict::MoreGeneral(li)
            } else {
                match (0..learned.len()).max_by_key(|&li| (hits(li), std::cmp::Reverse(li))) {
                    Some(li) if hits(li) > 0 => Verdict::Partial(li, hits(li)),
                    _ => Verdict::None,
                }
            };
            Row { control: ci, states: mine.len(), by_set: mine.iter().filter(|&&s| any(&l, s)).count(), verdict }
        })
        .collect();
    let learned_rows = l
        .iter()
        .map(|lf| {
            let prunes = lf.iter().filter(|&&f| f).count();
            (prunes, (0..states.len()).filter(|&s| lf[s] && !any(&c, s)).count())
        })
        .collect();
    let beyond = (0..states.len()).filter(|&s| any(&l, s) && !any(&c, s)).count();
    let missed = (0..states.len()).filter(|&s| any(&c, s) && !any(&l, s)).count();
    Comparison { states: states.len(), rows, learned: learned_rows, beyond, missed }
}

/// Whether `row` counts as recovered (exact, same states, more general).
pub fn recovered(row: &Row) -> bool {
    matches!(row.verdict, Verdict::Exact(_) | Verdict::SameStates(_) | Verdict::MoreGeneral(_))
}
