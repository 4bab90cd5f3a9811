//! Flow puzzles made to order.
//!
//! - [`cover`]: random covers of a board by paths, which make a puzzle
//!   (their ends) with a known solution (their links);
//! - [`run`]: candidates judged (one solution, the player's bits, a needed
//!   rule), the first that pass kept, the same for any number of threads;
//! - [`repair`]: the fewest endpoint changes that make a drawn puzzle one
//!   that is wanted (`generate flow --from`, the studio's repair).

pub mod cover;
pub mod repair;
pub mod run;
