//! The rule language (DSL.md), independent of any puzzle domain: syntax
//! tree, domain schema, parser, printer, cost and concrete interpreter.

pub mod ast;
pub mod parse;
pub mod schema;
