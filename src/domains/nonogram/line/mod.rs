//! One nonogram line and exact reasoning about it.
//!
//! - [`model`]: cells and lines, their text forms, blocks and gaps;
//! - [`solver`]: the exact line solver (maximal transitions, hint ranges);
//! - [`bitline`]: the same line solver on bit masks (lines up to 126
//!   cells), for the complete board solver;
//! - [`ownership`]: which hint can own each block, which can lie in each gap;
//! - [`decompose`]: the decomposition oracle (cuts and sub-lines);
//! - [`state`]: a line with its maximal transition;
//! - [`enumerate`]: every valid line state of small lengths.

pub mod bitline;
pub mod decompose;
pub mod enumerate;
pub mod model;
pub mod ownership;
pub mod solver;
pub mod state;
