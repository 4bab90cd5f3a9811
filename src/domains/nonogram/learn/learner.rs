//! What the nonogram domain supplies to the learning pipeline
//! ([`pipeline::Learner`](crate::pipeline::Learner)): a seeded sample of
//! small line states mined for their specifications (and every mined
//! line as the population augmentation searches), deduplication by rule
//! key then by behaviour on the test transitions, and coverage of those
//! transitions as the selection objective. What each rule covers alone is
//! measured once per rule and kept for the run's report.

use crate::domains::nonogram::formats::lines::Transition;
use crate::domains::nonogram::line::state::LineState;
use crate::domains::nonogram::rules::apply::{ApplyOptions, UnsoundFill};
use crate::domains::nonogram::rules::chosen::Chosen;
use crate::domains::nonogram::rules::compare::{covered_alone, Covered};
use crate::domains::nonogram::rules::coverage::Coverage;
use crate::domains::nonogram::synthesis::domain::Nonogram;
use crate::domains::nonogram::synthesis::mine::{mine, Sample};
use crate::domains::nonogram::synthesis::spec;
use crate::dsl::ast::Rule;
use crate::dsl::cost::cost;
use crate::dsl::dedup::{keep_cheapest, normal_key};
use crate::pipeline::{Deduplicated, DomainError, Learner, Mined, NamedSpecs};
use crate::synth::Domain;
use rustc_hash::FxHashMap;
use std::sync::Mutex;

/// Longest training line mined by default.
pub const TRAIN_LEN: usize = 7;

/// A mined line that is not a valid state (a miner fault).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("mined an invalid line: {0}")]
pub struct InvalidMined(pub String);

/// The nonogram learner: a seeded sample of small lines to learn from,
/// test transitions to deduplicate and select on.
pub struct NonogramLearner<'a> {
    /// The domain.
    pub domain: &'a Nonogram,
    /// Longest line mined, in cells.
    pub max_len: usize,
    /// Productive training states sampled.
    pub sample: usize,
    /// Seed of the sample.
    pub seed: u64,
    /// The test transitions.
    pub tests: &'a [Transition],
    /// What each rule measured so far covers alone on the tests.
    alone: Mutex<FxHashMap<Rule, Covered>>,
}

impl<'a> NonogramLearner<'a> {
    /// A learner mining `sample` lines of up to `max_len` cells with `seed`,
    /// deduplicating and selecting on `tests`.
    pub fn new(
        domain: &'a Nonogram,
        tests: &'a [Transition],
        max_len: usize,
        sample: usize,
        seed: u64,
    ) -> NonogramLearner<'a> {
        NonogramLearner { domain, max_len, sample, seed, tests, alone: Mutex::default() }
    }

    /// What `rule` covers alone on the tests (measured once per rule).
    pub(super) fn covered_alone(&self, rule: &Rule) -> Result<Covered, UnsoundFill> {
        if let Some(known) = self.alone.lock().expect("coverage memo lock").get(rule) {
            return Ok(known.clone());
        }
        let covered = covered_alone(self.domain, rule, self.tests, ApplyOptions::default())?;
        self.alone.lock().expect("coverage memo lock").insert(rule.clone(), covered.clone());
        Ok(covered)
    }
}

/// The specifications of mined transitions, each with its text.
fn named_specs(transitions: &[Transition]) -> Result<NamedSpecs<LineState>, InvalidMined> {
    let mut specs = vec![];
    for t in transitions {
        let of = spec::specs(t).ok_or_else(|| InvalidMined(t.start.to_string()))?;
        specs.extend(of.into_iter().map(|s| (spec::show(&s), s)));
    }
    Ok(specs)
}

/// What a rule covers alone on some test transitions.
type Alone<'a> = &'a dyn Fn(&Rule) -> Result<Covered, UnsoundFill>;

/// The rules kept of `rules`: the cheapest (then first) of each group equal
/// up to egg's rewrites, and with `tests`, of each group covering the same
/// (transition, cell) pairs alone on them (rules covering none are never
/// merged by behaviour). Returns the kept rules and the count after the
/// first step.
pub fn dedup(
    domain: &Nonogram,
    rules: &[Rule],
    tests: Option<&[Transition]>,
) -> Result<(Vec<Rule>, usize), UnsoundFill> {
    match tests {
        None => dedup_by(domain, rules, None),
        Some(tests) => {
            dedup_by(domain, rules, Some(&|r: &Rule| covered_alone(domain, r, tests, ApplyOptions::default())))
        }
    }
}

/// [`dedup`] with `alone` measuring behaviour (none: by rule key only).
fn dedup_by(domain: &Nonogram, rules: &[Rule], alone: Option<Alone<'_>>) -> Result<(Vec<Rule>, usize), UnsoundFill> {
    let schema = domain.schema();
    let costs: Vec<u32> = rules.iter().map(|r| cost(r, schema)).collect();
    let keys: Vec<_> = rules.iter().map(|r| Some(normal_key(r))).collect();
    let kept = keep_cheapest(&keys, &costs);
    let after_rewrites = kept.len();
    let Some(alone) = alone else {
        return Ok((kept.into_iter().map(|i| rules[i].clone()).collect(), after_rewrites));
    };
    let mut behaviour = vec![];
    for &i in &kept {
        let covered = alone(&rules[i])?;
        behaviour.push((covered.count() > 0).then_some(covered));
    }
    let kept_costs: Vec<u32> = kept.iter().map(|&i| costs[i]).collect();
    let again = keep_cheapest(&behaviour, &kept_costs);
    Ok((again.into_iter().map(|j| rules[kept[j]].clone()).collect(), after_rewrites))
}

impl Learner for NonogramLearner<'_> {
    type Domain = Nonogram;
    type ScoreError = UnsoundFill;
    type Objective<'b>
        = Chosen<'b>
    where
        Self: 'b;

    fn domain(&self) -> &Nonogram {
        self.domain
    }

    fn mine(&self) -> Result<Mined<LineState>, DomainError> {
        let (report, transitions) = mine(self.max_len, Some(Sample { count: self.sample, seed: self.seed }));
        let specs = named_specs(&transitions)?;
        let description = format!(
            "mined lines of 1-{} cells: {} states, {} mirror pairs, {} productive, {} sampled with seed {}: {} specifications",
            self.max_len,
            report.states,
            report.mirror_pairs,
            report.productive,
            report.used,
            self.seed,
            specs.len()
        );
        Ok(Mined { specs, description })
    }

    /// Every mined line but those without hints, on which no rule can act
    /// (docs/coverage.md).
    fn population(&self) -> Result<NamedSpecs<LineState>, DomainError> {
        let (_, transitions) = mine(self.max_len, None);
        let hinted: Vec<Transition> = transitions.into_iter().filter(|t| !t.start.hints.is_empty()).collect();
        Ok(named_specs(&hinted)?)
    }

    fn dedup(&self, rules: &[Rule]) -> Result<Deduplicated, DomainError> {
        let (rules, by_key) = dedup_by(self.domain, rules, Some(&|r: &Rule| self.covered_alone(r)))?;
        Ok(Deduplicated { rules, by_key })
    }

    fn objective<'b>(&'b self, rules: &'b [Rule]) -> Result<Chosen<'b>, DomainError> {
        Ok(Coverage::new(self.domain, rules, self.tests, ApplyOptions::default()).objective())
    }

    fn refuted(&self, error: &UnsoundFill) -> Option<String> {
        Some(error.rule.clone())
    }
}
