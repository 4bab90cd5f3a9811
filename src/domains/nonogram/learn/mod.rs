//! What the nonogram domain supplies to the learning pipeline, and its
//! report on what was learned.
//!
//! - [`learner`]: mining, deduplication and the selection objective;
//! - [`report`]: names, coverage and comparison of the learned rules,
//!   computed once from what the learner measured.

pub mod learner;
pub mod report;
