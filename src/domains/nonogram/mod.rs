//! Nonogram lines: line model, exact line solver, decomposition oracle, boards, traces.
//!
//! - [`line`]: cells and lines, their text forms, blocks and gaps;
//! - [`solver`]: the exact line solver (maximal transitions, hint ranges);
//! - [`decompose`]: the decomposition oracle (cuts and sub-lines);
//! - [`lines_file`]: the `.lines` transition format;
//! - [`non_file`]: the `.non` puzzle format;
//! - [`board`]: boards solved line by line to a fixpoint;
//! - [`trace`]: solution traces by random rollouts (test transitions).

pub mod board;
pub mod decompose;
pub mod line;
pub mod lines_file;
pub mod non_file;
pub mod solver;

pub use line::{Cell, Line};
