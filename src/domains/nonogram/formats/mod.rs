//! The nonogram files of FORMATS.md, read with located errors and written
//! atomically.
//!
//! - [`lines`]: the `.lines` transition format;
//! - [`non`]: the `.non` puzzle format;
//! - [`webpbn`]: webpbn XML puzzles;
//! - [`puzzle`]: a puzzle file in either format, by extension or content.

pub mod lines;
pub mod non;
pub mod puzzle;
pub mod webpbn;
