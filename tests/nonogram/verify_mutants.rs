//! Mutation test of `verify`: on the 13 control rules and on every distinct
//! single-point mutant of them (comparison operators, literal constants
//! ±1, pattern kinds, swapped features and variables, dropped conjuncts,
//! the fill value flipped, action bounds ±1), the Z3 verdict at bound 12
//! equals brute force over every valid line of at most 12 cells, and every
//! counterexample Z3 returns is a valid line (exact solver) on which the
//! concrete interpreter's fill is wrong — asked whole and split into one
//! query per slot of a pattern variable, each query on the encoding made
//! for its rule (fewer block and gap slots where its patterns allow);
//! three more unsound rules need the most slots the encoding made for them
//! allows. The same, with a resource limit, on five sound rules over the
//! placement features and their mutants (one test each; some verdicts come
//! from the tight encoding asked after a relaxed model did not replay),
//! where a model that does not replay may leave a few unsound mutants
//! `unknown`. Also:
//! `verify --json` prints the documented JSON.

use crate::mutation::{
    assert_confirmed, disagreement, distinct_mutants, z3_equals_brute_force_on_rule_and_mutants, BOUND,
};
use stratsynth::domains::nonogram::line::model::Line;
use stratsynth::domains::nonogram::line::solver::solve;
use stratsynth::domains::nonogram::rules::check::brute_force_all;
use stratsynth::domains::nonogram::synthesis::domain::{fill_args, Nonogram};
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::schema::Schema;
use stratsynth::synth::verify::{split_variable, Counterexample, Verdict, Verifier};

/// Unsound rules whose every counterexample needs the most block or gap
/// slots the encoding made for them allows: the second block (so two
/// blocks), a block that is not the largest (so another one), and a gap
/// with a run before and after it (so a gap on each side of it).
const SLOT_RULES: &str = "\
def second_block_crossed:
    with b = constant(block, 1):
    if true:
    then fill(false, start(b), start(b) + 1)

def smaller_block_crossed:
    with b = arbitrary(block):
    if not (maximal(b)):
    then fill(false, start(b), start(b) + 1)

def middle_gap_crossed:
    with h = constant(hint, 0) and j = constant(hint, 2) and g = arbitrary(gap):
    if highest_start_cell(h) + 1 < start(g) and lowest_end_cell(j) > start(g) + size(g) + 1:
    then fill(false, start(g), start(g) + size(g))
";
const CONTROL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/nonogram/control.rules");

fn control_rules(schema: &Schema) -> Vec<Rule> {
    parse_rules(&std::fs::read_to_string(CONTROL).unwrap(), CONTROL, schema).unwrap()
}

#[test]
fn z3_verdicts_at_bound_12_equal_brute_force_on_control_rules_and_mutants() {
    let d = Nonogram::new();
    let schema = d.schema();
    let control = control_rules(schema);
    assert_eq!(control.len(), 13);
    let mutants = distinct_mutants(&control, schema);
    let slot_rules = parse_rules(SLOT_RULES, "slot rules", schema).unwrap();
    let rules: Vec<Rule> =
        control.iter().cloned().chain(mutants.iter().cloned()).chain(slot_rules.iter().cloned()).collect();

    let started = std::time::Instant::now();
    let mut verifier = Verifier::new(&d, BOUND, 60_000);
    let verdicts: Vec<_> = rules.iter().map(|r| verifier.check(r)).collect();
    let z3_time = started.elapsed();
    let started = std::time::Instant::now();
    let brute = brute_force_all(&d, &rules, BOUND as usize);
    let brute_time = started.elapsed();
    let agree = |verdicts: &[Verdict<Counterexample<<Nonogram as Domain>::State>>]| {
        let mut failures = vec![];
        for ((rule, verdict), truth) in rules.iter().zip(verdicts).zip(&brute) {
            match (verdict, truth) {
                (Verdict::Sound, None) => {}
                (Verdict::Unsound(cx), Some(bx)) => {
                    let fill = fill_args(&cx.action).expect("a fill");
                    assert_confirmed(&d, rule, &cx.state.line, &cx.state.target, &cx.binding, fill);
                    let fill = fill_args(&bx.action).expect("a fill");
                    assert_confirmed(&d, rule, &bx.state.line, &bx.state.target, &bx.binding, fill);
                }
                (v, t) => failures.push(disagreement(&d, rule, v.word(), t.as_ref())),
            }
        }
        assert!(failures.is_empty(), "verdicts disagree:\n{}", failures.join("\n"));
    };
    agree(&verdicts);

    // every query with a variable to split over, split at once: one query
    // per slot, the first not proven sound giving the verdict
    let split_types = schema.split_types();
    let split: Vec<bool> = rules.iter().map(|r| split_variable(r, &split_types).is_some()).collect();
    let started = std::time::Instant::now();
    let mut splitting = Verifier::deterministic(&d, BOUND, 2_000_000_000).split_after(0);
    let split_verdicts: Vec<_> = rules
        .iter()
        .zip(&split)
        .zip(&verdicts)
        .map(|((r, &split), whole)| if split { splitting.check(r) } else { whole.clone() })
        .collect();
    agree(&split_verdicts);
    let split_count = split.iter().filter(|&&s| s).count();
    let split_unsound = split.iter().zip(&brute).filter(|(&s, b)| s && b.is_some()).count();
    eprintln!("{split_count} rules split ({split_unsound} unsound) in {:.1?}", started.elapsed());
    assert!(split_count >= 100 && split_unsound >= 30, "only {split_count} rules split, {split_unsound} unsound");

    let unsound = brute[control.len()..control.len() + mutants.len()].iter().filter(|b| b.is_some()).count();
    eprintln!(
        "{} control rules, {} mutants ({unsound} unsound): Z3 at bound {BOUND} in {z3_time:.1?}, brute force in {brute_time:.1?}",
        control.len(),
        mutants.len()
    );
    assert!(brute[..control.len()].iter().all(Option::is_none), "a control rule is unsound");
    assert!(brute[rules.len() - slot_rules.len()..].iter().all(Option::is_some), "a slot rule is sound");
    assert!(mutants.len() >= 100, "only {} distinct mutants", mutants.len());
    assert!(2 * unsound > mutants.len(), "only {unsound} of {} mutants are unsound", mutants.len());
}

/// Sound rules over the placement features (docs/reference/language.md): where a hint can
/// still start, given the known cells.
const PLACED_BOXES: &str = "\
def placed_boxes:
    with h = arbitrary(hint):
    if latest_start(h) < earliest_start(h) + size(h):
    then fill(true, latest_start(h), earliest_start(h) + size(h))
";
const BEFORE_FIRST_HINT: &str = "\
def before_first_hint:
    with h = constant(hint, 0):
    if true:
    then fill(false, 0, earliest_start(h))
";
const BETWEEN_HINTS: &str = "\
def between_hints:
    with h = arbitrary(hint) and j = arbitrary(hint):
    if start(j) = start(h) + 1 and latest_start(h) + size(h) < earliest_start(j):
    then fill(false, latest_start(h) + size(h), earliest_start(j))
";
const AFTER_ONLY_HINT: &str = "\
def after_only_hint:
    with h = singleton(hint):
    if latest_start(h) + size(h) < line_size:
    then fill(false, latest_start(h) + size(h), line_size)
";
const BLOCK_OF_FIXED_HINT: &str = "\
def block_of_fixed_hint:
    with h = arbitrary(hint) and b = arbitrary(block):
    if earliest_start(h) = latest_start(h) and start(b) = earliest_start(h) and size(b) < size(h):
    then fill(true, start(b) + size(b), start(b) + size(h))
";

#[test]
fn placed_boxes_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_rule_and_mutants(PLACED_BOXES, true);
}

#[test]
fn before_first_hint_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_rule_and_mutants(BEFORE_FIRST_HINT, false);
}

#[test]
fn between_hints_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_rule_and_mutants(BETWEEN_HINTS, true);
}

#[test]
fn after_only_hint_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_rule_and_mutants(AFTER_ONLY_HINT, false);
}

#[test]
fn block_of_fixed_hint_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_rule_and_mutants(BLOCK_OF_FIXED_HINT, true);
}

#[test]
fn verify_json_prints_the_documented_list() {
    let text = "
def simple_boxes:
    with h = arbitrary(hint):
    if lowest_end_cell(h) > highest_start_cell(h):
    then fill(true, highest_start_cell(h), lowest_end_cell(h))

def big_hint_arithmetic:
    with h = singleton(hint):
    if 2 * size(h) > line_size:
    then fill(true, line_size - size(h), size(h))

def boxes_one_early:
    with h = arbitrary(hint):
    if lowest_end_cell(h) > highest_start_cell(h):
    then fill(true, highest_start_cell(h) - 1, lowest_end_cell(h))
";
    let path = crate::cli::temp_path("verify-json.rules");
    std::fs::write(&path, text).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_stratsynth"))
        .args(["verify", "--json", "--bound", "9"])
        .arg(&path)
        .output()
        .unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(out.status.code(), Some(1), "an unsound rule makes verify exit with 1");
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).expect("stdout is one JSON value");
    let list = json.as_array().expect("a JSON list");
    let names: Vec<&str> = list.iter().map(|v| v["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["simple_boxes", "big_hint_arithmetic", "boxes_one_early"]);
    for v in list {
        let keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        assert_eq!(keys, ["bound", "counterexample", "name", "verdict"]);
        assert_eq!(v["bound"], 9);
    }
    for v in &list[..2] {
        assert_eq!(v["verdict"], "sound");
        assert!(v["counterexample"].is_null());
    }
    assert_eq!(list[2]["verdict"], "unsound");
    // `HINTS | CELLS`: a valid line of at most 9 cells
    let cx: Line = list[2]["counterexample"].as_str().unwrap().parse().unwrap();
    assert!(cx.len() <= 9 && solve(&cx).is_some(), "{cx}");
    assert_eq!(list[2]["counterexample"].as_str().unwrap(), cx.to_string());
}
