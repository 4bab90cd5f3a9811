//! Puzzle domains: what a domain supplies to the engine.

pub mod nonogram;
pub mod witness;
