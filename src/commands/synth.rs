//! `synth`: rules for nonogram specifications. With one specification
//! and no output file, the rules are printed with their metadata; with
//! `-o OUT`, the specifications run as a journaled batch in deterministic
//! rounds (resumable, shardable, skipping covered ones) and OUT gets the
//! deduplicated rule set. `merge` joins such rule files, proving every
//! rule it keeps again (their `# meta:` comments are not trusted).

use super::progress::Progress;
use super::versions;
use super::{check_output, command_line, write_rules_file, CmdResult};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use stratsynth::domains::nonogram::formats::lines::{parse_lines, read_lines_file, read_test_set};
use stratsynth::domains::nonogram::learn::learner::dedup;
use stratsynth::domains::nonogram::line::state::LineState;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::nonogram::synthesis::spec::{self, specs};
use stratsynth::domains::Domain;
use stratsynth::dsl::print::print_rule;
use stratsynth::pipeline::batch::{label, WINDOW};
use stratsynth::pipeline::{jobs, journal_path, run_batch, BatchOptions, Shard};
use stratsynth::rule_files::read_nonogram_rules;
use stratsynth::synth::meta::Meta;
use stratsynth::synth::{Config, Engine, Spec};

/// Options of `synth`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct SynthArgs {
    /// One specification; each run of cells TARGET newly fills is one deduction.
    #[arg(long)]
    pub spec: Option<String>,
    /// A `.lines` file of specifications.
    #[arg(long)]
    pub specs: Option<PathBuf>,
    /// Soundness bound (default from the domain's DSL file).
    #[arg(long)]
    pub bound: Option<u32>,
    /// Z3 resource limit per query (`rlimit`: Z3's own step count, so the
    /// answer does not depend on machine load); a rule whose proof runs
    /// out is dropped, never kept unproven.
    #[arg(long, default_value_t = stratsynth::synth::DEFAULT_RLIMIT, value_parser = clap::value_parser!(u32).range(1..))]
    pub rlimit: u32,
    /// Run as a batch (deterministic rounds, journal `OUT.journal`) and write the deduplicated rules to this `.rules` file.
    #[arg(short, long)]
    pub output: Option<PathBuf>,
    /// Continue the run recorded in `OUT.journal`.
    #[arg(long, requires = "output")]
    pub resume: bool,
    /// Take only the specifications whose index is i mod n.
    #[arg(long, value_name = "i/n", value_parser = stratsynth::pipeline::parse_shard, requires = "output")]
    pub shard: Option<Shard>,
    /// Skip specifications that a rule of this `.rules` file already makes (in either orientation).
    #[arg(long, value_name = "RULES", requires = "output")]
    pub skip_covered: Option<PathBuf>,
    /// Worker threads (default: one per core).
    #[arg(long)]
    pub threads: Option<usize>,
    /// Keep only the greedy lattice climb's maximal node per element set
    /// (the default explores every way up and keeps every maximal node).
    #[arg(long)]
    pub climb: bool,
}

/// The specifications named on the command line.
fn read_specs(args: &SynthArgs, max_len: usize) -> Result<Vec<Spec<LineState>>, String> {
    let transitions = match (args.spec.as_deref(), args.specs.as_deref()) {
        (Some(text), None) => parse_lines(text, "--spec", max_len).map_err(|e| e.to_string())?,
        (None, Some(path)) => read_lines_file(path, max_len).map_err(|e| e.to_string())?,
        _ => return Err("give exactly one of --spec \"HINTS | START | TARGET\" and --specs FILE".to_string()),
    };
    if transitions.is_empty() {
        let source = args.specs.as_deref().map_or("--spec".to_string(), |p| p.display().to_string());
        return Err(format!("{source}: no specification given (expected a line HINTS | START | TARGET)"));
    }
    let mut out = vec![];
    for t in &transitions {
        out.extend(specs(t).ok_or_else(|| format!("not a valid line: {}", t.start))?);
    }
    // a specification repeated in the file is synthesised once
    let mut seen = std::collections::HashSet::new();
    out.retain(|s| seen.insert(spec::show(s)));
    if out.is_empty() {
        return Err("no specification: TARGET fills no cell that START leaves unknown".to_string());
    }
    Ok(out)
}

/// The engine's configuration from the options.
pub fn config(domain: &Nonogram, bound: Option<u32>, rlimit: u32, climb: bool) -> Result<Config, String> {
    Config::builder(domain.schema())
        .bound(bound)
        .rlimit(rlimit)
        .explore(!climb)
        .build()
        .map_err(|e| format!("--bound/--rlimit: {e}"))
}

/// `synth --spec S | --specs FILE [-o OUT ...]`.
pub fn run(args: &SynthArgs) -> CmdResult {
    let domain = Nonogram::new();
    let schema = domain.schema();
    let specs = read_specs(args, schema.file.limits.max_state as usize)?;
    let config = config(&domain, args.bound, args.rlimit, args.climb)?;
    if let Some(output) = args.output.as_deref() {
        return batch(&domain, config, specs, args, output);
    }
    let engine = Engine::new(&domain, config);
    for (i, spec) in specs.iter().enumerate() {
        let mut outcome = engine.synthesize(spec);
        engine.publish(&[&outcome]);
        let text = spec::show(spec);
        eprintln!(
            "spec {}: {text}: {} rules in {:.2} s ({} patterns, {} candidates, {} rejected by the table, {} Z3 calls in {:.2} s ({} at the full bound in {:.2} s), {} unsound, {} unknown)",
            i + 1,
            outcome.rules.len(),
            outcome.time.as_secs_f64(),
            outcome.stats.patterns_tried,
            outcome.stats.candidates,
            outcome.stats.rejected_by_table,
            outcome.stats.z3_calls,
            outcome.stats.z3_time.as_secs_f64(),
            outcome.stats.z3_full,
            outcome.stats.z3_full_time.as_secs_f64(),
            outcome.stats.z3_unsound,
            outcome.stats.z3_unknown
        );
        label(i, &text, &mut outcome);
        for learned in &outcome.rules {
            println!("{}", print_rule(&learned.rule, schema));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The bound line of a learned rule file's header.
pub fn bound_line(bound: u32) -> String {
    format!("bound {bound}: Z3 proved every rule below sound on every valid line of up to {bound} cells")
}

/// Proves each rule `merge` keeps with Z3 up to `bound` (as `synth`
/// proved it, with the same resource limit): a `# meta:` comment is text
/// anyone can write, so the bound it claims is not taken on trust.
fn prove_merged(
    domain: &Nonogram,
    rules: &[stratsynth::dsl::ast::Rule],
    bound: u32,
    origin: &HashMap<String, String>,
) -> Result<(), String> {
    use stratsynth::synth::verify::{Verdict, Verifier};
    let mut verifier = Verifier::deterministic(domain, bound, stratsynth::synth::DEFAULT_RLIMIT);
    for rule in rules {
        let why = match verifier.check(rule) {
            Verdict::Sound => continue,
            Verdict::Unsound(cx) => format!("is UNSOUND on {}", domain.show(&cx.state)),
            Verdict::Unknown(why) => format!("could not be proven ({why})"),
        };
        return Err(format!(
            "{}: rule `{}` {why} up to {bound} cells, whatever its `# meta:` comment says; merge writes only rules Z3 proves",
            origin.get(&rule.name).map_or("", String::as_str),
            rule.name
        ));
    }
    Ok(())
}

/// `synth ... -o OUT [--resume] [--shard i/n] [--skip-covered R]`.
fn batch(domain: &Nonogram, config: Config, specs: Vec<Spec<LineState>>, args: &SynthArgs, output: &Path) -> CmdResult {
    let inputs: Vec<&Path> = [args.specs.as_deref(), args.skip_covered.as_deref()].into_iter().flatten().collect();
    check_output(output, &inputs)?;
    let total = specs.len();
    let jobs = jobs(specs.into_iter().map(|s| (spec::show(&s), s)).collect(), args.shard);
    let skip = match args.skip_covered.as_deref() {
        Some(path) => read_nonogram_rules(path)?.1,
        None => vec![],
    };
    let skip_count = skip.len();
    let bound = config.bound;
    let engine = Engine::new(domain, config);
    let journal = journal_path(output);
    let progress = Progress::default();
    let options = BatchOptions {
        journal: &journal,
        resume: args.resume,
        shard: args.shard,
        skip,
        progressive: false,
        window: WINDOW,
        observer: &progress,
    };
    let run = run_batch(domain, &engine, &jobs, options).map_err(|e| e.to_string())?;
    let found = run.rules();
    let (kept, _) = dedup(domain, &found, None).map_err(|e| e.to_string())?;
    let synthesised = run.synthesised();
    let source = args.specs.as_deref().map_or("--spec".to_string(), |p| p.display().to_string());
    let shard = match args.shard {
        Some((i, n)) => format!("shard {i}/{n}: {} of the {total} specifications of {source}", jobs.len()),
        None => format!("the {total} specifications of {source}"),
    };
    let skipped = match args.skip_covered.as_deref() {
        Some(path) => {
            format!(", {} skipped (made by a rule of {}, {skip_count} rules)", jobs.len() - synthesised, path.display())
        }
        None => String::new(),
    };
    let header = vec![
        command_line(),
        format!("options: {}", ron::to_string(args).map_err(|e| e.to_string())?),
        versions(),
        bound_line(bound),
        format!("{shard}: {synthesised} synthesised{skipped}"),
        format!(
            "{} rules found, {} after removing rules equal up to egg's rewrites (the cheapest kept)",
            found.len(),
            kept.len()
        ),
        format!("synthesis: {}", run.summary(&journal)),
    ];
    write_rules_file(output, &header, &kept, domain.schema())?;
    eprintln!("synthesis {}", run.times());
    eprintln!(
        "{synthesised} specifications synthesised, {} rules ({} distinct) written to {}",
        found.len(),
        kept.len(),
        output.display()
    );
    Ok(ExitCode::SUCCESS)
}

/// Options of `merge`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct MergeArgs {
    /// The `.rules` files.
    #[arg(required = true)]
    pub inputs: Vec<PathBuf>,
    /// Output `.rules` file.
    #[arg(short, long)]
    pub output: PathBuf,
    /// Also keep only the cheapest of the rules that cover the same cells alone on this `.lines` test set.
    #[arg(long)]
    pub tests: Option<PathBuf>,
}

/// `merge A.rules B.rules ... -o OUT [--tests T]`.
pub fn merge(args: &MergeArgs) -> CmdResult {
    let (inputs, output, tests) = (&args.inputs, args.output.as_path(), args.tests.as_deref());
    let mut read: Vec<&Path> = inputs.iter().map(|p| p.as_path()).collect();
    read.extend(tests);
    check_output(output, &read)?;
    let domain = Nonogram::new();
    let mut all = vec![];
    let mut bounds = vec![];
    let mut origin: HashMap<String, String> = HashMap::new();
    for path in inputs {
        let (_, rules) = read_nonogram_rules(path)?;
        for rule in rules {
            let meta = match Meta::of(&rule) {
                Some(Ok(meta)) => meta,
                Some(Err(e)) => {
                    let shown = path.display().to_string();
                    let text = stratsynth::files::read_text(path).map_err(|e| e.to_string())?;
                    return Err(e.locate(&text, &shown).map_or_else(|| format!("{shown}: {e}"), |l| l.to_string()));
                }
                None => {
                    return Err(format!(
                        "{}: rule `{}` has no `# meta:` comment saying the bound it was proven sound at; merge takes the output of `synth -o`",
                        path.display(),
                        rule.name
                    ))
                }
            };
            bounds.push(meta.bound);
            origin.entry(rule.name.clone()).or_insert_with(|| path.display().to_string());
            all.push(rule);
        }
    }
    let bound = bounds.iter().copied().min().ok_or("no rules to merge")?;
    let tests = match tests {
        Some(path) => {
            Some(read_test_set(path, domain.schema().file.limits.max_state as usize).map_err(|e| e.to_string())?)
        }
        None => None,
    };
    let count = all.len();
    let (kept, after_rewrites) = dedup(&domain, &all, tests.as_deref()).map_err(|e| e.to_string())?;
    prove_merged(&domain, &kept, bound, &origin)?;
    let mut names = HashSet::new();
    for rule in &kept {
        if !names.insert(&rule.name) {
            return Err(format!(
                "two different rules are named `{}` (one in {}): these files are not shards of one run",
                rule.name, origin[&rule.name]
            ));
        }
    }
    let shown: Vec<String> = inputs.iter().map(|p| p.display().to_string()).collect();
    let mut header = vec![command_line(), versions(), bound_line(bound)];
    header.push(format!(
        "{count} rules from {}: {after_rewrites} after removing rules equal up to egg's rewrites (the cheapest kept)",
        shown.join(", ")
    ));
    if tests.is_some() {
        header.push(format!(
            "{} after removing rules covering the same cells alone on the test lines (the cheapest kept)",
            kept.len()
        ));
    }
    write_rules_file(output, &header, &kept, domain.schema())?;
    eprintln!("{count} rules merged into {} distinct rules in {}", kept.len(), output.display());
    Ok(ExitCode::SUCCESS)
}
