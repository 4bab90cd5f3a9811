//! `verify`: each rule of a file proven sound with Z3 up to a bound, or a
//! counterexample (nonogram, Witness and Flow rule files).

use super::check::{show_action, show_binding};
use super::{some_rules, CmdResult};
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::flow::synthesis::domain::Flow;
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::domains::{Domain, Symbolic};
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::schema::Schema;
use stratsynth::rule_files::read_rules;
use stratsynth::synth::verify::{Counterexample, Unknown, Verdict, Verifier};

/// One rule's verdict for `--json`.
#[derive(serde::Serialize)]
struct JsonVerdict {
    name: String,
    verdict: &'static str,
    bound: u32,
    counterexample: Option<String>,
}

/// Options of `verify`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct VerifyArgs {
    /// The `.rules` file.
    pub rules: PathBuf,
    /// Soundness bound (nonogram: line length; Witness: grid side; Flow:
    /// board side, every board up to N x N, at most 6; default from the
    /// domain's DSL file).
    #[arg(long)]
    pub bound: Option<u32>,
    /// Z3 time limit per rule, in milliseconds.
    #[arg(long, default_value_t = stratsynth::synth::DEFAULT_TIMEOUT_MS, value_parser = clap::value_parser!(u32).range(1..))]
    pub timeout_ms: u32,
    /// Instead of the time limit: every rule in a fresh Z3 context limited
    /// by Z3's resource count (as `learn` proves rules: the verdicts depend
    /// only on the rule), and each line says the count Z3 spent.
    #[arg(long, conflicts_with = "timeout_ms", value_parser = clap::value_parser!(u32).range(1..))]
    pub rlimit: Option<u32>,
    /// With `--rlimit`: split a rule's query once it has run N units whole
    /// (0: at once) into one query per slot of a pattern variable (the DSL
    /// file's `limits.split` types), sharing the limit, as the second proof
    /// of `learn` does; the count is their sum.
    #[arg(long, requires = "rlimit")]
    pub split_after: Option<u32>,
    /// Print one JSON list instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `verify RULES [--bound N] [--json]`: Z3 soundness of each rule, in the
/// rule file's domain (nonogram lines up to N cells; Witness puzzles up to
/// N x N squares; Flow puzzles on every board up to N x N).
pub fn verify(args: &VerifyArgs) -> CmdResult {
    let (schema, rules) = read_rules(&args.rules)?;
    some_rules(&args.rules, &rules)?;
    match schema.domain() {
        "flow" => {
            let domain = Flow::with_schema(schema, "dsl/flow.ron").map_err(|e| e.to_string())?;
            verify_flow(&domain, &rules, args)
        }
        "witness" => {
            let domain = Witness::with_schema(schema, "dsl/witness.ron").map_err(|e| e.to_string())?;
            verify_in(&domain, &rules, args)
        }
        _ => {
            let domain = Nonogram::with_schema(schema, "dsl/nonogram.ron").map_err(|e| e.to_string())?;
            verify_in(&domain, &rules, args)
        }
    }
}

/// A verifier of `domain` up to `bound` with the limits `args` give.
fn verifier<'d, D: Symbolic>(domain: &'d D, bound: u32, args: &VerifyArgs) -> Verifier<'d, D> {
    match args.rlimit {
        Some(rlimit) => {
            let verifier = Verifier::deterministic(domain, bound, rlimit);
            match args.split_after {
                Some(count) => verifier.split_after(count),
                None => verifier,
            }
        }
        None => Verifier::new(domain, bound, args.timeout_ms),
    }
}

/// The verify bound `args` ask for (the DSL file's by default), at most `limit`.
fn verify_bound(schema: &Schema, args: &VerifyArgs, limit: u32) -> Result<u32, String> {
    let bound = args.bound.unwrap_or(schema.file.limits.bound);
    if bound == 0 || bound > limit {
        return Err(format!("--bound must be between 1 and {limit}"));
    }
    Ok(bound)
}

/// Verifies `rules` in `domain` and reports.
fn verify_in<D: Symbolic>(domain: &D, rules: &[Rule], args: &VerifyArgs) -> CmdResult {
    let bound = verify_bound(domain.schema(), args, domain.schema().file.limits.max_state)?;
    let mut verifier = verifier(domain, bound, args);
    report(domain, rules, args, &bound.to_string(), bound, |rule| {
        let verdict = verifier.check(rule);
        (verdict, verifier.last_count())
    })
}

/// The largest board side `verify` proves Flow rules up to: the concrete
/// judge a counterexample is replayed on enumerates solutions as 64-bit
/// slot sets (6 x 6 has 60 slots).
const FLOW_MAX_BOUND: u32 = 6;

/// Verifies Flow `rules` on every board up to the bound, size by size
/// (smaller boards first, each its own query with the limits of `args`):
/// a rule is sound when it is on every size, else the first size's
/// verdict that is not sound is the rule's.
fn verify_flow(domain: &Flow, rules: &[Rule], args: &VerifyArgs) -> CmdResult {
    let bound = verify_bound(domain.schema(), args, FLOW_MAX_BOUND)?;
    let b = bound as usize;
    let mut sizes: Vec<(usize, usize)> = (1..=b).flat_map(|w| (1..=b).map(move |h| (w, h))).collect();
    sizes.sort_by_key(|&(w, h)| (w.max(h), w * h, w));
    report(domain, rules, args, &format!("{bound}x{bound}"), bound, |rule| {
        let mut spent = 0;
        for &(w, h) in &sizes {
            let board = domain.at(w, h);
            let mut verifier = verifier(&board, bound, args);
            let verdict = match verifier.check(rule) {
                Verdict::Unknown(Unknown::Limit(why)) => Verdict::Unknown(Unknown::Limit(format!("{why}, on {w}x{h}"))),
                verdict => verdict,
            };
            spent += verifier.last_count().unwrap_or(0);
            if !verdict.is_sound() {
                return (verdict, Some(spent));
            }
        }
        (Verdict::Sound, Some(spent))
    })
}

/// Reports each rule's verdict from `prove` (with the Z3 resource count it
/// spent): `sound up to BOUND`, `UNSOUND on STATE with BINDING: ACTION` or
/// `unknown (WHY)`; exit status 1 unless every rule is sound.
fn report<D: Domain>(
    domain: &D,
    rules: &[Rule],
    args: &VerifyArgs,
    shown_bound: &str,
    bound: u32,
    mut prove: impl FnMut(&Rule) -> (Verdict<Counterexample<D::State>>, Option<u64>),
) -> CmdResult {
    let mut out = vec![];
    let mut all_sound = true;
    let mut work = 0u64;
    for rule in rules {
        let (verdict, count) = prove(rule);
        all_sound &= verdict.is_sound();
        // the count is a measure of proof work worth printing only where
        // it also limits the proof
        let count = count.filter(|_| args.rlimit.is_some()).map(|c| {
            work += c;
            format!(" (Z3 resource count {c})")
        });
        let (text, cx) = match &verdict {
            Verdict::Sound => (format!("{}: sound up to {shown_bound}{}", rule.name, count.unwrap_or_default()), None),
            Verdict::Unsound(c) => (
                format!(
                    "{}: UNSOUND on {} with {}: {}",
                    rule.name,
                    domain.show(&c.state),
                    show_binding(rule, domain.schema(), &c.binding),
                    show_action(domain.schema(), &c.action)
                ),
                Some(domain.show(&c.state)),
            ),
            Verdict::Unknown(why) => (format!("{}: unknown ({why}); not proven sound", rule.name), None),
        };
        if !args.json {
            println!("{text}");
        }
        out.push(JsonVerdict { name: rule.name.clone(), verdict: verdict.word(), bound, counterexample: cx });
    }
    if args.rlimit.is_some() && !args.json {
        println!("Z3 resource count in all: {work}");
    }
    if args.json {
        println!("{}", serde_json::to_string_pretty(&out).map_err(|e| e.to_string())?);
    }
    Ok(if all_sound { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
