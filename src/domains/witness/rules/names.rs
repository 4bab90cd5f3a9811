//! Names for learned Witness rules that say what they do: the rule's
//! condition read conjunct by conjunct, in words that are valid rule
//! names (`star_and_closed_and_joined_same_not_1`,
//! `triangles_above_used_plus_live`), made distinct within a set by a
//! numeric suffix. A name only reads the condition: two rules with one
//! condition up to variable names get one name (then a suffix).

use crate::dsl::ast::Rule;
use crate::dsl::schema::Schema;
use crate::dsl::words::{distinct, Reading};

/// The name of `rule` in words (see the module).
pub fn name_of(rule: &Rule, schema: &Schema) -> String {
    let words = Reading { schema, vars: None, unsaid: &|_| false }.conjuncts(&rule.condition);
    if words.is_empty() {
        "always".into()
    } else {
        words.join("_and_")
    }
}

/// Renames `rules` by [`name_of`], the second and later rule of one name
/// suffixed `_2`, `_3`, ... in order.
pub fn name_rules(rules: &mut [Rule], schema: &Schema) {
    distinct(rules, |r| name_of(r, schema));
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_rules;
    use crate::dsl::print::print_rules;

    /// Names read the condition, are distinct, and the renamed rules print
    /// and parse back.
    #[test]
    fn names_say_what_the_rules_do() {
        let schema = Schema::witness();
        let text = "
def a:
    with x = arbitrary(mark):
    if star(x) and closed(x) and joined_same(x) != 1:
    then prune
def b:
    with s = arbitrary(square):
    if triangles(s) > used(s) + live(s):
    then prune
def c:
    with d = arbitrary(dot):
    if not crossed(d) and not reachable(d):
    then prune
def d:
    with e = arbitrary(dot):
    if not crossed(e) and not reachable(e):
    then prune
";
        let mut rules = parse_rules(text, "test", &schema).unwrap();
        name_rules(&mut rules, &schema);
        let names: Vec<&str> = rules.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "star_and_closed_and_joined_same_not_1",
                "triangles_above_used_plus_live",
                "not_crossed_and_not_reachable",
                "not_crossed_and_not_reachable_2"
            ]
        );
        let again = parse_rules(&print_rules(&rules, &schema), "printed", &schema).unwrap();
        assert_eq!(again, rules);
    }
}
