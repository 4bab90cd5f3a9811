//! The Witness tests, one binary (docs/design/tests.md): the board, its
//! oracle, region features, marks and the full game's semantics against
//! definitions written here; the Z3 encoding and verdicts against brute
//! force; generators, A* and solution information; the Witness commands
//! end to end; and the measurements (ignored: `-- --ignored`).

#[path = "../cli/mod.rs"]
mod cli;
mod commands;
mod encoding;
mod full_game;
mod generate;
mod information;
mod kinds;
mod marks;
mod measure;
mod oracle;
mod random;
mod region;
mod search;
mod verify;
mod verify_marks;
mod widen;
