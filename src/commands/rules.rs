//! `print`, `check` and `verify`: commands on rule files (`print` also
//! draws Flow puzzles: `flow`).

use super::{some_rules, CmdResult};
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::flow::synthesis::domain::Flow;
use stratsynth::domains::nonogram::rules::check::{brute_force_all, MAX_LEN};
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::witness::synthesis::domain::Witness;
use stratsynth::domains::{Domain, Symbolic};
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::cost::cost;
use stratsynth::dsl::eval::{ActionValue, Binding};
use stratsynth::dsl::print::print_rule;
use stratsynth::dsl::schema::Schema;
use stratsynth::rule_files::{read_nonogram_rules, read_rules};
use stratsynth::synth::verify::{Counterexample, Unknown, Verdict, Verifier};

/// Whether a description line is the `cost N` note `print` writes (read
/// back from its own output, it is replaced, not repeated).
fn is_cost_note(line: &str) -> bool {
    line.strip_prefix("cost ").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Options of `print`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct PrintArgs {
    /// The `.rules` file, or a Flow puzzle file to draw.
    pub rules: PathBuf,
    /// Put each nonogram rule's plain-English sentence first in its comment
    /// (unless the comment already starts with it).
    #[arg(long)]
    pub english: bool,
    /// Flow puzzles: solve each and draw its paths (the first solution
    /// found, within 60 s).
    #[arg(long)]
    pub solve: bool,
    /// Flow puzzles, with `--solve`: count Flow Free's looser solutions too.
    #[arg(long, requires = "solve")]
    pub touching: bool,
    /// Flow puzzles: write the drawings as one HTML page here instead.
    #[arg(long, value_name = "OUT.html")]
    pub html: Option<PathBuf>,
}

/// `print RULES`: each rule pretty-printed after a `# cost N` line;
/// printing its own output gives the same text.
pub fn print(args: &PrintArgs) -> CmdResult {
    if super::flow::is_flow_file(&args.rules) {
        if args.english {
            return Err(format!(
                "{}: --english describes nonogram rules; this is a Flow puzzle file",
                args.rules.display()
            ));
        }
        let drawing = super::flow::Drawing { solve: args.solve, touching: args.touching, html: args.html.as_deref() };
        return super::flow::print(&args.rules, drawing);
    }
    if args.solve || args.html.is_some() {
        return Err(format!(
            "{}: --solve and --html draw Flow puzzles; this is not a Flow puzzle file",
            args.rules.display()
        ));
    }
    let (path, english) = (args.rules.as_path(), args.english);
    let (schema, rules) = read_rules(path)?;
    if english && schema.domain() != "nonogram" {
        return Err(format!(
            "{}: --english describes nonogram rules; these are {} rules",
            path.display(),
            schema.domain()
        ));
    }
    let shown: Vec<String> = rules
        .iter()
        .map(|r| {
            let mut rule = r.clone();
            rule.description.retain(|line| !is_cost_note(line));
            if english {
                let sentence = stratsynth::domains::nonogram::rules::describe::sentence(&rule, &schema);
                // (a learned rule's comment already starts with its sentence)
                if !rule.description.join(" ").starts_with(&sentence) {
                    rule.description.splice(0..0, stratsynth::domains::nonogram::rules::describe::wrap(&sentence, 76));
                }
            }
            format!("# cost {}\n{}", cost(&rule, &schema), print_rule(&rule, &schema))
        })
        .collect();
    print!("{}", shown.join("\n"));
    Ok(ExitCode::SUCCESS)
}

/// `x=element i` for each pattern variable.
fn show_binding(rule: &Rule, schema: &Schema, binding: &Binding) -> String {
    rule.decls
        .iter()
        .zip(binding)
        .map(|(d, i)| format!("{} = {} {}", d.name, schema.type_name(d.ty), i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `fill(false, 3, 4)`.
fn show_action(schema: &Schema, action: &ActionValue) -> String {
    let def = schema.action(action.action);
    if def.params.is_empty() {
        return def.name.clone();
    }
    let args: Vec<String> = def
        .params
        .iter()
        .zip(&action.args)
        .map(|(p, v)| match p {
            stratsynth::dsl::schema::ParamKind::Bool => (*v != 0).to_string(),
            stratsynth::dsl::schema::ParamKind::Int => v.to_string(),
            stratsynth::dsl::schema::ParamKind::Element => {
                format!("{} {v}", def.element.as_deref().unwrap_or_default())
            }
        })
        .collect();
    format!("{}({})", def.name, args.join(", "))
}

/// Longest lines `check` visits without a warning about the time it takes.
const SLOW_CHECK: usize = 15;

/// Options of `check`.
#[derive(clap::Args, serde::Serialize, Debug)]
pub struct CheckArgs {
    /// The `.rules` file.
    pub rules: PathBuf,
    /// Longest line checked (nonogram rules; default 10), or largest board
    /// side on which every puzzle is checked (Flow rules: 1 to 3, default 3;
    /// 100 random 4x4 puzzles are checked too).
    #[arg(long)]
    pub max_n: Option<usize>,
}

/// Random 4x4 puzzles (with a solution) `check` tries Flow rules on, and
/// consistent states per puzzle.
const FLOW_SAMPLES: (usize, usize) = (100, 200);

/// `check` on Flow rules: every consistent state of every puzzle up to
/// N x N (N at most 3), then sampled 4x4 puzzles.
fn check_flow(path: &std::path::Path, schema: &Schema, rules: &[Rule], max_n: Option<usize>) -> CmdResult {
    use stratsynth::domains::flow::rules::{brute::Sweep, view::Layout};
    let n = max_n.unwrap_or(3);
    if n == 0 || n > 3 {
        return Err("--max-n must be between 1 and 3 for Flow rules (every puzzle up to N x N is checked)".into());
    }
    some_rules(path, rules)?;
    let layout = Layout::new(schema, "dsl/flow.ron").map_err(|e| e.to_string())?;
    let mut sweep = Sweep::new(rules, &layout, schema.size_feature);
    sweep.every_puzzle(n, n);
    let every = sweep.visited;
    sweep.sampled(4, 4, FLOW_SAMPLES.0, FLOW_SAMPLES.1, 1);
    let sampled = (sweep.visited.puzzles - every.puzzles, sweep.visited.states - every.states);
    let mut all_sound = true;
    for (rule, found) in rules.iter().zip(&sweep.found) {
        match found {
            None => println!(
                "{}: sound on every puzzle up to {n}x{n} ({} with a solution, {} consistent states) and {} random 4x4 puzzles ({} states)",
                rule.name, every.puzzles, every.states, sampled.0, sampled.1
            ),
            Some(cx) => {
                all_sound = false;
                println!(
                    "{}: UNSOUND on {} with {}: {}",
                    rule.name,
                    cx.show(),
                    show_binding(rule, schema, &cx.binding),
                    show_action(schema, &cx.action)
                );
            }
        }
    }
    Ok(if all_sound { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

/// `check RULES --max-n N`: brute force over every valid line up to N cells.
pub fn check(args: &CheckArgs) -> CmdResult {
    let path = args.rules.as_path();
    if let Some((schema, rules)) = read_rules(path).ok().filter(|(s, _)| s.domain() == "flow") {
        return check_flow(path, &schema, &rules, args.max_n);
    }
    let max_n = args.max_n.unwrap_or(10);
    let (domain, rules) = read_nonogram_rules(path)?;
    let limit = (domain.schema().file.limits.max_state as usize).min(MAX_LEN);
    if max_n == 0 || max_n > limit {
        return Err(format!("--max-n must be between 1 and {limit}"));
    }
    if max_n > SLOW_CHECK {
        eprintln!(
            "warning: check visits every valid line of up to {max_n} cells; their number grows about 3x per cell \
             (12 cells take seconds, {SLOW_CHECK} minutes, 20 hours); `verify --bound {max_n}` proves the rules with Z3 instead"
        );
    }
    some_rules(path, &rules)?;
    let mut all_sound = true;
    for (rule, verdict) in rules.iter().zip(brute_force_all(&domain, &rules, max_n)) {
        match verdict {
            None => println!("{}: sound on all valid lines up to {max_n} cells", rule.name),
            Some(cx) => {
                all_sound = false;
                println!(
                    "{}: UNSOUND on {} (maximal transition {}) with {}: {}",
                    rule.name,
                    domain.show(&cx.state),
                    stratsynth::domains::nonogram::line::model::format_cells(&cx.state.target),
                    show_binding(rule, domain.schema(), &cx.binding),
                    show_action(domain.schema(), &cx.action)
                );
            }
        }
    }
    Ok(if all_sound { ExitCode::SUCCESS } else { ExitCode::from(1) })
}

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
