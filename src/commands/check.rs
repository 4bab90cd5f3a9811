//! `check`: brute-force soundness of each rule of a file on every small
//! state (nonogram lines, Flow boards), and how a counterexample is shown.

use super::{some_rules, CmdResult};
use std::path::PathBuf;
use std::process::ExitCode;
use stratsynth::domains::nonogram::rules::check::{brute_force_all, MAX_LEN};
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::eval::{ActionValue, Binding};
use stratsynth::dsl::schema::Schema;
use stratsynth::rule_files::{read_nonogram_rules, read_rules};

/// `x=element i` for each pattern variable.
pub(super) fn show_binding(rule: &Rule, schema: &Schema, binding: &Binding) -> String {
    rule.decls
        .iter()
        .zip(binding)
        .map(|(d, i)| format!("{} = {} {}", d.name, schema.type_name(d.ty), i))
        .collect::<Vec<_>>()
        .join(", ")
}

/// `fill(false, 3, 4)`.
pub(super) fn show_action(schema: &Schema, action: &ActionValue) -> String {
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
