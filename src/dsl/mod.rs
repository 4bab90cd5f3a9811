//! The rule language (docs/language.md), independent of any puzzle domain: syntax
//! tree, domain schema, lexer, parser, printer, cost, the concrete and
//! symbolic interpreters, equality of expressions under egg's rewrites
//! ([`rewrite`]) and by linear forms ([`linear`]), rule keys for
//! deduplication ([`dedup`]), rule specialisations ([`specialise`]) and
//! conditions read as rule names ([`words`]).

pub mod ast;
pub mod cost;
pub mod dedup;
pub mod eval;
pub mod lexer;
pub mod linear;
pub mod normal;
pub mod parse;
mod parse_expr;
pub mod plan;
pub mod print;
pub mod rewrite;
pub mod schema;
pub mod specialise;
pub mod symbolic;
pub mod words;

pub use cost::{bool_cost, cost, int_cost};
pub use parse::{detect_and_parse, parse_rules, ParseError};
pub use print::{print_rule, print_rules};
