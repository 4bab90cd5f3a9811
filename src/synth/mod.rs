//! The synthesis engine: soundness checking with Z3, enumeration by cost,
//! CEGIS, pattern-lattice and condition generalisation, cost minimisation.
//! Written against the [`Domain`](domain::Domain) and
//! [`Symbolic`](domain::Symbolic) traits only: it never names a puzzle.
//!
//! - [`domain`]: the traits a puzzle domain implements;
//! - [`config`]: the search's knobs, with their defaults and checks;
//! - [`engine`]: the interface ([`Engine`], [`Spec`], [`Outcome`]);
//! - [`cache`], [`search`], [`node`]: the shared state, one
//!   specification's search, a lattice node's bookkeeping;
//! - [`lattice`], [`space`], [`cover`]: patterns, terms and atoms,
//!   conditions as covering problems;
//! - [`table`]: the exhaustive table as pairs, checked by bit sets;
//! - [`verify`]: Z3 soundness of a rule up to a bound;
//! - [`batch`], [`journal`], [`meta`]: many specifications in
//!   deterministic rounds, their resumable journal, the rules' metadata.

mod cache;
pub mod config;
pub mod cover;
pub mod domain;
pub mod engine;
pub mod lattice;
pub mod meta;
mod node;
mod search;
pub mod space;
mod table;
pub mod verify;

pub use config::{Config, ConfigBuilder, ConfigError, DEFAULT_RLIMIT, DEFAULT_SEARCH_RLIMIT, DEFAULT_SECOND_PROOF_RLIMIT, DEFAULT_TIMEOUT_MS};
pub use domain::{makes, BadState, Domain, Encoding, Spec, Symbolic};
pub use engine::{Engine, Learned, Outcome, Stats};
