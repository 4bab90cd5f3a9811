//! `learn witness`: its options, the run through the learning pipeline
//! on the Witness learner, and the learned rule file it writes (header,
//! named rules, the selection's table).

use super::learn_args::{chosen_by, selection, ProofArgs};
use super::witness::{mining_line, sizes};
use super::{check_output, write_output, CmdResult};
use std::path::Path as FsPath;
use std::process::ExitCode;
use std::time::Duration;
use stratsynth::domains::witness::learn::report::SelectionReport;
use stratsynth::domains::witness::synthesis::domain::{Witness, WitnessState};
use stratsynth::domains::witness::synthesis::mine::PuzzleMined;
use stratsynth::domains::Domain;
use stratsynth::pipeline::augment::augment_journal;
use stratsynth::pipeline::LearnRun;
use stratsynth::report::ticking::ticking;

/// How much more than the condition it starts from a generalised one may
/// cost when the run has kinds (the engine's default is 3; see where it is
/// set).
const WIDEN_SLACK: u32 = 5;

/// Options of `learn witness`.
#[derive(clap::Args, Debug)]
pub struct LearnArgs {
    /// Sizes of training and filter puzzles (Algorithm 3).
    #[arg(long, default_value = "2x2..4x4")]
    pub sizes: String,
    /// Training puzzles.
    #[arg(long, default_value_t = 40)]
    pub train: usize,
    /// Filter puzzles the selection searches (expansions and time saved).
    #[arg(long, default_value_t = 200)]
    pub filter: usize,
    /// Seed of the training puzzles (the filter set uses seed + 1).
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Most rules selected.
    #[arg(short = 'k', default_value_t = 10)]
    pub k: usize,
    /// Select them by what they save per unit of rule cost, their mean
    /// cost at most this at every rank (0, the default: by what they save
    /// alone, cost breaking ties).
    #[arg(long, default_value_t = 0)]
    pub max_mean_cost: u32,
    /// Most specifications synthesised or skipped (the first mined; one a
    /// rule learnt in an earlier round prunes is skipped).
    #[arg(long, default_value_t = 200)]
    pub max_specs: usize,
    /// Then synthesise, one at a time, the first N specifications past
    /// --max-specs that no rule learned so far prunes (journal
    /// `OUTPUT.augment.journal`; default none).
    #[arg(long)]
    pub augment: Option<usize>,
    /// Output `.rules` file (the journal is `OUTPUT.journal`).
    #[arg(short, long, default_value = "rules/witness/learned.rules")]
    pub output: std::path::PathBuf,
    /// Continue the run recorded in the journal.
    #[arg(long)]
    pub resume: bool,
    /// The proofs' resource limits and the worker threads.
    #[command(flatten)]
    pub proof: ProofArgs,
    /// Constraint kinds of the training and filter puzzles, comma-separated
    /// (triangles, colours, stars, dots, broken), `KINDS:N` with N colours:
    /// puzzles drawn around a random route (default: triangle puzzles of
    /// Algorithm 3). Repeated, the puzzles take the lists in turn, so one
    /// run learns from a mix of kinds.
    #[arg(long)]
    pub constraints: Vec<String>,
    /// Colours of separation squares and stars with `--constraints` (default 2).
    #[arg(long)]
    pub colours: Option<u8>,
    /// Soundness bound of the proofs (grid side; default: the DSL file's).
    #[arg(long)]
    pub bound: Option<u32>,
    /// What the selection asks of a rule: `time`, to save filter
    /// expansions and modelled search time (the default); `expansions`,
    /// to save expansions.
    #[arg(long)]
    pub select_by: Option<SelectBy>,
}

/// The options as the rule file's `# options:` line writes them (the
/// options not given left out).
impl serde::Serialize for LearnArgs {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        /// An option written only when given.
        fn given<S: SerializeStruct, T: serde::Serialize>(
            out: &mut S,
            name: &'static str,
            value: &Option<T>,
        ) -> Result<(), S::Error> {
            match value {
                Some(_) => out.serialize_field(name, value),
                None => out.skip_field(name),
            }
        }
        let mut out = serializer.serialize_struct("LearnArgs", 17)?;
        out.serialize_field("sizes", &self.sizes)?;
        out.serialize_field("train", &self.train)?;
        out.serialize_field("filter", &self.filter)?;
        out.serialize_field("seed", &self.seed)?;
        out.serialize_field("k", &self.k)?;
        given(&mut out, "max_mean_cost", &(self.max_mean_cost > 0).then_some(self.max_mean_cost))?;
        out.serialize_field("max_specs", &self.max_specs)?;
        given(&mut out, "augment", &self.augment)?;
        out.serialize_field("output", &self.output)?;
        out.serialize_field("resume", &self.resume)?;
        self.proof.serialize_fields(&mut out)?;
        match self.constraints.as_slice() {
            [] => out.skip_field("constraints")?,
            [one] => out.serialize_field("constraints", &Some(one))?,
            many => out.serialize_field("constraints", &Some(many))?,
        }
        given(&mut out, "colours", &self.colours)?;
        given(&mut out, "bound", &self.bound)?;
        given(&mut out, "select_by", &self.select_by)?;
        out.end()
    }
}

/// What the selection of `learn witness` asks of a rule.
#[derive(clap::ValueEnum, serde::Serialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum SelectBy {
    /// Filter expansions saved, and modelled search time not lost.
    Time,
    /// Filter expansions saved.
    Expansions,
}

/// `learn witness [--sizes R] [--train N] [--filter M] [--seed S] [-k K] [-o OUT] [--resume] ...`.
pub fn learn(args: &LearnArgs) -> CmdResult {
    use stratsynth::domains::witness::learn::learner::{LearnConfig, WitnessLearner};
    use stratsynth::domains::witness::make::generate_kinds::Mix;
    use stratsynth::domains::witness::rules::names::name_rules;
    use stratsynth::dsl::print::print_rule;
    use stratsynth::pipeline::{journal_path, learn, LearnOptions};
    let domain = Witness::new();
    if args.train == 0 || args.filter == 0 || args.k == 0 || args.max_specs == 0 {
        return Err("--train, --filter, -k and --max-specs must be at least 1".into());
    }
    let config = LearnConfig {
        sizes: sizes("--sizes", &args.sizes)?,
        train: args.train,
        filter: args.filter,
        seed: args.seed,
        max_specs: args.max_specs,
        kinds: match args.constraints.as_slice() {
            [] if args.colours.is_some() => return Err("--colours needs --constraints".into()),
            [] => None,
            lists => Some(Mix::parse(lists, args.colours.unwrap_or(2)).map_err(|e| format!("--constraints: {e}"))?),
        },
        by_time: args.select_by != Some(SelectBy::Expansions),
    };
    let domain = match config.kinds {
        Some(mix) => domain.with_kinds(mix.union()),
        None => domain,
    };
    let schema = domain.schema();
    let mut engine = stratsynth::synth::Config::builder(schema)
        .rlimit(args.proof.rlimit)
        .bound(args.bound)
        .build()
        .map_err(|e| format!("--rlimit/--bound: {e}"))?;
    if config.kinds.is_some() {
        // a mark's counts are ordered (joined_same <= its region's <=
        // reach_same), so a rule over them is widened by comparing two
        // counts and ruling out one value: Shen's RCR in its general form
        // (`joined_same(m) != 1 and reach_same(m) <= joined_same(m)`) costs
        // 5 more than the lonely star's `reach_same(m) = 0`
        engine.widen_slack = WIDEN_SLACK;
    }
    let engine_bound = engine.bound;
    check_output(&args.output, &[])?;
    let output = &args.output;
    let journal = journal_path(output);
    let train = config.train;
    let say = move |m: PuzzleMined| {
        if let Some(line) = mining_line(&m, train) {
            eprintln!("{line}");
        }
    };
    let learner = WitnessLearner::new(&domain, config).with_progress(&say);
    let (sizes, filter) = (&args.sizes, args.filter);
    let generating = |t: Duration| {
        Some(format!("generating {train} training and {filter} filter puzzles ({sizes}): {:.0} s", t.as_secs_f64()))
    };
    ticking(generating, || learner.training_puzzles().and(learner.filter_puzzles()).map(|_| ()))
        .map_err(|e| e.to_string())?;
    let progress = super::progress::Progress::default();
    let options = LearnOptions {
        config: engine,
        journal: &journal,
        resume: args.resume,
        progressive: true,
        augment: args.augment.unwrap_or(0),
        selection: selection(args.k, args.max_mean_cost),
        retry_rlimit: args.proof.retry_rlimit,
        observer: &progress,
    };
    let run = learn(&learner, options).map_err(|e| e.to_string())?;
    let chosen: Vec<_> = run.picks.iter().map(|p| run.learned[p.index].clone()).collect();
    prove_again(&domain, &chosen, engine_bound, args.proof.retry_rlimit)?;
    let report = learner.report(&chosen).map_err(|e| e.to_string())?;
    let mut text = header(args, engine_bound, &run, &report, &journal)?;
    let mut named = report.named(&chosen, schema);
    // rules learned with --constraints are named by what they do; the
    // triangle-only run keeps its ranks as names (its committed file is
    // what that command writes)
    if !args.constraints.is_empty() {
        name_rules(&mut named, schema);
    }
    for rule in &named {
        text.push_str(&print_rule(rule, schema));
        text.push('\n');
    }
    let table = report.table(&named, schema);
    write_output(output, &text)?;
    print!("{text}");
    print!("{table}");
    println!("synthesis {}\n{}.", run.batch.times(), run.phases);
    let z3_calls: u64 = run
        .batch
        .entries
        .iter()
        .map(|e| match e {
            stratsynth::pipeline::batch::Entry::Done { outcome, .. } => outcome.stats.z3_calls,
            stratsynth::pipeline::batch::Entry::Skipped { .. } => 0,
        })
        .sum();
    eprintln!(
        "learn witness: {} rules written to {} in {:.1} s ({z3_calls} Z3 calls)",
        run.picks.len(),
        output.display(),
        run.phases.total().as_secs_f64(),
    );
    Ok(ExitCode::SUCCESS)
}

/// Proves every selected rule again at `bound` before the file is
/// written. The journal's rule records carry a check against edits, not
/// a proof: a record forged with its check recomputed is replayed as it
/// reads, and without this a wrong rule planted there could be selected
/// (it would save expansions by losing solutions). So nothing is written
/// unless Z3 proves every rule of the set in this run.
fn prove_again(domain: &Witness, rules: &[stratsynth::dsl::ast::Rule], bound: u32, rlimit: u32) -> Result<(), String> {
    use stratsynth::synth::verify::{Verdict, Verifier};
    let mut verifier = Verifier::deterministic(domain, bound, rlimit);
    for rule in rules {
        let verdict = verifier.check(rule);
        if !matches!(verdict, Verdict::Sound) {
            return Err(format!(
                "rule `{}` of the selection is {} at bound {bound} (Z3 proves every rule before the file is written); nothing written",
                rule.name,
                verdict.word()
            ));
        }
    }
    Ok(())
}

/// The learned rule file's header: how it was made, what was mined,
/// synthesised and selected, and local checking's filter figures.
fn header(
    args: &LearnArgs,
    bound: u32,
    run: &LearnRun<WitnessState>,
    report: &SelectionReport,
    journal: &FsPath,
) -> Result<String, String> {
    let base = &report.baseline;
    Ok(format!(
        "# Learned Witness pruning rules, each proven sound by Z3 for every puzzle up to {b}x{b}.\n\
         # Made by: {command}\n\
         # options: {options}\n\
         # {versions}\n\
         # {mined}; {synthesised} synthesised, {skipped} skipped as already pruned;\n\
         # {found} rules found, {learned} distinct up to egg's rewrites; selected {chosen} on {filter} filter puzzles\n\
         # (seed {fseed}; local constraint checking alone: {base_exp} expansions, {base_ms:.1} ms modelled){time}.\n\
         # synthesis: {summary}\n\
         # second proof: {retry}\n{augmented}\n",
        b = bound,
        command = super::command_line(),
        options = ron::to_string(args).map_err(|e| e.to_string())?,
        versions = super::versions(),
        mined = run.mined,
        synthesised = run.batch.synthesised(),
        skipped = run.batch.entries.len() - run.batch.synthesised(),
        found = run.found.len(),
        learned = run.learned.len(),
        chosen = chosen_by(selection(args.k, args.max_mean_cost), "A* expansions saved"),
        filter = args.filter,
        fseed = args.seed + 1,
        base_exp = base.expansions,
        base_ms = base.model_ms(),
        summary = run.batch.summary(journal),
        retry = run.retry.summary(),
        time = if args.select_by == Some(SelectBy::Expansions) {
            ""
        } else {
            ", a rule only if it also saves modelled search time"
        },
        augmented = match args.augment {
            Some(_) => format!("# {}\n", run.augmented.summary(&augment_journal(journal))),
            None => String::new(),
        },
    ))
}
