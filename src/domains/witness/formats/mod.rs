//! The Witness puzzle files of docs/formats.md, read with located errors:
//!
//! - [`puzzle`]: the validated puzzle and its RON file format (lists of
//!   puzzles read and written);
//! - [`ron_list`]: RON lists of entries (puzzles, specifications) with
//!   located errors.

pub mod puzzle;
pub mod ron_list;
