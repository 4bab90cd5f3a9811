//! The rule language (DSL.md), independent of any puzzle domain: syntax
//! tree, domain schema, parser, printer, cost, and the concrete and symbolic
//! interpreters.

pub mod ast;
pub mod eval;
pub mod parse;
pub mod schema;
pub mod symbolic;
