//! A model player solving a whole Flow puzzle step by step with some
//! knowledge (a rule set, or the complete solver's propagation), told one
//! slot of the solution by an oracle each time that knowledge is stuck:
//! the solve `explain` shows and `generate flow` grades, with its bits of
//! guessing in the terms of the nonogram player.
//!
//! - [`oracle`]: which slot the oracle reveals (a probe the complete
//!   solver's propagation refutes, else the most telling guess);
//! - [`playthrough`]: the solve, its steps and its bits.

pub mod oracle;
pub mod playthrough;
