//! Flow boards drawn: endpoints, and when a solution is known its paths in
//! their colours.
//!
//! - [`text`]: a board as text, links drawn between cells;
//! - [`html`]: boards as one self-contained HTML page of SVG drawings;
//! - [`steps`]: a solve's steps as one HTML page (`explain --html`).

pub mod html;
pub mod steps;
pub mod text;
