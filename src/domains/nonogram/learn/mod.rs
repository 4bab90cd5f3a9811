//! What the nonogram domain supplies to the learning pipeline.
//!
//! - [`learner`]: mining, deduplication and the selection objective.

pub mod learner;
