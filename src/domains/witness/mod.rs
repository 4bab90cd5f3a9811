//! Witness triangle puzzles: puzzles, partial paths, generators, completion
//! oracle, A* search.
//!
//! This domain knows nothing about the rule language or the synthesis
//! engine: predicates reach the search as `&dyn Fn(&Puzzle, &Path) -> bool`
//! (`true` = "this partial path is incompletable").
//!
//! - [`grid`]: vertex/edge/square numbering and a 256-bit set;
//! - [`puzzle`]: the validated puzzle and its RON file format;
//! - [`path`]: partial paths with per-square edge counts, solution check;
//! - [`features`]: the elements and features the rule language sees;
//! - [`oracle`]: exact completability, counting, brute-force enumerators;
//! - [`generate`]: Stevens' Appendix D generators (Algorithms 3 and 4);
//! - [`predicates`]: the hand-written baseline and Stevens' π°;
//! - [`search`]: Stevens' Algorithm 1 (A* with pruning or sorting).

pub mod features;
pub mod generate;
pub mod grid;
pub mod oracle;
pub mod path;
pub mod predicates;
pub mod puzzle;
pub mod search;

pub use grid::{Grid, Vertex};
pub use path::{Path, PathError};
pub use puzzle::{Problem, Puzzle, PuzzleError};
