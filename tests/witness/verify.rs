//! Z3 verdicts on Witness rules agree with brute force: on every partial
//! path of every puzzle up to 2x2 (the exhaustive table, one state per
//! distinct view and verdict, solutions included) at bound 2, and with a
//! seeded sample of completable 3x3 states at bound 3; every counterexample
//! replays. The rules: the hand-written ones (local features and region
//! features), and mutants of them, many on the region features
//! (`free`, `live`, `goal_reachable`).

use stratsynth::domains::witness::board::oracle::{label_partial_paths, Oracle};
use stratsynth::domains::witness::synthesis::domain::{all_puzzles, table, Witness, WitnessState};
use stratsynth::domains::witness::synthesis::view::view_key;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::eval::Interpreter;
use stratsynth::dsl::parse::parse_rules;
use stratsynth::synth::verify::{Verdict, Verifier};

/// Sound rules on the region features beyond `rules/witness/region.rules`
/// (special cases and weaker forms of its rules).
const SOUND_REGION: &str = "
def starved_by_free:
    with s = arbitrary(square):
    if free(s) < triangles(s) - used(s):
    then prune
def dead_square:
    with s = arbitrary(square):
    if live(s) = 0 and used(s) < triangles(s):
    then prune
def walled_off_early:
    with s = constant(square, 0):
    if goal_reachable < 1 and path_length < 5:
    then prune
";

/// Rules that must be unsound (each fires on a completable state).
const MUTANTS: &str = "
def full_square:
    with s = arbitrary(square):
    if used(s) >= triangles(s):
    then prune
def pi_without_head:
    with s = arbitrary(square):
    if triangles(s) = 3 and used(s) > 0 and used(s) < 3:
    then prune
def two_left_behind:
    with s = arbitrary(square):
    if triangles(s) = 2 and used(s) = 1 and not touches_head(s):
    then prune
def three_untouched:
    with s = arbitrary(square):
    if triangles(s) = 3 and used(s) = 0 and not touches_head(s):
    then prune
def pi_up_to_three:
    with s = arbitrary(square):
    if triangles(s) = 3 and used(s) > 0 and not touches_head(s):
    then prune
def unfinished_behind:
    with s = arbitrary(square):
    if used(s) < triangles(s) and not touches_head(s):
    then prune
def long_path:
    with s = arbitrary(square):
    if path_length > 2:
    then prune
def single_empty:
    with s = singleton(square):
    if used(s) = 0 and path_length > 1:
    then prune
def first_untouched:
    with s = constant(square, 0):
    if triangles(s) = 1 and used(s) = 0 and path_length > 0:
    then prune
def biggest_left:
    with s = arbitrary(square):
    if maximal(s) and used(s) = 1 and not touches_head(s):
    then prune
def one_at_head:
    with s = arbitrary(square) and t = arbitrary(square):
    if triangles(s) = 1 and used(s) = 1 and touches_head(s) and triangles(t) = 2 and used(t) = 0:
    then prune
def reachable_goal:
    with s = arbitrary(square):
    if goal_reachable = 1:
    then prune
def starved_without_used:
    with s = arbitrary(square):
    if live(s) < triangles(s):
    then prune
def starved_off_by_one:
    with s = arbitrary(square):
    if live(s) <= triangles(s) - used(s):
    then prune
def starved_free_off_by_one:
    with s = arbitrary(square):
    if free(s) < triangles(s) - used(s) + 1:
    then prune
def free_without_used:
    with s = arbitrary(square):
    if free(s) < triangles(s):
    then prune
def dead_square_done:
    with s = arbitrary(square):
    if live(s) = 0 and used(s) <= triangles(s):
    then prune
def fewer_live_than_free:
    with s = arbitrary(square):
    if live(s) < free(s):
    then prune
def behind_with_just_enough:
    with s = arbitrary(square):
    if live(s) < triangles(s) - used(s) + 1 and not touches_head(s):
    then prune
def walled_in_late:
    with s = arbitrary(square):
    if goal_reachable < 2 and path_length > 3:
    then prune
def pi_at_head_alone:
    with s = arbitrary(square):
    if triangles(s) = 3 and used(s) = 2 and touches_head(s) and s is unique where (touches_head(s)):
    then prune
";

fn rules(domain: &Witness, text: &str, file: &str) -> Vec<Rule> {
    parse_rules(text, file, domain.schema()).unwrap_or_else(|e| panic!("{e}"))
}

/// Whether `rule` fires on `state`.
fn fires(domain: &Witness, rule: &Rule, state: &WitnessState) -> bool {
    let view = domain.view(state);
    !Interpreter::new(rule, &view, domain.schema().size_feature).applications().is_empty()
}

/// The first completable state on which `rule` fires.
fn brute_force<'s>(domain: &Witness, rule: &Rule, states: &'s [WitnessState]) -> Option<&'s WitnessState> {
    states.iter().find(|s| s.completable && fires(domain, rule, s))
}

#[test]
fn the_table_is_every_partial_path_up_to_2x2() {
    // one state per (view, verdict): check that no partial path of a 1x2
    // puzzle is missing from the table's views
    let tab = table(2);
    let views: std::collections::HashSet<_> =
        tab.iter().map(|s| (view_key(&s.puzzle, &s.path), s.completable)).collect();
    let mut states = 0;
    for p in all_puzzles(1, 2).chain(all_puzzles(2, 2).step_by(97)) {
        label_partial_paths(&p, &mut |path, completable| {
            states += 1;
            assert!(views.contains(&(view_key(&p, path), completable)));
        });
    }
    assert!(states > 1000);
    for s in tab.iter().step_by(211) {
        assert_eq!(Oracle::new(&s.puzzle).completable(&s.path), s.completable);
    }
}

#[test]
fn z3_agrees_with_brute_force() {
    let domain = Witness::new();
    let mut all = rules(&domain, include_str!("../../rules/witness/baseline.rules"), "baseline.rules");
    let sound = all.len() + {
        let mut hand = rules(&domain, include_str!("../../rules/witness/handwritten.rules"), "handwritten.rules");
        hand.extend(rules(&domain, include_str!("../../rules/witness/region.rules"), "region.rules"));
        hand.extend(rules(&domain, SOUND_REGION, "sound region rules"));
        let n = hand.len();
        all.extend(hand);
        n
    };
    let mutants = rules(&domain, MUTANTS, "mutants");
    assert!(mutants.len() >= 20);
    all.extend(mutants);

    let small = table(2);
    let sample = domain.sample_states(2, 3, 7, 20_000);
    assert!(sample.iter().all(|s| s.puzzle.width().max(s.puzzle.height()) == 3));
    for s in sample.iter().step_by(997) {
        assert!(Oracle::new(&s.puzzle).completable(&s.path), "{}", s.show());
    }
    let mut at_2 = Verifier::new(&domain, 2, 60_000);
    let mut at_3 = Verifier::new(&domain, 3, 60_000);
    for (i, rule) in all.iter().enumerate() {
        let expect_sound = i < sound;
        let witness_2 = brute_force(&domain, rule, &small);
        let v2 = at_2.check(rule);
        assert!(!matches!(v2, Verdict::Unknown(_)), "{}: {v2:?}", rule.name);
        assert_eq!(
            v2.is_sound(),
            witness_2.is_none(),
            "{} at bound 2: Z3 {} vs brute force {:?}",
            rule.name,
            v2.word(),
            witness_2.map(|s| s.show())
        );
        let v3 = at_3.check(rule);
        match &v3 {
            Verdict::Sound => {
                assert!(expect_sound, "{} is sound up to 3", rule.name);
                assert!(
                    brute_force(&domain, rule, &sample).is_none(),
                    "{} fires on a sampled completable state",
                    rule.name
                );
            }
            Verdict::Unsound(cx) => {
                assert!(!expect_sound, "{}: {}", rule.name, cx.state.show());
                // the counterexample replays on its own
                assert!(Oracle::new(&cx.state.puzzle).completable(&cx.state.path));
                assert!(fires(&domain, rule, &cx.state));
                assert!(cx.state.puzzle.width() <= 3 && cx.state.puzzle.height() <= 3);
            }
            Verdict::Unknown(why) => panic!("{}: unknown at bound 3: {why}", rule.name),
        }
    }
}
