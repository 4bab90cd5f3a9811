//! `learn nonogram`: the whole pipeline in one run — mine a seeded sample
//! of small line states, synthesise rules for their specifications (a
//! journaled batch; with `--skip-made`, a specification that a rule
//! of an earlier specification already makes is passed over), deduplicate, choose
//! the top K by coverage on the test traces, and report that set against
//! all learned rules and the control rules.

use super::learn_args::{chosen_by, selection, ProofArgs};
use super::progress::Progress;
use super::synth::bound_line;
use super::{check_output, command_line, make_out_dir, write_rules_file, CmdResult};
use super::{percent, selection_table, versions};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use stratsynth::domains::nonogram::formats::lines::read_test_set;
use stratsynth::domains::nonogram::learn::learner::{NonogramLearner, TRAIN_LEN};
use stratsynth::domains::nonogram::learn::report::{report, LearnReport, SetCoverage};
use stratsynth::domains::nonogram::line::state::LineState;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::cost::cost;
use stratsynth::dsl::print::print_rule;
use stratsynth::dsl::schema::Schema;
use stratsynth::files::bundled;
use stratsynth::pipeline::augment::augment_journal;
use stratsynth::pipeline::shards::{learn_shard, merge_shards, ShardRun};
use stratsynth::pipeline::{dedup_by_key, learn as run_pipeline, LearnOptions, LearnRun, Shard};
use stratsynth::rule_files::read_nonogram_rules;
use stratsynth::select::{Pick, Selection};
use stratsynth::synth::Config;
use stratsynth::usage::Usage;

/// Options of `learn nonogram`.
#[derive(clap::Args, Debug)]
pub struct NonogramArgs {
    /// Directory of the outputs (`learned.rules`, `topK.rules`, the journal
    /// `learned.journal`); created, with its parents, if it does not exist.
    #[arg(long, default_value = "rules/nonogram")]
    pub out_dir: PathBuf,
    /// Productive training states sampled: a number, or `all` (every one).
    #[arg(long, default_value = "295", value_parser = parse_sample)]
    pub sample: usize,
    /// Longest training line mined, in cells.
    #[arg(long, default_value_t = TRAIN_LEN, value_parser = clap::builder::TypedValueParser::map(clap::value_parser!(u16).range(1..=10), usize::from))]
    pub max_len: usize,
    /// Seed of the sample.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Continue the run recorded in the journal.
    #[arg(long)]
    pub resume: bool,
    /// Skip specifications a rule learned at an earlier place already
    /// makes (faster, but loses rules: by default every one is synthesised).
    #[arg(long)]
    pub skip_made: bool,
    /// After the sample, synthesise at most this many specifications of
    /// every mined line that no learned rule makes beyond its small state
    /// (0: none; journal `learned.augment.journal`).
    #[arg(long, default_value_t = 16)]
    pub augment: usize,
    /// Keep only the greedy lattice climb's maximal node per element set
    /// (by default every maximally general node is kept).
    #[arg(long)]
    pub climb: bool,
    /// The `.lines` test set rules are deduplicated, selected and measured on.
    #[arg(long, default_value = "specs/nonogram/traces.lines")]
    pub tests: PathBuf,
    /// The control rules compared with.
    #[arg(long, default_value = "rules/nonogram/control.rules")]
    pub control: PathBuf,
    /// How many rules to select.
    #[arg(short = 'k', default_value_t = 10)]
    pub k: usize,
    /// Select the top K by cells covered per unit of rule cost, their mean
    /// cost at most this at every rank (what a player pays to learn them;
    /// the documented strategies' mean cost is 15.5); 0: by cells alone,
    /// cost breaking ties (the paper's selection).
    #[arg(long, default_value_t = 17)]
    pub max_mean_cost: u32,
    /// The proofs' resource limits and the worker threads.
    #[command(flatten)]
    pub proof: ProofArgs,
    /// Split the synthesis into N shard jobs: with `--shard i`, synthesise
    /// shard i only (`shard-i-of-N.rules` and `.journal` in the out-dir);
    /// with `--merge`, merge the N finished shards and finish the pipeline.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    pub shards: Option<u32>,
    /// The shard to synthesise (0 <= i < N; needs `--shards N`).
    #[arg(long, value_name = "i", requires = "shards", conflicts_with = "merge")]
    pub shard: Option<u32>,
    /// Merge the `--shards N` finished shards in the out-dir.
    #[arg(long, requires = "shards")]
    pub merge: bool,
}

/// The options as the rule files' `# options:` line writes them.
impl Serialize for NonogramArgs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut out = serializer.serialize_struct("NonogramArgs", 18)?;
        out.serialize_field("out_dir", &self.out_dir)?;
        out.serialize_field("sample", &self.sample)?;
        out.serialize_field("max_len", &self.max_len)?;
        out.serialize_field("seed", &self.seed)?;
        out.serialize_field("resume", &self.resume)?;
        out.serialize_field("skip_made", &self.skip_made)?;
        out.serialize_field("augment", &self.augment)?;
        out.serialize_field("climb", &self.climb)?;
        out.serialize_field("tests", &self.tests)?;
        out.serialize_field("control", &self.control)?;
        out.serialize_field("k", &self.k)?;
        out.serialize_field("max_mean_cost", &self.max_mean_cost)?;
        self.proof.serialize_fields(&mut out)?;
        out.serialize_field("shards", &self.shards)?;
        out.serialize_field("shard", &self.shard)?;
        out.serialize_field("merge", &self.merge)?;
        out.end()
    }
}

/// What a `learn nonogram` run does: everything, one shard's synthesis,
/// or the merge of the shards.
enum Mode {
    Whole,
    Shard(Shard),
    Merge(usize),
}

impl NonogramArgs {
    fn mode(&self) -> Result<Mode, String> {
        match (self.shards.map(|n| n as usize), self.shard.map(|i| i as usize), self.merge) {
            (None, _, _) => Ok(Mode::Whole),
            (Some(n), Some(i), false) if i < n => Ok(Mode::Shard((i, n))),
            (Some(n), Some(i), false) => Err(format!("--shard {i}: expected a shard of 0 to {} (--shards {n})", n - 1)),
            (Some(n), None, true) => Ok(Mode::Merge(n)),
            (Some(_), _, _) => Err("--shards N: give --shard i (synthesise one shard) or --merge (merge them)".into()),
        }
    }
}

/// The rule file of shard i of n in `out_dir`.
fn shard_rules(out_dir: &Path, (i, n): Shard) -> PathBuf {
    out_dir.join(format!("shard-{i}-of-{n}.rules"))
}

/// The journal of shard i of n in `out_dir`.
fn shard_journal(out_dir: &Path, (i, n): Shard) -> PathBuf {
    out_dir.join(format!("shard-{i}-of-{n}.journal"))
}

/// A `--sample` value: a positive number of states, or `all` (every
/// productive state: the largest count).
fn parse_sample(s: &str) -> Result<usize, String> {
    if s == "all" {
        return Ok(usize::MAX);
    }
    s.parse().ok().filter(|n| *n > 0).ok_or_else(|| format!("`{s}`: expected a positive number of states, or `all`"))
}

/// `learn nonogram [--out-dir D] [--sample N --seed S] [--shards N (--shard i | --merge)] ...`.
pub fn learn(args: &NonogramArgs) -> CmdResult {
    if args.k == 0 {
        return Err("-k must be at least 1".into());
    }
    let mode = args.mode()?;
    let started = Instant::now();
    let domain = Nonogram::new();
    // read the inputs of the later phases first: a bad file must not cost a synthesis run
    let tests_path = bundled(&args.tests)?;
    let tests =
        read_test_set(&tests_path, domain.schema().file.limits.max_state as usize).map_err(|e| e.to_string())?;
    let (_, control) = read_nonogram_rules(&bundled(&args.control)?)?;
    make_out_dir(&args.out_dir)?;
    let outputs = match mode {
        Mode::Shard(shard) => vec![shard_rules(&args.out_dir, shard)],
        Mode::Whole | Mode::Merge(_) => {
            vec![args.out_dir.join("learned.rules"), args.out_dir.join(format!("top{}.rules", args.k))]
        }
    };
    for output in outputs {
        check_output(&output, &[&args.tests, &args.control])?;
    }
    let config = Config::builder(domain.schema())
        .rlimit(args.proof.rlimit)
        .explore(!args.climb)
        .build()
        .map_err(|e| format!("--rlimit: {e}"))?;
    let bound = config.bound;
    let learner = NonogramLearner::new(&domain, &tests, args.max_len, args.sample, args.seed);
    let progress = Progress::default();
    let journal = match mode {
        Mode::Shard(shard) => shard_journal(&args.out_dir, shard),
        Mode::Whole | Mode::Merge(_) => args.out_dir.join("learned.journal"),
    };
    let options = LearnOptions {
        config,
        journal: &journal,
        resume: args.resume,
        progressive: args.skip_made,
        augment: args.augment,
        selection: selection(args.k, args.max_mean_cost),
        retry_rlimit: args.proof.retry_rlimit,
        observer: &progress,
    };
    let (run, merged) = match mode {
        Mode::Shard(shard) => {
            let run = learn_shard(&learner, options, shard).map_err(|e| e.to_string())?;
            return write_shard(args, &domain, &run, (shard, bound), &journal, started);
        }
        Mode::Whole => (run_pipeline(&learner, options), None),
        Mode::Merge(n) => {
            // the first missing shard, found without listing the n journals
            // (n may be huge): the list is made only once all n exist
            if let Some(i) = (0..n).find(|&i| !shard_journal(&args.out_dir, (i, n)).is_file()) {
                return Err(format!(
                    "{}: missing: shard {i} of {n} has not run (run it with --shards {n} --shard {i})",
                    shard_journal(&args.out_dir, (i, n)).display()
                ));
            }
            let journals: Vec<PathBuf> = (0..n).map(|i| shard_journal(&args.out_dir, (i, n))).collect();
            let shown: Vec<String> = journals.iter().map(|p| p.display().to_string()).collect();
            (merge_shards(&learner, options, &journals), Some(format!("merged from {n} shards: {}", shown.join(", "))))
        }
    };
    let run = run.map_err(|e| e.to_string())?;
    let learned = Learned { args, learner: &learner, control: &control, journal: &journal, bound, merged, started };
    learned.write(run)
}

/// A finished run's outputs: its options, inputs and journal.
struct Learned<'a> {
    args: &'a NonogramArgs,
    learner: &'a NonogramLearner<'a>,
    control: &'a [Rule],
    journal: &'a Path,
    bound: u32,
    /// Where the synthesis came from, for a merge of shards.
    merged: Option<String>,
    started: Instant,
}

impl Learned<'_> {
    /// Reports `run` against the control rules, writes the learned and
    /// top-K rule files and prints the report.
    fn write(&self, run: LearnRun<LineState>) -> CmdResult {
        let (args, domain, bound) = (self.args, self.learner.domain, self.bound);
        let tests = self.learner.tests;
        let mut phases = run.phases.clone();
        let report = phases
            .time("report", || report(self.learner, &run.learned, &run.picks, self.control))
            .map_err(|e| format!("{}: {e}", args.tests.display()))?;
        eprintln!(
            "{} rules found, {} distinct up to egg's rewrites, {} distinct in behaviour",
            run.found.len(),
            run.by_key,
            report.named.len()
        );
        let times = format!(
            "{phases} (synthesis includes the engine table; total in this process {:.1} s)",
            self.started.elapsed().as_secs_f64()
        );
        let skipping =
            if args.skip_made { "; skipped: made by a rule learned at an earlier place" } else { ", no skipping" };
        let synthesis =
            format!("synthesis: {}{skipping}; {} rules found", run.batch.summary(self.journal), run.found.len());
        let augmented = run.augmented.summary(&augment_journal(self.journal));
        let mut header = vec![
            command_line(),
            format!("options: {}", ron::to_string(args).map_err(|e| e.to_string())?),
            versions(),
            bound_line(bound),
            run.mined.clone(),
        ];
        header.extend(self.merged.clone());
        header.extend([
            augmented.clone(),
            synthesis.clone(),
            format!("second proof: {}", run.retry.summary()),
            format!(
                "{} after removing rules equal up to egg's rewrites, {} after removing rules that cover the same cells alone on {} \
                 (the cheapest kept; rules covering none are kept)",
                run.by_key,
                report.named.len(),
                args.tests.display()
            ),
        ]);
        let learned_path = args.out_dir.join("learned.rules");
        write_rules_file(&learned_path, &header, &report.named, domain.schema())?;
        let top_header = top_header(
            &report,
            &run.picks,
            domain.schema(),
            bound,
            &learned_path,
            tests.len(),
            (&args.tests, selection(args.k, args.max_mean_cost)),
        );
        let top: Vec<Rule> = run.picks.iter().map(|p| report.named[p.index].clone()).collect();
        let top_path = args.out_dir.join(format!("top{}.rules", args.k));
        write_rules_file(&top_path, &top_header, &top, domain.schema())?;

        for line in &top_header[3..] {
            println!("{line}");
        }
        println!();
        for rule in &top {
            println!("{}", print_rule(rule, domain.schema()));
        }
        println!(
            "coverage on the {} transitions of {} (both orientations, with the decomposition oracle):",
            tests.len(),
            args.tests.display()
        );
        for row in coverage_table(&report, args.k) {
            println!("{row}");
        }
        println!("{augmented}");
        println!("{synthesis}");
        println!("synthesis {}", run.batch.times());
        println!("schedule: {}", run.batch.parallelism());
        println!("second proof: {}", run.retry.summary());
        println!("{times}");
        println!(
            "wrote {} ({} rules) and {} ({} rules)",
            learned_path.display(),
            report.named.len(),
            top_path.display(),
            top.len()
        );
        println!("this run: {}", Usage::since(self.started));
        Ok(ExitCode::SUCCESS)
    }
}

/// Writes shard `shard`'s rules (every rule it found, deduplicated by
/// normal-form key; its journal keeps the rest for the merge).
fn write_shard(
    args: &NonogramArgs,
    domain: &Nonogram,
    run: &ShardRun<LineState>,
    (shard, bound): (Shard, u32),
    journal: &Path,
    started: Instant,
) -> CmdResult {
    let (i, n) = shard;
    let found = run.batch.rules();
    let kept = dedup_by_key(domain, &found);
    let header = vec![
        command_line(),
        format!("options: {}", ron::to_string(args).map_err(|e| e.to_string())?),
        versions(),
        bound_line(bound),
        run.mined.clone(),
        format!(
            "shard {i} of {n}: {} of the {} specifications (those whose index is {i} mod {n})",
            run.batch.entries.len(),
            run.total
        ),
        format!(
            "synthesis: {}; {} rules found, {} after removing rules equal up to egg's rewrites",
            run.batch.summary(journal),
            found.len(),
            kept.len()
        ),
    ];
    let path = shard_rules(&args.out_dir, shard);
    write_rules_file(&path, &header, &kept, domain.schema())?;
    println!("synthesis {}", run.batch.times());
    println!("schedule: {}", run.batch.parallelism());
    println!("{} (total in this process {:.1} s)", run.phases, started.elapsed().as_secs_f64());
    println!("wrote {} ({} rules) and {}", path.display(), kept.len(), journal.display());
    println!("this run: {}", Usage::since(started));
    Ok(ExitCode::SUCCESS)
}

/// The header of the top-K file: how the rules were chosen, then the
/// selection's table (the lines after the third are also printed).
fn top_header(
    report: &LearnReport,
    picks: &[Pick],
    schema: &Schema,
    bound: u32,
    learned_path: &Path,
    transitions: usize,
    (tests_path, selection): (&Path, Selection),
) -> Vec<String> {
    let (top, max) = (report.top.cells, report.max_cells);
    let mut header = vec![
        command_line(),
        versions(),
        bound_line(bound),
        format!(
            "the top {} of the {} rules of {} chosen {} (both orientations, with the decomposition oracle) on the {} transitions of {}: \
             {top} of {max} cells ({:.1}%)",
            report.top.rules,
            report.named.len(),
            learned_path.display(),
            chosen_by(selection, "coverage"),
            transitions,
            tests_path.display(),
            percent(top, max)
        ),
    ];
    header.extend(selection_table(picks, &report.named, |i| cost(&report.named[i], schema), max, 16));
    header
}

/// The coverage of the selection, every learned rule, the control rules,
/// both together and the exact solver, a row each.
fn coverage_table(report: &LearnReport, k: usize) -> Vec<String> {
    let max = report.max_cells;
    let row = |name: String, set: SetCoverage| {
        format!("{:<26} {:>6} {:>8} {:>6.1}%", name, set.rules, set.cells, percent(set.cells, max))
    };
    vec![
        format!("{:<26} {:>6} {:>8} {:>7}", "rule set", "rules", "cells", "%"),
        row(format!("learned top {k}"), report.top),
        row("all learned".into(), report.learned),
        row("control".into(), report.control),
        row("control and all learned".into(), report.union),
        format!("{:<26} {:>6} {:>8} {:>6.1}%", "maximum (exact solver)", "-", max, 100.0),
    ]
}

#[cfg(test)]
mod tests {
    use super::parse_sample;

    #[test]
    fn a_sample_is_a_positive_count_or_all() {
        assert_eq!(parse_sample("295"), Ok(295));
        assert_eq!(parse_sample("all"), Ok(usize::MAX));
        for bad in ["0", "-3", "ALL", "", "2.5"] {
            assert!(parse_sample(bad).unwrap_err().contains("expected a positive number of states, or `all`"), "{bad}");
        }
    }
}
