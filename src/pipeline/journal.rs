//! The journal of a [`Batch`](super::batch::Batch): what an interrupted
//! run needs to continue exactly where it stopped.
//!
//! One RON record per line. The first identifies the run ([`RunKey`]);
//! then, per round (a group of entries the batch committed together), one
//! record per specification in job order — `Done`
//! (index, specification text, each rule as printed with its cost and
//! bound, the counters, the wall time, the counterexample states it
//! found, as the domain shows them, and the rules it lost to Z3's limit) or `Skipped` (index, text, the rule
//! that makes it) — and a `Round(n)` marker. A round is written with one
//! write and flushed to disk, so an interruption loses at most the round
//! under way; records after the last marker (a round cut short, or a torn
//! last line) are dropped on resume and the file is truncated there.
//!
//! After the last round, a run may prove more rules (outside the rounds);
//! it appends one `Proof` record per verdict it reaches (the rule as
//! printed, the bound, the resource limit, the verdict, a check), flushed
//! as it goes, so a run interrupted there does not prove those rules again.
//!
//! Resuming checks that the journal was made by the same run (same key,
//! same specification at every index) and replays the entries with their
//! counterexamples in the original order.
//!
//! A run holds an exclusive OS lock on its journal from opening it to the
//! end, so a second run on the same journal is refused with a clear message
//! instead of writing its rounds into the same file.
//!
//! Every rule record carries a check (a fingerprint of its text, cost and
//! bound). A rule whose check does not match — the journal was edited or
//! damaged — is proven again by Z3 before it is replayed, at the run's
//! bound (its key's configuration); if it is not proven sound
//! the journal is refused, so an edit never puts an unproven rule into a
//! rule set that says every rule was proven. (The check detects edits and
//! damage, not a forger who recomputes it; `verify` re-checks any file.)

use super::batch::{Entry, Job};
use crate::dsl::parse::parse_rules;
use crate::dsl::print::print_rule;
use crate::synth::verify::{Verdict, Verifier};
use crate::synth::{Config, Domain, Learned, Outcome, Stats, Symbolic};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// What identifies a run: a journal is resumed only by the run that made it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RunKey {
    /// The tool's version.
    pub version: String,
    /// The engine's configuration (every knob, serialised with the key).
    pub config: Config,
    /// How many specifications the run has (after sharding).
    pub specs: usize,
    /// `(i, n)`: the run takes the specifications whose index is i mod n.
    pub shard: Option<(usize, usize)>,
    /// The rules that make a specification skippable: count and a
    /// fingerprint of their text.
    pub skip: String,
    /// Whether rules learned at earlier places also make specifications
    /// skippable.
    pub progressive: bool,
    /// The merge of this many shard runs' journals, not a synthesis.
    #[serde(default)]
    pub merged_shards: Option<usize>,
    /// How far a specification runs ahead ([`WINDOW`](super::batch::WINDOW));
    /// 0 in a journal of rounds with a barrier, which is not resumed.
    #[serde(default)]
    pub window: usize,
}

/// The fingerprint of rule texts in [`RunKey::skip`]: count and 64-bit
/// FNV-1a hash (stable across builds and platforms).
pub fn fingerprint(texts: &[String]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for text in texts {
        for &byte in text.as_bytes().iter().chain(&[0]) {
            hash ^= byte as u64;
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    }
    format!("{} rules, fnv {hash:016x}", texts.len())
}

#[derive(Serialize, Deserialize)]
enum Record {
    Run(RunKey),
    Done(DoneRecord),
    Skipped { index: usize, spec: String, by: String },
    Round(usize),
    Proof(ProofRecord),
}

/// What a proof was asked: a rule as printed, at a bound, with a
/// resource limit.
pub type ProofQuery = (String, u32, u32);

#[derive(Serialize, Deserialize)]
struct ProofRecord {
    text: String,
    bound: u32,
    rlimit: u32,
    /// An unsound verdict carries the counterexample as the domain shows it.
    verdict: Verdict<String>,
    /// [`proof_check`] of the fields above.
    check: String,
}

#[derive(Serialize, Deserialize)]
struct DoneRecord {
    index: usize,
    spec: String,
    rules: Vec<RuleRecord>,
    stats: Stats,
    time_us: u64,
    /// [`Outcome::work`] and [`Outcome::span`]; a record without them
    /// counts its wall time for both.
    #[serde(default)]
    work_us: Option<u64>,
    #[serde(default)]
    span_us: Option<u64>,
    counterexamples: Vec<String>,
    /// The rules lost to Z3's resource limit, as printed (unproven); a
    /// record without them lost none.
    #[serde(default)]
    lost: Vec<String>,
}

#[derive(Serialize, Deserialize)]
struct RuleRecord {
    text: String,
    cost: u32,
    bound: u32,
    /// [`rule_check`] of the fields above; a record without one does not
    /// match, so its rule is proven again before it is replayed.
    #[serde(default)]
    check: String,
}

/// The check of a rule record: the fingerprint of its text, cost and bound.
fn rule_check(text: &str, cost: u32, bound: u32) -> String {
    fingerprint(&[format!("cost {cost}, bound {bound}"), text.to_string()])
}

/// The check of a proof record: the fingerprint of its fields.
fn proof_check(text: &str, bound: u32, rlimit: u32, verdict: &Verdict<String>) -> String {
    fingerprint(&[format!("bound {bound}, rlimit {rlimit}, {verdict:?}"), text.to_string()])
}

/// A journal that cannot be written, read or resumed.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// Reading or writing failed.
    #[error("{path}: {source}")]
    Io {
        /// The journal.
        path: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The journal could not be read, or is not UTF-8 text.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// Another run holds the journal (its exclusive lock).
    #[error("{path} is in use by another run (it holds the journal's lock): wait for that run to finish or stop it, then resume")]
    Busy {
        /// The journal.
        path: String,
    },
    /// A new run would overwrite a journal.
    #[error("{path} exists: pass --resume to continue that run, or delete it to start again")]
    Exists {
        /// The journal.
        path: String,
    },
    /// A record that cannot be read.
    #[error("{path}:{line}:{column}: {message}")]
    Parse {
        /// The journal.
        path: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What is wrong.
        message: String,
    },
    /// The journal was made by another run.
    #[error("{path}:{line}:1: the journal was made by another run ({what}); delete it to start again")]
    OtherRun {
        /// The journal.
        path: String,
        /// 1-based line.
        line: usize,
        /// What differs.
        what: String,
    },
}

/// An open journal, appended to round by round.
pub struct Journal {
    path: PathBuf,
    file: File,
}

/// What [`Journal::resume`] read back.
pub struct Resumed<S> {
    /// The journal, truncated after its last whole round.
    pub journal: Journal,
    /// The finished entries, in job order.
    pub entries: Vec<Entry<S>>,
    /// Whole rounds read.
    pub rounds: usize,
    /// The proofs' verdicts read back (records whose check fails are left
    /// out: those rules are proven again).
    pub proofs: HashMap<ProofQuery, Verdict<String>>,
}

impl Journal {
    fn io(path: &Path) -> impl Fn(std::io::Error) -> JournalError + '_ {
        move |source| JournalError::Io { path: path.display().to_string(), source }
    }

    /// Opens the journal at `path` for appending (a new file if
    /// `create_new`, else created if missing) and takes its exclusive lock,
    /// so that a second run on the same journal is refused instead of
    /// interleaving its records; the lock goes with the file (at exit, even
    /// a killed one).
    fn open_locked(path: &Path, create_new: bool) -> Result<File, JournalError> {
        // a FIFO or device in its place would block or be destroyed
        crate::files::output_target(path)?;
        let mut options = OpenOptions::new();
        options.read(true).append(true);
        if create_new {
            options.create_new(true);
        } else {
            options.create(true);
        }
        let file = options.open(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::AlreadyExists {
                JournalError::Exists { path: path.display().to_string() }
            } else {
                Journal::io(path)(e)
            }
        })?;
        match file.try_lock() {
            Ok(()) => Ok(file),
            Err(std::fs::TryLockError::WouldBlock) => Err(JournalError::Busy { path: path.display().to_string() }),
            Err(std::fs::TryLockError::Error(e)) => Err(Journal::io(path)(e)),
        }
    }

    /// Starts a journal for the run `key` at `path`, which must not exist.
    pub fn create(path: &Path, key: &RunKey) -> Result<Journal, JournalError> {
        let file = Journal::open_locked(path, true)?;
        Journal::start(path, file, key)
    }

    /// Writes the run record to the empty, locked `file`.
    fn start(path: &Path, file: File, key: &RunKey) -> Result<Journal, JournalError> {
        let mut journal = Journal { path: path.to_path_buf(), file };
        journal.write(&format!("{}\n", record_line(&Record::Run(key.clone()))))?;
        Ok(journal)
    }

    /// Reopens the journal at `path` for the run `key` over `jobs`: reads
    /// its whole rounds back (states read with the domain's `parse_state`), drops what
    /// follows the last one, and continues there. A missing journal is a
    /// new one.
    pub fn resume<D: Symbolic>(
        path: &Path,
        key: &RunKey,
        domain: &D,
        jobs: &[Job<D::State>],
    ) -> Result<Resumed<D::State>, JournalError> {
        let file = Journal::open_locked(path, false)?;
        let text = crate::files::read_exact_text(path)?;
        let shown = path.display().to_string();
        let mut reader = Reader {
            path: &shown,
            domain,
            config: &key.config,
            jobs,
            entries: vec![],
            pending: vec![],
            rounds: 0,
            proofs: Default::default(),
        };
        let mut kept = 0;
        let mut offset = 0;
        for (i, raw) in text.split_inclusive('\n').enumerate() {
            offset += raw.len();
            let Some(line) = raw.strip_suffix('\n') else { break }; // torn last line
            let line = line.strip_suffix('\r').unwrap_or(line);
            if reader.line(i + 1, line, key)? {
                kept = offset;
            }
        }
        file.set_len(kept as u64).map_err(Journal::io(path))?;
        if kept == 0 {
            // missing, or not even the run record is whole: start again
            return Ok(Resumed {
                journal: Journal::start(path, file, key)?,
                entries: vec![],
                rounds: 0,
                proofs: Default::default(),
            });
        }
        Ok(Resumed {
            journal: Journal { path: path.to_path_buf(), file },
            entries: reader.entries,
            rounds: reader.rounds,
            proofs: reader.proofs,
        })
    }

    /// Appends round `round` (1-based): its entries (of `jobs`, in job
    /// order), then the marker; flushed to disk.
    pub fn append<D: Domain>(
        &mut self,
        domain: &D,
        jobs: &[Job<D::State>],
        round: usize,
        entries: &[Entry<D::State>],
    ) -> Result<(), JournalError> {
        let mut text = String::new();
        for entry in entries {
            let job = jobs.binary_search_by_key(&entry.index(), |j| j.index).map(|at| &jobs[at]);
            let spec = job.map_or(String::new(), |j| j.text.clone());
            text.push_str(&record_line(&to_record(domain, spec, entry)));
            text.push('\n');
        }
        text.push_str(&record_line(&Record::Round(round)));
        text.push('\n');
        self.write(&text)
    }

    /// Appends a proof's verdict on `query`; flushed to disk.
    pub fn append_proof(&mut self, query: &ProofQuery, verdict: Verdict<String>) -> Result<(), JournalError> {
        let (text, bound, rlimit) = (query.0.clone(), query.1, query.2);
        let check = proof_check(&text, bound, rlimit, &verdict);
        let record = Record::Proof(ProofRecord { text, bound, rlimit, verdict, check });
        self.write(&format!("{}\n", record_line(&record)))
    }

    fn write(&mut self, text: &str) -> Result<(), JournalError> {
        let io = Journal::io(&self.path);
        self.file.write_all(text.as_bytes()).map_err(&io)?;
        self.file.sync_data().map_err(&io)
    }
}

fn record_line(record: &Record) -> String {
    ron::to_string(record).expect("journal records serialise")
}

/// The record of an entry for the specification shown as `spec`.
fn to_record<D: Domain>(domain: &D, spec: String, entry: &Entry<D::State>) -> Record {
    match entry {
        Entry::Skipped { index, by } => Record::Skipped { index: *index, spec, by: by.clone() },
        Entry::Done { index, outcome } => Record::Done(DoneRecord {
            index: *index,
            spec,
            rules: outcome
                .rules
                .iter()
                .map(|l| {
                    let text = print_rule(&l.rule, domain.schema());
                    RuleRecord { check: rule_check(&text, l.cost, l.bound), text, cost: l.cost, bound: l.bound }
                })
                .collect(),
            stats: outcome.stats.clone(),
            time_us: outcome.time.as_micros() as u64,
            work_us: Some(outcome.work.as_micros() as u64),
            span_us: Some(outcome.span.as_micros() as u64),
            counterexamples: outcome.counterexamples.iter().map(|s| domain.show(s)).collect(),
            lost: outcome.lost.iter().map(|r| print_rule(r, domain.schema())).collect(),
        }),
    }
}

/// Reads a journal's lines in order.
struct Reader<'r, D: Symbolic> {
    path: &'r str,
    domain: &'r D,
    /// The run's configuration: the bound and time limit of proving again.
    config: &'r Config,
    jobs: &'r [Job<D::State>],
    entries: Vec<Entry<D::State>>,
    /// Entries of the round being read.
    pending: Vec<Entry<D::State>>,
    rounds: usize,
    proofs: HashMap<ProofQuery, Verdict<String>>,
}

impl<D: Symbolic> Reader<'_, D> {
    fn parse_error(&self, line: usize, column: usize, message: String) -> JournalError {
        JournalError::Parse { path: self.path.to_string(), line, column, message }
    }

    fn other_run(&self, line: usize, what: String) -> JournalError {
        JournalError::OtherRun { path: self.path.to_string(), line, what }
    }

    /// Reads line `n`; whether it ends a whole round (or is the run record).
    fn line(&mut self, n: usize, text: &str, key: &RunKey) -> Result<bool, JournalError> {
        let record: Record = ron::from_str(text)
            .map_err(|e| self.parse_error(n, e.position.col, format!("not a journal record: {}", e.code)))?;
        match (n, record) {
            (1, Record::Run(found)) if found == *key => Ok(true),
            (1, Record::Run(found)) => Err(self.other_run(n, differences(&found, key))),
            (1, _) => Err(self.parse_error(n, 1, "expected the run record `Run(...)` first".into())),
            (_, Record::Run(_)) => Err(self.parse_error(n, 1, "a second run record".into())),
            (_, Record::Round(r)) => {
                if r != self.rounds + 1 {
                    return Err(self.parse_error(n, 1, format!("round {r} follows round {}", self.rounds)));
                }
                self.rounds = r;
                self.entries.append(&mut self.pending);
                Ok(true)
            }
            (_, Record::Proof(_)) if !self.pending.is_empty() => {
                Err(self.parse_error(n, 1, "a proof record inside a round".into()))
            }
            (_, Record::Proof(p)) => {
                if p.check == proof_check(&p.text, p.bound, p.rlimit, &p.verdict) {
                    self.proofs.insert((p.text, p.bound, p.rlimit), p.verdict);
                }
                Ok(true)
            }
            (_, Record::Skipped { index, spec, by }) => {
                self.check_job(n, index, &spec)?;
                self.pending.push(Entry::Skipped { index, by });
                Ok(false)
            }
            (_, Record::Done(done)) => {
                self.check_job(n, done.index, &done.spec)?;
                let entry = self.done(n, done)?;
                self.pending.push(entry);
                Ok(false)
            }
        }
    }

    /// The record at line `n` must be the next job's (index and text).
    fn check_job(&self, n: usize, index: usize, spec: &str) -> Result<(), JournalError> {
        let at = self.entries.len() + self.pending.len();
        match self.jobs.get(at) {
            Some(job) if job.index == index && spec == job.text => Ok(()),
            Some(job) => Err(self.other_run(
                n,
                format!(
                    "its entry {} is specification #{} `{spec}`; this run's is #{} `{}`",
                    at + 1,
                    index + 1,
                    job.index + 1,
                    job.text
                ),
            )),
            None => Err(self.other_run(n, format!("it has more than this run's {} specifications", self.jobs.len()))),
        }
    }

    /// Proves a rule of line `n` whose record was changed: sound at the
    /// run's bound, within the run's resource limit, or an error.
    fn prove_again(&self, n: usize, rule: &crate::dsl::ast::Rule) -> Result<(), JournalError> {
        let bound = self.config.bound;
        match Verifier::deterministic(self.domain, bound, self.config.rlimit).check(rule) {
            Verdict::Sound => Ok(()),
            verdict => Err(self.parse_error(
                n,
                1,
                format!(
                    "rule `{}` was changed after Z3 proved it (its check does not match) and is not proven sound up to {bound} now ({}); \
                     restore the journal or delete it to start again",
                    rule.name,
                    verdict.word()
                ),
            )),
        }
    }

    fn done(&self, n: usize, done: DoneRecord) -> Result<Entry<D::State>, JournalError> {
        let schema = self.domain.schema();
        let read_back = |text: &str| -> Result<crate::dsl::ast::Rule, JournalError> {
            let mut parsed = parse_rules(text, "rule", schema).map_err(|e| {
                self.parse_error(n, 1, format!("a rule of specification #{} does not read back: {e}", done.index + 1))
            })?;
            if parsed.len() != 1 {
                return Err(self.parse_error(
                    n,
                    1,
                    format!("a rule of specification #{} is not one rule", done.index + 1),
                ));
            }
            Ok(parsed.remove(0))
        };
        let mut rules = vec![];
        for r in &done.rules {
            let rule = read_back(&r.text)?;
            if r.check != rule_check(&r.text, r.cost, r.bound) {
                self.prove_again(n, &rule)?;
            }
            rules.push(Learned { rule, cost: r.cost, bound: r.bound });
        }
        let counterexamples = done
            .counterexamples
            .iter()
            .map(|s| self.domain.parse_state(s).map_err(|e| self.parse_error(n, 1, format!("counterexample: {e}"))))
            .collect::<Result<_, _>>()?;
        let lost = done.lost.iter().map(|text| read_back(text)).collect::<Result<_, _>>()?;
        let micros = |us: Option<u64>| Duration::from_micros(us.unwrap_or(done.time_us));
        let outcome = Outcome {
            rules,
            stats: done.stats,
            time: Duration::from_micros(done.time_us),
            work: micros(done.work_us),
            span: micros(done.span_us),
            counterexamples,
            lost,
        };
        Ok(Entry::Done { index: done.index, outcome })
    }
}

/// The fields in which two run keys differ.
fn differences(found: &RunKey, key: &RunKey) -> String {
    let mut out = vec![];
    let mut field = |name: &str, a: String, b: String| {
        if a != b {
            out.push(format!("{name}: {a} there, {b} here"));
        }
    };
    field("version", found.version.clone(), key.version.clone());
    field(
        "engine configuration",
        ron::to_string(&found.config).unwrap_or_default(),
        ron::to_string(&key.config).unwrap_or_default(),
    );
    field("specifications", found.specs.to_string(), key.specs.to_string());
    field("shard", format!("{:?}", found.shard), format!("{:?}", key.shard));
    field("skip rules", found.skip.clone(), key.skip.clone());
    field("progressive skipping", found.progressive.to_string(), key.progressive.to_string());
    field("window", found.window.to_string(), key.window.to_string());
    field("merged shards", format!("{:?}", found.merged_shards), format!("{:?}", key.merged_shards));
    out.join("; ")
}
