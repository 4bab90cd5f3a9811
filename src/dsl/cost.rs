//! The cost of a rule: the sum over its syntax tree of the construct costs
//! the domain's DSL file sets (docs/language.md, "Cost"). Monotone and linear: a
//! subtree's cost adds to its parent's. Lower cost = more concise.
//!
//! Charged: per declaration `decl` plus its pattern kind; `true`, `not`,
//! `cmp`, `maximal`, `minimal`, `unique`; `and` once per separator (n - 1
//! for n conjuncts); integer literals `literal` (a negative literal is one
//! literal); `+`, `-`; `k *` is `mul` (its literal is not charged again);
//! features, globals and actions their own cost; boolean action arguments
//! `bool_literal`. Names of types and variables cost nothing.

use super::ast::{ActionArg, BoolExpr, Decl, IntExpr, PatternKind, Rule};
use super::schema::Schema;

/// The cost of a whole rule (declarations, condition and action).
pub fn cost(rule: &Rule, schema: &Schema) -> u32 {
    let c = schema.costs();
    let decls: u32 = rule.decls.iter().map(|d| decl_cost(d, schema)).sum();
    let action = schema.action(rule.action.id).cost
        + rule
            .action
            .args
            .iter()
            .map(|a| match a {
                ActionArg::Bool(_) => c.bool_literal,
                ActionArg::Int(e) => int_cost(e, schema),
                ActionArg::Element(_) => c.element,
            })
            .sum::<u32>();
    decls + bool_cost(&rule.condition, schema) + action
}

/// The cost of one pattern declaration.
pub fn decl_cost(decl: &Decl, schema: &Schema) -> u32 {
    let c = schema.costs();
    c.decl
        + match decl.kind {
            PatternKind::Singleton => c.singleton,
            PatternKind::Constant(_) => c.constant,
            PatternKind::Arbitrary => c.arbitrary,
        }
}

/// The cost of a condition.
pub fn bool_cost(b: &BoolExpr, schema: &Schema) -> u32 {
    let c = schema.costs();
    match b {
        BoolExpr::True => c.true_,
        BoolExpr::Not(inner) => c.not + bool_cost(inner, schema),
        BoolExpr::And(parts) => {
            c.and * (parts.len().saturating_sub(1) as u32) + parts.iter().map(|p| bool_cost(p, schema)).sum::<u32>()
        }
        BoolExpr::Cmp(_, l, r) => c.cmp + int_cost(l, schema) + int_cost(r, schema),
        BoolExpr::Maximal(_) => c.maximal,
        BoolExpr::Minimal(_) => c.minimal,
        BoolExpr::Unique(_, inner) => c.unique + bool_cost(inner, schema),
        BoolExpr::Feature(f, _) | BoolExpr::Pair(f, ..) => schema.feature(*f).cost,
    }
}

/// The cost of an integer expression.
pub fn int_cost(e: &IntExpr, schema: &Schema) -> u32 {
    let c = schema.costs();
    match e {
        IntExpr::Lit(_) => c.literal,
        IntExpr::Global(g) => schema.global(*g).cost,
        IntExpr::Feature(f, _) => schema.feature(*f).cost,
        IntExpr::Add(a, b) => c.add + int_cost(a, schema) + int_cost(b, schema),
        IntExpr::Sub(a, b) => c.sub + int_cost(a, schema) + int_cost(b, schema),
        IntExpr::Mul(_, a) => c.mul + int_cost(a, schema),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_rules;

    fn rule(text: &str, schema: &Schema) -> Rule {
        parse_rules(text, "t.rules", schema).unwrap().remove(0)
    }

    #[test]
    fn punctuate_maximum_costs_its_tree() {
        let s = Schema::nonogram();
        let r = rule(
            "def p: with h = arbitrary(hint) and b = arbitrary(block):
             if maximal(h) and size(b) = size(h) and start(b) > 0:
             then fill(false, start(b) - 1, start(b))",
            &s,
        );
        // decls 2 * (1 + 1); maximal 2; and 2 * 0; cmp 1 + 1 + 1; cmp 1 + 1 + 1;
        // fill 1 + false 0 + (sub 1 + start 1 + lit 1) + start 1
        assert_eq!(cost(&r, &s), 4 + 2 + 3 + 3 + 1 + 3 + 1);
        assert_eq!(bool_cost(&r.condition, &s), 8);
    }

    #[test]
    fn every_construct_is_charged() {
        let s = Schema::nonogram();
        let r = rule(
            "def q: with h = constant(hint, 2) and g = singleton(gap):
             if not true and h is unique where (minimal(h)) and -2 * lowest_end_cell(h) < line_size + 3:
             then fill(true, 0, 1)",
            &s,
        );
        // decls (1+2) + (1+1) = 5; not 1 + true 0; unique 3 + minimal 2;
        // cmp 1 + mul 2 + lec 2 + add 1 + line_size 1 + lit 1 = 8; fill 1 + 0 + 1 + 1 = 3
        assert_eq!(cost(&r, &s), 5 + 1 + 5 + 8 + 3);
        let w = Schema::witness();
        let r =
            rule("def t: with s = arbitrary(square): if touches_head(s) and used(s) > triangles(s): then prune", &w);
        assert_eq!(cost(&r, &w), 2 + 1 + 3 + 1);
    }

    #[test]
    fn and_is_charged_per_separator() {
        let mut s = Schema::nonogram();
        s.file.costs.and = 10;
        let r =
            rule("def a: with h = arbitrary(hint): if true and true and (true and true): then fill(true, 0, 0)", &s);
        // outer: 2 separators, inner: 1
        assert_eq!(bool_cost(&r.condition, &s), 30);
    }
}
