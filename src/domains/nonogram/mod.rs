//! Nonogram lines: line model, exact line solver, decomposition oracle,
//! boards and `.non` files, `.lines` files, solution traces, the domain's
//! view and Z3 encoding.

pub mod domain;
pub mod enumerate;
pub mod line;
pub mod solver;
pub mod symbolic;
