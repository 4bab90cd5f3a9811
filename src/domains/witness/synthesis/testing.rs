//! What the Witness library's tests share: a sound rule, rule text parsed
//! in the domain, generated puzzles.

use super::domain::Witness;
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::make::generate::{generate, Algorithm, GeneratorConfig};
use crate::domains::Domain;
use crate::dsl::ast::Rule;
use crate::dsl::parse::parse_rules;

/// A sound rule that prunes: a square with more triangles to meet than
/// edges it can still use.
pub const STARVED: &str =
    "def starved_square:\n    with s = arbitrary(square):\n    if live(s) < triangles(s) - used(s):\n    then prune\n";

/// The domain and `text`'s rules in it.
pub fn rules(text: &str) -> (Witness, Vec<Rule>) {
    let domain = Witness::new();
    let rules = parse_rules(text, "test", domain.schema()).unwrap();
    (domain, rules)
}

/// `count` puzzles of `sizes` (`WxH` or `WxH..WxH`) by Algorithm 3 from `seed`.
pub fn puzzles(sizes: &str, seed: u64, count: usize) -> Vec<Puzzle> {
    generate(&GeneratorConfig::new(sizes.parse().unwrap(), Algorithm::RandomTriangles), seed, count).unwrap()
}
