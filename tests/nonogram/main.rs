//! The nonogram tests, one binary (docs/design/tests.md): the bundled and
//! survey puzzles, the documented control rules and the learned rules'
//! names, synthesis on line specifications, Z3's verdicts against brute
//! force (rules, their mutants, the ownership features), and the nonogram
//! commands end to end (the complete solver, `generate nonogram`, the
//! workbench's `analyze`, `explain` and `print`).

#[path = "../cli/mod.rs"]
mod cli;
mod complete_solver;
mod control_rules;
mod generate;
mod mutation;
mod puzzles;
mod rule_names;
mod survey;
mod synth;
mod verify_brute;
mod verify_mutants;
mod verify_ownership;
mod workbench;
