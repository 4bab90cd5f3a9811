//! The nonogram line domain as the synthesis engine sees it.
//!
//! - [`domain`]: the `Domain` implementation (view, oracle, orientations,
//!   small and sampled states);
//! - [`symbolic`]: the `Symbolic` implementation, the Z3 encoding of every
//!   line up to a bound;
//! - [`owners`]: the ownership features in that encoding;
//! - [`spec`]: specifications (a state and one run of deductions);
//! - [`mine`]: specifications mined from small lines and transitions.

pub mod domain;
pub mod mine;
pub mod owners;
pub mod spec;
pub mod symbolic;
