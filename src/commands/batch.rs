//! Running a batch of nonogram specifications from the command line: the
//! jobs (optionally one shard), the journal (new or resumed), a progress
//! bar on stderr (done/total, rules found, elapsed, ETA) and one line per
//! round; and writing learned rule files with their header.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use stratsynth::domains::nonogram::domain::{LineState, Nonogram};
use stratsynth::domains::nonogram::spec;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::print::print_rule;
use stratsynth::synth::batch::{Batch, Entry, Job};
use stratsynth::synth::journal::{fingerprint, Journal, RunKey};
use stratsynth::synth::{Engine, Spec};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

/// `(i, n)`: the specifications whose index is i mod n.
pub type Shard = (usize, usize);

/// Parses `i/n` with `i < n`.
pub fn parse_shard(text: &str) -> Result<Shard, String> {
    let bad = || format!("expected `i/n` with 0 <= i < n, found `{text}`");
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (usize, usize) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// The jobs of `specs` (indices in the whole list), only `shard`'s if given.
pub fn jobs(specs: Vec<Spec<LineState>>, shard: Option<Shard>) -> Vec<Job<LineState>> {
    specs
        .into_iter()
        .enumerate()
        .filter(|(index, _)| shard.is_none_or(|(i, n)| index % n == i))
        .map(|(index, spec)| Job { index, text: spec::show(&spec), spec })
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
pub struct BatchRun {
    /// Every job's entry, in job order.
    pub entries: Vec<Entry<LineState>>,
    /// Entries replayed from the journal.
    pub replayed: usize,
    /// Wall time of this process's rounds (replay excluded).
    pub time: Duration,
    /// Counterexample states in the pool at the end.
    pub pool: usize,
}

impl BatchRun {
    /// Specifications synthesised (not skipped).
    pub fn synthesised(&self) -> usize {
        self.entries.iter().filter(|e| matches!(e, Entry::Done { .. })).count()
    }

    /// The rules found, in job order.
    pub fn rules(&self) -> Vec<Rule> {
        self.entries.iter().flat_map(|e| e.rules().cloned()).collect()
    }

    /// Specifications, skipped ones, throughput and times, in words.
    pub fn summary(&self, journal: &Path) -> String {
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
            "{} specifications ({} synthesised, {} skipped), {} replayed from {}; this process: {here} in {:.1} s wall, {rate:.2} per minute; \
             synthesis times sum to {:.1} s (mean {mean:.1} s, max {:.1} s); pool {} states",
            self.entries.len(),
            self.synthesised(),
            self.entries.len() - self.synthesised(),
            self.replayed,
            journal.display(),
            self.time.as_secs_f64(),
            sum.as_secs_f64(),
            max.as_secs_f64(),
            self.pool
        )
    }
}

/// The journal's run key.
fn run_key(domain: &Nonogram, engine: &Engine<'_, Nonogram>, jobs: &[Job<LineState>], options: &BatchOptions<'_>) -> RunKey {
    let schema = domain.schema();
    let texts: Vec<String> = options.skip.iter().map(|r| print_rule(r, schema)).collect();
    RunKey {
        version: env!("CARGO_PKG_VERSION").to_string(),
        config: engine.config().clone(),
        specs: jobs.len(),
        shard: options.shard,
        skip: fingerprint(&texts),
        progressive: options.progressive,
    }
}

/// Runs `jobs` on `engine` (an engine for `domain`) in rounds, journaled.
pub fn run_batch(
    domain: &Nonogram,
    engine: &Engine<'_, Nonogram>,
    jobs: &[Job<LineState>],
    options: BatchOptions<'_>,
) -> Result<BatchRun, String> {
    let key = run_key(domain, engine, jobs, &options);
    let (mut journal, replayed, rounds) = if options.resume {
        let r = Journal::resume(options.journal, &key, domain, jobs).map_err(|e| e.to_string())?;
        (r.journal, r.entries, r.rounds)
    } else {
        (Journal::create(options.journal, &key).map_err(|e| e.to_string())?, vec![], 0)
    };
    let mut batch = Batch::new(domain, engine, jobs, options.skip, options.progressive);
    let replayed_count = replayed.len();
    batch.replay(replayed, rounds).map_err(|e| format!("{}: {e}", options.journal.display()))?;

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
        journal.append(domain, jobs, round, &entries).map_err(|e| e.to_string())?;
        say(format!(
            "round {round}: specifications #{first}-#{last}: {done} synthesised, {} skipped, {found} rules, {:.1} s; pool {} states",
            entries.len() - done,
            round_start.elapsed().as_secs_f64(),
            engine.pool_len()
        ));
    }
    bar.finish_and_clear();
    Ok(BatchRun { entries: batch.entries().to_vec(), replayed: replayed_count, time: started.elapsed(), pool: engine.pool_len() })
}

/// The journal of an output file: `OUT.journal`.
pub fn journal_path(output: &Path) -> PathBuf {
    let mut name = output.as_os_str().to_owned();
    name.push(".journal");
    PathBuf::from(name)
}

/// The command line as typed, program name `stratsynth`.
pub fn command_line() -> String {
    let mut args: Vec<String> = std::env::args().collect();
    if let Some(first) = args.first_mut() {
        *first = "stratsynth".to_string();
    }
    args.join(" ")
}

/// The versions of the tool and of Z3.
pub fn versions() -> String {
    format!("stratsynth {}, Z3 {}", env!("CARGO_PKG_VERSION"), z3::full_version())
}

/// Writes a rule file: `# ` header lines, a blank line, the rules.
pub fn write_rules_file(path: &Path, header: &[String], rules: &[Rule], domain: &Nonogram) -> Result<(), String> {
    let mut text: String = header.iter().map(|l| format!("# {l}\n")).collect();
    text.push('\n');
    text.push_str(&stratsynth::dsl::print::print_rules(rules, domain.schema()));
    super::write_output(path, &text)
}
