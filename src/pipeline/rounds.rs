//! The journaled batch: a list of specifications ([`jobs`], optionally
//! one shard of it) run as a [`Batch`] in its deterministic window on one
//! engine, each group of entries committed together appended to the
//! [`Journal`] as a round, so that an interrupted run resumes where it
//! stopped ([`run_batch`]).

use super::batch::{Batch, Entry, Job, ReplayMismatch};
use super::journal::{fingerprint, Journal, JournalError, ProofQuery, RunKey};
use super::learner::DomainError;
use super::observer::{BatchStart, Observer, RoundDone};
use super::schedule::Parallelism;
use crate::dsl::ast::Rule;
use crate::dsl::print::print_rule;
use crate::synth::Verdict;
use crate::synth::{Config, Engine, Spec, Symbolic};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// What can stop the pipeline.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// The journal cannot be written, read or resumed.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The journal's entries are not this run's.
    #[error("{path}: {source}")]
    Replay {
        /// The journal.
        path: String,
        /// What does not match.
        #[source]
        source: ReplayMismatch,
    },
    /// An output cannot be written.
    #[error("{path}: {source}")]
    Output {
        /// The output.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The thread pool cannot be built, or `--threads 0`.
    #[error("--threads: {0}")]
    Threads(String),
    /// The domain's miner, deduplication or objective failed.
    #[error(transparent)]
    Domain(DomainError),
    /// A shard's journal that a merge cannot take.
    #[error("{path}: {message}")]
    Shard {
        /// The shard's journal.
        path: String,
        /// What is wrong with it.
        message: String,
    },
}

/// `(i, n)`: the specifications whose index is i mod n.
pub type Shard = (usize, usize);

/// A `--shard` that is not `i/n` with `i < n`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("expected `i/n` with 0 <= i < n, found `{0}`")]
pub struct BadShard(pub String);

/// Parses `i/n` with `i < n`.
pub fn parse_shard(text: &str) -> Result<Shard, BadShard> {
    let bad = || BadShard(text.to_string());
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// Runs `f` on a rayon pool of `threads` workers (the global pool if `None`).
pub fn with_threads<T: Send, E: From<PipelineError> + Send>(
    threads: Option<usize>,
    f: impl FnOnce() -> Result<T, E> + Send,
) -> Result<T, E> {
    match threads {
        None => f(),
        Some(0) => Err(PipelineError::Threads("must be at least 1".into()).into()),
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| PipelineError::Threads(e.to_string()))?
            .install(f),
    }
}

/// The journal of an output file: `OUT.journal`.
pub fn journal_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// The jobs of `specs` (each with its text; indices in the whole list),
/// only `shard`'s if given.
pub fn jobs<S>(specs: Vec<(String, Spec<S>)>, shard: Option<Shard>) -> Vec<Job<S>> {
    specs
        .into_iter()
        .enumerate()
        .filter(|(index, _)| shard.is_none_or(|(i, n)| index % n == i))
        .map(|(index, (text, spec))| Job { index, text, spec })
        .collect()
}

/// How a batch runs.
pub struct BatchOptions<'a> {
    /// The journal's path.
    pub journal: &'a Path,
    /// Continue the journal instead of starting one.
    pub resume: bool,
    /// The shard taken (recorded in the journal's run key).
    pub shard: Option<Shard>,
    /// Rules that make a specification skippable.
    pub skip: Vec<Rule>,
    /// Also skip specifications made by rules learned at earlier places.
    pub progressive: bool,
    /// How far a specification runs ahead of the first unfinished one
    /// ([`WINDOW`](super::batch::WINDOW); 0: one at a time, each skipped or seeing every
    /// earlier one's rules and counterexamples).
    pub window: usize,
    /// Told of the batch's progress.
    pub observer: &'a dyn Observer,
}

/// What a finished batch gives back.
pub struct BatchRun<S> {
    /// Every job's entry, in job order.
    pub entries: Vec<Entry<S>>,
    /// Entries replayed from the journal.
    pub replayed: usize,
    /// Wall time of this process's synthesis (replay excluded).
    pub time: Duration,
    /// Counterexample states in the pool at the end.
    pub pool: usize,
    /// The journal, open for the second proof's records.
    pub journal: std::sync::Mutex<Journal>,
    /// The second proof's verdicts read back from the journal.
    pub proofs: HashMap<ProofQuery, Verdict<String>>,
    /// The entries as consecutive batches: (entries, window) of each,
    /// in order (one, unless batches were absorbed).
    pub segments: Vec<(usize, usize)>,
}

impl<S> BatchRun<S> {
    /// Specifications synthesised (not skipped).
    pub fn synthesised(&self) -> usize {
        self.entries.iter().filter(|e| matches!(e, Entry::Done { .. })).count()
    }

    /// The rules found, in job order.
    pub fn rules(&self) -> Vec<Rule> {
        self.entries.iter().flat_map(|e| e.rules().cloned()).collect()
    }

    /// The rules lost to Z3's resource limit at the full-bound proof, in
    /// job order, each with the place of its entry.
    pub fn lost(&self) -> Vec<(usize, &Rule)> {
        self.entries
            .iter()
            .enumerate()
            .flat_map(|(at, e)| match e {
                Entry::Done { outcome, .. } => outcome.lost.iter().map(|r| (at, r)).collect(),
                Entry::Skipped { .. } => vec![],
            })
            .collect()
    }

    /// Appends the entries of `later`, a batch of the jobs that follow
    /// this one's (its journal keeps its own records; the second proof
    /// records in this one's).
    pub fn absorb(&mut self, later: BatchRun<S>) {
        self.entries.extend(later.entries);
        self.replayed += later.replayed;
        self.time += later.time;
        self.pool += later.pool;
        self.proofs.extend(later.proofs);
        self.segments.extend(later.segments);
    }

    /// Specifications, skipped ones and what Z3 lost, in words (no timing:
    /// rule file headers carry this; see [`BatchRun::times`]).
    pub fn summary(&self, journal: &Path) -> String {
        let mut stats = crate::synth::Stats::default();
        for e in &self.entries {
            if let Entry::Done { outcome, .. } = e {
                stats.add(&outcome.stats);
            }
        }
        format!(
            "{} specifications ({} synthesised, {} skipped), {} replayed from {}; pool {} states; \
             Z3 ran out of its resource limit on {} queries; {} rules lost to it at the full-bound proof",
            self.entries.len(),
            self.synthesised(),
            self.entries.len() - self.synthesised(),
            self.replayed,
            journal.display(),
            self.pool,
            stats.z3_unknown,
            stats.lost_at_full_bound
        )
    }

    /// The schedule's available parallelism, from the entries' times.
    pub fn parallelism(&self) -> Parallelism {
        Parallelism::of(&self.entries, &self.segments)
    }

    /// This process's throughput and the synthesis times, in words.
    pub fn times(&self) -> String {
        let times: Vec<Duration> = self
            .entries
            .iter()
            .filter_map(|e| match e {
                Entry::Done { outcome, .. } => Some(outcome.time),
                Entry::Skipped { .. } => None,
            })
            .collect();
        let sum: Duration = times.iter().sum();
        let max = times.iter().max().copied().unwrap_or_default();
        let mean = if times.is_empty() { 0.0 } else { sum.as_secs_f64() / times.len() as f64 };
        let here = self.entries.len() - self.replayed;
        let minutes = self.time.as_secs_f64() / 60.0;
        let rate = if minutes > 0.0 { here as f64 / minutes } else { 0.0 };
        format!(
            "this process: {here} in {:.1} s wall, {rate:.2} per minute; synthesis times sum to {:.1} s (mean {mean:.1} s, max {:.1} s)",
            self.time.as_secs_f64(),
            sum.as_secs_f64(),
            max.as_secs_f64(),
        )
    }
}

/// The run key of the journal of a batch of `jobs` with `config`.
pub(super) fn run_key<D: Symbolic>(
    domain: &D,
    config: &Config,
    jobs: &[Job<D::State>],
    options: &BatchOptions<'_>,
) -> RunKey {
    let texts: Vec<String> = options.skip.iter().map(|r| print_rule(r, domain.schema())).collect();
    RunKey {
        version: env!("CARGO_PKG_VERSION").to_string(),
        config: config.clone(),
        specs: jobs.len(),
        shard: options.shard,
        skip: fingerprint(&texts),
        progressive: options.progressive,
        merged_shards: None,
        window: options.window,
    }
}

/// Runs `jobs` on `engine` (an engine for `domain`) in the window, journaled,
/// telling the options' observer as it goes.
pub fn run_batch<D: Symbolic>(
    domain: &D,
    engine: &Engine<'_, D>,
    jobs: &[Job<D::State>],
    options: BatchOptions<'_>,
) -> Result<BatchRun<D::State>, PipelineError> {
    let key = run_key(domain, engine.config(), jobs, &options);
    let (mut journal, replayed, rounds, proofs) = if options.resume {
        let r = Journal::resume(options.journal, &key, domain, jobs)?;
        (r.journal, r.entries, r.rounds, r.proofs)
    } else {
        (Journal::create(options.journal, &key)?, vec![], 0, HashMap::new())
    };
    let mut batch = Batch::new(domain, engine, jobs, (options.skip, options.progressive), options.window);
    let replayed_count = replayed.len();
    batch
        .replay(replayed, rounds)
        .map_err(|source| PipelineError::Replay { path: options.journal.display().to_string(), source })?;

    let observer = options.observer;
    let rules = batch.entries().iter().map(|e| e.rules().count()).sum();
    observer.batch_started(&BatchStart {
        jobs: jobs.len(),
        replayed: replayed_count,
        rounds,
        rules,
        journal: options.journal,
    });
    let started = Instant::now();
    let mut commits = batch.commits();
    let mut last = Instant::now();
    batch.run(|entries: &[Entry<D::State>]| -> Result<(), PipelineError> {
        commits += 1;
        journal.append(domain, jobs, commits, entries)?;
        for entry in entries {
            observer.specification_done(entry.rules().count());
        }
        let synthesised = entries.iter().filter(|e| matches!(e, Entry::Done { .. })).count();
        observer.round_done(&RoundDone {
            round: commits,
            specs: (entries[0].index() + 1, entries[entries.len() - 1].index() + 1),
            synthesised,
            skipped: entries.len() - synthesised,
            rules: entries.iter().map(|e| e.rules().count()).sum(),
            time: std::mem::replace(&mut last, Instant::now()).elapsed(),
            pool: engine.pool_len(),
        });
        Ok(())
    })?;
    observer.batch_done();
    Ok(BatchRun {
        segments: vec![(jobs.len(), options.window)],
        entries: batch.entries().to_vec(),
        replayed: replayed_count,
        time: started.elapsed(),
        pool: engine.pool_len(),
        journal: std::sync::Mutex::new(journal),
        proofs,
    })
}
