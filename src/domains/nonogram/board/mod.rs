//! Whole nonogram boards.
//!
//! - [`grid`]: boards solved line by line to a fixpoint, rendered as text;
//! - [`propagate`]: line propagation on a grid of cells (the player's);
//! - [`bitboard`], [`complete`]: the complete board solver (bit boards,
//!   propagation with a memo of line results, probing, search that counts
//!   solutions within a node budget and a deadline);
//! - [`limits`]: how far a complete search may go;
//! - [`probes`]: the complete solver's store of probes still valid;
//! - [`cnf`], [`encoding`], [`regular`], [`starts`], [`sat`], [`cubes`]:
//!   the complete solver's SAT fallback for hard boards (formulas, the
//!   board as a formula in either of two encodings of its lines, CaDiCaL
//!   or Z3; cube and conquer);
//! - [`backbone`]: the cells where the solutions of a board's clues
//!   disagree (the complement of their backbone), by incremental CaDiCaL;
//! - [`symmetry`]: the symmetries of a board's clues (one solution per
//!   orbit in cube and conquer's formula);
//! - [`invariant`]: the SAT fallback on boards with symmetric clues (the
//!   symmetric solutions first, then one per orbit);
//! - [`trace`]: solution traces by random rollouts (test transitions);
//! - `brute`: every solution of a small board by brute force (tests).

pub mod backbone;
pub mod bitboard;
#[cfg(test)]
pub(crate) mod brute;
pub mod cnf;
pub mod complete;
pub mod cubes;
pub mod encoding;
pub mod grid;
pub mod invariant;
pub mod limits;
pub mod probes;
pub mod propagate;
pub mod regular;
pub mod sat;
pub mod starts;
pub mod symmetry;
pub mod trace;
