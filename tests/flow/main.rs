//! The Flow tests, one binary (docs/design/tests.md): the Flow commands
//! end to end (`explain`, `generate flow` and its repair too), Flow rule files read,
//! printed and checked, and their Z3 proofs against brute force.

#[path = "../cli/mod.rs"]
mod cli;
mod commands;
mod difficulty;
mod explain_generate;
mod repair;
mod rules;
mod verify;
