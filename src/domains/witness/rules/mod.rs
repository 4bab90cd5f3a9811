//! Witness rule sets at work:
//!
//! - [`ruleset`]: a rule set as a search predicate;
//! - [`screen`]: a user's rule set checked by brute force before it plays;
//! - [`names`]: names for learned rules that say what they do;
//! - [`compare`]: which of a control set's rules a learned set recovers;
//! - [`measure`]: A* with a rule set against local checking (Stevens' speed-up).

pub mod compare;
pub mod measure;
pub mod names;
pub mod ruleset;
pub mod screen;
