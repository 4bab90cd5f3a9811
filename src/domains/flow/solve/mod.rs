//! The complete Flow solver: counts a puzzle's solutions (0, 1, or 2 for
//! "two or more") under docs/reference/formats.md's convention or, with `touching`, Flow
//! Free's looser one, within a node budget and a deadline.
//!
//! - [`limits`]: the options (convention, propagation rules), the limits
//!   and the outcome;
//! - [`board`]: a node's board and the local rules to a fixpoint;
//! - [`stranded`]: the global rules (stranded colours and areas);
//! - [`search`]: depth-first search on the most constrained cell;
//! - `brute`: every solution of a small puzzle by brute force (tests).

pub mod board;
#[cfg(test)]
pub(crate) mod brute;
pub mod limits;
pub mod search;
pub mod stranded;
#[cfg(test)]
mod tests;

pub use limits::{Limits, Options, Outcome, Rules, Stop};
pub use search::solve;
