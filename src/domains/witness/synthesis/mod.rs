//! The Witness domain as the synthesis engine and the learning pipeline
//! see it:
//!
//! - [`features`]: the elements and features the rule language sees;
//! - [`marks`]: the concrete `mark` and `dot` features;
//! - [`view`]: the concrete view of a state for the rule interpreter;
//! - [`symbolic`]: the Z3 encoding of every completable state up to a bound,
//!   with [`symbolic_path`] (the path, R, the `square` features) and
//!   [`symbolic_marks`] (marks, dots, the solution's region constraints);
//! - [`domain`]: the [`Domain`](crate::domains::Domain) implementation;
//! - [`specs`]: the specification file format;
//! - [`mine`]: specifications (incompletable paths a predicate misses);
//! - [`ruleset`]: a rule set as a search predicate;
//! - [`screen`]: a user's rule set checked by brute force before it plays;
//! - [`sample`]: random completable states with every constraint kind;
//! - [`names`]: names for learned rules that say what they do;
//! - [`compare`]: which of a control set's rules a learned set recovers;
//! - [`measure`]: A* with a rule set against local checking (Stevens' speed-up);
//! - [`learn`]: the learning pipeline's supply (mine, synthesise, select);
//! - [`report`]: a learning run's report (what each chosen rule saves, its name).

pub mod compare;
pub mod domain;
pub mod features;
pub mod learn;
pub mod marks;
pub mod measure;
pub mod mine;
pub mod names;
pub mod report;
pub mod ruleset;
pub mod sample;
pub mod screen;
pub mod specs;
pub mod symbolic;
pub mod symbolic_marks;
pub mod symbolic_path;
#[cfg(test)]
pub(crate) mod testing;
pub mod view;
