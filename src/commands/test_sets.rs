//! The nonogram test sets `select` and `compare` read, and how rules are
//! applied to them, in words.

use std::path::Path;
use stratsynth::domains::nonogram::formats::lines::{read_test_set, Transition};
use stratsynth::domains::nonogram::synthesis::domain::Nonogram;
use stratsynth::domains::Domain;

/// Reads a `.lines` test set within the domain's line limit.
pub(super) fn read_tests(domain: &Nonogram, lines: &Path) -> Result<Vec<Transition>, String> {
    read_test_set(lines, domain.schema().file.limits.max_state as usize).map_err(|e| e.to_string())
}

/// How rules are applied, in words.
pub(super) fn orientation(one_sided: bool) -> &'static str {
    if one_sided {
        "one orientation"
    } else {
        "both orientations"
    }
}
