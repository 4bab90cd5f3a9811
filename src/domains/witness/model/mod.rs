//! The Witness puzzle itself, with no rule language and no search:
//!
//! - [`grid`]: vertex/edge/square numbering and a 256-bit set;
//! - [`puzzle`]: the validated puzzle and its RON file format;
//! - [`path`]: partial paths with per-square edge counts, solution check;
//! - [`oracle`]: exact completability, counting, brute-force enumerators;
//! - [`region`]: the goal region and the region features (one flood fill);
//! - [`generate`]: Stevens' Appendix D generators (Algorithms 3 and 4).

pub mod generate;
pub mod grid;
pub mod oracle;
pub mod path;
pub mod puzzle;
pub mod region;
