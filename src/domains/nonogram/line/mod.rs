//! One nonogram line and exact reasoning about it.
//!
//! - [`model`]: cells and lines, their text forms, blocks and gaps;
//! - [`solver`]: the exact line solver (maximal transitions, hint ranges);
//! - [`decompose`]: the decomposition oracle (cuts and sub-lines);
//! - [`state`]: a line with its maximal transition;
//! - [`enumerate`]: every valid line state of small lengths.

pub mod decompose;
pub mod enumerate;
pub mod model;
pub mod solver;
pub mod state;
