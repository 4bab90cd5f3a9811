//! Witness puzzles made: at random (Stevens' generators, also the learner's
//! training and filter puzzles) and to order (Shen's EPCG).
//!
//! - [`walk`]: random goals and random simple paths for the generators;
//! - [`generate`]: Stevens' Appendix D generators (Algorithms 3 and 4);
//! - [`generate_kinds`]: puzzles with chosen kinds of constraint, read off
//!   a hidden path;
//! - [`epcg`]: placeholder squares and their fillings (Shen's EPCG);
//! - [`rank`]: the fillings, or teaching candidates, scored and ranked.

pub mod epcg;
pub mod generate;
pub mod generate_kinds;
pub mod rank;
pub mod walk;
