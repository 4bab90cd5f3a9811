//! `explain`'s steps of a Flow solve (the text, `--json` and the HTML
//! page's steps): each step's heading and notes in words, the links and
//! cuts it makes as `[[x, y], [x, y]]` pairs.

use serde_json::{json, Value};

use crate::domains::flow::draw::steps::PageStep;
use crate::domains::flow::formats::write::{solution_json, solution_links};
use crate::domains::flow::model::grid::Slot;
use crate::domains::flow::model::puzzle::Puzzle;
use crate::domains::flow::model::state::{Solution, State, Status};
use crate::domains::flow::play::playthrough::{How, Playthrough, Step};
use crate::dsl::ast::Rule;
use crate::dsl::print::print_rule;
use crate::dsl::schema::Schema;

/// Slots as `[[x, y], [x, y]]` pairs, the lesser cell first, row by row.
fn pairs(p: &Puzzle, slots: &[Slot]) -> Vec<[[usize; 2]; 2]> {
    solution_links(p, &Solution::new(slots.to_vec()))
}

/// Slots in words: `(x, y)-(x, y), ...`.
fn words(p: &Puzzle, slots: &[Slot]) -> String {
    let shown: Vec<String> =
        pairs(p, slots).iter().map(|[a, b]| format!("({}, {})-({}, {})", a[0], a[1], b[0], b[1])).collect();
    shown.join(", ")
}

/// The rule's name of a step, if a rule made it.
fn rule_name<'r>(step: &Step, rules: &'r [Rule]) -> Option<&'r str> {
    match step.how {
        How::Rule(r) => Some(rules[r].name.as_str()),
        _ => None,
    }
}

/// Step `i` in words: its heading and notes.
pub fn describe(i: usize, step: &Step, p: &Puzzle, rules: &[Rule]) -> (String, Vec<String>) {
    let mut notes = vec![];
    if !step.link.is_empty() {
        notes.push(format!("links {}", words(p, &step.link)));
    }
    if !step.cut.is_empty() {
        notes.push(format!("cuts {}", words(p, &step.cut)));
    }
    let heading = match step.how {
        How::Rule(r) => {
            let round = step.round.map_or(String::new(), |n| format!("round {n}, "));
            format!("Step {}: {round}rule {}", i + 1, rules[r].name)
        }
        How::Propagation => format!("Step {}: the complete solver's propagation", i + 1),
        How::Probe | How::Guess => {
            let linked = !step.link.is_empty();
            let slot = words(p, if linked { &step.link } else { &step.cut });
            if step.how == How::Probe {
                notes.push(format!(
                    "{} it instead makes the complete solver's propagation reach a contradiction",
                    if linked { "cutting" } else { "linking" }
                ));
            } else {
                notes.push("no probe settles any slot; the complete solver's solution gives this one".into());
            }
            notes.push(format!("1 of {} open slots: 1 + log2({}) = {:.2} bits", step.open, step.open, step.bits));
            let what = if step.how == How::Probe { "PROBE" } else { "GUESS" };
            format!("Step {}: {what} (complete solver) — {slot} is {}", i + 1, if linked { "linked" } else { "cut" })
        }
    };
    (heading, notes)
}

/// One step in `--json`: `rule` (null for the complete solver's steps),
/// `how` (`rule`, `propagation`, `probe`, `guess`), `round`, `link` and
/// `cut` as pairs of `[x, y]` cells, `open` (slots open before it), `bits`.
pub fn step_json(step: &Step, p: &Puzzle, rules: &[Rule]) -> Value {
    json!({
        "rule": rule_name(step, rules),
        "how": step.how.name(),
        "round": step.round,
        "link": pairs(p, &step.link),
        "cut": pairs(p, &step.cut),
        "open": step.open,
        "bits": step.bits,
    })
}

/// What `explain --json` prints of a puzzle's solve.
pub struct Explained<'a> {
    /// The puzzle's name.
    pub file: &'a str,
    /// The puzzle.
    pub puzzle: &'a Puzzle,
    /// The rule file's name.
    pub rules_file: &'a str,
    /// Its rules.
    pub rules: &'a [Rule],
    /// Solutions: 1, or 2 for two or more.
    pub solutions: usize,
    /// The solution the solve follows.
    pub solution: &'a Solution,
    /// The solve.
    pub play: &'a Playthrough,
}

/// The whole `--json` object: the puzzle (`file`, `width`, `height`,
/// `colours`, `solutions`), the rule file (`rules`), `solved_by_rules`,
/// `rule_steps`, `solver_steps`, `bits`, `steps`, and the `solution`
/// followed as `{"links": ...}`.
pub fn explain_json(e: &Explained) -> Value {
    let p = e.puzzle;
    json!({
        "file": e.file,
        "width": p.width(),
        "height": p.height(),
        "colours": p.colours(),
        "solutions": e.solutions,
        "rules": e.rules_file,
        "solved_by_rules": e.play.solved_alone(),
        "rule_steps": e.play.knowledge_steps(),
        "solver_steps": e.play.oracle_steps(),
        "bits": e.play.bits,
        "steps": e.play.steps.iter().map(|s| step_json(s, p, e.rules)).collect::<Vec<Value>>(),
        "solution": solution_json(p, e.solution),
    })
}

/// The HTML page's steps: each with the state after it and, the first
/// time its rule is used, the rule's text.
pub fn page_steps(p: &Puzzle, play: &Playthrough, rules: &[Rule], schema: &Schema) -> Vec<PageStep> {
    let mut state = State::start(p.grid());
    let mut shown = vec![false; rules.len()];
    play.steps
        .iter()
        .enumerate()
        .map(|(i, step)| {
            for &s in &step.link {
                state.set(s, Status::Linked);
            }
            for &s in &step.cut {
                state.set(s, Status::Cut);
            }
            let (heading, notes) = describe(i, step, p, rules);
            let rule_text = match step.how {
                How::Rule(r) if !shown[r] => {
                    shown[r] = true;
                    Some(print_rule(&rules[r], schema))
                }
                _ => None,
            };
            let marked = step.link.iter().chain(&step.cut).copied().collect();
            PageStep { heading, notes, rule_text, state: state.clone(), marked }
        })
        .collect()
}
