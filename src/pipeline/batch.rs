//! Many specifications synthesised in deterministic rounds.
//!
//! The engine's results depend on the specification and on the
//! counterexample pool as published before its run started. A batch
//! therefore runs in rounds of [`ROUND`] specifications (a constant, not
//! the thread count): the round is synthesised in parallel (rayon), then
//! its counterexamples are published in specification order. Before a
//! round is formed, specifications that a skip rule already makes are
//! passed over — rules given up front and, when `progressive`, the rules
//! learned in earlier rounds — so the result depends only on the input,
//! never on the number of threads or on timing.
//!
//! A batch can start from finished entries (a journal's) instead of
//! running them again: [`Batch::replay`] republishes their counterexamples
//! in the original order, so the pool is exactly what an uninterrupted run
//! would have.
//!
//! Rules are named `spec<N>_<k>` (N the 1-based place of the specification
//! in the whole input, k the rule's rank in its outcome) and carry their
//! [`Meta`] comment.

use crate::synth::meta::Meta;
use crate::synth::{makes, Engine, Learned, Outcome, Spec, Stats, Symbolic};
use crate::dsl::ast::Rule;
use rayon::prelude::*;

/// Specifications synthesised in parallel per round.
pub const ROUND: usize = 8;

/// A specification of a batch.
#[derive(Clone, Debug)]
pub struct Job<S> {
    /// Its 0-based place in the whole input (before sharding).
    pub index: usize,
    /// Its text, as the domain shows it.
    pub text: String,
    /// The specification.
    pub spec: Spec<S>,
}

/// What became of one specification.
#[derive(Clone, Debug)]
pub enum Entry<S> {
    /// Synthesised (its rules named and described, see the module doc).
    Done {
        /// The job's index.
        index: usize,
        /// The engine's outcome.
        outcome: Outcome<S>,
    },
    /// Passed over because a skip rule makes it.
    Skipped {
        /// The job's index.
        index: usize,
        /// The name of the first skip rule that makes it.
        by: String,
    },
}

impl<S> Entry<S> {
    /// The job's index.
    pub fn index(&self) -> usize {
        match self {
            Entry::Done { index, .. } | Entry::Skipped { index, .. } => *index,
        }
    }

    /// The rules found (none if skipped).
    pub fn rules(&self) -> impl Iterator<Item = &Rule> {
        let rules = match self {
            Entry::Done { outcome, .. } => &outcome.rules[..],
            Entry::Skipped { .. } => &[],
        };
        rules.iter().map(|l| &l.rule)
    }
}

/// Replayed entries that are not a prefix of the batch's jobs.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("finished entry {position} is specification #{found}, but the batch's specification there is #{expected}")]
pub struct ReplayMismatch {
    /// 0-based place among the entries.
    pub position: usize,
    /// The batch's job index there (`usize::MAX` past its end).
    pub expected: usize,
    /// The entry's job index.
    pub found: usize,
}

/// Names and describes a finished outcome's rules (see the module doc);
/// its rules lost to Z3's limit are named after them, in order, and get
/// their description only if a later proof succeeds ([`describe`]).
pub fn label<S>(index: usize, text: &str, outcome: &mut Outcome<S>) {
    let stats = outcome.stats.clone();
    for (k, learned) in outcome.rules.iter_mut().enumerate() {
        learned.rule.name = format!("spec{}_{}", index + 1, k + 1);
        describe(text, learned, &stats);
    }
    let first = outcome.rules.len();
    for (j, rule) in outcome.lost.iter_mut().enumerate() {
        rule.name = format!("spec{}_{}", index + 1, first + j + 1);
    }
}

/// Gives a proven rule of the specification shown as `text` its [`Meta`]
/// comment (the specification's counters).
pub fn describe(text: &str, learned: &mut Learned, stats: &Stats) {
    learned.rule.description = vec![Meta::new(text, learned, stats).comment()];
}

/// A batch under way: the jobs, what is finished (a prefix of them), and
/// the rules that make a specification skippable.
pub struct Batch<'a, 'd, D: Symbolic> {
    domain: &'d D,
    engine: &'a Engine<'d, D>,
    jobs: &'a [Job<D::State>],
    entries: Vec<Entry<D::State>>,
    skip: Vec<Rule>,
    progressive: bool,
    rounds: usize,
}

impl<'a, 'd, D: Symbolic> Batch<'a, 'd, D> {
    /// A batch of `jobs` (in order) on `engine`, an engine for `domain`;
    /// specifications some rule of `skip` makes are skipped, and with
    /// `progressive` so are those a rule learned in an earlier round makes.
    pub fn new(
        domain: &'d D,
        engine: &'a Engine<'d, D>,
        jobs: &'a [Job<D::State>],
        skip: Vec<Rule>,
        progressive: bool,
    ) -> Batch<'a, 'd, D> {
        Batch { domain, engine, jobs, entries: vec![], skip, progressive, rounds: 0 }
    }

    /// Takes finished entries (the first jobs, in order, ending with a
    /// whole round, `rounds` rounds in all) as if this batch had run them:
    /// their counterexamples are published in order.
    pub fn replay(&mut self, entries: Vec<Entry<D::State>>, rounds: usize) -> Result<(), ReplayMismatch> {
        for entry in entries {
            let position = self.entries.len();
            let expected = self.jobs.get(position).map_or(usize::MAX, |j| j.index);
            if entry.index() != expected {
                return Err(ReplayMismatch { position, expected, found: entry.index() });
            }
            self.finish(entry);
        }
        self.rounds += rounds;
        Ok(())
    }

    fn finish(&mut self, entry: Entry<D::State>) {
        if let Entry::Done { outcome, .. } = &entry {
            self.engine.publish(&[outcome]);
            if self.progressive {
                self.skip.extend(outcome.rules.iter().map(|l| l.rule.clone()));
            }
        }
        self.entries.push(entry);
    }

    /// The finished entries, in job order.
    pub fn entries(&self) -> &[Entry<D::State>] {
        &self.entries
    }

    /// Rounds finished (replayed ones included).
    pub fn rounds(&self) -> usize {
        self.rounds
    }

    /// Whether every job is finished.
    pub fn is_done(&self) -> bool {
        self.entries.len() == self.jobs.len()
    }

    /// Runs the next round: passes over the next jobs a skip rule makes,
    /// synthesises up to [`ROUND`] others in parallel (calling `done` as
    /// each finishes, from the worker thread), and publishes their
    /// counterexamples in job order. Returns the round's entries in job
    /// order (empty when every job is finished).
    pub fn next_round(&mut self, done: impl Fn(&Entry<D::State>) + Sync) -> &[Entry<D::State>] {
        let first = self.entries.len();
        let mut plan: Vec<(usize, Option<String>)> = vec![];
        let mut to_run = 0;
        for (i, job) in self.jobs.iter().enumerate().skip(first) {
            if to_run == ROUND {
                break;
            }
            let by = self.skip.iter().find(|r| makes(self.domain, r, &job.spec)).map(|r| r.name.clone());
            to_run += by.is_none() as usize;
            plan.push((i, by));
        }
        if plan.is_empty() {
            return &[];
        }
        let engine = self.engine;
        let jobs = self.jobs;
        let mut entries: Vec<Entry<D::State>> = plan
            .into_par_iter()
            .map(|(i, by)| {
                let job = &jobs[i];
                let entry = match by {
                    Some(by) => Entry::Skipped { index: job.index, by },
                    None => {
                        let mut outcome = engine.synthesize(&job.spec);
                        label(job.index, &job.text, &mut outcome);
                        Entry::Done { index: job.index, outcome }
                    }
                };
                done(&entry);
                entry
            })
            .collect();
        for entry in entries.drain(..) {
            self.finish(entry);
        }
        self.rounds += 1;
        &self.entries[first..]
    }
}
