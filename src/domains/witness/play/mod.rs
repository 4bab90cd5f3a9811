//! What a player and a reader see of Witness puzzles:
//!
//! - [`information`]: players and their solution information (MSI, TSI);
//! - [`players`]: the players as the commands name them, each puzzle's figures for each;
//! - [`page`]: puzzles and their figures as an HTML page.

pub mod information;
pub mod page;
pub mod players;
