//! Condition generalisation over marks: the synthesis of a lonely star (a
//! star walled off without a partner) widens the lonely star's condition
//! to one that also prunes a star sharing a finished region with two
//! marks of its colour, as Shen's RCR does, once the engine has the
//! domain's incompletable paths with marks as good examples (`widen_states`);
//! without them (`widen_sample` 0) nothing tells the two conditions apart
//! and the narrower is kept.

use stratsynth::domains::witness::board::path::Path;
use stratsynth::domains::witness::formats::puzzle::{Constraints, Puzzle};
use stratsynth::domains::witness::synthesis::domain::{Witness, WitnessState};
use stratsynth::domains::witness::synthesis::sample::all_kinds;
use stratsynth::domains::Domain;
use stratsynth::dsl::ast::Rule;
use stratsynth::dsl::eval::{ActionValue, Interpreter};
use stratsynth::synth::{Config, Engine, Spec};

/// A 3x3 puzzle with stars of colour 1 at `stars`, from `start` to the
/// corner (3, 3), and the state of `path` on it.
fn state(stars: &[(usize, usize)], start: (usize, usize), path: &[(usize, usize)]) -> WitnessState {
    let constraints = Constraints { stars: stars.iter().map(|&(c, r)| (c, r, 1)).collect(), ..Constraints::default() };
    let puzzle = Puzzle::with_constraints(3, 3, start, (3, 3), &constraints).unwrap();
    let path = Path::from_vertices(&puzzle, path).unwrap();
    WitnessState::new(puzzle, path)
}

/// Whether `rule` prunes `state`.
fn prunes(domain: &Witness, rule: &Rule, state: &WitnessState) -> bool {
    let view = domain.view(state);
    !Interpreter::new(rule, &view, domain.schema().size_feature).applications().is_empty()
}

/// The rules synthesised for the lonely star with `widen_sample` widen states.
fn lonely_star_rules(domain: &Witness, widen_sample: usize) -> Vec<Rule> {
    // square (0, 0) walled off by the path 1,0 1,1 0,1; its partner at (2, 2)
    let lonely = state(&[(0, 0), (2, 2)], (1, 0), &[(1, 0), (1, 1), (0, 1)]);
    assert!(!lonely.completable);
    let mut config = Config::builder(domain.schema()).bound(Some(4)).build().unwrap();
    config.widen_slack = 5;
    config.widen_sample = widen_sample;
    let prune = domain.schema().action_id("prune").unwrap();
    let spec = Spec { state: lonely, deduction: ActionValue { action: prune, args: vec![] } };
    Engine::new(domain, config).synthesize(&spec).rules.into_iter().map(|l| l.rule).collect()
}

#[test]
fn a_lonely_stars_condition_is_widened_to_a_finished_region_of_three_stars() {
    let domain = Witness::new().with_kinds(all_kinds(2));
    // stars at (0, 0), (1, 0), (0, 1) walled off together by the path
    // 2,0 2,1 1,1 1,2 0,2: each has two partners in a finished region
    // (RCR prunes it; the lonely star does not, nothing being left alone)
    let three = state(&[(0, 0), (1, 0), (0, 1)], (2, 0), &[(2, 0), (2, 1), (1, 1), (1, 2), (0, 2)]);
    assert!(!three.completable);
    let before = lonely_star_rules(&domain, 0);
    assert!(!before.is_empty());
    assert!(before.iter().all(|r| !prunes(&domain, r, &three)), "without widen states: {before:?}");
    let after = lonely_star_rules(&domain, Config::new(domain.schema()).widen_sample);
    assert!(after.iter().any(|r| prunes(&domain, r, &three)), "with widen states: {after:?}");
}
