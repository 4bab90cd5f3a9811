//! Witness triangle puzzles: puzzles, partial paths, generators, completion
//! oracle, A* search, and the domain as the rule language sees it.
//!
//! The puzzle model (grid .. search) knows nothing about the rule language:
//! predicates reach the search as `&dyn Fn(&Puzzle, &Path) -> bool`
//! (`true` = "this partial path is incompletable"). Only [`view`] (and the
//! modules built on it) speak the rule language.
//!
//! - [`grid`]: vertex/edge/square numbering and a 256-bit set;
//! - [`puzzle`]: the validated puzzle and its RON file format;
//! - [`path`]: partial paths with per-square edge counts, solution check;
//! - [`features`]: the elements and features the rule language sees;
//! - [`oracle`]: exact completability, counting, brute-force enumerators;
//! - [`generate`]: Stevens' Appendix D generators (Algorithms 3 and 4);
//! - [`predicates`]: the hand-written baseline and Stevens' π°;
//! - [`search`]: Stevens' Algorithm 1 (A* with pruning or sorting);
//! - [`region`]: the goal region and the region features (one flood fill);
//! - [`view`]: the concrete view of a state for the rule interpreter;
//! - [`symbolic`]: the Z3 encoding of every completable state up to a bound;
//! - [`domain`]: the [`Domain`](crate::domains::Domain) implementation;
//! - [`ruleset`]: a rule set as a search predicate;
//! - [`information`]: players and their solution information (MSI, TSI);
//! - [`mine`]: specifications (incompletable paths a predicate misses);
//! - [`specs`]: the specification file format;
//! - [`learn`]: the learning pipeline (mine, synthesise, select);
//! - [`epcg`]: placeholder squares and their fillings (Shen's EPCG);
//! - [`page`]: puzzles and their figures as an HTML page.

pub mod domain;
pub mod epcg;
pub mod features;
pub mod generate;
pub mod grid;
pub mod information;
pub mod learn;
pub mod mine;
pub mod oracle;
pub mod page;
pub mod path;
pub mod predicates;
pub mod puzzle;
pub mod region;
pub mod ruleset;
pub mod search;
pub mod specs;
pub mod symbolic;
pub mod view;

pub use grid::{Grid, Vertex};
pub use path::{Path, PathError};
pub use puzzle::{Problem, Puzzle, PuzzleError};
