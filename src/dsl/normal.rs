//! Normal forms of rules, independent of any domain: variables renumbered
//! in a chosen declaration order and conjuncts sorted, so that rules that
//! differ only in names, descriptions, the order of their pattern
//! declarations and the order of conjuncts compare equal ([`same_rule`]).
//! Semantic equalities (arithmetic, flipped comparisons) are not this
//! module's business ([`super::rewrite`], [`super::dedup`]).

use super::ast::{ActionArg, BoolExpr, Decl, IntExpr, Rule, Var};

/// `rule` with variables renumbered by `order` (the new i-th declaration
/// is the old `order[i]`) and conjuncts sorted: a form in which rules that
/// differ only in names and orders are equal.
fn normal_form(rule: &Rule, order: &[usize]) -> (Vec<Decl>, BoolExpr, Vec<ActionArg>) {
    let mut renumber = vec![0 as Var; order.len()];
    for (new, &old) in order.iter().enumerate() {
        renumber[old] = new as Var;
    }
    let decls = order.iter().map(|&old| Decl { name: String::new(), ..rule.decls[old].clone() }).collect();
    let args = rule
        .action
        .args
        .iter()
        .map(|a| match a {
            ActionArg::Int(e) => ActionArg::Int(rename_int(e, &renumber)),
            ActionArg::Bool(b) => ActionArg::Bool(*b),
            ActionArg::Element(v) => ActionArg::Element(renumber[*v as usize]),
        })
        .collect();
    (decls, rename_bool(&rule.condition, &renumber), args)
}

fn rename_int(e: &IntExpr, to: &[Var]) -> IntExpr {
    match e {
        IntExpr::Lit(_) | IntExpr::Global(_) => e.clone(),
        IntExpr::Feature(f, v) => IntExpr::Feature(*f, to[*v as usize]),
        IntExpr::Add(a, b) => IntExpr::sum(rename_int(a, to), rename_int(b, to)),
        IntExpr::Sub(a, b) => IntExpr::difference(rename_int(a, to), rename_int(b, to)),
        IntExpr::Mul(k, a) => IntExpr::Mul(*k, Box::new(rename_int(a, to))),
    }
}

fn rename_bool(e: &BoolExpr, to: &[Var]) -> BoolExpr {
    match e {
        BoolExpr::True => BoolExpr::True,
        BoolExpr::Not(x) => BoolExpr::Not(Box::new(rename_bool(x, to))),
        BoolExpr::And(parts) => {
            let mut parts: Vec<BoolExpr> = parts.iter().map(|p| rename_bool(p, to)).collect();
            parts.sort();
            BoolExpr::And(parts)
        }
        BoolExpr::Cmp(op, a, b) => BoolExpr::Cmp(*op, rename_int(a, to), rename_int(b, to)),
        BoolExpr::Maximal(v) => BoolExpr::Maximal(to[*v as usize]),
        BoolExpr::Minimal(v) => BoolExpr::Minimal(to[*v as usize]),
        BoolExpr::Unique(v, x) => BoolExpr::Unique(to[*v as usize], Box::new(rename_bool(x, to))),
        BoolExpr::Feature(f, v) => BoolExpr::Feature(*f, to[*v as usize]),
        BoolExpr::Pair(f, v, w) => BoolExpr::Pair(*f, to[*v as usize], to[*w as usize]),
    }
}

/// Every ordering of `0..n`.
pub fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = vec![];
    for p in permutations(n - 1) {
        for at in 0..=p.len() {
            let mut q = p.clone();
            q.insert(at, n - 1);
            out.push(q);
        }
    }
    out
}

/// Whether two rules are the same up to names, descriptions, variable
/// names, the order of their declarations and the order of conjuncts.
pub fn same_rule(a: &Rule, b: &Rule) -> bool {
    if a.decls.len() != b.decls.len() || a.action.id != b.action.id {
        return false;
    }
    let identity: Vec<usize> = (0..a.decls.len()).collect();
    let target = normal_form(a, &identity);
    permutations(b.decls.len()).iter().any(|order| normal_form(b, order) == target)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_rules;

    fn rules(text: &str) -> Vec<Rule> {
        parse_rules(text, "t", &crate::dsl::schema::Schema::nonogram()).unwrap()
    }

    #[test]
    fn same_rule_ignores_names_and_orders() {
        let a = rules(
            "# described\ndef a:\n with h = arbitrary(hint) and b = arbitrary(block):\n if maximal(h) and size(b) = size(h) and start(b) > 0:\n then fill(false, start(b) - 1, start(b))",
        );
        let b = rules(
            "def b:\n with blk = arbitrary(block) and x = arbitrary(hint):\n if start(blk) > 0 and maximal(x) and size(blk) = size(x):\n then fill(false, start(blk) - 1, start(blk))",
        );
        assert!(same_rule(&a[0], &b[0]));
        // operands swapped, a different pattern, a different action: not the same
        for other in [
            "def c:\n with h = arbitrary(hint) and b = arbitrary(block):\n if maximal(h) and size(h) = size(b) and start(b) > 0:\n then fill(false, start(b) - 1, start(b))",
            "def c:\n with h = arbitrary(hint) and b = constant(block, 0):\n if maximal(h) and size(b) = size(h) and start(b) > 0:\n then fill(false, start(b) - 1, start(b))",
            "def c:\n with h = arbitrary(hint) and b = arbitrary(block):\n if maximal(h) and size(b) = size(h) and start(b) > 0:\n then fill(false, start(b) - 2, start(b))",
        ] {
            assert!(!same_rule(&a[0], &rules(other)[0]), "{other}");
        }
    }
}
