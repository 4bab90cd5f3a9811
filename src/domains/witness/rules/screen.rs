//! A user's Witness rule set checked concretely before it plays or prunes:
//! a rule that fires on a completable state would prune a path some
//! solution begins with, so every figure of the player would be wrong. The
//! states: every partial path of every triangle puzzle up to
//! [`TABLE_SIDE`] x [`TABLE_SIDE`] (the exhaustive table synthesis checks
//! candidates on), then a seeded sample of completable states up to the
//! domain's soundness bound, half on triangle puzzles and half on puzzles
//! with every kind of constraint. A brute-force check finds what Z3 would
//! refute on those states only; it proves nothing (`verify` does).

use rayon::prelude::*;

use crate::domains::witness::synthesis::domain::{Witness, WitnessState};
use crate::domains::witness::synthesis::sample::all_kinds;
use crate::domains::Domain;
use crate::dsl::ast::Rule;
use crate::dsl::eval::Interpreter;

/// Side of the exhaustive table checked.
pub const TABLE_SIDE: u32 = 2;

/// Sampled completable states of each half (triangles, every kind).
pub const SAMPLED: usize = 4_000;

/// The sample's seed (fixed: the same rules get the same verdict).
const SEED: u64 = 45;

/// A rule that prunes a completable state.
#[derive(Clone, Debug)]
pub struct Pruned {
    /// The rule's index in the set.
    pub rule: usize,
    /// The state (puzzle and path; a solution begins with the path).
    pub state: WitnessState,
}

/// What the check covers, for messages: `every partial path up to 2x2 and
/// 8000 sampled completable paths up to BxB`.
pub fn coverage(domain: &Witness) -> String {
    let bound = domain.schema().file.limits.bound;
    format!(
        "every partial path of every triangle puzzle up to {TABLE_SIDE}x{TABLE_SIDE} and {} sampled completable paths up to {bound}x{bound}",
        2 * SAMPLED
    )
}

/// The first rule of `rules` (in the states' order, then the rules') that
/// fires on a completable state, or `None` if none does on the states the
/// module names.
pub fn first_pruned(domain: &Witness, rules: &[Rule]) -> Option<Pruned> {
    if rules.is_empty() {
        return None;
    }
    let bound = domain.schema().file.limits.bound;
    let table = domain.small_states(TABLE_SIDE);
    let triangles = domain.sample_states(TABLE_SIDE, bound, SEED, SAMPLED);
    let kinds = Witness::new().with_kinds(all_kinds(2)).sample_states(TABLE_SIDE, bound, SEED, SAMPLED);
    let size = domain.schema().size_feature;
    let fires = |state: &WitnessState| {
        let view = domain.view(state);
        rules.iter().position(|rule| !Interpreter::new(rule, &view, size).applications().is_empty())
    };
    [table, triangles, kinds].into_iter().find_map(|states| {
        states
            .into_par_iter()
            .filter(|s| s.completable)
            .find_map_first(|state| fires(&state).map(|rule| Pruned { rule, state }))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::synthesis::testing::{rules, STARVED};

    #[test]
    fn sound_rules_pass_and_unsound_ones_are_caught_on_a_completable_state() {
        let (domain, sound) = rules(STARVED);
        assert!(first_pruned(&domain, &sound).is_none());
        let (domain, unsound) = rules(&format!(
            "{STARVED}def used_any:\n    with s = arbitrary(square):\n    if used(s) > 0:\n    then prune\n"
        ));
        let found = first_pruned(&domain, &unsound).expect("used_any prunes solutions");
        assert_eq!(found.rule, 1);
        assert!(found.state.completable);
        // a rule on a square no puzzle up to 6x6 has is not caught
        let (domain, far) =
            rules("def far:\n    with s = constant(square, 40):\n    if used(s) >= 0:\n    then prune\n");
        assert!(first_pruned(&domain, &far).is_none());
    }
}
