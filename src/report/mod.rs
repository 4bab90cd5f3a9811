//! The answers the command line and the studio both give, built here from
//! the library's results so that the two are one: a command prints them,
//! the studio serves them (the same fields as the command's `--json`).
//!
//! - [`flow`]: `analyze`'s answers on Flow puzzles;
//! - [`nonogram`]: `analyze`, `explain` and `generate nonogram`'s answers;
//! - [`witness`]: `witness analyze` and `witness generate`'s figures;
//! - [`ticking`]: progress lines on standard error for long work;
//! - [`remedies`]: what a summary tells its reader to raise when a search
//!   ran out, in the words of the command line or of the studio.

pub mod flow;
pub mod nonogram;
pub mod remedies;
pub mod ticking;
pub mod witness;
