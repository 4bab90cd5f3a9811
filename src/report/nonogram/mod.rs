//! The nonogram commands' answers:
//!
//! - [`analyze`]: one puzzle's analysis as `analyze --json` gives it;
//! - [`explain`]: a solve's steps in words and as JSON;
//! - [`generate`]: the puzzles `generate nonogram` made, as text or JSON.

pub mod analyze;
pub mod explain;
pub mod generate;
