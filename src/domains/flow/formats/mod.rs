//! The Flow files of docs/formats.md.
//!
//! - [`read`]: the three layouts (grid, counted, sized), recognised by
//!   content, with located errors;
//! - [`write`]: the layouts written back, and solutions as JSON links or
//!   as a grid of colour characters.

pub mod read;
#[cfg(test)]
mod tests;
pub mod write;
