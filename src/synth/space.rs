//! The space candidates are drawn from: integer expressions over a
//! pattern's variables, enumerated by increasing cost with one expression
//! per linear form ([`Linear`]: equal expressions, and only they, share
//! one), the plan computing all
//! their values on a binding in one pass ([`TermPlan`]), and the condition
//! atoms built from them, and a candidate action made of those terms.
//! Depends only on the schema, never on a state.

use crate::dsl::ast::{ActionId, BoolExpr, CmpOp, IntExpr, TypeId, Var};
use crate::dsl::cost::{bool_cost, int_cost};
use crate::dsl::eval::Interpreter;
use crate::dsl::linear::{comparison, Linear};
use crate::dsl::schema::{FeatureKind, Schema};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};

/// An expression with its cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Term {
    /// The expression.
    pub expr: IntExpr,
    /// Its cost under the schema.
    pub cost: u32,
}

/// Every integer expression over variables of the given types with cost at
/// most `max_cost`, cheapest first, no two equal (one per [`Linear`] form,
/// the cheapest, first made) and none constant except the schema's
/// literals. Multiplication is only by
/// the schema's multipliers; literals are the schema's.
pub fn int_terms(schema: &Schema, types: &[TypeId], max_cost: u32) -> Vec<Term> {
    let costs = schema.costs();
    let mut by_cost: Vec<Vec<IntExpr>> = vec![vec![]; max_cost as usize + 1];
    let mut leaves: Vec<IntExpr> = schema.file.synthesis.literals.iter().map(|&k| IntExpr::Lit(k)).collect();
    leaves.extend(schema.globals().map(IntExpr::Global));
    for (v, &ty) in types.iter().enumerate() {
        for f in schema.features() {
            if schema.feature(f).kind == FeatureKind::Int && schema.applies(f, ty) {
                leaves.push(IntExpr::Feature(f, v as Var));
            }
        }
    }
    let mut seen = HashSet::new();
    let mut kept: Vec<Term> = vec![];
    for c in 1..=max_cost {
        let mut level: Vec<IntExpr> = leaves.iter().filter(|e| int_cost(e, schema) == c).cloned().collect();
        for (ca, a_list) in by_cost.iter().enumerate().take(c as usize) {
            for (cb, b_list) in by_cost.iter().enumerate().take(c as usize) {
                for a in a_list {
                    for b in b_list {
                        if ca as u32 + cb as u32 + costs.add == c {
                            level.push(IntExpr::sum(a.clone(), b.clone()));
                        }
                        if ca as u32 + cb as u32 + costs.sub == c {
                            level.push(IntExpr::difference(a.clone(), b.clone()));
                        }
                    }
                }
            }
            if ca as u32 + costs.mul == c {
                for a in a_list {
                    for &k in &schema.file.synthesis.multipliers {
                        level.push(IntExpr::Mul(k, Box::new(a.clone())));
                    }
                }
            }
        }
        for e in level {
            let form = Linear::of(&e);
            if form.constant_value().is_some() && !matches!(e, IntExpr::Lit(_)) {
                continue;
            }
            if seen.insert(form) {
                by_cost[c as usize].push(e.clone());
                kept.push(Term { expr: e, cost: c });
            }
        }
    }
    kept
}

/// How to compute the value of every term of a list on one binding in one
/// pass: a compound term from the values of the (cheaper, earlier) terms
/// it is built of, a leaf by the interpreter. Same values as evaluating
/// each term by itself (the same wrapping arithmetic).
pub struct TermPlan(Vec<Step>);

/// One term's computation in a [`TermPlan`].
enum Step {
    /// Evaluate the term itself.
    Whole,
    Add(usize, usize),
    Sub(usize, usize),
    Mul(i64, usize),
}

impl TermPlan {
    /// The plan of `terms` (as [`int_terms`] lists them: the parts of a
    /// compound term are earlier terms; any that is not is evaluated whole).
    pub fn new(terms: &[Term]) -> TermPlan {
        let mut index: HashMap<&IntExpr, usize> = HashMap::new();
        let mut steps = Vec::with_capacity(terms.len());
        for (i, t) in terms.iter().enumerate() {
            let at = |e: &IntExpr| index.get(e).copied();
            let step = match &t.expr {
                IntExpr::Add(x, y) => at(x).zip(at(y)).map(|(x, y)| Step::Add(x, y)),
                IntExpr::Sub(x, y) => at(x).zip(at(y)).map(|(x, y)| Step::Sub(x, y)),
                IntExpr::Mul(k, x) => at(x).map(|x| Step::Mul(*k, x)),
                _ => None,
            };
            steps.push(step.unwrap_or(Step::Whole));
            index.insert(&t.expr, i);
        }
        TermPlan(steps)
    }

    /// The value of each of `terms` (those the plan was made for) under
    /// `binding`.
    pub fn values(&self, terms: &[Term], interp: &Interpreter<'_>, binding: &[usize]) -> Vec<i64> {
        let mut values: Vec<i64> = Vec::with_capacity(terms.len());
        for (step, t) in self.0.iter().zip(terms) {
            let v = match *step {
                Step::Whole => interp.eval_int(&t.expr, binding),
                Step::Add(x, y) => values[x].wrapping_add(values[y]),
                Step::Sub(x, y) => values[x].wrapping_sub(values[y]),
                Step::Mul(k, x) => k.wrapping_mul(values[x]),
            };
            values.push(v);
        }
        values
    }
}

/// A condition atom: a comparison of two terms, or a boolean construct.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Atom {
    /// The atom as a condition.
    pub expr: BoolExpr,
    /// Its cost.
    pub cost: u32,
    /// For comparisons, the operator and the indices of both sides in the
    /// term list (so atoms evaluate from precomputed term values).
    pub cmp: Option<(CmpOp, usize, usize)>,
    /// For `v is unique where (l op r)`: `v`, and the comparison as in
    /// `cmp` (so the atom evaluates from the term values of the bindings
    /// that differ in `v` alone).
    pub unique: Option<(Var, CmpOp, usize, usize)>,
}

/// The condition atoms over variables of the given types: comparisons
/// `l CMP r` whose left side is a term of cost at most `max_left` (not a
/// literal) or a single feature or global of any cost (so a dear feature
/// such as a placement can be compared with an action's argument term, and
/// a dear global with a literal: `hint_count = 0`) and whose
/// whole cost is at most `max_cost` (each unordered pair once, and one
/// comparison per normal form: the cheapest of `x < y + 1`, `x <= y` and
/// `y >= x`), `maximal`/`minimal` of each variable whose type has the size
/// feature, and every boolean feature (of two elements: of each pair of
/// variables of its type, the earlier first) — each also negated; and
/// `v is unique where (c)` for each comparison `c` that reads `v` (the
/// element a block or gap must belong to, say), within `max_cost`.
pub fn atoms(schema: &Schema, types: &[TypeId], terms: &[Term], max_left: u32, max_cost: u32) -> Vec<Atom> {
    let costs = schema.costs();
    let mut out: Vec<Atom> = vec![];
    let mut forms: HashMap<_, usize> = HashMap::new();
    let is_left = |t: &Term| {
        (t.cost <= max_left && !matches!(t.expr, IntExpr::Lit(_)))
            || matches!(t.expr, IntExpr::Feature(..) | IntExpr::Global(_))
    };
    for (i, l) in terms.iter().enumerate() {
        if !is_left(l) {
            continue;
        }
        for (j, r) in terms.iter().enumerate() {
            // each unordered pair once: (j, i) is made when j is a left side
            if i == j || (is_left(r) && j < i) {
                continue;
            }
            let cost = costs.cmp + l.cost + r.cost;
            if cost > max_cost {
                continue;
            }
            for op in CmpOp::ALL {
                let Some(form) = comparison(op, &l.expr, &r.expr) else { continue };
                let atom = || Atom {
                    expr: BoolExpr::Cmp(op, l.expr.clone(), r.expr.clone()),
                    cost,
                    cmp: Some((op, i, j)),
                    unique: None,
                };
                match forms.entry(form) {
                    Entry::Occupied(kept) => {
                        let at: usize = *kept.get();
                        if cost < out[at].cost {
                            out[at] = atom();
                        }
                    }
                    Entry::Vacant(slot) => {
                        slot.insert(out.len());
                        out.push(atom());
                    }
                }
            }
        }
    }
    let unique: Vec<Atom> = (0..types.len() as Var)
        .flat_map(|v| {
            out.iter().filter(move |c| c.cost + costs.unique <= max_cost && reads(&c.expr, v)).map(move |c| Atom {
                expr: BoolExpr::Unique(v, Box::new(c.expr.clone())),
                cost: c.cost + costs.unique,
                cmp: None,
                unique: c.cmp.map(|(op, i, j)| (v, op, i, j)),
            })
        })
        .collect();
    out.extend(unique);
    let mut push = |e: BoolExpr| {
        for negated in [false, true] {
            let expr = if negated { BoolExpr::Not(Box::new(e.clone())) } else { e.clone() };
            let cost = bool_cost(&expr, schema);
            if cost <= max_cost {
                out.push(Atom { expr, cost, cmp: None, unique: None });
            }
        }
    };
    for (v, &ty) in types.iter().enumerate() {
        let v = v as Var;
        if schema.applies(schema.size_feature, ty) {
            push(BoolExpr::Maximal(v));
            push(BoolExpr::Minimal(v));
        }
        for f in schema.features() {
            if schema.feature(f).kind != FeatureKind::Bool || !schema.applies(f, ty) {
                continue;
            }
            if schema.feature(f).arity == 2 {
                // of this variable and each later one of its type
                for (w, &other) in types.iter().enumerate().skip(v as usize + 1) {
                    if other == ty {
                        push(BoolExpr::Pair(f, v, w as Var));
                    }
                }
            } else {
                push(BoolExpr::Feature(f, v));
            }
        }
    }
    out.sort_by_key(|a| a.cost);
    out
}

/// A candidate action: the action, its arguments as choices of the
/// space, and its cost.
#[derive(Clone, Debug)]
pub(super) struct Candidate {
    pub(super) id: ActionId,
    /// Per parameter: a boolean, a term index or a pattern variable.
    pub(super) args: Vec<ArgChoice>,
    pub(super) cost: u32,
}

/// One argument of a [`Candidate`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum ArgChoice {
    Bool(bool),
    /// The term of that index in the space's list.
    Term(usize),
    /// The element a pattern variable binds (an action on elements).
    Element(Var),
}

/// Whether the comparison `c` reads variable `v`.
fn reads(c: &BoolExpr, v: Var) -> bool {
    matches!(c, BoolExpr::Cmp(_, l, r) if l.reads(v) || r.reads(v))
}

/// Tests: a rule skeleton with a pattern of each of `types`, and a view
/// with `count` elements of every type of `schema`, whose feature values
/// come from a pseudo-random walk over `spread.0` values from `-spread.1`.
#[cfg(test)]
pub(super) fn hint_and_block_view(
    schema: &Schema,
    types: &[TypeId],
    count: usize,
    spread: (i64, i64),
) -> (crate::dsl::ast::Rule, crate::dsl::eval::View) {
    use crate::dsl::ast::{Action, Decl, PatternKind, Rule};
    use crate::dsl::eval::{ElementTable, View};
    let decls = types.iter().map(|&ty| Decl { name: String::new(), ty, kind: PatternKind::Arbitrary }).collect();
    let rule = Rule {
        name: String::new(),
        description: vec![],
        decls,
        condition: BoolExpr::True,
        action: Action { id: ActionId(0), args: vec![] },
    };
    let features = schema.feature_count();
    let mut tables = vec![ElementTable::new(features); schema.file.types.len()];
    let mut value = 7i64;
    for table in &mut tables {
        for _ in 0..count {
            let values: Vec<i64> = (0..features)
                .map(|_| {
                    value = (value * 31 + 11) % spread.0 - spread.1;
                    value
                })
                .collect();
            table.push(&values);
        }
    }
    (rule, View { globals: vec![23; schema.globals().count()], tables, pairs: vec![] })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dsl::schema::Schema;

    /// The nonogram schema, the hint and block types, and the terms over
    /// a hint and a block up to cost 5.
    fn hint_and_block() -> (Schema, [TypeId; 2], Vec<Term>) {
        let s = Schema::nonogram();
        let types = [s.type_id("hint").unwrap(), s.type_id("block").unwrap()];
        let terms = int_terms(&s, &types, 5);
        (s, types, terms)
    }

    #[test]
    fn terms_are_distinct_cheapest_first_and_exclude_constant_folds() {
        let (s, types, terms) = hint_and_block();
        assert!(terms.windows(2).all(|w| w[0].cost <= w[1].cost));
        let texts: Vec<String> = terms.iter().map(|t| format!("{:?}", t.expr)).collect();
        let unique: HashSet<&String> = texts.iter().collect();
        assert_eq!(unique.len(), texts.len());
        let size = s.feature_id("size").unwrap();
        let start = s.feature_id("start").unwrap();
        let sb = IntExpr::Feature(start, 1);
        let zb = IntExpr::Feature(size, 1);
        let has = |e: &IntExpr| terms.iter().any(|t| &t.expr == e);
        // one of start(b) + size(b) and size(b) + start(b), not both
        assert!(has(&IntExpr::sum(sb.clone(), zb.clone())) ^ has(&IntExpr::sum(zb.clone(), sb.clone())));
        // size(b) - size(b) is 0, already a literal
        assert!(!has(&IntExpr::difference(zb.clone(), zb.clone())));
        // 2 * size(h) (cost 3) comes before size(h) + size(h) (cost 3), which is dropped
        let zh = IntExpr::Feature(size, 0);
        assert!(has(&IntExpr::Mul(2, Box::new(zh.clone()))) ^ has(&IntExpr::sum(zh.clone(), zh)));
        let atoms = atoms(&s, &types, &terms, 2, 7);
        assert!(atoms.iter().any(|a| matches!(a.expr, BoolExpr::Maximal(0))));
        assert!(atoms.iter().all(|a| a.cost <= 7));
    }

    #[test]
    fn a_dear_global_is_compared_with_a_literal() {
        // `hint_count` costs more than the cheap left sides: `hint_count = 0`
        // (a line without hints) must still be an atom
        let (s, types, terms) = hint_and_block();
        let count = IntExpr::Global(s.global_id("hint_count").unwrap());
        assert!(terms.iter().any(|t| t.expr == count && t.cost > 2));
        let atoms = atoms(&s, &types, &terms, 2, 7);
        let zero = BoolExpr::Cmp(CmpOp::Eq, count.clone(), IntExpr::Lit(0));
        assert!(atoms.iter().any(|a| a.expr == zero), "{zero:?} missing");
    }

    #[test]
    fn the_term_plan_computes_what_evaluating_each_term_gives() {
        let (s, types, terms) = hint_and_block();
        let plan = TermPlan::new(&terms);
        // the plan computes most terms from their parts
        assert!(plan.0.iter().filter(|step| !matches!(step, Step::Whole)).count() * 2 > terms.len());
        // two elements of each type, with feature values far apart
        let (rule, view) = hint_and_block_view(&s, &types, 2, (97, 40));
        let interp = Interpreter::new(&rule, &view, s.size_feature);
        for binding in [[0, 0], [0, 1], [1, 0], [1, 1]] {
            let each: Vec<i64> = terms.iter().map(|t| interp.eval_int(&t.expr, &binding)).collect();
            assert_eq!(plan.values(&terms, &interp, &binding), each);
        }
    }

    #[test]
    fn unique_atoms_wrap_the_comparisons_reading_their_variable() {
        let (s, types, terms) = hint_and_block();
        let atoms = atoms(&s, &types, &terms, 2, 6);
        let size = s.feature_id("size").unwrap();
        let (zh, zb) = (IntExpr::Feature(size, 0), IntExpr::Feature(size, 1));
        // "h is unique where (size(h) >= size(b))": the only hint a block fits
        let fits = BoolExpr::Cmp(CmpOp::Ge, zh.clone(), zb.clone());
        let fits = if atoms.iter().any(|a| a.expr == fits) { fits } else { BoolExpr::Cmp(CmpOp::Le, zb, zh) };
        let only = BoolExpr::Unique(0, Box::new(fits));
        assert!(atoms.iter().any(|a| a.expr == only && a.cost == 6), "{only:?} missing");
        for a in &atoms {
            if let BoolExpr::Unique(v, c) = &a.expr {
                assert!(reads(c, *v), "{:?} does not read its variable", a.expr);
                assert!(a.cost <= 6);
            }
        }
    }
}
