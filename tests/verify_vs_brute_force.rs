//! The Z3 verifier agrees with brute force on small lines: every control
//! rule is proven sound up to 8 cells, and unsound mutants get a
//! counterexample that brute force also finds to be unsound.

use stratsynth::domains::nonogram::check::brute_force_all;
use stratsynth::domains::nonogram::domain::Nonogram;
use stratsynth::domains::Domain;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::synth::verify::{Verdict, Verifier};

const MUTANTS: &str = "
def boxes_off_by_one:
    with h = arbitrary(hint):
    if lowest_end_cell(h) > highest_start_cell(h):
    then fill(true, highest_start_cell(h) - 1, lowest_end_cell(h))

def punctuate_any:
    with h = arbitrary(hint) and b = arbitrary(block):
    if size(b) = size(h) and start(b) > 0:
    then fill(false, start(b) - 1, start(b))

def small_gap_wrong_bound:
    with g = arbitrary(gap) and h = arbitrary(hint):
    if minimal(h) and size(g) <= size(h):
    then fill(false, start(g), start(g) + size(g))

def mercury_plural:
    with h = arbitrary(hint) and b = arbitrary(block):
    if start(b) + size(b) > size(h):
    then fill(false, 0, start(b) + size(b) - size(h))
";

#[test]
fn z3_verdicts_match_brute_force_up_to_8_cells() {
    let domain = Nonogram::new();
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/nonogram/control.rules");
    let mut rules = parse_rules(&std::fs::read_to_string(path).unwrap(), path, domain.schema()).unwrap();
    rules.extend(parse_rules(MUTANTS, "mutants", domain.schema()).unwrap());
    let brute = brute_force_all(&domain, &rules, 8);
    let mut verifier = Verifier::new(&domain, 8, 60_000);
    for (rule, truth) in rules.iter().zip(brute) {
        match (verifier.check(rule), truth) {
            (Verdict::Sound, None) => {}
            (Verdict::Unsound(cx), Some(_)) => {
                // the verifier replays every counterexample; check it again here
                assert!(cx.state.line.len() <= 8);
                assert!(!domain.is_sound(&cx.state, &cx.action), "{}", rule.name);
            }
            (v, t) => panic!("{}: Z3 says {} but brute force found {:?}", rule.name, v.word(), t.map(|c| domain.show(&c.state))),
        }
    }
}
