//! What the Flow domain supplies to the learning pipeline (`learn flow`),
//! each module building on those before it:
//!
//! - [`traces`]: the states a model player meets solving a puzzle, each
//!   with its next step;
//! - [`windows`]: specifications from small windows of those states, the
//!   exact oracle's deduction there, one per orientation class;
//! - [`coverage`]: what rules decide on the traces (the selection's
//!   objective) and on whole puzzles (the comparison with the control set);
//! - [`learner`]: the pipeline's supply (mine, select);
//! - [`names`]: the learned rules named by what they do.

pub mod coverage;
pub mod learner;
pub mod names;
pub mod traces;
pub mod windows;
