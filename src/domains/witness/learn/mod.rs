//! What the Witness domain supplies to the learning pipeline, and its
//! report on what was learned.
//!
//! - [`learner`]: the pipeline's supply (mine, synthesise, select on the
//!   filter searches);
//! - [`report`]: a learning run's report (what each chosen rule saves, its
//!   name).

pub mod learner;
pub mod report;
