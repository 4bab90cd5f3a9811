//! Flow puzzles made to order.
//!
//! - [`cover`]: random covers of a board by paths, which make a puzzle
//!   (their ends) with a known solution (their links).

pub mod cover;
