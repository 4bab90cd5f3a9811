//! Nonogram lines: line model, exact line solver, decomposition oracle, boards, traces.
//!
//! - [`line`]: cells and lines, their text forms, blocks and gaps;
//! - [`solver`]: the exact line solver (maximal transitions, hint ranges);
//! - [`decompose`]: the decomposition oracle (cuts and sub-lines);
//! - [`lines_file`]: the `.lines` transition format;
//! - [`non_file`]: the `.non` puzzle format;
//! - [`board`]: boards solved line by line to a fixpoint;
//! - [`trace`]: solution traces by random rollouts (test transitions).

#![warn(missing_docs)]

pub mod board;
pub mod decompose;
pub mod line;
pub mod lines_file;
pub mod non_file;
pub mod solver;
pub mod trace;

pub use line::{Cell, Line};
pub use board::{Board, LineId};
pub use decompose::{decompose, SubLine};
pub use lines_file::Transition;
pub use non_file::Puzzle;
pub use solver::{is_valid, solve, LineSolver};
pub use trace::{trace_puzzle, Trace};
