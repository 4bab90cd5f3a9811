//! Z3 verdicts on rules over marks and dots agree with brute force: on
//! seeded samples of completable states with every constraint kind (2x2
//! and 3x3 puzzles, triangles, separation squares, stars, dots, broken
//! edges), at bounds 2 and 3. A rule Z3 proves sound fires on none of them;
//! a rule that fires on one is unsound to Z3; every mutant below is unsound
//! to Z3 and to brute force, and Z3's counterexample replays (the oracle
//! completes it, the rule fires on it). The rules: `rules/witness/shen.rules`,
//! the whole-game learned set `rules/witness/learned-game.rules`, further
//! sound rules on marks and dots, and mutants of them. The star rules
//! are proven at 5x5 within a small resource limit (the encoding's
//! implied count constraints; without them Z3 ran out of 20 minutes on
//! a star joined to two marks of its colour).

use stratsynth::domains::witness::board::oracle::Oracle;
use stratsynth::domains::witness::synthesis::domain::{Witness, WitnessState};
use stratsynth::domains::witness::synthesis::sample::all_kinds;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::eval::Interpreter;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::synth::verify::{Verdict, Verifier};

/// Sound rules beyond `shen.rules`.
const SOUND: &str = "
def star_alone_in_reach:
    with x = arbitrary(mark):
    if star(x) and reach_same(x) = 0:
    then prune
def star_crowded:
    with x = arbitrary(mark):
    if star(x) and joined_same(x) > 2:
    then prune
def closed_mixed:
    with x = arbitrary(mark):
    if not star(x) and closed(x) and joined_other(x) > 1:
    then prune
def star_region_final_not_1:
    with x = arbitrary(mark):
    if star(x) and joined_same(x) != 1 and reach_same(x) <= joined_same(x):
    then prune
";

/// Rules that must be unsound (each fires on a completable state).
const MUTANTS: &str = "
def joined_same_colour:
    with x = arbitrary(mark):
    if not star(x) and joined_same(x) > 0:
    then prune
def star_paired:
    with x = arbitrary(mark):
    if star(x) and joined_same(x) = 1:
    then prune
def star_one_in_reach:
    with x = arbitrary(mark):
    if star(x) and reach_same(x) = 1:
    then prune
def uncrossed:
    with d = arbitrary(dot):
    if not crossed(d):
    then prune
def unreachable:
    with d = arbitrary(dot):
    if not reachable(d):
    then prune
def closed_star_done:
    with x = arbitrary(mark):
    if star(x) and closed(x) and joined_same(x) = 1:
    then prune
def closed_separation:
    with x = arbitrary(mark):
    if closed(x) and not star(x):
    then prune
def open_star:
    with x = arbitrary(mark):
    if star(x) and not closed(x) and joined_same(x) > 0:
    then prune
def second_colour:
    with x = arbitrary(mark):
    if colour(x) > 1:
    then prune
def star_reach_one_more:
    with x = arbitrary(mark):
    if star(x) and joined_same(x) != 1 and reach_same(x) <= joined_same(x) + 1:
    then prune
def star_beside_other_colour:
    with x = arbitrary(mark) and y = arbitrary(mark):
    if star(x) and colour(y) != colour(x) and joined_same(y) = 0:
    then prune
";

fn rules(domain: &Witness, text: &str, file: &str) -> Vec<Rule> {
    parse_rules(text, file, domain.schema()).unwrap_or_else(|e| panic!("{e}"))
}

fn fires(domain: &Witness, rule: &Rule, state: &WitnessState) -> bool {
    let view = domain.view(state);
    !Interpreter::new(rule, &view, domain.schema().size_feature).applications().is_empty()
}

#[test]
fn z3_agrees_with_brute_force_on_marks_and_dots() {
    let domain = Witness::new();
    let mut all = rules(&domain, include_str!("../../rules/witness/shen.rules"), "shen.rules");
    all.extend(rules(&domain, include_str!("../../rules/witness/learned-game.rules"), "learned-game.rules"));
    all.extend(rules(&domain, SOUND, "sound"));
    let sound = all.len();
    all.extend(rules(&domain, MUTANTS, "mutants"));
    let sampler = Witness::new().with_kinds(all_kinds(3));
    let samples = [(2usize, sampler.sample_states(1, 2, 5, 3000)), (3, sampler.sample_states(2, 3, 6, 6000))];
    for s in samples.iter().flat_map(|(_, s)| s.iter().step_by(401)) {
        assert!(Oracle::new(&s.puzzle).completable(&s.path), "{}", s.show());
    }
    for (bound, sample) in &samples {
        let mut z3 = Verifier::new(&domain, *bound as u32, 60_000);
        for (i, rule) in all.iter().enumerate() {
            let witness = sample.iter().find(|s| fires(&domain, rule, s));
            match z3.check(rule) {
                Verdict::Sound => {
                    assert!(i < sound, "mutant {} is sound up to {bound}", rule.name);
                    assert!(witness.is_none(), "{} fires on {}", rule.name, witness.unwrap().show());
                }
                Verdict::Unsound(cx) => {
                    assert!(i >= sound, "{} at bound {bound}: {}", rule.name, cx.state.show());
                    assert!(Oracle::new(&cx.state.puzzle).completable(&cx.state.path), "{}", cx.state.show());
                    assert!(fires(&domain, rule, &cx.state), "{}", cx.state.show());
                    let size = cx.state.puzzle.width().max(cx.state.puzzle.height());
                    assert!(size <= *bound, "{}", cx.state.show());
                    if *bound == 3 {
                        assert!(witness.is_some(), "brute force finds no state {} fires on", rule.name);
                    }
                }
                Verdict::Unknown(why) => panic!("{}: unknown at bound {bound}: {why}", rule.name),
            }
        }
    }
}

/// Shen's two star rules, the lonely star and the rule that holds RCR and
/// the lonely star, each proven at 5x5 within 20 million units of Z3's
/// resource count (each needs about 0.6 million; without the encoding's
/// implied count constraints `star(x) and joined_same(x) > 1` ran out of
/// it, and of 20 minutes).
#[test]
fn the_star_rules_are_proven_at_5x5_within_a_resource_limit() {
    let domain = Witness::new();
    let mut all = rules(&domain, include_str!("../../rules/witness/shen.rules"), "shen.rules");
    all.extend(rules(&domain, SOUND, "sound"));
    let names = ["along_the_path_star", "completed_region_star", "star_alone_in_reach", "star_region_final_not_1"];
    let stars: Vec<&Rule> = all.iter().filter(|r| names.contains(&r.name.as_str())).collect();
    assert_eq!(stars.len(), names.len());
    let mut z3 = Verifier::deterministic(&domain, 5, 20_000_000);
    for rule in stars {
        let verdict = z3.check(rule);
        assert!(verdict.is_sound(), "{} at bound 5: {verdict:?}", rule.name);
    }
}
