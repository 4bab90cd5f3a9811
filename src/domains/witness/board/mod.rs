//! Paths on a whole Witness puzzle, and exact reasoning about them:
//!
//! - [`path`]: partial paths with per-square edge counts, solution check;
//! - [`oracle`]: exact completability, counting, brute-force enumerators;
//! - [`region`]: the goal region and the region features (one flood fill);
//! - [`areas`]: how a path cuts the squares (regions, joined classes, open
//!   areas) and the region constraints judged on them.

pub mod areas;
pub mod oracle;
pub mod path;
pub mod region;
