//! Nonograms made to order (`generate nonogram`): from a picture, repaired
//! with the fewest changed cells, or at random; each unique and solved by a
//! chosen player without guessing.
//!
//! - [`picture`]: reading pictures (`.non` goal, plain PBM, PNG);
//! - [`judge`]: the players, the cells they leave undecided, their solves,
//!   the complete solver's count;
//! - [`accept`]: the checks a made puzzle passes before it is kept;
//! - [`random`]: random pictures, one seeded stream per candidate;
//! - [`repair`]: the search for the fewest changed cells (or, for
//!   uniqueness alone, for a repair);
//! - [`run`]: random puzzles and a picture's repairs that pass the checks.

pub mod accept;
pub mod judge;
pub mod picture;
pub mod random;
pub mod repair;
pub mod run;
