//! The Witness domain as the synthesis engine and the learning pipeline
//! see it:
//!
//! - [`features`]: the elements and features the rule language sees;
//! - [`view`]: the concrete view of a state for the rule interpreter;
//! - [`symbolic`]: the Z3 encoding of every completable state up to a bound;
//! - [`domain`]: the [`Domain`](crate::domains::Domain) implementation;
//! - [`specs`]: the specification file format;
//! - [`mine`]: specifications (incompletable paths a predicate misses);
//! - [`ruleset`]: a rule set as a search predicate;
//! - [`measure`]: A* with a rule set against local checking (Stevens' speed-up);
//! - [`learn`]: the learning pipeline's supply (mine, synthesise, select);
//! - [`report`]: a learning run's report (what each chosen rule saves, its name).

pub mod domain;
pub mod features;
pub mod learn;
pub mod measure;
pub mod mine;
pub mod report;
pub mod ruleset;
pub mod specs;
pub mod symbolic;
#[cfg(test)]
pub(crate) mod testing;
pub mod view;
