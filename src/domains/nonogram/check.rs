//! Brute-force soundness of rules: every valid line up to N cells, every
//! binding, every fill judged by the exact line solver. The independent
//! ground truth the Z3 verifier is tested against.

use super::domain::{LineState, Nonogram};
use super::enumerate::{for_each_valid_line, hint_sequences};
use crate::domains::Domain;
use crate::dsl::ast::Rule;
use crate::dsl::eval::{ActionValue, Binding, Interpreter};
use rayon::prelude::*;

/// A line on which a rule concludes something wrong.
#[derive(Clone, Debug)]
pub struct BruteCounterexample {
    /// The line with its maximal transition.
    pub state: LineState,
    /// The binding.
    pub binding: Binding,
    /// The wrong fill.
    pub action: ActionValue,
}

/// For each rule, the first counterexample among all valid lines of
/// 1..=max_n cells (shortest lines first, then hint order, then cell
/// order), or `None` if the rule is sound up to max_n. One walk over the
/// lines serves every rule.
pub fn brute_force_all(domain: &Nonogram, rules: &[Rule], max_n: usize) -> Vec<Option<BruteCounterexample>> {
    let size = domain.schema().size_feature;
    let jobs: Vec<(usize, Vec<u32>)> =
        (1..=max_n).flat_map(|n| hint_sequences(n).into_iter().map(move |h| (n, h))).collect();
    let per_job: Vec<Vec<Option<BruteCounterexample>>> = jobs
        .par_iter()
        .map(|(n, hints)| {
            let mut found: Vec<Option<BruteCounterexample>> = vec![None; rules.len()];
            for_each_valid_line(hints, *n, |state| {
                let view = domain.view(state);
                for (rule, slot) in rules.iter().zip(found.iter_mut()) {
                    if slot.is_some() {
                        continue;
                    }
                    for (binding, action) in Interpreter::new(rule, &view, size).applications() {
                        if !domain.is_sound(state, &action) {
                            *slot = Some(BruteCounterexample { state: state.clone(), binding, action });
                            break;
                        }
                    }
                }
            });
            found
        })
        .collect();
    (0..rules.len()).map(|r| per_job.iter().find_map(|job| job[r].clone())).collect()
}

/// [`brute_force_all`] for one rule.
pub fn brute_force(domain: &Nonogram, rule: &Rule, max_n: usize) -> Option<BruteCounterexample> {
    brute_force_all(domain, std::slice::from_ref(rule), max_n).pop().flatten()
}
