//! Whole nonogram boards.
//!
//! - [`grid`]: boards solved line by line to a fixpoint, rendered as text;
//! - [`propagate`], [`complete`]: the complete board solver (propagation,
//!   probing, backtracking that counts solutions);
//! - [`trace`]: solution traces by random rollouts (test transitions).

pub mod complete;
pub mod grid;
pub mod propagate;
pub mod trace;
