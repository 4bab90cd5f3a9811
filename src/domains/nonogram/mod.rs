//! Nonogram lines: line model, exact line solver, decomposition oracle,
//! boards, traces, and the domain the engine sees.
//!
//! - [`line`]: cells and lines, their text forms, blocks and gaps;
//! - [`solver`]: the exact line solver (maximal transitions, hint ranges);
//! - [`decompose`]: the decomposition oracle (cuts and sub-lines);
//! - [`lines_file`]: the `.lines` transition format;
//! - [`non_file`]: the `.non` puzzle format; [`webpbn`]: webpbn XML;
//!   [`tournament`]: tournament sets of many puzzles; [`puzzle_file`]: any
//!   of them, by extension or content;
//! - [`board`]: boards solved line by line to a fixpoint;
//! - [`propagate`]: line propagation on a grid of cells (the player's);
//! - [`bitline`]: the exact line solver on bit masks (lines up to 126);
//! - [`bitboard`], [`search`]: the complete board solver (bit boards,
//!   propagation with a memo, probing, search that counts solutions);
//! - [`html`]: a solve as a self-contained HTML page of SVG boards;
//! - [`analysis`]: a puzzle's solutions, solvability and difficulty;
//! - [`player`]: a step-by-step solve with rules or the line solver and an
//!   oracle where they are stuck (explanations, difficulty);
//! - [`trace`]: solution traces by random rollouts (test transitions);
//! - [`state`]: line states with their maximal transition, `fill` arguments;
//! - [`domain`]: the `Domain` implementation (view, oracle, orientations);
//! - [`symbolic`]: the Z3 encoding of every line up to a bound;
//! - [`enumerate`]: every valid small line state;
//! - [`spec`]: specifications for synthesis (a state and one run of deductions);
//! - [`mine`]: specifications mined from small lines (one per run of
//!   newly forced cells);
//! - [`apply`], [`coverage`], [`check`]: rule sets on lines, coverage on
//!   test sets, brute-force soundness;
//! - [`compare`]: a learned rule set against control rules;
//! - [`describe`]: rules in words (an English sentence, readable names).

pub mod analysis;
pub mod apply;
pub mod bitboard;
pub mod bitline;
pub mod board;
pub mod check;
pub mod chosen;
pub mod compare;
pub mod coverage;
pub mod decompose;
pub mod describe;
pub mod domain;
pub mod enumerate;
pub mod fills;
pub mod html;
pub mod line;
pub mod mine;
pub mod learn;
pub mod lines_file;
pub mod non_file;
pub mod player;
pub mod propagate;
pub mod puzzle_file;
pub mod search;
pub mod solver;
pub mod spec;
pub mod state;
pub mod symbolic;
pub mod tournament;
pub mod trace;
pub mod webpbn;

pub use line::{Cell, Line};
