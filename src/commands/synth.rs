//! `synth`: rules for nonogram specifications. With one specification
//! and no output file, the rules are printed with their metadata; with
//! `-o OUT`, the specifications run as a journaled batch in deterministic
//! rounds (resumable, shardable, skipping covered ones) and OUT gets the
//! deduplicated rule set. `merge` joins such rule files.

use super::batch::{command_line, journal_path, jobs, run_batch, versions, write_rules_file, BatchOptions, Shard};
use super::{check_output, read_nonogram_rules, CmdResult};
use stratsynth::dedup::{keep_cheapest, rule_key};
use stratsynth::domains::nonogram::apply::ApplyOptions;
use stratsynth::domains::nonogram::compare::covered_alone;
use stratsynth::domains::nonogram::domain::{LineState, Nonogram};
use stratsynth::domains::nonogram::lines_file::{parse_lines, read_lines_file, read_test_set, Transition};
use stratsynth::domains::nonogram::spec::{self, specs};
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::cost::cost;
use stratsynth::dsl::print::print_rule;
use stratsynth::synth::batch::label;
use stratsynth::synth::meta::Meta;
use stratsynth::synth::{Config, Engine, Spec};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::process::ExitCode;

/// Options of `synth`.
pub struct SynthArgs<'a> {
    pub spec: Option<&'a str>,
    pub specs: Option<&'a Path>,
    pub bound: Option<u32>,
    pub timeout_ms: u32,
    /// Run as a batch writing this rule file.
    pub output: Option<&'a Path>,
    pub resume: bool,
    pub shard: Option<Shard>,
    pub skip_covered: Option<&'a Path>,
}

/// The specifications named on the command line.
fn read_specs(args: &SynthArgs<'_>, max_len: usize) -> Result<Vec<Spec<LineState>>, String> {
    let transitions = match (args.spec, args.specs) {
        (Some(text), None) => parse_lines(text, "--spec", max_len).map_err(|e| e.to_string())?,
        (None, Some(path)) => read_lines_file(path, max_len).map_err(|e| e.to_string())?,
        _ => return Err("give exactly one of --spec \"HINTS | START | TARGET\" and --specs FILE".to_string()),
    };
    let mut out = vec![];
    for t in &transitions {
        out.extend(specs(t).ok_or_else(|| format!("not a valid line: {}", t.start))?);
    }
    if out.is_empty() {
        return Err("no specification: TARGET fills no cell that START leaves unknown".to_string());
    }
    Ok(out)
}

/// The engine's configuration from the options.
pub fn config(domain: &Nonogram, bound: Option<u32>, timeout_ms: u32) -> Result<Config, String> {
    Config::builder(domain.schema()).bound(bound).timeout_ms(timeout_ms).build().map_err(|e| format!("--bound/--timeout-ms: {e}"))
}

/// `synth --spec S | --specs FILE [-o OUT ...]`.
pub fn run(args: &SynthArgs<'_>) -> CmdResult {
    let domain = Nonogram::new();
    let schema = domain.schema();
    let specs = read_specs(args, schema.file.limits.max_state as usize)?;
    let config = config(&domain, args.bound, args.timeout_ms)?;
    if let Some(output) = args.output {
        return batch(&domain, config, specs, args, output);
    }
    let engine = Engine::new(&domain, config);
    for (i, spec) in specs.iter().enumerate() {
        let mut outcome = engine.synthesize(spec);
        engine.publish(&[&outcome]);
        let text = spec::show(spec);
        eprintln!(
            "spec {}: {text}: {} rules in {:.2} s ({} patterns, {} candidates, {} rejected by the table, {} Z3 calls in {:.2} s, {} unsound, {} unknown)",
            i + 1,
            outcome.rules.len(),
            outcome.time.as_secs_f64(),
            outcome.stats.patterns_tried,
            outcome.stats.candidates,
            outcome.stats.rejected_by_table,
            outcome.stats.z3_calls,
            outcome.stats.z3_time.as_secs_f64(),
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

/// The rules kept of `rules`: the cheapest (then first) of each group equal
/// up to egg's rewrites, and with `tests`, of each group covering the same
/// (transition, cell) pairs alone on them (rules covering none are never
/// merged by behaviour). Returns the kept rules and the count after the
/// first step.
pub fn dedup(domain: &Nonogram, rules: Vec<Rule>, tests: Option<&[Transition]>) -> Result<(Vec<Rule>, usize), String> {
    let schema = domain.schema();
    let costs: Vec<u32> = rules.iter().map(|r| cost(r, schema)).collect();
    let keys: Vec<_> = rules.iter().map(|r| Some(rule_key(r))).collect();
    let kept = keep_cheapest(&keys, &costs);
    let after_rewrites = kept.len();
    let Some(tests) = tests else {
        return Ok((kept.into_iter().map(|i| rules[i].clone()).collect(), after_rewrites));
    };
    let mut behaviour = vec![];
    for &i in &kept {
        let covered = covered_alone(domain, &rules[i], tests, ApplyOptions::default()).map_err(|e| e.to_string())?;
        behaviour.push((covered.count() > 0).then_some(covered));
    }
    let kept_costs: Vec<u32> = kept.iter().map(|&i| costs[i]).collect();
    let again = keep_cheapest(&behaviour, &kept_costs);
    Ok((again.into_iter().map(|j| rules[kept[j]].clone()).collect(), after_rewrites))
}

/// The bound line of a learned rule file's header.
pub fn bound_line(bound: u32) -> String {
    format!("bound {bound}: Z3 proved every rule below sound on every valid line of up to {bound} cells")
}

/// `synth ... -o OUT [--resume] [--shard i/n] [--skip-covered R]`.
fn batch(domain: &Nonogram, config: Config, specs: Vec<Spec<LineState>>, args: &SynthArgs<'_>, output: &Path) -> CmdResult {
    let inputs: Vec<&Path> = [args.specs, args.skip_covered].into_iter().flatten().collect();
    check_output(output, &inputs)?;
    let total = specs.len();
    let jobs = jobs(specs, args.shard);
    let skip = match args.skip_covered {
        Some(path) => read_nonogram_rules(path)?.1,
        None => vec![],
    };
    let skip_count = skip.len();
    let bound = config.bound;
    let engine = Engine::new(domain, config);
    let journal = journal_path(output);
    let run = run_batch(domain, &engine, &jobs, BatchOptions { journal: &journal, resume: args.resume, shard: args.shard, skip, progressive: false })?;
    let found = run.rules();
    let (kept, _) = dedup(domain, found.clone(), None)?;
    let synthesised = run.synthesised();
    let source = args.specs.map_or("--spec".to_string(), |p| p.display().to_string());
    let shard = match args.shard {
        Some((i, n)) => format!("shard {i}/{n}: {} of the {total} specifications of {source}", jobs.len()),
        None => format!("the {total} specifications of {source}"),
    };
    let skipped = match args.skip_covered {
        Some(path) => format!(", {} skipped (made by a rule of {}, {skip_count} rules)", jobs.len() - synthesised, path.display()),
        None => String::new(),
    };
    let header = vec![
        command_line(),
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
    write_rules_file(output, &header, &kept, domain)?;
    eprintln!("{synthesised} specifications synthesised, {} rules ({} distinct) written to {}", found.len(), kept.len(), output.display());
    Ok(ExitCode::SUCCESS)
}

/// `merge A.rules B.rules ... -o OUT [--tests T]`.
pub fn merge(inputs: &[std::path::PathBuf], output: &Path, tests: Option<&Path>) -> CmdResult {
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
                    return Err(e.locate(&text, &shown).unwrap_or_else(|| format!("{shown}: {e}")));
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
        Some(path) => Some(read_test_set(path, domain.schema().file.limits.max_state as usize).map_err(|e| e.to_string())?),
        None => None,
    };
    let count = all.len();
    let (kept, after_rewrites) = dedup(&domain, all, tests.as_deref())?;
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
    header.push(format!("{count} rules from {}: {after_rewrites} after removing rules equal up to egg's rewrites (the cheapest kept)", shown.join(", ")));
    if tests.is_some() {
        header.push(format!("{} after removing rules covering the same cells alone on the test lines (the cheapest kept)", kept.len()));
    }
    write_rules_file(output, &header, &kept, &domain)?;
    eprintln!("{count} rules merged into {} distinct rules in {}", kept.len(), output.display());
    Ok(ExitCode::SUCCESS)
}
