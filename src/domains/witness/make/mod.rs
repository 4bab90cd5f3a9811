//! Witness puzzles made to order:
//!
//! - [`epcg`]: placeholder squares and their fillings (Shen's EPCG).

pub mod epcg;
