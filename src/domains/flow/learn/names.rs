//! Names for learned Flow rules that say what they do: the action, then
//! the condition read conjunct by conjunct with each feature's variable
//! (`cut_need_c_is_0_and_not_joined_c_d`), leaving out `neighbours(c, d)`
//! (every link or cut needs its cells side by side); made distinct within
//! a set by a numeric suffix. Each rule's comment then starts with the
//! rule in a sentence.

use crate::dsl::ast::{BoolExpr, IntExpr, Rule, Var};
use crate::dsl::print::print_rule;
use crate::dsl::schema::Schema;

/// The words of an integer expression, with `vars` naming the variables.
fn int_words(e: &IntExpr, schema: &Schema, vars: &[String]) -> String {
    match e {
        IntExpr::Lit(v) if *v < 0 => format!("minus_{}", v.unsigned_abs()),
        IntExpr::Lit(v) => v.to_string(),
        IntExpr::Global(g) => schema.global(*g).name.clone(),
        IntExpr::Feature(f, v) => format!("{}_{}", schema.feature(*f).name, var(vars, *v)),
        IntExpr::Add(a, b) => format!("{}_plus_{}", int_words(a, schema, vars), int_words(b, schema, vars)),
        IntExpr::Sub(a, b) => format!("{}_minus_{}", int_words(a, schema, vars), int_words(b, schema, vars)),
        IntExpr::Mul(k, a) => format!("{k}_times_{}", int_words(a, schema, vars)),
    }
}

/// A variable's name in words.
fn var(vars: &[String], v: Var) -> &str {
    vars.get(v as usize).map_or("x", |s| s.as_str())
}

/// The words of a condition's conjuncts (none for `neighbours`).
fn bool_words(e: &BoolExpr, schema: &Schema, vars: &[String]) -> Vec<String> {
    match e {
        BoolExpr::True => vec![],
        BoolExpr::Not(b) => vec![format!("not_{}", bool_words(b, schema, vars).join("_and_"))],
        BoolExpr::And(parts) => parts.iter().flat_map(|p| bool_words(p, schema, vars)).collect(),
        BoolExpr::Cmp(op, a, b) => {
            vec![format!("{}_{}_{}", int_words(a, schema, vars), op.words(), int_words(b, schema, vars))]
        }
        BoolExpr::Maximal(v) => vec![format!("largest_{}", var(vars, *v))],
        BoolExpr::Minimal(v) => vec![format!("smallest_{}", var(vars, *v))],
        BoolExpr::Unique(v, b) => {
            vec![format!("only_{}_{}", var(vars, *v), bool_words(b, schema, vars).join("_and_"))]
        }
        BoolExpr::Feature(f, v) => vec![format!("{}_{}", schema.feature(*f).name, var(vars, *v))],
        BoolExpr::Pair(f, _, _) if schema.feature(*f).name == "neighbours" => vec![],
        BoolExpr::Pair(f, v, w) => vec![format!("{}_{}_{}", schema.feature(*f).name, var(vars, *v), var(vars, *w))],
    }
}

/// The name of `rule` in words (see the module).
pub fn name_of(rule: &Rule, schema: &Schema) -> String {
    let vars: Vec<String> = rule.decls.iter().map(|d| d.name.clone()).collect();
    let action = &schema.file.actions[rule.action.id.0 as usize].name;
    let words = bool_words(&rule.condition, schema, &vars);
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
    let mut seen: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    for rule in rules {
        let name = name_of(rule, schema);
        let n = seen.entry(name.clone()).or_insert(0);
        *n += 1;
        rule.name = if *n == 1 { name } else { format!("{name}_{n}") };
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
