//! Nonogram rule sets on lines.
//!
//! - [`apply`]: a rule set applied to a line as docs/language.md says;
//! - [`fills`]: that application memoised per test transition;
//! - [`coverage`]: coverage of test transitions, per rule and greedy;
//! - [`chosen`]: coverage as the objective of greedy selection;
//! - [`check`]: brute-force soundness, the ground truth for Z3;
//! - [`compare`]: a learned rule set against control rules;
//! - [`describe`]: rules in words (an English sentence, readable names).

pub mod apply;
pub mod check;
pub mod chosen;
pub mod compare;
pub mod coverage;
pub mod describe;
pub mod fills;
