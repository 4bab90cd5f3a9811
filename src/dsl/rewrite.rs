//! Equality of rule expressions with `egg`: the rule language's integer and
//! boolean expressions as an e-graph language, semantics-preserving
//! rewrites (commutativity, associativity, cancellation, constant folding,
//! comparison flips), and extraction of the cheapest equal expression under
//! the domain's cost function (docs/language.md, "Cost").
//!
//! [`Simplifier`] rewrites a finished rule into the cheapest equal one
//! (the enumerator tells equal expressions apart by their linear forms,
//! [`super::linear`], which saturation within its bounds cannot promise).

use crate::dsl::ast::{BoolExpr, CmpOp, FeatureId, GlobalId, IntExpr, Rule, Var};
use crate::dsl::cost::cost;
use crate::dsl::schema::Schema;
use egg::{define_language, rewrite as rw, Analysis, DidMerge, EGraph, Extractor, Id, RecExpr, Rewrite, Runner};
use std::fmt;
use std::str::FromStr;

/// Leaves of the language: everything that is not an operator or a literal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Leaf {
    /// A global.
    Global(u8),
    /// An integer feature of a variable.
    Feature(u8, u8),
    /// A boolean feature of a variable.
    BoolFeature(u8, u8),
    /// `maximal(v)`
    Maximal(u8),
    /// `minimal(v)`
    Minimal(u8),
    /// A variable (first child of `unique`).
    Var(u8),
    /// `true`
    True,
    /// A boolean feature of two variables.
    Pair(u8, u8, u8),
}

impl fmt::Display for Leaf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Leaf::Global(g) => write!(f, "g{g}"),
            Leaf::Feature(x, v) => write!(f, "f{x}.{v}"),
            Leaf::BoolFeature(x, v) => write!(f, "b{x}.{v}"),
            Leaf::Pair(x, v, w) => write!(f, "p{x}.{v}.{w}"),
            Leaf::Maximal(v) => write!(f, "max{v}"),
            Leaf::Minimal(v) => write!(f, "min{v}"),
            Leaf::Var(v) => write!(f, "v{v}"),
            Leaf::True => write!(f, "T"),
        }
    }
}

/// Text that is not a [`Leaf`] as `Display` writes it.
#[derive(Debug, thiserror::Error)]
#[error("not a leaf: {0}")]
pub struct NotALeaf(String);

impl FromStr for Leaf {
    type Err = NotALeaf;
    fn from_str(s: &str) -> Result<Leaf, NotALeaf> {
        let pair = |rest: &str| -> Option<(u8, u8)> {
            let (a, b) = rest.split_once('.')?;
            Some((a.parse().ok()?, b.parse().ok()?))
        };
        let parsed = if s == "T" {
            Some(Leaf::True)
        } else if let Some(r) = s.strip_prefix("max") {
            r.parse().ok().map(Leaf::Maximal)
        } else if let Some(r) = s.strip_prefix("min") {
            r.parse().ok().map(Leaf::Minimal)
        } else if let Some(r) = s.strip_prefix('g') {
            r.parse().ok().map(Leaf::Global)
        } else if let Some(r) = s.strip_prefix('f') {
            pair(r).map(|(a, b)| Leaf::Feature(a, b))
        } else if let Some(r) = s.strip_prefix('b') {
            pair(r).map(|(a, b)| Leaf::BoolFeature(a, b))
        } else if let Some(r) = s.strip_prefix('p') {
            let (x, vw) = r.split_once('.').unwrap_or_default();
            pair(vw).and_then(|(v, w)| Some(Leaf::Pair(x.parse().ok()?, v, w)))
        } else if let Some(r) = s.strip_prefix('v') {
            r.parse().ok().map(Leaf::Var)
        } else {
            None
        };
        parsed.ok_or_else(|| NotALeaf(s.to_string()))
    }
}

define_language! {
    /// The rule language's expressions as an e-graph language.
    enum Lang {
        Num(i64),
        "+" = Add([Id; 2]),
        "-" = Sub([Id; 2]),
        // first child is the literal factor
        "*" = Mul([Id; 2]),
        "not" = Not(Id),
        "and" = And([Id; 2]),
        "=" = Eq([Id; 2]),
        "!=" = Ne([Id; 2]),
        ">=" = Ge([Id; 2]),
        ">" = Gt([Id; 2]),
        "<=" = Le([Id; 2]),
        "<" = Lt([Id; 2]),
        // first child is the variable
        "unique" = Unique([Id; 2]),
        Leaf(Leaf),
    }
}

/// Constant folding: the integer value of a class, when it is a constant.
#[derive(Default, Clone, Copy)]
pub struct Fold;

impl Analysis<Lang> for Fold {
    type Data = Option<i64>;

    fn make(egraph: &mut EGraph<Lang, Fold>, enode: &Lang) -> Option<i64> {
        let c = |i: &Id| egraph[*i].data;
        match enode {
            Lang::Num(n) => Some(*n),
            Lang::Add([a, b]) => c(a)?.checked_add(c(b)?),
            Lang::Sub([a, b]) => c(a)?.checked_sub(c(b)?),
            Lang::Mul([a, b]) => c(a)?.checked_mul(c(b)?),
            _ => None,
        }
    }

    fn merge(&mut self, to: &mut Option<i64>, from: Option<i64>) -> DidMerge {
        egg::merge_option(to, from, |a, b| {
            debug_assert_eq!(*a, b, "a class folds to one constant");
            DidMerge(false, false)
        })
    }

    fn modify(egraph: &mut EGraph<Lang, Fold>, id: Id) {
        if let Some(n) = egraph[id].data {
            let lit = egraph.add(Lang::Num(n));
            egraph.union(id, lit);
        }
    }
}

fn rewrites() -> Vec<Rewrite<Lang, Fold>> {
    vec![
        rw!("add-comm"; "(+ ?a ?b)" => "(+ ?b ?a)"),
        rw!("add-assoc"; "(+ ?a (+ ?b ?c))" => "(+ (+ ?a ?b) ?c)"),
        rw!("add-assoc-r"; "(+ (+ ?a ?b) ?c)" => "(+ ?a (+ ?b ?c))"),
        rw!("add-zero"; "(+ ?a 0)" => "?a"),
        rw!("sub-zero"; "(- ?a 0)" => "?a"),
        rw!("sub-self"; "(- ?a ?a)" => "0"),
        rw!("sub-add"; "(- (+ ?a ?b) ?c)" => "(+ ?a (- ?b ?c))"),
        rw!("add-sub"; "(+ ?a (- ?b ?c))" => "(- (+ ?a ?b) ?c)"),
        rw!("sub-sub"; "(- (- ?a ?b) ?c)" => "(- ?a (+ ?b ?c))"),
        rw!("sub-sum"; "(- ?a (+ ?b ?c))" => "(- (- ?a ?b) ?c)"),
        rw!("sub-diff"; "(- ?a (- ?b ?c))" => "(- (+ ?a ?c) ?b)"),
        rw!("mul-one"; "(* 1 ?a)" => "?a"),
        rw!("mul-zero"; "(* 0 ?a)" => "0"),
        rw!("mul-two"; "(* 2 ?a)" => "(+ ?a ?a)"),
        rw!("mul-dist"; "(* ?k (+ ?a ?b))" => "(+ (* ?k ?a) (* ?k ?b))"),
        rw!("eq-comm"; "(= ?a ?b)" => "(= ?b ?a)"),
        rw!("ne-comm"; "(!= ?a ?b)" => "(!= ?b ?a)"),
        rw!("gt-lt"; "(> ?a ?b)" => "(< ?b ?a)"),
        rw!("lt-gt"; "(< ?a ?b)" => "(> ?b ?a)"),
        rw!("ge-le"; "(>= ?a ?b)" => "(<= ?b ?a)"),
        rw!("le-ge"; "(<= ?a ?b)" => "(>= ?b ?a)"),
        rw!("not-lt"; "(not (< ?a ?b))" => "(>= ?a ?b)"),
        rw!("not-le"; "(not (<= ?a ?b))" => "(> ?a ?b)"),
        rw!("not-eq"; "(not (= ?a ?b))" => "(!= ?a ?b)"),
        rw!("not-ne"; "(not (!= ?a ?b))" => "(= ?a ?b)"),
        rw!("not-not"; "(not (not ?a))" => "?a"),
        rw!("lt-cancel"; "(< (+ ?a ?c) (+ ?b ?c))" => "(< ?a ?b)"),
        rw!("le-cancel"; "(<= (+ ?a ?c) (+ ?b ?c))" => "(<= ?a ?b)"),
        rw!("eq-cancel"; "(= (+ ?a ?c) (+ ?b ?c))" => "(= ?a ?b)"),
        rw!("ne-cancel"; "(!= (+ ?a ?c) (+ ?b ?c))" => "(!= ?a ?b)"),
        rw!("lt-move"; "(< (- ?a ?c) ?b)" => "(< ?a (+ ?b ?c))"),
        rw!("le-move"; "(<= (- ?a ?c) ?b)" => "(<= ?a (+ ?b ?c))"),
        rw!("eq-move"; "(= (- ?a ?c) ?b)" => "(= ?a (+ ?b ?c))"),
        rw!("ne-move"; "(!= (- ?a ?c) ?b)" => "(!= ?a (+ ?b ?c))"),
        rw!("lt-one"; "(< ?a (+ ?b 1))" => "(<= ?a ?b)"),
        rw!("le-one"; "(<= (+ ?a 1) ?b)" => "(< ?a ?b)"),
        rw!("and-comm"; "(and ?a ?b)" => "(and ?b ?a)"),
        rw!("and-assoc"; "(and ?a (and ?b ?c))" => "(and (and ?a ?b) ?c)"),
        rw!("and-true"; "(and ?a T)" => "?a"),
        rw!("and-self"; "(and ?a ?a)" => "?a"),
    ]
}

/// The DSL cost function over the e-graph language (child costs given).
struct DslCost<'s> {
    schema: &'s Schema,
}

impl egg::CostFunction<Lang> for DslCost<'_> {
    type Cost = u32;

    fn cost<C: FnMut(Id) -> u32>(&mut self, enode: &Lang, mut costs: C) -> u32 {
        let c = self.schema.costs();
        let feature = |f: u8| self.schema.feature(FeatureId(f)).cost;
        match enode {
            Lang::Num(_) => c.literal,
            Lang::Add([a, b]) => c.add + costs(*a) + costs(*b),
            Lang::Sub([a, b]) => c.sub + costs(*a) + costs(*b),
            // the factor is part of `k *`, not charged again
            Lang::Mul([_, a]) => c.mul + costs(*a),
            Lang::Not(a) => c.not + costs(*a),
            Lang::And([a, b]) => c.and + costs(*a) + costs(*b),
            Lang::Eq(ab) | Lang::Ne(ab) | Lang::Ge(ab) | Lang::Gt(ab) | Lang::Le(ab) | Lang::Lt(ab) => {
                c.cmp + costs(ab[0]) + costs(ab[1])
            }
            Lang::Unique([_, b]) => c.unique + costs(*b),
            Lang::Leaf(l) => match l {
                Leaf::Global(g) => self.schema.global(GlobalId(*g)).cost,
                Leaf::Feature(f, _) | Leaf::BoolFeature(f, _) | Leaf::Pair(f, ..) => feature(*f),
                Leaf::Maximal(_) => c.maximal,
                Leaf::Minimal(_) => c.minimal,
                Leaf::True => c.true_,
                Leaf::Var(_) => 0,
            },
        }
    }
}

fn add_int(e: &IntExpr, out: &mut RecExpr<Lang>) -> Id {
    match e {
        IntExpr::Lit(k) => out.add(Lang::Num(*k)),
        IntExpr::Global(g) => out.add(Lang::Leaf(Leaf::Global(g.0))),
        IntExpr::Feature(f, v) => out.add(Lang::Leaf(Leaf::Feature(f.0, *v))),
        IntExpr::Add(a, b) => {
            let (a, b) = (add_int(a, out), add_int(b, out));
            out.add(Lang::Add([a, b]))
        }
        IntExpr::Sub(a, b) => {
            let (a, b) = (add_int(a, out), add_int(b, out));
            out.add(Lang::Sub([a, b]))
        }
        IntExpr::Mul(k, a) => {
            let k = out.add(Lang::Num(*k));
            let a = add_int(a, out);
            out.add(Lang::Mul([k, a]))
        }
    }
}

fn add_bool(e: &BoolExpr, out: &mut RecExpr<Lang>) -> Id {
    match e {
        BoolExpr::True => out.add(Lang::Leaf(Leaf::True)),
        BoolExpr::Not(a) => {
            let a = add_bool(a, out);
            out.add(Lang::Not(a))
        }
        BoolExpr::And(parts) => {
            let mut ids = parts.iter().map(|p| add_bool(p, out)).collect::<Vec<_>>().into_iter();
            let first = ids.next().unwrap_or_else(|| out.add(Lang::Leaf(Leaf::True)));
            ids.fold(first, |acc, id| out.add(Lang::And([acc, id])))
        }
        BoolExpr::Cmp(op, a, b) => {
            let ab = [add_int(a, out), add_int(b, out)];
            out.add(match op {
                CmpOp::Eq => Lang::Eq(ab),
                CmpOp::Ne => Lang::Ne(ab),
                CmpOp::Ge => Lang::Ge(ab),
                CmpOp::Gt => Lang::Gt(ab),
                CmpOp::Le => Lang::Le(ab),
                CmpOp::Lt => Lang::Lt(ab),
            })
        }
        BoolExpr::Maximal(v) => out.add(Lang::Leaf(Leaf::Maximal(*v))),
        BoolExpr::Minimal(v) => out.add(Lang::Leaf(Leaf::Minimal(*v))),
        BoolExpr::Feature(f, v) => out.add(Lang::Leaf(Leaf::BoolFeature(f.0, *v))),
        BoolExpr::Pair(f, v, w) => out.add(Lang::Leaf(Leaf::Pair(f.0, *v, *w))),
        BoolExpr::Unique(v, b) => {
            let v = out.add(Lang::Leaf(Leaf::Var(*v)));
            let b = add_bool(b, out);
            out.add(Lang::Unique([v, b]))
        }
    }
}

fn int_of(expr: &RecExpr<Lang>, id: Id) -> Option<IntExpr> {
    Some(match &expr[id] {
        Lang::Num(k) => IntExpr::Lit(*k),
        Lang::Leaf(Leaf::Global(g)) => IntExpr::Global(GlobalId(*g)),
        Lang::Leaf(Leaf::Feature(f, v)) => IntExpr::Feature(FeatureId(*f), *v as Var),
        // `a + -k` reads better as `a - k` (same cost)
        Lang::Add([a, b]) => match (int_of(expr, *a)?, int_of(expr, *b)?) {
            (x, IntExpr::Lit(k)) if k < 0 => IntExpr::difference(x, IntExpr::Lit(-k)),
            (x, y) => IntExpr::sum(x, y),
        },
        Lang::Sub([a, b]) => IntExpr::difference(int_of(expr, *a)?, int_of(expr, *b)?),
        Lang::Mul([k, a]) => match &expr[*k] {
            Lang::Num(k) => IntExpr::Mul(*k, Box::new(int_of(expr, *a)?)),
            _ => return None,
        },
        _ => return None,
    })
}

fn bool_of(expr: &RecExpr<Lang>, id: Id) -> Option<BoolExpr> {
    let cmp = |op: CmpOp, ab: &[Id; 2]| -> Option<BoolExpr> {
        Some(BoolExpr::Cmp(op, int_of(expr, ab[0])?, int_of(expr, ab[1])?))
    };
    Some(match &expr[id] {
        Lang::Leaf(Leaf::True) => BoolExpr::True,
        Lang::Leaf(Leaf::Maximal(v)) => BoolExpr::Maximal(*v),
        Lang::Leaf(Leaf::Minimal(v)) => BoolExpr::Minimal(*v),
        Lang::Leaf(Leaf::BoolFeature(f, v)) => BoolExpr::Feature(FeatureId(*f), *v),
        Lang::Leaf(Leaf::Pair(f, v, w)) => BoolExpr::Pair(FeatureId(*f), *v, *w),
        Lang::Not(a) => BoolExpr::Not(Box::new(bool_of(expr, *a)?)),
        Lang::And([a, b]) => {
            let mut parts = vec![];
            for part in [bool_of(expr, *a)?, bool_of(expr, *b)?] {
                match part {
                    BoolExpr::And(inner) => parts.extend(inner),
                    other => parts.push(other),
                }
            }
            BoolExpr::and(parts)
        }
        Lang::Eq(ab) => cmp(CmpOp::Eq, ab)?,
        Lang::Ne(ab) => cmp(CmpOp::Ne, ab)?,
        Lang::Ge(ab) => cmp(CmpOp::Ge, ab)?,
        Lang::Gt(ab) => cmp(CmpOp::Gt, ab)?,
        Lang::Le(ab) => cmp(CmpOp::Le, ab)?,
        Lang::Lt(ab) => cmp(CmpOp::Lt, ab)?,
        Lang::Unique([v, b]) => match &expr[*v] {
            Lang::Leaf(Leaf::Var(v)) => BoolExpr::Unique(*v, Box::new(bool_of(expr, *b)?)),
            _ => return None,
        },
        _ => return None,
    })
}

fn int_rec(e: &IntExpr) -> RecExpr<Lang> {
    let mut out = RecExpr::default();
    add_int(e, &mut out);
    out
}

fn bool_rec(e: &BoolExpr) -> RecExpr<Lang> {
    let mut out = RecExpr::default();
    add_bool(e, &mut out);
    out
}

fn root(expr: &RecExpr<Lang>) -> Id {
    Id::from(expr.as_ref().len() - 1)
}

/// Limits that keep saturation cheap on the small expressions of rules.
const ITERATIONS: usize = 8;
const NODES: usize = 20_000;

/// Rewrites rules into the cheapest equal form under a schema's costs.
pub struct Simplifier<'s> {
    schema: &'s Schema,
    rules: Vec<Rewrite<Lang, Fold>>,
}

impl<'s> Simplifier<'s> {
    /// A simplifier for rules of `schema`.
    pub fn new(schema: &'s Schema) -> Simplifier<'s> {
        Simplifier { schema, rules: rewrites() }
    }

    fn cheapest(&self, expr: RecExpr<Lang>) -> RecExpr<Lang> {
        let runner =
            Runner::default().with_expr(&expr).with_iter_limit(ITERATIONS).with_node_limit(NODES).run(&self.rules);
        let extractor = Extractor::new(&runner.egraph, DslCost { schema: self.schema });
        extractor.find_best(runner.roots[0]).1
    }

    /// The cheapest expression equal to `e`.
    pub fn int(&self, e: &IntExpr) -> IntExpr {
        let best = self.cheapest(int_rec(e));
        int_of(&best, root(&best)).unwrap_or_else(|| e.clone())
    }

    /// The cheapest condition equal to `e`.
    pub fn condition(&self, e: &BoolExpr) -> BoolExpr {
        let best = self.cheapest(bool_rec(e));
        bool_of(&best, root(&best)).unwrap_or_else(|| e.clone())
    }

    /// The rule with its condition and integer action arguments replaced
    /// by their cheapest equal forms; the original if that is no cheaper.
    pub fn rule(&self, rule: &Rule) -> Rule {
        let mut out = rule.clone();
        out.condition = self.condition(&rule.condition);
        for arg in &mut out.action.args {
            if let crate::dsl::ast::ActionArg::Int(e) = arg {
                *e = self.int(e);
            }
        }
        if cost(&out, self.schema) < cost(rule, self.schema) {
            out
        } else {
            rule.clone()
        }
    }
}

#[cfg(test)]
#[path = "rewrite_proof.rs"]
mod proof;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::parse::parse_rules;
    use crate::dsl::print::print_rule;

    fn rule(text: &str) -> Rule {
        parse_rules(text, "t.rules", &Schema::nonogram()).unwrap().remove(0)
    }

    #[test]
    fn simplifies_to_the_cheapest_equal_rule() {
        let s = Schema::nonogram();
        let r = rule(
            "def r: with b = arbitrary(block) and h = arbitrary(hint):
             if start(b) + size(b) - size(b) > 0 and not (size(b) < size(h)) and true:
             then fill(false, start(b) + 1 - 2, start(b) + 0)",
        );
        let simple = Simplifier::new(&s).rule(&r);
        assert!(cost(&simple, &s) < cost(&r, &s));
        let text = print_rule(&simple, &s);
        assert!(text.contains("fill(false, start(b) - 1, start(b))"), "{text}");
        assert!(text.contains("start(b) > 0"), "{text}");
        assert!(text.contains("size(b) >= size(h)") || text.contains("size(h) <= size(b)"), "{text}");
    }
}
