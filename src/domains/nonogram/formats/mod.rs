//! The nonogram files of docs/formats.md, read with located errors and written
//! atomically.
//!
//! - [`lines`]: the `.lines` transition format;
//! - [`non`]: the `.non` puzzle format;
//! - [`webpbn`]: webpbn XML puzzles;
//! - [`tournament`]: tournament sets of many 25x25 puzzles, and their
//!   solutions;
//! - [`puzzle`]: a puzzle file in any format, by extension or content.

pub mod lines;
pub mod non;
pub mod puzzle;
pub mod tournament;
pub mod webpbn;
