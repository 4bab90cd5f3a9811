//! Witness puzzles: puzzles, partial paths, completion oracle, A* search,
//! the domain as the rule language sees it, and what is built on them for
//! players and designers. Laid out as the nonogram domain is; each folder
//! builds only on those listed before it, except that [`make`]'s random
//! generators (which need only [`model`], [`formats`] and [`board`]) also
//! draw the puzzles of [`synthesis`]'s samples and [`learn`]'s training:
//!
//! - [`model`]: grid geometry, the constraint lists and their validation;
//! - [`formats`]: the validated puzzle and its RON file format;
//! - [`board`]: partial paths, the exact completion oracle, the goal region
//!   and the areas a path cuts;
//! - [`search`]: the hand-written reference predicates and Stevens'
//!   Algorithm 1 (A* with pruning or sorting);
//! - [`synthesis`]: what the synthesis engine sees (features, the view,
//!   the Z3 encoding, the `Domain`), specifications and their mining;
//! - [`rules`]: a rule set as a search predicate, screened, named,
//!   compared with a control set, measured against local checking;
//! - [`play`]: players and their solution information (MSI, TSI), and
//!   puzzles with their figures as an HTML page;
//! - [`learn`]: what the domain supplies to the learning pipeline;
//! - [`make`]: random puzzles (Stevens' generators) and puzzles made to
//!   order (Shen's EPCG).
//!
//! The model, formats, board and search know nothing about the rule
//! language: predicates reach the search as `&dyn Fn(&Puzzle, &Path) ->
//! bool` (`true` = "this partial path is incompletable"). Only
//! [`synthesis`] and what follows speak the rule language.

pub mod board;
pub mod formats;
pub mod learn;
pub mod make;
pub mod model;
pub mod play;
pub mod rules;
pub mod search;
pub mod synthesis;

pub use board::path::{Path, PathError};
pub use formats::puzzle::{Problem, Puzzle, PuzzleError};
pub use model::grid::{Grid, Vertex};
