//! Nonogram lines, from the line model up to what the learning pipeline is
//! given. Each folder builds only on those listed before it:
//!
//! - [`line`]: one line: cells and hints, the exact line solver, the
//!   decomposition oracle, line states and every small valid one;
//! - [`formats`]: the files: `.lines` transitions, `.non`, webpbn and
//!   tournament puzzles;
//! - [`board`]: whole boards: line-by-line fixpoints, the complete solver
//!   that counts solutions, solution traces;
//! - [`synthesis`]: what the synthesis engine sees: the `Domain` and
//!   `Symbolic` implementations and the specifications mined from small
//!   lines;
//! - [`rules`]: rule sets on lines: application, coverage and selection,
//!   brute-force soundness, comparison with control rules, rules in words;
//! - [`play`]: a model player solving a board with rules, a puzzle's
//!   analysis, a solve as an HTML page;
//! - [`learn`]: what the domain supplies to the learning pipeline;
//! - [`make`]: puzzles made to order, from a picture or at random.

pub mod board;
pub mod formats;
pub mod learn;
pub mod line;
pub mod make;
pub mod play;
pub mod rules;
pub mod synthesis;
