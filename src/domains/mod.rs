//! Puzzle domains. Each is a folder that implements the engine's
//! [`Domain`] and [`Symbolic`] traits (defined in
//! [`synth::domain`](crate::synth::domain), re-exported here): its schema
//! (the DSL file), a concrete view of a state for the interpreter, an
//! exact oracle, and a symbolic encoding of every state up to a bound for
//! Z3. Domains import the engine; the engine never imports a domain.

pub mod flow;
pub mod nonogram;
pub mod witness;

pub use crate::synth::domain::{BadState, Domain, Encoding, Symbolic};
