//! The pieces a Witness puzzle is made of, with no path, no search and no
//! rule language:
//!
//! - [`grid`]: vertex/edge/square numbering and a 256-bit set;
//! - [`constraints`]: the constraint lists and their validation;
//! - [`problem`]: what can be wrong with a puzzle description.

pub mod constraints;
pub mod grid;
pub mod problem;
