//! The Witness domain as the synthesis engine sees it:
//!
//! - [`features`]: the elements and features the rule language sees;
//! - [`marks`]: the concrete `mark` and `dot` features;
//! - [`view`]: the concrete view of a state for the rule interpreter;
//! - [`symbolic`]: the Z3 encoding of every completable state up to a bound,
//!   with [`symbolic_path`] (the path, R, the `square` features) and
//!   [`symbolic_marks`] (marks, dots, the solution's region constraints);
//! - [`sample`]: random completable states with every constraint kind;
//! - [`domain`]: the [`Domain`](crate::domains::Domain) implementation;
//! - [`specs`]: specifications and their file format;
//! - [`mine`]: specifications (incompletable paths a predicate misses).

pub mod domain;
pub mod features;
pub mod marks;
pub mod mine;
pub mod sample;
pub mod specs;
pub mod symbolic;
pub mod symbolic_marks;
pub mod symbolic_path;
#[cfg(test)]
pub(crate) mod testing;
pub mod view;
