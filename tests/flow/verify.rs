//! Z3 proofs of Flow rules against brute force: on every board up to 3x3
//! (and 4x4 for the rules Z3 proves there at once) the control rules are
//! sound by both; the planted unsound rules of tests/flow/rules.rs are
//! refuted by both, Z3's counterexample replaying on the concrete side
//! (the rule fires on the state, and the witness solution, a solution of
//! the puzzle extending the state, disagrees); `verify` on Flow rule files.

use std::process::Command;
use stratsynth::domains::flow::model::check::check;
use stratsynth::domains::flow::rules::brute::Sweep;
use stratsynth::domains::flow::synthesis::domain::Flow;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::eval::Interpreter;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::dsl::schema::Schema;
use stratsynth::synth::verify::{Verdict, Verifier};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Unsound rules, each one step from a control rule (also played by brute
/// force in `rules.rs`).
pub(crate) const PLANTED: &str = "
def forced_wrong_way:
    with c = arbitrary(cell) and d = arbitrary(cell):
    if need(c) <= open(c) and neighbours(c, d) and not severed(c, d):
    then link(c, d)

def clash_without_colour:
    with c = arbitrary(cell) and d = arbitrary(cell):
    if neighbours(c, d) and colour(c) != colour(d):
    then cut(c, d)

def loop_of_colour:
    with c = arbitrary(cell) and d = arbitrary(cell):
    if neighbours(c, d) and colour(c) = colour(d) and not joined(c, d):
    then cut(c, d)

def area_with_two_heads:
    with a = arbitrary(area):
    if heads(a) <= 2:
    then prune
";

fn control() -> Vec<Rule> {
    let text = std::fs::read_to_string(format!("{ROOT}/rules/flow/control.rules")).unwrap();
    parse_rules(&text, "control.rules", &Schema::flow()).unwrap()
}

/// Z3's verdict on `rule` on every board up to `w` x `h`, board by board.
fn z3_verdict(
    flow: &Flow,
    rule: &Rule,
    w: usize,
    h: usize,
) -> Verdict<stratsynth::synth::verify::Counterexample<stratsynth::domains::flow::synthesis::case::FlowCase>> {
    for bw in 1..=w {
        for bh in 1..=h {
            let board = flow.at(bw, bh);
            let verdict = Verifier::new(&board, w.max(h) as u32, 60_000).check(rule);
            if !verdict.is_sound() {
                return verdict;
            }
        }
    }
    Verdict::Sound
}

/// The control rules are sound by Z3 and by brute force on every board up
/// to 3x3; the planted rules are unsound by both, Z3's counterexamples
/// replaying: the rule concludes the action there, and the witness is a
/// solution extending the state that the action contradicts.
#[test]
fn z3_agrees_with_brute_force_up_to_3x3() {
    let schema = Schema::flow();
    let flow = Flow::with_schema(schema.clone(), "dsl/flow.ron").unwrap();
    let layout = flow.layout();
    let mut rules = control();
    let controls = rules.len();
    rules.extend(parse_rules(PLANTED, "planted.rules", &schema).unwrap());
    let mut sweep = Sweep::new(&rules, layout, schema.size_feature);
    sweep.every_puzzle(3, 3);
    for (i, rule) in rules.iter().enumerate() {
        let unsound = i >= controls;
        assert_eq!(sweep.found[i].is_some(), unsound, "brute force on {}", rule.name);
        match z3_verdict(&flow, rule, 3, 3) {
            Verdict::Sound => assert!(!unsound, "Z3 proves {} sound", rule.name),
            Verdict::Unsound(cx) => {
                assert!(unsound, "Z3 refutes the control rule {}", rule.name);
                let case = &cx.state;
                let witness = case.witness.as_ref().expect("a model's state has its solution");
                assert_eq!(check(&case.puzzle, witness, false), Ok(()), "{}", case.show());
                let view = layout.view(&case.puzzle, &case.state);
                let found = Interpreter::new(rule, &view, schema.size_feature).applications();
                assert!(found.iter().any(|(_, a)| *a == cx.action), "{}: the rule concludes it", rule.name);
                assert!(!layout.holds(&case.puzzle, &cx.action, &[witness.links()]), "{}", rule.name);
                for s in case.state.linked() {
                    assert!(witness.links().contains(&s), "the witness extends the state");
                }
            }
            Verdict::Unknown(why) => panic!("{}: {why}", rule.name),
        }
    }
}

/// Z3 proves the control rules that need no areas on the 4x4 board too
/// (each in about a second).
#[test]
fn z3_proves_the_local_control_rules_on_4x4() {
    let flow = Flow::with_schema(Schema::flow(), "dsl/flow.ron").unwrap();
    let local = ["forced", "full", "colour_clash", "no_loop", "dead_end", "same_colour", "no_square"];
    for rule in control().iter().filter(|r| local.contains(&r.name.as_str())) {
        let verdict = Verifier::new(&flow.at(4, 4), 4, 60_000).check(rule);
        assert!(verdict.is_sound(), "{}: {}", rule.name, verdict.word());
    }
}

/// `verify` on Flow rule files: each rule's verdict, exit status 0 when
/// all are sound, 1 with an unsound rule (its counterexample shown with
/// the witness solution), and the bound refused beyond 6.
#[test]
fn verify_on_flow_rule_files() {
    let run =
        |args: &[&str]| Command::new(env!("CARGO_BIN_EXE_stratsynth")).current_dir(ROOT).args(args).output().unwrap();
    let out = run(&["verify", "rules/flow/control.rules", "--bound", "2"]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(text.lines().count(), 9, "{text}");
    assert!(text.lines().all(|l| l.ends_with(": sound up to 2x2")), "{text}");
    let planted = std::env::temp_dir().join(format!("flow_planted_{}.rules", std::process::id()));
    std::fs::write(&planted, PLANTED).unwrap();
    let out = run(&["verify", planted.to_str().unwrap(), "--bound", "3", "--json"]);
    std::fs::remove_file(&planted).ok();
    assert_eq!(out.status.code(), Some(1));
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let verdicts: Vec<&str> = json.as_array().unwrap().iter().map(|v| v["verdict"].as_str().unwrap()).collect();
    assert_eq!(verdicts, ["unsound"; 4]);
    assert!(json[0]["counterexample"].as_str().unwrap().contains("; solution "), "{json}");
    let out = run(&["verify", "rules/flow/control.rules", "--bound", "7"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--bound must be between 1 and 6"));
}

/// Unsound only where the first colour is done and another is not: a
/// counterexample binds `f` to a colour after the first.
const LATER_COLOUR: &str = "
def later_colour_not_done:
    with f = arbitrary(flow) and g = constant(flow, 0):
    if not done(f) and done(g):
    then prune
";

/// `verify` proves a prune over a flow colour by colour on each board size
/// (the DSL file's `limits.split`): the verdicts are those of the whole
/// query board by board, and a counterexample on a colour after the first
/// is found and replays.
#[test]
fn a_prune_over_a_flow_is_proven_colour_by_colour() {
    let schema = Schema::flow();
    let flow = Flow::with_schema(schema.clone(), "dsl/flow.ron").unwrap();
    let stranded = control().into_iter().find(|r| r.name == "stranded_colour").unwrap();
    let later = parse_rules(LATER_COLOUR, "later.rules", &schema).unwrap().remove(0);
    assert!(z3_verdict(&flow, &stranded, 3, 3).is_sound());
    assert!(Verifier::new(&flow, 3, 60_000).check(&stranded).is_sound());
    assert!(matches!(z3_verdict(&flow, &later, 3, 3), Verdict::Unsound(_)));
    match Verifier::new(&flow, 3, 60_000).check(&later) {
        Verdict::Unsound(cx) => {
            assert!(cx.binding[0] >= 1, "{:?} on {}", cx.binding, cx.state.show());
            let view = flow.layout().view(&cx.state.puzzle, &cx.state.state);
            let found = Interpreter::new(&later, &view, schema.size_feature).applications();
            assert!(found.iter().any(|(b, _)| b[0] == cx.binding[0]), "{}", cx.state.show());
        }
        other => panic!("{}", other.word()),
    }
}

/// The domain's encoding of every board up to a bound in one query (the
/// engine's `Symbolic`, for synthesis) gives the verdicts of the proofs
/// size by size: the control rules sound up to 2x2, a planted rule
/// refuted with a counterexample on a board of its own size.
#[test]
fn one_query_for_every_board_up_to_a_bound() {
    let flow = Flow::with_schema(Schema::flow(), "dsl/flow.ron").unwrap();
    for rule in control() {
        assert!(Verifier::new(&flow, 2, 60_000).check(&rule).is_sound(), "{}", rule.name);
    }
    let planted = parse_rules(PLANTED, "planted.rules", &Schema::flow()).unwrap();
    match Verifier::new(&flow, 2, 60_000).check(&planted[0]) {
        Verdict::Unsound(cx) => assert_eq!(cx.state.puzzle.grid().cells(), 4, "{}", cx.state.show()),
        other => panic!("{}", other.word()),
    }
}
