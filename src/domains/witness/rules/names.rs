//! Names for learned Witness rules that say what they do: the rule's
//! condition read conjunct by conjunct, in words that are valid rule
//! names (`star_and_closed_and_joined_same_not_1`,
//! `triangles_above_used_plus_live`), made distinct within a set by a
//! numeric suffix. A name only reads the condition: two rules with one
//! condition up to variable names get one name (then a suffix).

use crate::dsl::ast::{BoolExpr, IntExpr, Rule};
use crate::dsl::schema::Schema;

fn int_words(e: &IntExpr, schema: &Schema) -> String {
    match e {
        IntExpr::Lit(v) if *v < 0 => format!("minus_{}", v.unsigned_abs()),
        IntExpr::Lit(v) => v.to_string(),
        IntExpr::Global(g) => schema.global(*g).name.clone(),
        IntExpr::Feature(f, _) => schema.feature(*f).name.clone(),
        IntExpr::Add(a, b) => format!("{}_plus_{}", int_words(a, schema), int_words(b, schema)),
        IntExpr::Sub(a, b) => format!("{}_minus_{}", int_words(a, schema), int_words(b, schema)),
        IntExpr::Mul(k, a) => format!("{k}_times_{}", int_words(a, schema)),
    }
}

fn bool_words(e: &BoolExpr, schema: &Schema) -> String {
    match e {
        BoolExpr::True => "always".into(),
        BoolExpr::Not(b) => format!("not_{}", bool_words(b, schema)),
        BoolExpr::And(parts) => parts.iter().map(|p| bool_words(p, schema)).collect::<Vec<_>>().join("_and_"),
        BoolExpr::Cmp(op, a, b) => format!("{}_{}_{}", int_words(a, schema), op.words(), int_words(b, schema)),
        BoolExpr::Maximal(_) => "largest".into(),
        BoolExpr::Minimal(_) => "smallest".into(),
        BoolExpr::Unique(_, b) => format!("only_{}", bool_words(b, schema)),
        BoolExpr::Feature(f, _) | BoolExpr::Pair(f, ..) => schema.feature(*f).name.clone(),
    }
}

/// The name of `rule` in words (see the module).
pub fn name_of(rule: &Rule, schema: &Schema) -> String {
    bool_words(&rule.condition, schema)
}

/// Renames `rules` by [`name_of`], the second and later rule of one name
/// suffixed `_2`, `_3`, ... in order.
pub fn name_rules(rules: &mut [Rule], schema: &Schema) {
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for rule in rules {
        let name = name_of(rule, schema);
        let n = seen.entry(name.clone()).or_insert(0);
        *n += 1;
        rule.name = if *n == 1 { name } else { format!("{name}_{n}") };
    }
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
