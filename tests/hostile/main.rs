//! The hostile-input tests, one binary (docs/design/tests.md;
//! docs/reference/hostile-input.md says what each round fixed): fuzzed
//! readers, malformed and endless input, outputs that are not regular
//! files or fail half-way, errors naming the right place, refusals up
//! front, unsound players, provenance, and long runs bounded in time and
//! memory. The studio's hostile clients are in the studio binary.

mod bounds;
#[path = "../cli/mod.rs"]
mod cli;
mod errors;
mod failures;
mod fuzz;
mod provenance;
mod readers;
mod refusals;
mod special_files;
mod timeouts;
mod unsound_players;
