//! Witness puzzles made to order:
//!
//! - [`epcg`]: placeholder squares and their fillings (Shen's EPCG);
//! - [`rank`]: the fillings, or teaching candidates, scored and ranked.

pub mod epcg;
pub mod rank;
