//! Flow rule sets at work (docs/reference/language.md, "Domain: Flow boards"):
//!
//! - [`view`]: a state as the rule language sees it, and what actions say;
//! - [`orient`]: the eight orientations rules are applied in;
//! - [`player`]: a rule set applied in rounds, its coverage;
//! - [`brute`]: brute-force soundness on small boards.

pub mod brute;
pub mod orient;
pub mod player;
pub mod view;
