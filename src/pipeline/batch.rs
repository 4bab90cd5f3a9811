//! Many specifications synthesised in a deterministic sliding window.
//!
//! What a finished specification changes for later ones: its
//! counterexamples join the engine's pool, which seeds every later search,
//! and (when `progressive`) its rules join the skip rules. So that the
//! result depends only on the input, never on the number of threads or on
//! timing, the specification at place p of the batch sees exactly the
//! pool published by the places before p - [`WINDOW`] (a constant, not
//! the thread count; [`Engine::synthesize_seeing`]), and results are
//! committed strictly in job order: publish its counterexamples, add its
//! rules to the skip rules. Up to [`WINDOW`] specifications past the first
//! unfinished one run at once on every thread (rayon, oldest first), so a
//! slow specification delays nothing until the window has moved past it.
//! A specification that a skip rule makes — rules given up front and,
//! when `progressive`, those of every earlier place — is skipped: decided
//! at its commit, against the rules committed by then (one already made
//! when the window reaches it is not run; an outcome found made at its
//! commit is discarded).
//!
//! A batch can start from finished entries (a journal's) instead of
//! running them again: [`Batch::replay`] republishes their counterexamples
//! in the original order, so the pool is exactly what an uninterrupted run
//! would have.
//!
//! Rules are named `spec<N>_<k>` (N the 1-based place of the specification
//! in the whole input, k the rule's rank in its outcome) and carry their
//! [`Meta`] comment.

use crate::dsl::ast::Rule;
use crate::synth::meta::Meta;
use crate::synth::{makes, Engine, Learned, Outcome, Spec, Stats, Symbolic};
use std::collections::BTreeMap;
use std::sync::Mutex;

/// How far a specification runs ahead of the first unfinished one: the
/// one at place p sees the pool of the places before p - `WINDOW`.
pub const WINDOW: usize = 96;

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
// nearly every entry is `Done`: boxing the outcome would only add an
// allocation per entry
#[allow(clippy::large_enum_variant)]
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
    /// How far a specification runs ahead of the first unfinished one
    /// ([`WINDOW`], or 0: one at a time).
    window: usize,
    /// The pool's size before the batch, then after each entry.
    pool_sizes: Vec<usize>,
    /// Groups of entries committed (replayed ones included).
    commits: usize,
}

impl<'a, 'd, D: Symbolic> Batch<'a, 'd, D> {
    /// A batch of `jobs` (in order) on `engine`, an engine for `domain`;
    /// specifications some rule of `skip` makes are skipped, and with
    /// `progressive` so are those a rule learned at an earlier place makes;
    /// a specification runs at most `window` places ahead of the first
    /// unfinished one.
    pub fn new(
        domain: &'d D,
        engine: &'a Engine<'d, D>,
        jobs: &'a [Job<D::State>],
        (skip, progressive): (Vec<Rule>, bool),
        window: usize,
    ) -> Batch<'a, 'd, D> {
        Batch {
            domain,
            engine,
            jobs,
            entries: vec![],
            skip,
            progressive,
            window,
            pool_sizes: vec![engine.pool_len()],
            commits: 0,
        }
    }

    /// Takes finished entries (the first jobs, in order, committed in
    /// `commits` groups) as if this batch had run them: their
    /// counterexamples are published in order.
    pub fn replay(&mut self, entries: Vec<Entry<D::State>>, commits: usize) -> Result<(), ReplayMismatch> {
        for entry in entries {
            let position = self.entries.len();
            let expected = self.jobs.get(position).map_or(usize::MAX, |j| j.index);
            if entry.index() != expected {
                return Err(ReplayMismatch { position, expected, found: entry.index() });
            }
            self.finish(entry);
        }
        self.commits += commits;
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
        self.pool_sizes.push(self.engine.pool_len());
    }

    /// The finished entries, in job order.
    pub fn entries(&self) -> &[Entry<D::State>] {
        &self.entries
    }

    /// Groups of entries committed (replayed ones included).
    pub fn commits(&self) -> usize {
        self.commits
    }

    /// The name of the first skip rule that makes job `place`'s
    /// specification, given the entries committed so far.
    fn made_by(&self, place: usize) -> Option<String> {
        self.skip.iter().find(|r| makes(self.domain, r, &self.jobs[place].spec)).map(|r| r.name.clone())
    }

    /// How many pool states job `place` sees (see the module doc).
    fn seen(&self, place: usize) -> usize {
        self.pool_sizes[place.saturating_sub(self.window)]
    }

    /// Commits the finished outcomes that continue the entries (taken out
    /// of `finished`; `None`: not run, already made when launched) and
    /// returns the new entries' places.
    fn commit_ready(&mut self, finished: &mut BTreeMap<usize, Option<Outcome<D::State>>>) -> std::ops::Range<usize> {
        let first = self.entries.len();
        while let Some(outcome) = finished.remove(&self.entries.len()) {
            let job = &self.jobs[self.entries.len()];
            let entry = match (self.made_by(self.entries.len()), outcome) {
                (Some(by), _) => Entry::Skipped { index: job.index, by },
                (None, Some(outcome)) => Entry::Done { index: job.index, outcome },
                (None, None) => {
                    unreachable!("a job made when launched is made at its commit: the skip rules only grow")
                }
            };
            self.finish(entry);
        }
        first..self.entries.len()
    }

    /// Runs every unfinished job in the window (see the module doc),
    /// calling `commit` with each group of entries committed together, in
    /// job order, and stopping at its first error.
    pub fn run<E: Send>(&mut self, commit: impl FnMut(&[Entry<D::State>]) -> Result<(), E> + Send) -> Result<(), E> {
        let engine = self.engine;
        let jobs = self.jobs;
        let window = Mutex::new(Window { batch: self, finished: BTreeMap::new(), launched: 0, commit, error: None });
        rayon::scope_fifo(|scope| {
            let launch = window.lock().expect("window").advance();
            for (place, seen) in launch {
                spawn(scope, &window, (engine, jobs), place, seen);
            }
        });
        let window = window.into_inner().expect("window");
        window.error.map_or(Ok(()), Err)
    }
}

/// The batch's state while [`Batch::run`] runs it.
struct Window<'w, 'a, 'd, D: Symbolic, C, E> {
    batch: &'w mut Batch<'a, 'd, D>,
    /// Outcomes not committed yet, by place.
    finished: BTreeMap<usize, Option<Outcome<D::State>>>,
    /// Places launched so far (a prefix of the unfinished jobs, from the first).
    launched: usize,
    commit: C,
    error: Option<E>,
}

impl<D: Symbolic, C: FnMut(&[Entry<D::State>]) -> Result<(), E>, E> Window<'_, '_, '_, D, C, E> {
    /// The places now in the window and not launched, each with the pool
    /// states it sees; those already made are marked finished instead.
    fn launch(&mut self) -> Vec<(usize, usize)> {
        let batch = &mut *self.batch;
        self.launched = self.launched.max(batch.entries.len());
        let end = (batch.entries.len() + batch.window + 1).min(batch.jobs.len());
        let mut out = vec![];
        if self.error.is_some() {
            return out;
        }
        while self.launched < end {
            let place = self.launched;
            if batch.made_by(place).is_some() {
                self.finished.insert(place, None);
            } else {
                out.push((place, batch.seen(place)));
            }
            self.launched += 1;
        }
        out
    }

    /// Takes job `place`'s outcome and [`advance`](Self::advance)s.
    fn take(&mut self, place: usize, outcome: Option<Outcome<D::State>>) -> Vec<(usize, usize)> {
        self.finished.insert(place, outcome);
        self.advance()
    }

    /// Commits what is ready and returns the places to launch next.
    fn advance(&mut self) -> Vec<(usize, usize)> {
        let mut out = vec![];
        loop {
            let committed = self.batch.commit_ready(&mut self.finished);
            if !committed.is_empty() && self.error.is_none() {
                self.batch.commits += 1;
                if let Err(e) = (self.commit)(&self.batch.entries[committed]) {
                    self.error = Some(e);
                }
            }
            out.extend(self.launch());
            // places found made when launched may be ready to commit
            if !self.finished.contains_key(&self.batch.entries.len()) {
                return out;
            }
        }
    }
}

/// Runs job `place` seeing `seen` pool states, then hands its outcome to
/// the window and launches what that lets in.
fn spawn<'s, D: Symbolic, C: FnMut(&[Entry<D::State>]) -> Result<(), E> + Send, E: Send>(
    scope: &rayon::ScopeFifo<'s>,
    window: &'s Mutex<Window<'_, '_, '_, D, C, E>>,
    (engine, jobs): (&'s Engine<'_, D>, &'s [Job<D::State>]),
    place: usize,
    seen: usize,
) {
    scope.spawn_fifo(move |scope| {
        let job = &jobs[place];
        let mut outcome = engine.synthesize_seeing(&job.spec, seen);
        label(job.index, &job.text, &mut outcome);
        let launch = window.lock().expect("window").take(place, Some(outcome));
        for (place, seen) in launch {
            spawn(scope, window, (engine, jobs), place, seen);
        }
    });
}
