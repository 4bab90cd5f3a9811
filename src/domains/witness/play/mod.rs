//! What a player and a reader see of Witness puzzles:
//!
//! - [`information`]: players and their solution information (MSI, TSI);
//! - [`page`]: puzzles and their figures as an HTML page.

pub mod information;
pub mod page;
