//! Flow rules proven by Z3 (docs/design/flow-rules.md, "Z3 proofs"):
//!
//! - [`case`]: a state as proofs carry it (puzzle, partial solution, witness), as text;
//! - [`labels`]: reachability on a grid as exact constraints;
//! - [`symbolic`]: every consistent state of one board size, its features as terms;
//! - [`colours`]: the encoding's heads, `done`, `meets` and areas;
//! - [`terms`]: what an encoding is made of (its unknowns, its constraints);
//! - [`boards`]: several board sizes in one encoding;
//! - [`domain`]: the domain as the engine sees it ([`Domain`](crate::domains::Domain),
//!   [`Symbolic`](crate::domains::Symbolic)).

pub mod boards;
pub mod case;
pub mod colours;
pub mod domain;
pub mod labels;
pub mod symbolic;
pub mod terms;

#[cfg(test)]
mod tests;
