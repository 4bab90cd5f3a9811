//! Solving whole boards as a person would, with rules.
//!
//! - [`player`]: a step-by-step solve with rules or the line solver and an
//!   oracle where they are stuck (explanations, difficulty);
//! - [`oracle`]: the cell the oracle reveals, with its probes kept;
//! - [`analysis`]: a puzzle's solutions, solvability and difficulty;
//! - [`html`]: a solve as a self-contained HTML page of SVG boards.

pub mod analysis;
pub mod html;
pub mod oracle;
pub mod player;
