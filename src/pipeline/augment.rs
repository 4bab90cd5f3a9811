//! Augmentation: after the sample's synthesis, the specifications of the
//! learner's population (every state the sample was drawn from) that no
//! rule learned so far makes beyond its small state
//! ([`makes_beyond`](crate::synth::makes_beyond): on one of the domain's
//! probes) are synthesised too, in population order, at most
//! [`LearnOptions::augment`] of them, one at a time (window 0), each
//! skipped when a rule learned from an earlier one already makes it. A
//! random sample rarely holds the few small states that teach a rule real
//! puzzles need (a gap too small for
//! every hint with room on both sides; cells between where two
//! neighbouring hints can reach), and the rules the sample teaches make
//! such states only on the small line itself, if at all. Their batch has a
//! journal of its own (`X.augment.journal` beside `X.journal`) and a fresh
//! engine whose rules have at most `probe_decls` pattern variables: a state
//! the sample's rules miss can need three, and a three-variable search of
//! one such state ran past 12 GB. Its entries follow the sample's, so its
//! rules are named after their place in the whole input.

use super::batch::Job;
use super::journal::JournalError;
use super::learner::Learner;
use super::options::LearnOptions;
use super::rounds::{run_batch, BatchOptions, BatchRun, PipelineError};
use crate::synth::{Domain, Engine, Probed};
use std::collections::HashSet;
use std::path::PathBuf;

/// What [`augment`] added.
#[derive(Clone, Debug, Default)]
pub struct Augmented {
    /// Specifications of the population outside the sample.
    pub population: usize,
    /// Those no learned rule makes beyond their small state.
    pub unmade: usize,
    /// The first `augment` of those, taken in order.
    pub taken: usize,
    /// Of those taken, the ones synthesised (the others a rule the
    /// augmentation learned already makes).
    pub synthesised: usize,
    /// Most pattern variables of their rules.
    pub decls: usize,
}

impl Augmented {
    /// In words, for reports and rule file headers.
    pub fn summary(&self, journal: &std::path::Path) -> String {
        format!(
            "augmented: {} of the {} specifications of the population outside the sample are made by no learned rule beyond their small state; \
             of the first {}, taken one at a time, {} synthesised (at most {} pattern variables), the others made by a rule learned before them; journal {}",
            self.unmade,
            self.population,
            self.taken,
            self.synthesised,
            self.decls,
            journal.display()
        )
    }
}

/// The augmentation journal beside `journal` (`X.journal` → `X.augment.journal`).
pub fn augment_journal(journal: &std::path::Path) -> PathBuf {
    journal.with_extension("augment.journal")
}

/// Refuses, before any synthesis, a new run (not `--resume`) that would
/// overwrite an augmentation journal of an earlier one, as the batch
/// refuses its own journal.
pub fn check_fresh(options: &LearnOptions<'_>) -> Result<(), PipelineError> {
    let journal = augment_journal(options.journal);
    if options.augment > 0 && !options.resume && journal.exists() {
        return Err(JournalError::Exists { path: journal.display().to_string() }.into());
    }
    Ok(())
}

/// Synthesises the specifications of `learner`'s population that the
/// rules of `batch` (deduplicated) do not make beyond their small state,
/// and appends their jobs and entries to `jobs` and `batch`.
pub fn augment<L: Learner>(
    learner: &L,
    options: &LearnOptions<'_>,
    jobs: &mut Vec<Job<<L::Domain as Domain>::State>>,
    batch: &mut BatchRun<<L::Domain as Domain>::State>,
) -> Result<Augmented, PipelineError> {
    use rayon::prelude::*;
    if options.augment == 0 {
        return Ok(Augmented::default());
    }
    let domain = learner.domain();
    let sampled: HashSet<&str> = jobs.iter().map(|j| j.text.as_str()).collect();
    let population: Vec<_> = learner
        .population()
        .map_err(PipelineError::Domain)?
        .into_iter()
        .filter(|(text, _)| !sampled.contains(text.as_str()))
        .collect();
    let rules = learner.dedup(&batch.rules()).map_err(PipelineError::Domain)?.rules;
    // each specification's views computed once for all the rules
    let unmade: Vec<bool> = population
        .par_iter()
        .map(|(_, spec)| {
            let probed = Probed::new(domain, spec);
            !rules.iter().any(|r| probed.made_beyond_by(domain, r))
        })
        .collect();
    let (total, count) = (population.len(), unmade.iter().filter(|&&u| u).count());
    let first = jobs.len();
    let extra: Vec<Job<_>> = population
        .into_iter()
        .zip(unmade)
        .filter(|(_, u)| *u)
        .take(options.augment)
        .enumerate()
        .map(|(i, ((text, spec), _))| Job { index: first + i, text, spec })
        .collect();
    let mut config = options.config.clone();
    config.max_decls = config.max_decls.min(config.probe_decls);
    let decls = config.max_decls;
    let engine = Engine::new(domain, config);
    let journal = augment_journal(options.journal);
    let batch_options = BatchOptions {
        journal: &journal,
        resume: options.resume,
        shard: None,
        skip: vec![],
        progressive: true,
        window: 0,
        observer: options.observer,
    };
    let more = run_batch(domain, &engine, &extra, batch_options)?;
    let added =
        Augmented { population: total, unmade: count, taken: extra.len(), synthesised: more.synthesised(), decls };
    batch.absorb(more);
    jobs.extend(extra);
    Ok(added)
}
