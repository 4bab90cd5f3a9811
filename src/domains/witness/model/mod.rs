//! The Witness puzzle itself, with no rule language and no search:
//!
//! - [`grid`]: vertex/edge/square numbering and a 256-bit set;
//! - [`puzzle`]: the validated puzzle and its RON file format;
//! - [`constraints`]: the constraint lists and their validation;
//! - [`problem`]: what can be wrong with a puzzle description;
//! - [`ron_list`]: RON lists of entries with located errors;
//! - [`path`]: partial paths with per-square edge counts, solution check;
//! - [`oracle`]: exact completability, counting, brute-force enumerators;
//! - [`region`]: the goal region and the region features (one flood fill);
//! - [`areas`]: how a path cuts the squares (regions, joined classes, open
//!   areas) and the region constraints judged on them;
//! - [`generate`]: Stevens' Appendix D generators (Algorithms 3 and 4);
//! - [`generate_kinds`]: puzzles with chosen kinds of constraint, read off
//!   a hidden path;
//! - [`walk`]: random goals and random simple paths for the generators.

pub mod areas;
pub mod constraints;
pub mod generate;
pub mod generate_kinds;
pub mod grid;
pub mod oracle;
pub mod path;
pub mod problem;
pub mod puzzle;
pub mod region;
pub mod ron_list;
pub mod walk;
