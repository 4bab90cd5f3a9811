//! The learning pipeline, generic over the domain: mine specifications →
//! synthesise them in deterministic rounds (journaled, resumable,
//! shardable, with a progress bar on stderr) → deduplicate by rule key →
//! prove the rules lost to Z3's limit that count again, with a higher
//! limit ([`second_proof`](crate::second_proof)) → select greedily through a [`select::Objective`](crate::select::Objective)
//! → a report of what was done, with the time of each phase.
//!
//! A domain takes part through a [`Learner`]: it supplies the mined
//! specifications and the selection objective (and may deduplicate
//! further). The pipeline never names a domain; the commands only word
//! the report and write the files.

use crate::dedup::{keep_cheapest, rule_key};
use crate::dsl::ast::Rule;
use crate::dsl::cost::cost;
use crate::dsl::print::print_rule;
use crate::select::{greedy, Objective, Pick};
pub use crate::second_proof::SecondProof;
use crate::second_proof::second_proof;
use crate::synth::batch::{Batch, Entry, Job, ReplayMismatch};
use crate::synth::journal::{fingerprint, Journal, JournalError, ProofQuery, ProofVerdict, RunKey};
use crate::synth::{Config, Domain, Engine, Spec, Symbolic};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// A domain's own failure (reading its inputs, scoring rules), worded by it.
pub type DomainError = Box<dyn std::error::Error + Send + Sync>;

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
pub fn with_threads<T: Send, E: From<PipelineError> + Send>(threads: Option<usize>, f: impl FnOnce() -> Result<T, E> + Send) -> Result<T, E> {
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

/// `part` as a percentage of `whole` (0 if `whole` is 0).
pub fn percent(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    }
}

/// The versions of the tool and of Z3.
pub fn versions() -> String {
    format!("stratsynth {}, Z3 {}", env!("CARGO_PKG_VERSION"), z3::full_version())
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
    /// Also skip specifications made by rules learned in earlier rounds.
    pub progressive: bool,
}

/// What a finished batch gives back.
pub struct BatchRun<S> {
    /// Every job's entry, in job order.
    pub entries: Vec<Entry<S>>,
    /// Entries replayed from the journal.
    pub replayed: usize,
    /// Wall time of this process's rounds (replay excluded).
    pub time: Duration,
    /// Counterexample states in the pool at the end.
    pub pool: usize,
    /// The journal, open for the second proof's records.
    pub journal: std::sync::Mutex<Journal>,
    /// The second proof's verdicts read back from the journal.
    pub proofs: HashMap<ProofQuery, ProofVerdict>,
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

/// The journal's run key.
fn run_key<D: Symbolic>(domain: &D, engine: &Engine<'_, D>, jobs: &[Job<D::State>], options: &BatchOptions<'_>) -> RunKey {
    let texts: Vec<String> = options.skip.iter().map(|r| print_rule(r, domain.schema())).collect();
    RunKey {
        version: env!("CARGO_PKG_VERSION").to_string(),
        config: engine.config().clone(),
        specs: jobs.len(),
        shard: options.shard,
        skip: fingerprint(&texts),
        progressive: options.progressive,
    }
}

/// Runs `jobs` on `engine` (an engine for `domain`) in rounds, journaled,
/// with a progress bar and one line per round on stderr.
pub fn run_batch<D: Symbolic>(
    domain: &D,
    engine: &Engine<'_, D>,
    jobs: &[Job<D::State>],
    options: BatchOptions<'_>,
) -> Result<BatchRun<D::State>, PipelineError> {
    let key = run_key(domain, engine, jobs, &options);
    let (mut journal, replayed, rounds, proofs) = if options.resume {
        let r = Journal::resume(options.journal, &key, domain, jobs)?;
        (r.journal, r.entries, r.rounds, r.proofs)
    } else {
        (Journal::create(options.journal, &key)?, vec![], 0, HashMap::new())
    };
    let mut batch = Batch::new(domain, engine, jobs, options.skip, options.progressive);
    let replayed_count = replayed.len();
    batch
        .replay(replayed, rounds)
        .map_err(|source| PipelineError::Replay { path: options.journal.display().to_string(), source })?;

    let bar = ProgressBar::with_draw_target(Some(jobs.len() as u64), ProgressDrawTarget::stderr()).with_style(
        ProgressStyle::with_template("{bar:30} {pos}/{len} specs, {msg} rules, {elapsed_precise} elapsed, ETA {eta_precise}")
            .expect("a valid template"),
    );
    let rules = AtomicUsize::new(batch.entries().iter().map(|e| e.rules().count()).sum());
    bar.set_position(replayed_count as u64);
    bar.set_message(rules.load(Ordering::Relaxed).to_string());
    bar.reset_eta();
    let say = |text: String| {
        if bar.is_hidden() {
            eprintln!("{text}");
        } else {
            bar.println(text);
        }
    };
    if replayed_count > 0 {
        say(format!("resumed {}: {replayed_count} specifications in {rounds} rounds replayed", options.journal.display()));
    }
    let started = Instant::now();
    while !batch.is_done() {
        let round_start = Instant::now();
        let entries = batch.next_round(|entry| {
            let found = rules.fetch_add(entry.rules().count(), Ordering::Relaxed) + entry.rules().count();
            bar.set_message(found.to_string());
            bar.inc(1);
        });
        let done = entries.iter().filter(|e| matches!(e, Entry::Done { .. })).count();
        let found: usize = entries.iter().map(|e| e.rules().count()).sum();
        let (first, last) = (entries[0].index() + 1, entries[entries.len() - 1].index() + 1);
        let entries = entries.to_vec();
        let round = batch.rounds();
        journal.append(domain, jobs, round, &entries)?;
        say(format!(
            "round {round}: specifications #{first}-#{last}: {done} synthesised, {} skipped, {found} rules, {:.1} s; pool {} states",
            entries.len() - done,
            round_start.elapsed().as_secs_f64(),
            engine.pool_len()
        ));
    }
    bar.finish_and_clear();
    Ok(BatchRun {
        entries: batch.entries().to_vec(),
        replayed: replayed_count,
        time: started.elapsed(),
        pool: engine.pool_len(),
        journal: std::sync::Mutex::new(journal),
        proofs,
    })
}

/// The rules kept of `rules`: the cheapest (then first) of each group equal
/// up to names, comments, order and egg's rewrites ([`rule_key`]).
pub fn dedup_by_key<D: Domain>(domain: &D, rules: &[Rule]) -> Vec<Rule> {
    let costs: Vec<u32> = rules.iter().map(|r| cost(r, domain.schema())).collect();
    let keys: Vec<_> = rules.iter().map(|r| Some(rule_key(r))).collect();
    keep_cheapest(&keys, &costs).into_iter().map(|i| rules[i].clone()).collect()
}

/// The specifications a domain mined, and how, in words.
pub struct Mined<S> {
    /// The specifications, in order, each with its text.
    pub specs: Vec<(String, Spec<S>)>,
    /// What was mined from what (for the report).
    pub description: String,
}

/// What a domain supplies to [`learn`].
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

    /// Deduplicates the rules found: by default by rule key
    /// ([`dedup_by_key`]); a domain may also merge rules that behave alike.
    fn dedup(&self, rules: &[Rule]) -> Result<Vec<Rule>, DomainError> {
        Ok(dedup_by_key(self.domain(), rules))
    }

    /// The objective the selection maximises over `rules`.
    fn objective<'a>(&'a self, rules: &'a [Rule]) -> Result<Self::Objective<'a>, DomainError>;

    /// The name of the rule a scoring error shows unsound, if that is what
    /// it shows (scoring unproven rules may find them wrong on a test).
    fn refuted(&self, _error: &Self::ScoreError) -> Option<String> {
        None
    }
}

/// How [`learn`] runs.
pub struct LearnOptions<'a> {
    /// The engine's configuration.
    pub config: Config,
    /// The journal's path.
    pub journal: &'a Path,
    /// Continue the journal instead of starting one.
    pub resume: bool,
    /// Skip specifications made by rules learned in earlier rounds.
    pub progressive: bool,
    /// How many rules to select.
    pub k: usize,
    /// The resource limit of the second proof of the rules lost to the
    /// first one's limit that would add to the objective (0: no second
    /// proof).
    pub retry_rlimit: u32,
}

/// Named wall times of a run's phases, in order.
#[derive(Clone, Debug, Default)]
pub struct Phases(pub Vec<(&'static str, Duration)>);

impl Phases {
    /// Runs `f` as the phase `name`.
    pub fn time<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        let started = Instant::now();
        let out = f();
        self.0.push((name, started.elapsed()));
        out
    }

    /// The sum of the phases.
    pub fn total(&self) -> Duration {
        self.0.iter().map(|(_, d)| *d).sum()
    }
}

impl std::fmt::Display for Phases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "wall times: ")?;
        for (name, time) in &self.0 {
            write!(f, "{name} {:.1} s, ", time.as_secs_f64())?;
        }
        write!(f, "total {:.1} s", self.total().as_secs_f64())
    }
}

/// What [`learn`] did.
pub struct LearnRun<S> {
    /// How the specifications were mined.
    pub mined: String,
    /// The synthesis batch.
    pub batch: BatchRun<S>,
    /// Every rule found, in job order.
    pub found: Vec<Rule>,
    /// After deduplication by rule key.
    pub by_key: usize,
    /// The deduplicated rules.
    pub learned: Vec<Rule>,
    /// The second proof of rules lost to Z3's resource limit.
    pub retry: SecondProof,
    /// The selection, in order (indices into `learned`).
    pub picks: Vec<Pick>,
    /// Wall time per phase.
    pub phases: Phases,
}

/// Runs the whole pipeline for `learner`.
pub fn learn<L: Learner>(learner: &L, options: LearnOptions<'_>) -> Result<LearnRun<<L::Domain as Domain>::State>, PipelineError> {
    let domain = learner.domain();
    let mut phases = Phases::default();
    let mined = phases.time("mine", || learner.mine()).map_err(PipelineError::Domain)?;
    eprintln!("{} ({:.1} s)", mined.description, phases.total().as_secs_f64());
    let jobs = jobs(mined.specs, None);
    let bound = options.config.bound;
    let batch = phases.time("synthesis", || {
        let engine = Engine::new(domain, options.config);
        let batch = BatchOptions { journal: options.journal, resume: options.resume, shard: None, skip: vec![], progressive: options.progressive };
        run_batch(domain, &engine, &jobs, batch)
    })?;
    let mut found = batch.rules();
    let (by_key, first) = phases
        .time("dedup", || learner.dedup(&found).map(|first| (dedup_by_key(domain, &found).len(), first)))
        .map_err(PipelineError::Domain)?;
    let (retry, learned) = phases
        .time("second proof", || -> Result<_, DomainError> {
            let retry = second_proof(learner, &first, &batch, &jobs, (bound, options.retry_rlimit, options.k))?;
            // deduplicating the kept rules with the new ones is deduplicating
            // everything found: a group's best found rule is among the kept
            let learned = if retry.proven.is_empty() { first } else { learner.dedup(&[first, retry.proven.clone()].concat())? };
            Ok((retry, learned))
        })
        .map_err(PipelineError::Domain)?;
    // the proven rules' keys differ from every found rule's and each other's
    let by_key = by_key + retry.proven.len();
    found.extend(retry.proven.iter().cloned());
    let picks = phases.time("select", || -> Result<Vec<Pick>, DomainError> {
        let mut objective = learner.objective(&learned)?;
        Ok(greedy(learned.len(), options.k, |i| cost(&learned[i], domain.schema()), &mut objective)?)
    }).map_err(PipelineError::Domain)?;
    Ok(LearnRun { mined: mined.description, batch, found, by_key, learned, retry, picks, phases })
}
