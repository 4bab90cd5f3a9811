//! Names for learned Flow rules that say what they do: the action, then
//! the condition read conjunct by conjunct with each feature's variable
//! (`cut_need_c_is_0_and_not_joined_c_d`), leaving out `neighbours(c, d)`
//! (every link or cut needs its cells side by side); made distinct within
//! a set by a numeric suffix. Each rule's comment then starts with the
//! rule in a sentence.

use crate::dsl::ast::Rule;
use crate::dsl::print::print_rule;
use crate::dsl::schema::Schema;
use crate::dsl::words::{distinct, Reading};

/// The name of `rule` in words (see the module).
pub fn name_of(rule: &Rule, schema: &Schema) -> String {
    let vars: Vec<String> = rule.decls.iter().map(|d| d.name.clone()).collect();
    let unsaid = |f| schema.feature(f).name == "neighbours";
    let words = Reading { schema, vars: Some(&vars), unsaid: &unsaid }.conjuncts(&rule.condition);
    let action = &schema.file.actions[rule.action.id.0 as usize].name;
    if words.is_empty() {
        format!("{action}_always")
    } else {
        format!("{action}_{}", words.join("_and_"))
    }
}

/// Renames `rules` by [`name_of`] (the second and later rule of one name
/// suffixed `_2`, `_3`, ... in order), each comment starting with the
/// rule's condition and action as a sentence.
pub fn name_rules(rules: &mut [Rule], schema: &Schema) {
    distinct(rules, |r| name_of(r, schema));
    for rule in rules {
        let bare = Rule { description: vec![], ..rule.clone() };
        // the printed rule on one line: `def N: with ...: if COND: then ACTION`
        let flat = print_rule(&bare, schema).split_whitespace().collect::<Vec<_>>().join(" ");
        let parts = flat.split_once(": if ").and_then(|(_, rest)| rest.split_once(": then "));
        if let Some((condition, action)) = parts {
            let sentence = format!("{action} when {condition}");
            if rule.description.first() != Some(&sentence) {
                rule.description.insert(0, sentence);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_rules;
    use crate::dsl::print::print_rules;

    /// Names say the action and the condition with its variables, leave
    /// out `neighbours`, are distinct, and the renamed rules read back.
    #[test]
    fn names_say_what_flow_rules_do() {
        let schema = Schema::flow();
        let text = "
def a:
    with c = arbitrary(cell) and d = arbitrary(cell):
    if need(c) = 0 and neighbours(c, d) and not joined(c, d):
    then cut(c, d)
def b:
    with c = arbitrary(cell) and d = arbitrary(cell):
    if need(c) = open(c) and neighbours(c, d) and not severed(c, d):
    then link(c, d)
def c:
    with e = arbitrary(cell) and f = arbitrary(cell):
    if need(e) = 0 and neighbours(e, f) and not joined(e, f):
    then cut(e, f)
";
        let mut rules = parse_rules(text, "test", &schema).unwrap();
        name_rules(&mut rules, &schema);
        let names: Vec<&str> = rules.iter().map(|r| r.name.as_str()).collect();
        assert_eq!(
            names,
            [
                "cut_need_c_is_0_and_not_joined_c_d",
                "link_need_c_is_open_c_and_not_severed_c_d",
                "cut_need_e_is_0_and_not_joined_e_f"
            ]
        );
        assert_eq!(rules[0].description[0], "cut(c, d) when need(c) = 0 and neighbours(c, d) and not joined(c, d)");
        let again = parse_rules(&print_rules(&rules, &schema), "printed", &schema).unwrap();
        assert_eq!(again, rules);
    }
}
