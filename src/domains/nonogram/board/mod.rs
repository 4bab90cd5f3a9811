//! Whole nonogram boards.
//!
//! - [`grid`]: boards solved line by line to a fixpoint, rendered as text;
//! - [`propagate`]: line propagation on a grid of cells (the player's);
//! - [`bitboard`], [`complete`]: the complete board solver (bit boards,
//!   propagation with a memo of line results, probing, search that counts
//!   solutions within a node budget and a deadline);
//! - [`probes`]: the complete solver's store of probes still valid;
//! - [`cnf`], [`sat`]: the complete solver's SAT fallback for hard boards
//!   (the board as a formula, CaDiCaL);
//! - [`trace`]: solution traces by random rollouts (test transitions).

pub mod bitboard;
pub mod cnf;
pub mod complete;
pub mod grid;
pub mod probes;
pub mod propagate;
pub mod sat;
pub mod trace;
