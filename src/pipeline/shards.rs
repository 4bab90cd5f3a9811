//! A learning run split into independent shard jobs and their merge.
//!
//! [`learn_shard`] mines the specifications, keeps those whose index is
//! i mod n, and synthesises them as one journaled batch on an engine of
//! its own (its own counterexample pool). [`merge_shards`] reads the n
//! shards' finished journals back (each checked against the run it must
//! be, its rules checked as on any resume), joins their entries in
//! specification order, records them in the merge's own journal (whose run
//! key says it is a merge of n shards), then runs the pipeline's
//! augmentation, deduplication, second proof and selection on them as on
//! one batch. A journal's checks detect edits, not a forger who recomputes
//! them, so the merge proves every rule it keeps with Z3 at the run's bound
//! itself ([`prove_kept`]) and refuses the merge if one is not proven.

use super::augment::{augment, check_fresh};
use super::batch::{Entry, Job, WINDOW};
use super::driver::{finish, mine, synthesise, LearnRun, Phases};
use super::journal::{Journal, RunKey};
use super::learner::Learner;
use super::options::LearnOptions;
use super::rounds::{run_key, BatchOptions, BatchRun, PipelineError, Shard};
use crate::synth::verify::{Verdict, Verifier};
use crate::synth::{Domain, Symbolic};
use rayon::prelude::*;
use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Instant;

/// What [`learn_shard`] did.
pub struct ShardRun<S> {
    /// How the specifications were mined.
    pub mined: String,
    /// Specifications mined (all shards).
    pub total: usize,
    /// This shard's batch.
    pub batch: BatchRun<S>,
    /// Wall time per phase.
    pub phases: Phases,
}

/// The jobs of `shard` among `jobs` (every job of the run).
fn shard_jobs<S: Clone>(jobs: &[Job<S>], (i, n): Shard) -> Vec<Job<S>> {
    jobs.iter().filter(|job| job.index % n == i).cloned().collect()
}

/// Synthesises the specifications of `shard` only, journaled at the
/// options' journal.
pub fn learn_shard<L: Learner>(
    learner: &L,
    options: LearnOptions<'_>,
    shard: Shard,
) -> Result<ShardRun<<L::Domain as Domain>::State>, PipelineError> {
    let mut phases = Phases::default();
    let (mined, all) = mine(learner, &options, &mut phases)?;
    let jobs = shard_jobs(&all, shard);
    let batch = phases.time("synthesis", || synthesise(learner, &options, &jobs, Some(shard)))?;
    Ok(ShardRun { mined, total: all.len(), batch, phases })
}

/// Merges the shard runs whose journals are `journals` (shard i's at
/// place i; each finished) and finishes the pipeline on their entries; the
/// merge is journaled at the options' journal.
pub fn merge_shards<L: Learner>(
    learner: &L,
    options: LearnOptions<'_>,
    journals: &[PathBuf],
) -> Result<LearnRun<<L::Domain as Domain>::State>, PipelineError> {
    let mut phases = Phases::default();
    check_fresh(&options)?;
    let (mined, mut jobs) = mine(learner, &options, &mut phases)?;
    let mut batch = phases.time("merge", || merged_batch(learner.domain(), &options, &jobs, journals))?;
    let augmented = phases.time("augmentation", || augment(learner, &options, &mut jobs, &mut batch))?;
    let (n, bound, rlimits) = (journals.len(), options.config.bound, (options.config.rlimit, options.retry_rlimit));
    let mut run = finish(learner, options, (mined, augmented), &jobs, batch, phases)?;
    let mut phases = std::mem::take(&mut run.phases);
    phases.time("merge proof", || prove_kept(learner.domain(), &run, journals, (n, bound, rlimits)))?;
    run.phases = phases;
    Ok(run)
}

/// Proves every rule `run` keeps (`run.learned`: the rule files hold
/// these) sound up to `bound` with Z3, at the search's resource limit and,
/// where that runs out, again at the second proof's (split at once); a rule
/// not proven sound refuses the merge, naming the shard journal it came
/// from (its specification's index mod `n`).
fn prove_kept<D: Symbolic>(
    domain: &D,
    run: &LearnRun<D::State>,
    journals: &[PathBuf],
    (n, bound, (rlimit, retry_rlimit)): (usize, u32, (u32, u32)),
) -> Result<(), PipelineError> {
    let verdicts: Vec<Verdict<String>> = run
        .learned
        .par_iter()
        .map(|rule| {
            let verdict = Verifier::deterministic(domain, bound, rlimit).check(rule);
            let verdict = match verdict {
                Verdict::Unknown(_) if retry_rlimit > 0 => {
                    Verifier::deterministic(domain, bound, retry_rlimit).split_after(0).check(rule)
                }
                verdict => verdict,
            };
            verdict.map(|ce| domain.show(&ce.state))
        })
        .collect();
    let Some((rule, verdict)) = run.learned.iter().zip(&verdicts).find(|(_, v)| !v.is_sound()) else {
        return Ok(());
    };
    let origin = run.batch.entries.iter().find(|e| e.rules().any(|r| r == rule)).map(|e| e.index() % n);
    let path = match origin.and_then(|i| journals.get(i)) {
        Some(journal) => journal.display().to_string(),
        None => "merge".to_string(),
    };
    let found = match verdict {
        Verdict::Unsound(state) => format!("UNSOUND on {state}"),
        verdict => format!("not proven ({})", verdict.word()),
    };
    Err(PipelineError::Shard {
        path,
        message: format!(
            "rule `{}` is {found} up to {bound}: the merge proves every rule it writes with Z3 and wrote none \
             (was the journal changed after its run? run the shard again)",
            rule.name
        ),
    })
}

/// The batch options of a shard or merge of the run `options`.
fn batch_options<'a>(
    options: &LearnOptions<'a>,
    journal: &'a std::path::Path,
    shard: Option<Shard>,
) -> BatchOptions<'a> {
    BatchOptions {
        journal,
        resume: true,
        shard,
        skip: vec![],
        progressive: options.progressive,
        window: WINDOW,
        observer: options.observer,
    }
}

/// The shards' entries joined into one batch over `jobs`, recorded in the
/// merge's journal (or read back from it when resuming a merge).
fn merged_batch<D: Symbolic>(
    domain: &D,
    options: &LearnOptions<'_>,
    jobs: &[Job<D::State>],
    journals: &[PathBuf],
) -> Result<BatchRun<D::State>, PipelineError> {
    let started = Instant::now();
    let key = RunKey {
        merged_shards: Some(journals.len()),
        ..run_key(domain, &options.config, jobs, &batch_options(options, options.journal, None))
    };
    // a merge's journal holds every entry in its one round, or none; a new
    // one is created only once every shard has been read
    let resumed = if options.resume { Some(Journal::resume(options.journal, &key, domain, jobs)?) } else { None };
    let (journal, entries, proofs) = match resumed {
        Some(r) if !r.entries.is_empty() => (r.journal, r.entries, r.proofs),
        resumed => {
            let mut entries = vec![];
            for (i, path) in journals.iter().enumerate() {
                entries.extend(read_shard(domain, options, jobs, (i, journals.len()), path)?);
            }
            entries.sort_by_key(Entry::index);
            let (mut journal, proofs) = match resumed {
                Some(r) => (r.journal, r.proofs),
                None => (Journal::create(options.journal, &key)?, HashMap::new()),
            };
            journal.append(domain, jobs, 1, &entries)?;
            (journal, entries, proofs)
        }
    };
    let mut pool = HashSet::new();
    for entry in &entries {
        if let Entry::Done { outcome, .. } = entry {
            pool.extend(outcome.counterexamples.iter().map(|s| domain.show(s)));
        }
    }
    Ok(BatchRun {
        // each shard ran in the window
        segments: vec![(entries.len(), WINDOW)],
        replayed: entries.len(),
        entries,
        time: started.elapsed(),
        pool: pool.len(),
        journal: Mutex::new(journal),
        proofs,
    })
}

/// The entries of the finished journal of `shard` at `path`.
fn read_shard<D: Symbolic>(
    domain: &D,
    options: &LearnOptions<'_>,
    all: &[Job<D::State>],
    shard: Shard,
    path: &std::path::Path,
) -> Result<Vec<Entry<D::State>>, PipelineError> {
    let (i, n) = shard;
    let shown = path.display().to_string();
    if !path.is_file() {
        return Err(PipelineError::Shard {
            path: shown,
            message: format!("missing: shard {i} of {n} has not run (run it with --shards {n} --shard {i})"),
        });
    }
    let jobs = shard_jobs(all, shard);
    let key = run_key(domain, &options.config, &jobs, &batch_options(options, path, Some(shard)));
    let entries = Journal::resume(path, &key, domain, &jobs)?.entries;
    if entries.len() != jobs.len() {
        return Err(PipelineError::Shard {
            path: shown,
            message: format!(
                "shard {i} of {n} is not finished: {} of its {} specifications done (resume it with --shards {n} --shard {i} --resume)",
                entries.len(),
                jobs.len()
            ),
        });
    }
    Ok(entries)
}
