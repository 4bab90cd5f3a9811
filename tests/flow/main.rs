//! The Flow tests, one binary (docs/design/tests.md): the Flow commands
//! end to end, and Flow rule files read, printed and checked.

#[path = "../cli/mod.rs"]
mod cli;
mod commands;
mod rules;
