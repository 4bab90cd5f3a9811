//! The learner face: what a domain supplies to the pipeline ([`Learner`]):
//! its mined specifications, its deduplication (by default by normal-form key,
//! [`dedup_by_key`]) and the objective the selection maximises. The
//! pipeline never names a domain.

use crate::dsl::ast::Rule;
use crate::dsl::cost::cost;
use crate::dsl::dedup::{keep_cheapest, normal_key};
use crate::select::Objective;
use crate::synth::{Domain, Spec, Symbolic};

/// A domain's own failure (reading its inputs, scoring rules), worded by it.
pub type DomainError = Box<dyn std::error::Error + Send + Sync>;

/// The rules kept of `rules`: the cheapest (then first) of each group equal
/// up to names, comments, order and egg's rewrites ([`normal_key`]).
pub fn dedup_by_key<D: Domain>(domain: &D, rules: &[Rule]) -> Vec<Rule> {
    let costs: Vec<u32> = rules.iter().map(|r| cost(r, domain.schema())).collect();
    let keys: Vec<_> = rules.iter().map(|r| Some(normal_key(r))).collect();
    keep_cheapest(&keys, &costs).into_iter().map(|i| rules[i].clone()).collect()
}

/// The rules a deduplication kept, and how many were left after its
/// first step, by normal-form key alone (for the report).
pub struct Deduplicated {
    /// The rules kept, in order.
    pub rules: Vec<Rule>,
    /// How many distinct normal-form keys the rules had.
    pub by_key: usize,
}

/// Specifications in order, each with its text.
pub type NamedSpecs<S> = Vec<(String, Spec<S>)>;

/// The specifications a domain mined, and how, in words.
pub struct Mined<S> {
    /// The specifications, in order, each with its text.
    pub specs: NamedSpecs<S>,
    /// What was mined from what (for the report).
    pub description: String,
}

/// What a domain supplies to [`learn`](super::driver::learn).
pub trait Learner: Sync {
    /// The domain.
    type Domain: Symbolic;
    /// What can go wrong while scoring rules for the selection.
    type ScoreError: std::error::Error + Send + Sync + 'static;
    /// The selection objective over a list of rules.
    type Objective<'a>: Objective<Error = Self::ScoreError>
    where
        Self: 'a;

    /// The domain.
    fn domain(&self) -> &Self::Domain;

    /// The specifications to synthesise.
    fn mine(&self) -> Result<Mined<<Self::Domain as Domain>::State>, DomainError>;

    /// Every specification the sample of [`mine`](Self::mine) was drawn
    /// from, in order, each with its text (the population augmentation
    /// looks for states the learned rules miss in). By default none.
    fn population(&self) -> Result<NamedSpecs<<Self::Domain as Domain>::State>, DomainError> {
        Ok(vec![])
    }

    /// Deduplicates the rules found: by default by normal-form key
    /// ([`dedup_by_key`]); a domain may then also merge rules that behave
    /// alike.
    fn dedup(&self, rules: &[Rule]) -> Result<Deduplicated, DomainError> {
        let rules = dedup_by_key(self.domain(), rules);
        Ok(Deduplicated { by_key: rules.len(), rules })
    }

    /// The objective the selection maximises over `rules`.
    fn objective<'a>(&'a self, rules: &'a [Rule]) -> Result<Self::Objective<'a>, DomainError>;

    /// The name of the rule a scoring error shows unsound, if that is what
    /// it shows (scoring unproven rules may find them wrong on a test).
    fn refuted(&self, _error: &Self::ScoreError) -> Option<String> {
        None
    }
}
