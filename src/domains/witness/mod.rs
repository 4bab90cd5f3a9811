//! Witness puzzles: puzzles, partial paths, generators, completion
//! oracle, A* search, the domain as the rule language sees it, and what
//! is built on them for players and designers. Each folder builds only on
//! those listed before it:
//!
//! - [`model`]: grid geometry, the validated puzzle and its file format,
//!   partial paths, the exact completion oracle, the goal region, and
//!   Stevens' random generators;
//! - [`search`]: the hand-written reference predicates and Stevens'
//!   Algorithm 1 (A* with pruning or sorting);
//! - [`synthesis`]: what the synthesis engine sees (features, the view,
//!   the Z3 encoding, the `Domain`), specifications and their mining, a
//!   rule set as a search predicate, and the learning pipeline's supply;
//! - [`play`]: players and their solution information (MSI, TSI), and
//!   puzzles with their figures as an HTML page;
//! - [`make`]: puzzles made to order (Shen's EPCG).
//!
//! The model and search know nothing about the rule language: predicates
//! reach the search as `&dyn Fn(&Puzzle, &Path) -> bool` (`true` = "this
//! partial path is incompletable"). Only [`synthesis`] and what follows
//! speak the rule language.

pub mod make;
pub mod model;
pub mod play;
pub mod search;
pub mod synthesis;

pub use model::grid::{Grid, Vertex};
pub use model::path::{Path, PathError};
pub use model::puzzle::{Problem, Puzzle, PuzzleError};
