//! `synth`: rules for nonogram specifications, printed with their metadata.

use super::CmdResult;
use stratsynth::domains::nonogram::domain::{LineState, Nonogram};
use stratsynth::domains::nonogram::lines_file::{parse_lines, read_lines_file};
use stratsynth::domains::nonogram::spec::{self, specs};
use stratsynth::domains::Domain;
use stratsynth::dsl::print::print_rule;
use stratsynth::synth::{Config, Engine, Outcome, Spec};
use std::path::Path;
use std::process::ExitCode;

/// Options of `synth`.
pub struct SynthArgs<'a> {
    pub spec: Option<&'a str>,
    pub specs: Option<&'a Path>,
    pub bound: Option<u32>,
    pub timeout_ms: u32,
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

/// The RON metadata line of a result.
fn meta(spec_text: &str, cost: u32, bound: u32, outcome: &Outcome<LineState>) -> String {
    format!(
        "meta: (spec: {spec_text:?}, cost: {cost}, bound: {bound}, patterns_tried: {}, candidates: {}, rejected_by_table: {}, z3_calls: {}, time_ms: {})",
        outcome.stats.patterns_tried,
        outcome.stats.candidates,
        outcome.stats.rejected_by_table,
        outcome.stats.z3_calls,
        outcome.time.as_millis()
    )
}

/// `synth --spec S | --specs FILE`.
pub fn run(args: &SynthArgs<'_>) -> CmdResult {
    let domain = Nonogram::new();
    let schema = domain.schema();
    let specs = read_specs(args, schema.file.limits.max_state as usize)?;
    let mut config = Config::new(schema);
    if let Some(b) = args.bound {
        config.bound = b;
    }
    config.timeout_ms = args.timeout_ms;
    let engine = Engine::new(&domain, config);
    for (i, spec) in specs.iter().enumerate() {
        let outcome = engine.synthesize(spec);
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
        for (k, learned) in outcome.rules.iter().enumerate() {
            let mut rule = learned.rule.clone();
            rule.name = format!("spec{}_{}", i + 1, k + 1);
            rule.description = vec![format!("{}", meta(&text, learned.cost, learned.bound, &outcome))];
            println!("{}", print_rule(&rule, schema));
        }
    }
    Ok(ExitCode::SUCCESS)
}
