//! Deduplication of a learned rule set, independent of any domain: rules
//! are grouped by a key and the cheapest of each group is kept (ties: the
//! first).
//!
//! The key this module supplies ([`NormalKey`]) identifies rules that are
//! equal up to names, comments, variable names, the order of declarations
//! and of conjuncts, and every rewrite egg applies to rule expressions
//! ([`crate::dsl::rewrite`]): integer expressions become linear forms (sums of
//! coefficient times feature or global, plus a constant), comparisons
//! become `L >= 0`, `L = 0` or `L != 0` (strict ones over the integers as
//! `L - 1 >= 0`, `=`/`!=` with their first coefficient positive),
//! negations are pushed into comparisons, conjunctions are flattened,
//! sorted and deduplicated, and the declaration order giving the least key
//! is taken. Comparing egg's cheapest printed forms instead would miss
//! equal rules: extraction keeps whichever of `a = b` and `b = a` (or
//! `a + b` and `b + a`) it meets first. A domain may add keys of its own
//! (e.g. behaviour on test states).

use crate::dsl::ast::{
    ActionArg, ActionId, BoolExpr, CmpOp, FeatureId, GlobalId, IntExpr, PatternKind, Rule, TypeId, Var,
};
use crate::dsl::normal::permutations;
use std::collections::{BTreeMap, HashMap};
use std::hash::Hash;

/// A feature of a (renumbered) variable, or a global.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Atom {
    Global(GlobalId),
    Feature(FeatureId, Var),
}

/// `constant + sum of coefficient * atom`, no zero coefficient.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
struct Linear {
    terms: BTreeMap<Atom, i64>,
    constant: i64,
}

impl Linear {
    fn scaled(mut self, k: i64) -> Linear {
        for c in self.terms.values_mut() {
            *c = c.wrapping_mul(k);
        }
        self.constant = self.constant.wrapping_mul(k);
        self.terms.retain(|_, c| *c != 0);
        self
    }

    fn plus(mut self, other: Linear, sign: i64) -> Linear {
        for (atom, c) in other.terms {
            let at = self.terms.entry(atom).or_insert(0);
            *at = at.wrapping_add(sign.wrapping_mul(c));
        }
        self.constant = self.constant.wrapping_add(sign.wrapping_mul(other.constant));
        self.terms.retain(|_, c| *c != 0);
        self
    }

    /// The form with its first coefficient positive (for `= 0`, `!= 0`).
    fn signed(self) -> Linear {
        match self.terms.values().next() {
            Some(&c) if c < 0 => self.scaled(-1),
            _ => self,
        }
    }
}

/// A normalised condition literal.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Literal {
    False,
    /// `L >= 0`
    AtLeast(Linear),
    /// `L = 0`
    Zero(Linear),
    /// `L != 0`
    NonZero(Linear),
    Maximal(Var),
    Minimal(Var),
    Feature(FeatureId, Var),
    Unique(Var, Vec<Literal>),
    /// The negation of a conjunction that is not one comparison.
    NotAll(Vec<Literal>),
    Pair(FeatureId, Var, Var),
}

/// A normalised action argument.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
enum Arg {
    Bool(bool),
    Int(Linear),
    Element(Var),
}

/// The key under which rules equal up to the rewrites named in the module
/// doc coincide.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NormalKey {
    decls: Vec<(TypeId, PatternKind)>,
    condition: Vec<Literal>,
    action: ActionId,
    args: Vec<Arg>,
}

/// Normalises expressions with variables renumbered by `to`.
struct Normaliser<'a> {
    to: &'a [Var],
}

impl Normaliser<'_> {
    fn int(&self, e: &IntExpr) -> Linear {
        match e {
            IntExpr::Lit(k) => Linear { terms: BTreeMap::new(), constant: *k },
            IntExpr::Global(g) => Linear { terms: BTreeMap::from([(Atom::Global(*g), 1)]), constant: 0 },
            IntExpr::Feature(f, v) => {
                Linear { terms: BTreeMap::from([(Atom::Feature(*f, self.to[*v as usize]), 1)]), constant: 0 }
            }
            IntExpr::Add(a, b) => self.int(a).plus(self.int(b), 1),
            IntExpr::Sub(a, b) => self.int(a).plus(self.int(b), -1),
            IntExpr::Mul(k, a) => self.int(a).scaled(*k),
        }
    }

    /// A conjunction: flattened, constant comparisons decided, sorted,
    /// duplicates dropped; `[False]` if some literal is false.
    fn all(&self, e: &BoolExpr) -> Vec<Literal> {
        let mut out = vec![];
        self.collect(e, &mut out);
        conjunction(out)
    }

    fn collect(&self, e: &BoolExpr, out: &mut Vec<Literal>) {
        match e {
            BoolExpr::True => {}
            BoolExpr::And(parts) => parts.iter().for_each(|p| self.collect(p, out)),
            BoolExpr::Cmp(op, a, b) => out.push(compare(*op, self.int(a).plus(self.int(b), -1))),
            BoolExpr::Maximal(v) => out.push(Literal::Maximal(self.to[*v as usize])),
            BoolExpr::Minimal(v) => out.push(Literal::Minimal(self.to[*v as usize])),
            BoolExpr::Feature(f, v) => out.push(Literal::Feature(*f, self.to[*v as usize])),
            BoolExpr::Pair(f, v, w) => out.push(Literal::Pair(*f, self.to[*v as usize], self.to[*w as usize])),
            BoolExpr::Unique(v, b) => out.push(Literal::Unique(self.to[*v as usize], self.all(b))),
            BoolExpr::Not(b) => out.extend(negate(self.all(b))),
        }
    }
}

/// `d OP 0` for the difference `d` of the two sides.
fn compare(op: CmpOp, d: Linear) -> Literal {
    let minus_one = Linear { terms: BTreeMap::new(), constant: -1 };
    match op {
        CmpOp::Ge => Literal::AtLeast(d),
        CmpOp::Gt => Literal::AtLeast(d.plus(minus_one, 1)),
        CmpOp::Le => Literal::AtLeast(d.scaled(-1)),
        CmpOp::Lt => Literal::AtLeast(d.scaled(-1).plus(minus_one, 1)),
        CmpOp::Eq => Literal::Zero(d.signed()),
        CmpOp::Ne => Literal::NonZero(d.signed()),
    }
}

/// Decides literals without atoms; sorts and deduplicates.
fn conjunction(literals: Vec<Literal>) -> Vec<Literal> {
    let mut out = vec![];
    for l in literals {
        let holds = match &l {
            Literal::AtLeast(d) if d.terms.is_empty() => Some(d.constant >= 0),
            Literal::Zero(d) if d.terms.is_empty() => Some(d.constant == 0),
            Literal::NonZero(d) if d.terms.is_empty() => Some(d.constant != 0),
            Literal::False => Some(false),
            _ => None,
        };
        match holds {
            Some(true) => {}
            Some(false) => return vec![Literal::False],
            None => out.push(l),
        }
    }
    out.sort();
    out.dedup();
    out
}

/// The negation of a conjunction, as literals (none if it is true).
fn negate(all: Vec<Literal>) -> Vec<Literal> {
    let minus_one = Linear { terms: BTreeMap::new(), constant: -1 };
    let literal = match <[Literal; 1]>::try_from(all) {
        Ok([Literal::False]) => return vec![],
        // not (d >= 0)  <=>  -d - 1 >= 0
        Ok([Literal::AtLeast(d)]) => Literal::AtLeast(d.scaled(-1).plus(minus_one, 1)),
        Ok([Literal::Zero(d)]) => Literal::NonZero(d),
        Ok([Literal::NonZero(d)]) => Literal::Zero(d),
        Ok([Literal::NotAll(inner)]) if inner.len() == 1 => return inner,
        Ok([other]) => Literal::NotAll(vec![other]),
        // not true = false
        Err(all) if all.is_empty() => Literal::False,
        Err(all) => Literal::NotAll(all),
    };
    vec![literal]
}

/// The key of `rule` (see the module doc).
pub fn normal_key(rule: &Rule) -> NormalKey {
    permutations(rule.decls.len())
        .into_iter()
        .map(|order| {
            let mut to = vec![0 as Var; order.len()];
            for (new, &old) in order.iter().enumerate() {
                to[old] = new as Var;
            }
            let n = Normaliser { to: &to };
            NormalKey {
                decls: order.iter().map(|&old| (rule.decls[old].ty, rule.decls[old].kind)).collect(),
                condition: n.all(&rule.condition),
                action: rule.action.id,
                args: rule
                    .action
                    .args
                    .iter()
                    .map(|a| match a {
                        ActionArg::Bool(b) => Arg::Bool(*b),
                        ActionArg::Int(e) => Arg::Int(n.int(e)),
                        ActionArg::Element(v) => Arg::Element(to[*v as usize]),
                    })
                    .collect(),
            }
        })
        .min()
        .expect("at least one ordering")
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
    use crate::dsl::parse::parse_rules;
    use crate::dsl::rewrite::Simplifier;
    use crate::dsl::schema::Schema;

    fn rules(text: &str) -> Vec<Rule> {
        parse_rules(text, "t", &Schema::nonogram()).unwrap()
    }

    #[test]
    fn keeps_the_cheapest_then_the_first_of_each_key() {
        let keys = [Some("a"), Some("b"), Some("a"), None, Some("b"), None, Some("a")];
        let costs = [5, 3, 4, 1, 3, 1, 4];
        // a: cheapest 4, first at 2; b: tie, first at 1; keyless: kept
        assert_eq!(keep_cheapest(&keys, &costs), vec![1, 2, 3, 5]);
    }

    #[test]
    fn rules_equal_up_to_rewrites_share_a_key() {
        let base = "def a:\n with h = arbitrary(hint) and b = arbitrary(block):\n if size(b) = size(h) and start(b) > 0 and maximal(h):\n then fill(false, start(b) - 1, start(b))";
        let same = [
            // names, declaration and conjunct order, operand order
            "def b:\n with c = arbitrary(block) and g = arbitrary(hint):\n if maximal(g) and 0 < start(c) and size(g) = size(c):\n then fill(false, start(c) - 1, start(c))",
            // arithmetic, strictness over the integers, negation, true, repeated conjuncts
            "def c:\n with h = arbitrary(hint) and b = arbitrary(block):\n if not (size(b) != size(h) + 0) and start(b) >= 1 and true and maximal(h) and maximal(h):\n then fill(false, 0 - 1 + start(b), 2 * start(b) - start(b))",
            "def d:\n with h = arbitrary(hint) and b = arbitrary(block):\n if size(b) - size(h) = 0 and not (start(b) <= 0) and maximal(h):\n then fill(false, start(b) + 1 - 2, start(b))",
        ];
        let different = [
            "def e:\n with h = arbitrary(hint) and b = arbitrary(block):\n if size(b) = size(h) and start(b) > 1 and maximal(h):\n then fill(false, start(b) - 1, start(b))",
            "def f:\n with h = arbitrary(hint) and b = constant(block, 0):\n if size(b) = size(h) and start(b) > 0 and maximal(h):\n then fill(false, start(b) - 1, start(b))",
            "def g:\n with h = arbitrary(hint) and b = arbitrary(block):\n if size(b) = size(h) and start(b) > 0 and minimal(h):\n then fill(false, start(b) - 1, start(b))",
            "def h:\n with h = arbitrary(hint) and b = arbitrary(block):\n if size(b) = size(h) and start(b) > 0 and maximal(h):\n then fill(true, start(b) - 1, start(b))",
            "def i:\n with h = arbitrary(hint) and b = arbitrary(block):\n if size(b) >= size(h) and start(b) > 0 and maximal(h):\n then fill(false, start(b) - 1, start(b))",
        ];
        let key = normal_key(&rules(base)[0]);
        for text in same {
            assert_eq!(normal_key(&rules(text)[0]), key, "{text}");
        }
        for text in different {
            assert_ne!(normal_key(&rules(text)[0]), key, "{text}");
        }
        // egg's cheapest form of a rule has the rule's key
        let schema = Schema::nonogram();
        let simplifier = Simplifier::new(&schema);
        for text in same.iter().chain(&different).chain(&[base]) {
            let rule = &rules(text)[0];
            assert_eq!(normal_key(&simplifier.rule(rule)), normal_key(rule), "{text}");
        }
    }

    #[test]
    fn negations_and_constant_conditions() {
        let key = |cond: &str| {
            normal_key(
                &rules(&format!("def r:\n with h = arbitrary(hint):\n if {cond}:\n then fill(true, 0, size(h))"))[0],
            )
        };
        assert_eq!(key("not (size(h) > 2)"), key("size(h) <= 2"));
        assert_eq!(key("not (not maximal(h))"), key("maximal(h)"));
        assert_eq!(key("1 < 2 and maximal(h)"), key("maximal(h)"));
        assert_eq!(key("2 < 1 and maximal(h)"), key("3 = 4"));
        assert_eq!(key("not true"), key("0 > 0"));
        assert_eq!(key("not (2 < 1) and maximal(h)"), key("maximal(h)"));
        assert_ne!(key("not (maximal(h) and minimal(h))"), key("not maximal(h) and not minimal(h)"));
        assert_eq!(key("h is unique where (size(h) > 1)"), key("h is unique where (1 < size(h) and true)"));
    }
}
