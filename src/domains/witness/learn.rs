//! What the Witness domain supplies to the learning pipeline
//! ([`pipeline::Learner`](crate::pipeline::Learner)): frontier
//! specifications (incompletable paths local checking does not flag) mined
//! from generated training puzzles, and as the selection objective the
//! pruning power on a separate generated filter set (Stevens' triage).

use super::domain::{Witness, WitnessState};
use super::generate::{generate, Algorithm, GeneratorConfig, SizeRange};
use super::mine::{mine, Scope};
use super::predicates::baseline;
use super::ruleset::RuleSetPredicate;
use crate::dsl::ast::Rule;
use crate::dsl::eval::ActionValue;
use crate::pipeline::{DomainError, Learner, Mined};
use crate::select::Objective;
use crate::synth::cover::Bits;
use crate::synth::{Domain, Spec};
use rayon::prelude::*;
use std::sync::OnceLock;

/// What to learn from.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// Sizes of training and filter puzzles.
    pub sizes: SizeRange,
    /// Training puzzles (Algorithm 3).
    pub train: usize,
    /// Filter puzzles for selection (Algorithm 3, the next seed).
    pub filter: usize,
    /// Seed of the training puzzles (the filter set uses `seed + 1`).
    pub seed: u64,
    /// Most specifications synthesised (the first, in mining order).
    pub max_specs: usize,
}

/// The Witness learner.
pub struct WitnessLearner<'a> {
    /// The domain.
    pub domain: &'a Witness,
    /// What to learn from.
    pub config: LearnConfig,
    /// Incompletable filter paths not flagged by local checking (set when
    /// the objective is built).
    filter_paths: OnceLock<usize>,
}

impl<'a> WitnessLearner<'a> {
    /// A learner for `domain` on `config`.
    pub fn new(domain: &'a Witness, config: LearnConfig) -> WitnessLearner<'a> {
        WitnessLearner { domain, config, filter_paths: OnceLock::new() }
    }

    /// The filter paths selection measured pruning on (0 before selection).
    pub fn filter_paths(&self) -> usize {
        self.filter_paths.get().copied().unwrap_or(0)
    }

    fn generator(&self) -> GeneratorConfig {
        GeneratorConfig::new(self.config.sizes.clone(), Algorithm::RandomTriangles)
    }
}

impl Learner for WitnessLearner<'_> {
    type Domain = Witness;
    type ScoreError = std::convert::Infallible;
    type Objective<'b>
        = Union
    where
        Self: 'b;

    fn domain(&self) -> &Witness {
        self.domain
    }

    fn mine(&self) -> Result<Mined<WitnessState>, DomainError> {
        let c = &self.config;
        let training = generate(&self.generator(), c.seed, c.train)?;
        let mut states = mine(&training, &|p, path| baseline(p, path), Scope::Frontier);
        let mined = states.len();
        states.truncate(c.max_specs);
        let prune = self.domain.schema().action_id("prune").ok_or("the schema has no `prune` action")?;
        let description = format!(
            "{mined} frontier specifications mined from {} training puzzles (seed {}); the first {} synthesised or skipped",
            c.train,
            c.seed,
            states.len()
        );
        let specs = states
            .into_iter()
            .map(|state| (state.show(), Spec { state, deduction: ActionValue { action: prune, args: vec![] } }))
            .collect();
        Ok(Mined { specs, description })
    }

    fn objective<'b>(&'b self, rules: &'b [Rule]) -> Result<Union, DomainError> {
        let filter = generate(&self.generator(), self.config.seed + 1, self.config.filter)?;
        let dead = mine(&filter, &|p, path| baseline(p, path), Scope::All);
        let _ = self.filter_paths.set(dead.len());
        let schema = self.domain.schema();
        let sets: Vec<Bits> = rules
            .par_iter()
            .map(|rule| {
                let one = RuleSetPredicate::new(self.domain.ids(), schema.size_feature, vec![rule.clone()]);
                let mut b = Bits::new();
                dead.iter().enumerate().filter(|(_, s)| one.rules_fire(&s.puzzle, &s.path)).for_each(|(i, _)| b.set(i));
                b
            })
            .collect();
        Ok(Union { sets, have: Bits::new() })
    }
}

/// Paths pruned by the union of the chosen rules.
pub struct Union {
    sets: Vec<Bits>,
    have: Bits,
}

impl Objective for Union {
    type Error = std::convert::Infallible;

    fn score(&self) -> usize {
        self.have.count()
    }

    fn score_with(&self, i: usize) -> Result<usize, Self::Error> {
        Ok(self.have.count() + self.sets[i].minus(&self.have).count())
    }

    fn choose(&mut self, i: usize) -> Result<(), Self::Error> {
        for p in self.sets[i].ones() {
            self.have.set(p);
        }
        Ok(())
    }
}
