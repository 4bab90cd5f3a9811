//! Deduplication of a learned rule set, independent of any domain: rules
//! are grouped by a key and the cheapest of each group is kept (ties: the
//! first). The key this module supplies is equality up to egg's rewrites:
//! each rule rewritten to its cheapest equal form ([`Simplifier`]), then
//! printed without name or comments, with variables renamed canonically,
//! in its least declaration and conjunct order ([`canonical_text`]). A
//! domain may add keys of its own (e.g. behaviour on test states).

use crate::dsl::ast::Rule;
use crate::dsl::normal::canonical_text;
use crate::dsl::schema::Schema;
use crate::rewrite::Simplifier;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::Hash;

/// Per rule, the text under which rules equal up to egg's rewrites, names,
/// variable names and orders coincide (computed in parallel).
pub fn egg_keys(rules: &[Rule], schema: &Schema) -> Vec<String> {
    let simplifier = Simplifier::new(schema);
    rules.par_iter().map(|r| canonical_text(&simplifier.rule(r), schema)).collect()
}

/// Of the items sharing a key, the one with the least cost, then the
/// earliest; an item without a key is kept whatever the others are.
/// Returns the kept indices in ascending order.
pub fn keep_cheapest<K: Hash + Eq>(keys: &[Option<K>], costs: &[u32]) -> Vec<usize> {
    let mut best: HashMap<&K, usize> = HashMap::new();
    for (i, key) in keys.iter().enumerate() {
        if let Some(key) = key {
            let at = best.entry(key).or_insert(i);
            if costs[i] < costs[*at] {
                *at = i;
            }
        }
    }
    (0..keys.len()).filter(|&i| keys[i].as_ref().is_none_or(|k| best[k] == i)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::cost::cost;
    use crate::dsl::parse::parse_rules;

    #[test]
    fn keeps_the_cheapest_then_the_first_of_each_key() {
        let keys = [Some("a"), Some("b"), Some("a"), None, Some("b"), None, Some("a")];
        let costs = [5, 3, 4, 1, 3, 1, 4];
        // a: cheapest 4, first at 2; b: tie, first at 1; keyless: kept
        assert_eq!(keep_cheapest(&keys, &costs), vec![1, 2, 3, 5]);
    }

    #[test]
    fn rules_equal_under_rewrites_share_a_key() {
        let schema = Schema::nonogram();
        let rules = parse_rules(
            "def a:\n with h = arbitrary(hint) and b = arbitrary(block):\n if size(b) = size(h) and start(b) > 0:\n then fill(false, start(b) - 1, start(b))\n\
             def b:\n with c = arbitrary(block) and g = arbitrary(hint):\n if start(c) + 0 > 0 and size(g) = size(c) + 0:\n then fill(false, start(c) + 1 - 2, start(c))\n\
             def c:\n with h = arbitrary(hint) and b = arbitrary(block):\n if size(b) = size(h) and start(b) > 1:\n then fill(false, start(b) - 1, start(b))",
            "t",
            &schema,
        )
        .unwrap();
        let keys = egg_keys(&rules, &schema);
        assert_eq!(keys[0], keys[1]);
        assert_ne!(keys[0], keys[2]);
        let costs: Vec<u32> = rules.iter().map(|r| cost(r, &schema)).collect();
        assert!(costs[1] > costs[0]);
        let keys: Vec<Option<String>> = keys.into_iter().map(Some).collect();
        assert_eq!(keep_cheapest(&keys, &costs), vec![0, 2]);
    }
}
