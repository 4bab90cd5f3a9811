//! The synthesis engine: soundness checking with Z3, enumeration by cost,
//! CEGIS, pattern-lattice and condition generalisation, cost minimisation.
//! Written against the `Domain` trait only: it never names a puzzle.

pub mod batch;
pub mod cover;
pub mod engine;
pub mod journal;
pub mod lattice;
pub mod meta;
pub mod space;
pub mod verify;

pub use engine::{Config, Engine, Learned, Outcome, Spec, Stats};
