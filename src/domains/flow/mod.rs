//! Flow puzzles (Flow Free; Numberlink with every cell used). Each folder
//! builds only on those listed before it:
//!
//! - [`model`]: the grid, cells and slots, puzzles, partial states and
//!   their features, solutions and what makes one;
//! - [`formats`]: the three file layouts, read and written;
//! - [`rules`]: rule sets on Flow states: their view, the player, soundness;
//! - [`solve`]: the complete solver that counts solutions (0, 1 or 2+)
//!   within limits;
//! - [`synthesis`]: rules proven by Z3: the symbolic encoding and the
//!   domain as the engine sees it;
//! - [`play`]: the model player (rules or the solver's propagation, an
//!   oracle when stuck): the steps `explain` shows, and bits of guessing;
//! - [`make`]: puzzles made to order (`generate flow`);
//! - [`learn`]: what learning strategies (`learn flow`) mines, scores and
//!   names;
//! - [`draw`]: boards and solutions as text and as HTML pages (what
//!   `analyze` says of them is `crate::report::flow`).

pub mod draw;
pub mod formats;
pub mod learn;
pub mod make;
pub mod model;
pub mod play;
pub mod rules;
pub mod solve;
pub mod synthesis;
