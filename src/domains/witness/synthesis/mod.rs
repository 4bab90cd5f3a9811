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
//! - [`learn`]: the learning pipeline's supply (mine, synthesise, select).

pub mod domain;
pub mod features;
pub mod learn;
pub mod mine;
pub mod ruleset;
pub mod specs;
pub mod symbolic;
pub mod view;
