//! Single-point mutants of nonogram rules and the checks the Z3-against-
//! brute-force tests share: every distinct mutant of a rule (comparison
//! operators, literal constants ±1, pattern kinds, swapped features and
//! variables, dropped conjuncts, the fill value flipped, action bounds ±1),
//! and a counterexample confirmed by the exact solver and the interpreter.

use std::collections::HashSet;
use stratsynth::domains::nonogram::line::model::{Cell, Line};
use stratsynth::domains::nonogram::line::solver::solve;
use stratsynth::domains::nonogram::rules::check::{brute_force_all, BruteCounterexample};
use stratsynth::domains::nonogram::synthesis::domain::{fill_args, Nonogram};
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::{ActionArg, BoolExpr, CmpOp, IntExpr, PatternKind, Rule};
use stratsynth::dsl::eval::Interpreter;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::print::print_rule;
use stratsynth::dsl::schema::{FeatureKind, Schema};
use stratsynth::synth::verify::{Unknown, Verdict, Verifier};

/// Counterexamples are lines of at most this many cells.
pub const BOUND: u32 = 12;

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
pub fn mutants(rule: &Rule, schema: &Schema) -> Vec<Rule> {
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
pub fn distinct_mutants(control: &[Rule], schema: &Schema) -> Vec<Rule> {
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
pub fn assert_confirmed(
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
pub fn disagreement(d: &Nonogram, rule: &Rule, word: &str, truth: Option<&BruteCounterexample>) -> String {
    let found = truth.map_or("finds it sound".to_string(), |c| format!("finds {}", d.show(&c.state)));
    format!("{}: Z3 says {word} but brute force {found}\n{}", rule.name, print_rule(rule, d.schema()))
}

/// Z3 (with the placement and ownership features' encoding, at bound 12)
/// against brute force on every valid line up to 12 cells, on a sound rule
/// over those features and its distinct single-point mutants: every
/// verdict Z3 gives is brute force's, every counterexample replays; a
/// model Z3 cannot turn into a replayed counterexample is `unknown`, which
/// is allowed only on a rule brute force finds unsound, and is rare.
pub fn z3_equals_brute_force_on_rule_and_mutants(text: &str, some_tight: bool) {
    let d = Nonogram::new();
    let schema = d.schema();
    let original = parse_rules(text, "rule", schema).unwrap();
    let mutants = distinct_mutants(&original, schema);
    let rules: Vec<Rule> = original.iter().cloned().chain(mutants.iter().cloned()).collect();
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
        original[0].name,
        mutants.len(),
        verifier.tight_checks()
    );
    assert!(brute[0].is_none(), "{} is unsound", original[0].name);
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
