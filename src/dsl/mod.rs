//! The rule language (DSL.md), independent of any puzzle domain: syntax
//! tree, domain schema, lexer, parser, printer, cost, and the concrete and
//! symbolic interpreters.

pub mod ast;
pub mod cost;
pub mod eval;
pub mod lexer;
pub mod normal;
pub mod parse;
pub mod plan;
pub mod print;
pub mod schema;
pub mod symbolic;

pub use cost::{bool_cost, cost, int_cost};
pub use parse::{detect_and_parse, parse_rules, ParseError};
pub use print::{print_rule, print_rules};
