//! The synthesis engine: soundness checking with Z3, enumeration by cost,
//! CEGIS, pattern-lattice and condition generalisation, cost minimisation.
//! Written against the `Domain` trait only: it never names a puzzle.

pub mod verify;
