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

use std::collections::HashSet;
use stratsynth::domains::nonogram::line::model::Cell;
use stratsynth::domains::nonogram::line::model::Line;
use stratsynth::domains::nonogram::line::solver::solve;
use stratsynth::domains::nonogram::rules::check::{brute_force_all, BruteCounterexample};
use stratsynth::domains::nonogram::synthesis::domain::{fill_args, Nonogram};
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::{ActionArg, BoolExpr, CmpOp, IntExpr, PatternKind, Rule};
use stratsynth::dsl::eval::Interpreter;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::print::print_rule;
use stratsynth::dsl::schema::{FeatureKind, Schema};
use stratsynth::synth::verify::{split_variable, Counterexample, Unknown, Verdict, Verifier};

const BOUND: u32 = 12;

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

/// Every tree obtained from `e` by replacing one node `n` with one of `at(n)`.
fn int_sites(e: &IntExpr, at: &dyn Fn(&IntExpr) -> Vec<IntExpr>) -> Vec<IntExpr> {
    let mut out = at(e);
    match e {
        IntExpr::Add(a, b) | IntExpr::Sub(a, b) => {
            let rebuild = |x: IntExpr, y: IntExpr| match e {
                IntExpr::Add(..) => IntExpr::sum(x, y),
                _ => IntExpr::difference(x, y),
            };
            out.extend(int_sites(a, at).into_iter().map(|x| rebuild(x, (**b).clone())));
            out.extend(int_sites(b, at).into_iter().map(|y| rebuild((**a).clone(), y)));
        }
        IntExpr::Mul(k, a) => out.extend(int_sites(a, at).into_iter().map(|x| IntExpr::Mul(*k, Box::new(x)))),
        IntExpr::Lit(_) | IntExpr::Global(_) | IntExpr::Feature(..) => {}
    }
    out
}

/// Every condition obtained from `e` by replacing one boolean node with one
/// of `at_bool(n)` or one integer node with one of `at_int(n)`.
fn bool_sites(
    e: &BoolExpr,
    at_bool: &dyn Fn(&BoolExpr) -> Vec<BoolExpr>,
    at_int: &dyn Fn(&IntExpr) -> Vec<IntExpr>,
) -> Vec<BoolExpr> {
    let mut out = at_bool(e);
    match e {
        BoolExpr::Not(x) => out.extend(bool_sites(x, at_bool, at_int).into_iter().map(|y| BoolExpr::Not(Box::new(y)))),
        BoolExpr::Unique(v, x) => {
            out.extend(bool_sites(x, at_bool, at_int).into_iter().map(|y| BoolExpr::Unique(*v, Box::new(y))))
        }
        BoolExpr::And(parts) => {
            for (i, part) in parts.iter().enumerate() {
                for y in bool_sites(part, at_bool, at_int) {
                    let mut p = parts.clone();
                    p[i] = y;
                    out.push(BoolExpr::And(p));
                }
            }
        }
        BoolExpr::Cmp(op, a, b) => {
            out.extend(int_sites(a, at_int).into_iter().map(|x| BoolExpr::Cmp(*op, x, b.clone())));
            out.extend(int_sites(b, at_int).into_iter().map(|y| BoolExpr::Cmp(*op, a.clone(), y)));
        }
        BoolExpr::True | BoolExpr::Maximal(_) | BoolExpr::Minimal(_) | BoolExpr::Feature(..) | BoolExpr::Pair(..) => {}
    }
    out
}

/// `e + d` with a trailing literal folded in: `x - 1` shifted by 1 is `x`.
fn shift(e: &IntExpr, d: i64) -> IntExpr {
    let (base, k) = match e {
        IntExpr::Add(x, y) => match **y {
            IntExpr::Lit(k) => (Some((**x).clone()), k),
            _ => (Some(e.clone()), 0),
        },
        IntExpr::Sub(x, y) => match **y {
            IntExpr::Lit(k) => (Some((**x).clone()), -k),
            _ => (Some(e.clone()), 0),
        },
        IntExpr::Lit(k) => (None, *k),
        _ => (Some(e.clone()), 0),
    };
    let k = k + d;
    match base {
        None => IntExpr::Lit(k),
        Some(x) if k == 0 => x,
        Some(x) if k > 0 => IntExpr::sum(x, IntExpr::Lit(k)),
        Some(x) => IntExpr::difference(x, IntExpr::Lit(-k)),
    }
}

/// Every single-point mutant of `rule`, named `RULE__KIND_N`, in a fixed order.
fn mutants(rule: &Rule, schema: &Schema) -> Vec<Rule> {
    let mut out: Vec<(&str, Rule)> = vec![];
    let with_condition = |c: BoolExpr| Rule { condition: c, ..rule.clone() };
    let no_bool = |_: &BoolExpr| vec![];
    let no_int = |_: &IntExpr| vec![];

    // comparison operators; operands swapped; maximal <-> minimal
    let cmp = |b: &BoolExpr| match b {
        BoolExpr::Cmp(op, x, y) => {
            CmpOp::ALL.iter().filter(|o| *o != op).map(|o| BoolExpr::Cmp(*o, x.clone(), y.clone())).collect()
        }
        _ => vec![],
    };
    out.extend(bool_sites(&rule.condition, &cmp, &no_int).into_iter().map(|c| ("cmp", with_condition(c))));
    let swap = |b: &BoolExpr| match b {
        BoolExpr::Cmp(op, x, y) if !matches!(op, CmpOp::Eq | CmpOp::Ne) => {
            vec![BoolExpr::Cmp(*op, y.clone(), x.clone())]
        }
        BoolExpr::Maximal(v) => vec![BoolExpr::Minimal(*v)],
        BoolExpr::Minimal(v) => vec![BoolExpr::Maximal(*v)],
        _ => vec![],
    };
    out.extend(bool_sites(&rule.condition, &swap, &no_int).into_iter().map(|c| ("swap", with_condition(c))));
    // a conjunct dropped (the whole condition, if it is one)
    let drop: Vec<BoolExpr> = match &rule.condition {
        BoolExpr::True => vec![],
        BoolExpr::And(parts) => (0..parts.len())
            .map(|i| BoolExpr::and(parts.iter().enumerate().filter(|(j, _)| *j != i).map(|(_, p)| p.clone()).collect()))
            .collect(),
        _ => vec![BoolExpr::True],
    };
    out.extend(drop.into_iter().map(|c| ("drop", with_condition(c))));

    // literal constants +-1 (also multipliers), in the condition and the action
    let lit = |e: &IntExpr| match e {
        IntExpr::Lit(k) => vec![IntExpr::Lit(k + 1), IntExpr::Lit(k - 1)],
        IntExpr::Mul(k, x) => {
            [k + 1, k - 1].into_iter().filter(|m| *m > 0).map(|m| IntExpr::Mul(m, x.clone())).collect()
        }
        _ => vec![],
    };
    // a feature replaced by another of its variable's type, or applied to another variable
    let feature = |e: &IntExpr| match e {
        IntExpr::Feature(f, v) => {
            let ty = rule.decls[*v as usize].ty;
            let others_f = schema
                .features()
                .filter(|g| g != f && schema.feature(*g).kind == FeatureKind::Int && schema.applies(*g, ty))
                .map(|g| IntExpr::Feature(g, *v));
            let others_v = (0..rule.decls.len() as u8)
                .filter(|w| w != v && schema.applies(*f, rule.decls[*w as usize].ty))
                .map(|w| IntExpr::Feature(*f, w));
            others_f.chain(others_v).collect()
        }
        _ => vec![],
    };
    for (kind, at) in [("lit", &lit as &dyn Fn(&IntExpr) -> Vec<IntExpr>), ("feature", &feature)] {
        out.extend(bool_sites(&rule.condition, &no_bool, at).into_iter().map(|c| (kind, with_condition(c))));
        for (i, arg) in rule.action.args.iter().enumerate() {
            if let ActionArg::Int(e) = arg {
                for m in int_sites(e, at) {
                    let mut r = rule.clone();
                    r.action.args[i] = ActionArg::Int(m);
                    out.push((kind, r));
                }
            }
        }
    }

    // pattern kinds
    for (i, d) in rule.decls.iter().enumerate() {
        let kinds = match d.kind {
            PatternKind::Arbitrary => vec![PatternKind::Singleton, PatternKind::Constant(0), PatternKind::Constant(1)],
            PatternKind::Singleton => vec![PatternKind::Arbitrary, PatternKind::Constant(0), PatternKind::Constant(1)],
            PatternKind::Constant(k) => {
                let mut ks = vec![PatternKind::Arbitrary, PatternKind::Singleton, PatternKind::Constant(k + 1)];
                ks.extend(k.checked_sub(1).map(PatternKind::Constant));
                ks
            }
        };
        for kind in kinds {
            let mut r = rule.clone();
            r.decls[i].kind = kind;
            out.push(("pattern", r));
        }
    }

    // the fill value flipped; action bounds +-1
    for (i, arg) in rule.action.args.iter().enumerate() {
        let changed: Vec<ActionArg> = match arg {
            ActionArg::Bool(v) => vec![ActionArg::Bool(!v)],
            ActionArg::Int(e) => vec![ActionArg::Int(shift(e, 1)), ActionArg::Int(shift(e, -1))],
            ActionArg::Element(_) => vec![],
        };
        for a in changed {
            let kind = if matches!(a, ActionArg::Bool(_)) { "value" } else { "bound" };
            let mut r = rule.clone();
            r.action.args[i] = a;
            out.push((kind, r));
        }
    }

    out.into_iter()
        .enumerate()
        .map(|(n, (kind, r))| Rule { name: format!("{}__{kind}_{n}", rule.name), description: vec![], ..r })
        .collect()
}

/// The rule's text without its name and description (what makes mutants distinct).
fn body(rule: &Rule, schema: &Schema) -> String {
    print_rule(&Rule { name: "r".into(), description: vec![], ..rule.clone() }, schema)
}

/// The control rules' distinct mutants (none equal to a control rule), each
/// of which prints and parses back to itself.
fn distinct_mutants(control: &[Rule], schema: &Schema) -> Vec<Rule> {
    let mut seen: HashSet<String> = control.iter().map(|r| body(r, schema)).collect();
    let mut out = vec![];
    for rule in control {
        for m in mutants(rule, schema) {
            let text = print_rule(&m, schema);
            let back =
                parse_rules(&text, &m.name, schema).unwrap_or_else(|e| panic!("mutant does not parse: {e}\n{text}"));
            assert_eq!(back, vec![m.clone()], "mutant does not round-trip:\n{text}");
            if seen.insert(body(&m, schema)) {
                out.push(m);
            }
        }
    }
    out
}

/// Asserts that `cx` is a counterexample the exact solver and the concrete
/// interpreter confirm: a valid line of at most `BOUND` cells, its true
/// maximal transition, a binding under which the condition holds and the
/// rule's fill is `fill`, and that fill out of range or not forced.
fn assert_confirmed(
    d: &Nonogram,
    rule: &Rule,
    line: &Line,
    target: &[Cell],
    binding: &[usize],
    fill: (bool, i64, i64),
) {
    assert!(line.len() <= BOUND as usize, "{}: counterexample {line} is longer than the bound", rule.name);
    let exact = solve(line).unwrap_or_else(|| panic!("{}: counterexample {line} is not a valid line", rule.name));
    assert_eq!(exact, target, "{}: wrong maximal transition of {line}", rule.name);
    let view = d.line_view(line);
    let interp = Interpreter::new(rule, &view, d.schema().size_feature);
    let binding = binding.to_vec();
    assert!(interp.eval_bool(&rule.condition, &binding), "{}: condition false on {line} under {binding:?}", rule.name);
    assert_eq!(fill_args(&interp.eval_action(&binding)), Some(fill), "{}: fill does not replay on {line}", rule.name);
    let (value, a, b) = fill;
    let n = line.len() as i64;
    let wrong =
        !(0 <= a && a <= b && b <= n) || exact[a as usize..b as usize].iter().any(|&c| c != Cell::from_bool(value));
    assert!(wrong, "{}: fill({value}, {a}, {b}) is right on {line}", rule.name);
}

/// The failure message of a rule whose Z3 verdict (`word`) brute force
/// (`truth`: its counterexample, if any) does not confirm.
fn disagreement(d: &Nonogram, rule: &Rule, word: &str, truth: Option<&BruteCounterexample>) -> String {
    let found = truth.map_or("finds it sound".to_string(), |c| format!("finds {}", d.show(&c.state)));
    format!("{}: Z3 says {word} but brute force {found}\n{}", rule.name, print_rule(rule, d.schema()))
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

/// Z3 (with the placement features' encoding, at bound 12) against brute
/// force on every valid line up to 12 cells, on a sound rule over the
/// placement features and its distinct single-point mutants: every
/// verdict Z3 gives is brute force's, every counterexample replays; a
/// model Z3 cannot turn into a replayed counterexample is `unknown`, which
/// is allowed only on a rule brute force finds unsound, and is rare.
fn z3_equals_brute_force_on_placement_rule_and_mutants(text: &str, some_tight: bool) {
    let d = Nonogram::new();
    let schema = d.schema();
    let placement = parse_rules(text, "placement rule", schema).unwrap();
    let mutants = distinct_mutants(&placement, schema);
    let rules: Vec<Rule> = placement.iter().cloned().chain(mutants.iter().cloned()).collect();
    let started = std::time::Instant::now();
    let mut verifier = Verifier::deterministic(&d, BOUND, 200_000_000);
    let verdicts: Vec<_> = rules.iter().map(|r| verifier.check(r)).collect();
    let z3_time = started.elapsed();
    let brute = brute_force_all(&d, &rules, BOUND as usize);
    let mut failures = vec![];
    let mut unknown = 0;
    for ((rule, verdict), truth) in rules.iter().zip(&verdicts).zip(&brute) {
        match (verdict, truth) {
            (Verdict::Sound, None) => {}
            (Verdict::Unsound(cx), Some(_)) => {
                let fill = fill_args(&cx.action).expect("a fill");
                assert_confirmed(&d, rule, &cx.state.line, &cx.state.target, &cx.binding, fill);
            }
            (Verdict::Unknown(Unknown::NoReplay(_)), Some(_)) => unknown += 1,
            (v, t) => failures.push(disagreement(&d, rule, v.word(), t.as_ref())),
        }
    }
    assert!(failures.is_empty(), "verdicts disagree:\n{}", failures.join("\n"));
    let unsound = brute.iter().filter(|b| b.is_some()).count();
    eprintln!(
        "{}: {} mutants ({unsound} unsound, {unknown} of them unknown to Z3) at bound {BOUND}, {} asked on the tight encoding, Z3 in {z3_time:.1?}",
        placement[0].name,
        mutants.len(),
        verifier.tight_checks()
    );
    assert!(brute[0].is_none(), "{} is unsound", placement[0].name);
    assert!(
        mutants.len() >= 10 && 3 * unsound > mutants.len(),
        "only {unsound} of {} mutants are unsound",
        mutants.len()
    );
    assert!(20 * unknown <= unsound, "{unknown} of {unsound} unsound rules unknown to Z3");
    // where the relaxed encoding's model did not replay, the tight one's
    // verdicts are among those checked
    assert!(!some_tight || verifier.tight_checks() > 0, "no rule was asked on the tight encoding");
}

#[test]
fn placed_boxes_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_placement_rule_and_mutants(PLACED_BOXES, true);
}

#[test]
fn before_first_hint_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_placement_rule_and_mutants(BEFORE_FIRST_HINT, false);
}

#[test]
fn between_hints_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_placement_rule_and_mutants(BETWEEN_HINTS, true);
}

#[test]
fn after_only_hint_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_placement_rule_and_mutants(AFTER_ONLY_HINT, false);
}

#[test]
fn block_of_fixed_hint_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_placement_rule_and_mutants(BLOCK_OF_FIXED_HINT, true);
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
    let path = std::env::temp_dir().join(format!("stratsynth-verify-json-{}.rules", std::process::id()));
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
