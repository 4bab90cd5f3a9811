//! Z3 against brute force on rules over the ownership features and
//! `hint_count` (rules/nonogram/ownership.rules: the examples of
//! docs/reference/language.md and one more) and on every distinct
//! single-point mutant of each (one test per rule): at bound 12, every
//! verdict Z3 gives is brute force's over every valid line of at most 12
//! cells, every counterexample replays, and a model that does not replay
//! leaves only a few unsound mutants `unknown`, never `sound`.

use crate::mutation::z3_equals_brute_force_on_rule_and_mutants;

const FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/rules/nonogram/ownership.rules");

/// The rule `name` of the file, as text.
fn rule(name: &str) -> String {
    let text = std::fs::read_to_string(FILE).unwrap();
    let start = text.find(&format!("def {name}:")).unwrap_or_else(|| panic!("no rule {name}"));
    let end = text[start..].find("\n\n").map_or(text.len(), |e| start + e + 1);
    text[start..end].to_string()
}

#[test]
fn empty_line_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_rule_and_mutants(&rule("empty_line"), false);
}

#[test]
fn joined_blocks_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_rule_and_mutants(&rule("joined_blocks"), false);
}

#[test]
fn unusable_gap_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_rule_and_mutants(&rule("unusable_gap"), false);
}

#[test]
fn owned_block_complete_and_mutants_z3_equals_brute_force() {
    z3_equals_brute_force_on_rule_and_mutants(&rule("owned_block_complete"), false);
}
