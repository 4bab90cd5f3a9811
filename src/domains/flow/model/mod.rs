//! The Flow board model, shared by the files, the solver and rules.
//!
//! - [`grid`]: cells and slots (pairs of side-adjacent cells);
//! - [`puzzle`]: a puzzle's endpoints and their colours (numbered row by row);
//! - [`state`]: partial solutions (every slot linked, cut or open) and
//!   solutions (link sets);
//! - [`features`]: what a state implies, by docs/reference/language.md's definitions (links,
//!   open, need, colour and chain per cell; heads, done and meets per
//!   colour; areas);
//! - [`check`]: whether a link set is a solution (docs/reference/formats.md's definition,
//!   or Flow Free's looser one).

pub mod check;
pub mod features;
pub mod grid;
pub mod puzzle;
pub mod state;
