//! The driver: the whole pipeline for one [`Learner`] ([`learn`]) —
//! mine, synthesise in journaled rounds, augment
//! ([`augment`](super::augment)), deduplicate, prove again the lost
//! rules that count ([`second_proof`](super::second_proof)), select — with
//! the wall time of each phase.

use super::augment::{augment, check_fresh, Augmented};
use super::batch::{Job, WINDOW};
use super::learner::{DomainError, Learner};
use super::options::LearnOptions;
use super::rounds::{jobs, run_batch, BatchOptions, BatchRun, PipelineError, Shard};
use super::second_proof::{second_proof, SecondProof};
use crate::dsl::ast::Rule;
use crate::dsl::cost::cost;
use crate::select::{greedy, Pick};
use crate::synth::{Domain, Engine};
use std::time::{Duration, Instant};

/// Named wall times of a run's phases, in order, each with the CPU time
/// (user and system) the process spent in it and its peak resident memory
/// when it ended (so a run shows which phase set its peak, and, from CPU
/// over wall, how busy the cores were in each).
#[derive(Clone, Debug, Default)]
pub struct Phases(pub Vec<Phase>);

/// One phase of a run: its name, wall time, CPU time and the process's
/// peak resident memory by its end.
#[derive(Clone, Debug)]
pub struct Phase {
    /// The phase's name.
    pub name: &'static str,
    /// Its wall time.
    pub wall: Duration,
    /// The CPU time (user and system, every thread) spent in it.
    pub cpu: Duration,
    /// The process's peak resident memory by its end, in bytes.
    pub peak: u64,
}

impl Phases {
    /// Runs `f` as the phase `name`.
    pub fn time<T>(&mut self, name: &'static str, f: impl FnOnce() -> T) -> T {
        let (started, cpu) = (Instant::now(), crate::usage::cpu_time(libc::RUSAGE_SELF));
        let out = f();
        let cpu = crate::usage::cpu_time(libc::RUSAGE_SELF).saturating_sub(cpu);
        self.0.push(Phase { name, wall: started.elapsed(), cpu, peak: crate::usage::peak_memory() });
        out
    }

    /// The sum of the phases.
    pub fn total(&self) -> Duration {
        self.0.iter().map(|p| p.wall).sum()
    }
}

impl std::fmt::Display for Phases {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "wall times (CPU time, peak memory by the end): ")?;
        for p in &self.0 {
            let show = crate::usage::show_bytes(p.peak);
            write!(f, "{} {:.1} s ({:.1} s CPU, {show}), ", p.name, p.wall.as_secs_f64(), p.cpu.as_secs_f64())?;
        }
        write!(f, "total {:.1} s", self.total().as_secs_f64())
    }
}

/// What [`learn`] did.
pub struct LearnRun<S> {
    /// How the specifications were mined.
    pub mined: String,
    /// The synthesis batch (the augmentation's entries after the sample's).
    pub batch: BatchRun<S>,
    /// What the augmentation added.
    pub augmented: Augmented,
    /// Every rule found, in job order.
    pub found: Vec<Rule>,
    /// After deduplication by normal-form key.
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
pub fn learn<L: Learner>(
    learner: &L,
    options: LearnOptions<'_>,
) -> Result<LearnRun<<L::Domain as Domain>::State>, PipelineError> {
    let mut phases = Phases::default();
    check_fresh(&options)?;
    let (mined, mut jobs) = mine(learner, &options, &mut phases)?;
    let mut batch = phases.time("synthesis", || synthesise(learner, &options, &jobs, None))?;
    let augmented = phases.time("augmentation", || augment(learner, &options, &mut jobs, &mut batch))?;
    finish(learner, options, (mined, augmented), &jobs, batch, phases)
}

/// The jobs of a learner's specifications.
pub(super) type LearnerJobs<L> = Vec<Job<<<L as Learner>::Domain as Domain>::State>>;

/// Mines `learner`'s specifications as the phase `mine`: their
/// description and every job.
pub(super) fn mine<L: Learner>(
    learner: &L,
    options: &LearnOptions<'_>,
    phases: &mut Phases,
) -> Result<(String, LearnerJobs<L>), PipelineError> {
    let mined = phases.time("mine", || learner.mine()).map_err(PipelineError::Domain)?;
    options.observer.mined(&mined.description, phases.total());
    Ok((mined.description, jobs(mined.specs, None)))
}

/// Synthesises `jobs` (already restricted to `shard`, if given) as one
/// journaled batch on a fresh engine.
pub(super) fn synthesise<L: Learner>(
    learner: &L,
    options: &LearnOptions<'_>,
    jobs: &[Job<<L::Domain as Domain>::State>],
    shard: Option<Shard>,
) -> Result<BatchRun<<L::Domain as Domain>::State>, PipelineError> {
    let domain = learner.domain();
    let engine = Engine::new(domain, options.config.clone());
    let batch = BatchOptions {
        journal: options.journal,
        resume: options.resume,
        shard,
        skip: vec![],
        progressive: options.progressive,
        window: WINDOW,
        observer: options.observer,
    };
    run_batch(domain, &engine, jobs, batch)
}

/// The phases after the synthesis (and augmentation) of every job: deduplicate, prove again
/// the lost rules that count, select.
pub(super) fn finish<L: Learner>(
    learner: &L,
    options: LearnOptions<'_>,
    (mined, augmented): (String, Augmented),
    jobs: &[Job<<L::Domain as Domain>::State>],
    batch: BatchRun<<L::Domain as Domain>::State>,
    mut phases: Phases,
) -> Result<LearnRun<<L::Domain as Domain>::State>, PipelineError> {
    let domain = learner.domain();
    let bound = options.config.bound;
    let mut found = batch.rules();
    let first = phases.time("dedup", || learner.dedup(&found)).map_err(PipelineError::Domain)?;
    let (retry, learned) = phases
        .time("second proof", || -> Result<_, DomainError> {
            let retry =
                second_proof(learner, &first.rules, &batch, jobs, (bound, options.retry_rlimit, options.selection))?;
            // deduplicating the kept rules with the new ones is deduplicating
            // everything found: a group's best found rule is among the kept
            let learned = if retry.proven.is_empty() {
                first.rules
            } else {
                learner.dedup(&[first.rules, retry.proven.clone()].concat())?.rules
            };
            Ok((retry, learned))
        })
        .map_err(PipelineError::Domain)?;
    // the proven rules' keys differ from every found rule's and each other's
    let by_key = first.by_key + retry.proven.len();
    found.extend(retry.proven.iter().cloned());
    let picks = phases
        .time("select", || -> Result<Vec<Pick>, DomainError> {
            let mut objective = learner.objective(&learned)?;
            Ok(greedy(learned.len(), options.selection, |i| cost(&learned[i], domain.schema()), &mut objective)?)
        })
        .map_err(PipelineError::Domain)?;
    Ok(LearnRun { mined, batch, augmented, found, by_key, learned, retry, picks, phases })
}
