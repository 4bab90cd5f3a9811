//! Every egg rewrite of [`super`] proven an equivalence with Z3 over the
//! rule language's semantics (unbounded integers, booleans), as ruler
//! proves the rules it uses: each side of a rewrite is read off its
//! pattern, each pattern variable given the sort its place demands, and Z3
//! must find no assignment on which the two sides differ. A deliberately
//! wrong rewrite is caught with the assignment that refutes it.

use super::{rewrites, Fold, Lang, Leaf};
use egg::{ENodeOrVar, Id, PatternAst, Rewrite, Var};
use std::collections::BTreeMap;
use z3::ast::{Bool, Int};
use z3::{SatResult, Solver};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Sort {
    Int,
    Bool,
}

/// A term of either sort.
enum Term {
    Int(Int),
    Bool(Bool),
}

/// The sort of the node at `id`, if its operator says (not for a variable).
fn own_sort(ast: &PatternAst<Lang>, id: Id) -> Option<Sort> {
    match &ast[id] {
        ENodeOrVar::Var(_) => None,
        ENodeOrVar::ENode(n) => Some(match n {
            Lang::Num(_) | Lang::Add(_) | Lang::Sub(_) | Lang::Mul(_) => Sort::Int,
            _ => Sort::Bool,
        }),
    }
}

/// The sort each of `node`'s children must have.
fn child_sort(node: &Lang) -> Sort {
    match node {
        Lang::Not(_) | Lang::And(_) => Sort::Bool,
        _ => Sort::Int,
    }
}

/// Gives each variable under `id` the sort its place demands (`sort` at
/// `id`); an error if a variable is asked to be both, or a node of one
/// sort stands where the other is needed.
fn sort_vars(ast: &PatternAst<Lang>, id: Id, sort: Sort, vars: &mut BTreeMap<Var, Sort>) -> Result<(), String> {
    match &ast[id] {
        ENodeOrVar::Var(v) => match vars.insert(*v, sort) {
            Some(s) if s != sort => Err(format!("{v} is used both as {s:?} and as {sort:?}")),
            _ => Ok(()),
        },
        ENodeOrVar::ENode(n) => {
            if own_sort(ast, id) != Some(sort) {
                return Err(format!("{n:?} stands where a {sort:?} is needed"));
            }
            let children: Vec<Id> = egg::Language::children(n).to_vec();
            children.into_iter().try_for_each(|c| sort_vars(ast, c, child_sort(n), vars))
        }
    }
}

/// The Z3 term of the node at `id`.
fn term(ast: &PatternAst<Lang>, id: Id, vars: &BTreeMap<Var, Term>) -> Term {
    let int = |i: &Id| match term(ast, *i, vars) {
        Term::Int(x) => x,
        Term::Bool(_) => unreachable!("sorted before"),
    };
    let boolean = |i: &Id| match term(ast, *i, vars) {
        Term::Bool(x) => x,
        Term::Int(_) => unreachable!("sorted before"),
    };
    let n = match &ast[id] {
        ENodeOrVar::Var(v) => {
            return match &vars[v] {
                Term::Int(x) => Term::Int(x.clone()),
                Term::Bool(x) => Term::Bool(x.clone()),
            }
        }
        ENodeOrVar::ENode(n) => n,
    };
    match n {
        Lang::Num(k) => Term::Int(Int::from_i64(*k)),
        Lang::Add([a, b]) => Term::Int(Int::add(&[int(a), int(b)])),
        Lang::Sub([a, b]) => Term::Int(Int::sub(&[int(a), int(b)])),
        Lang::Mul([a, b]) => Term::Int(Int::mul(&[int(a), int(b)])),
        Lang::Not(a) => Term::Bool(boolean(a).not()),
        Lang::And([a, b]) => Term::Bool(Bool::and(&[boolean(a), boolean(b)])),
        Lang::Eq([a, b]) => Term::Bool(int(a).eq(int(b))),
        Lang::Ne([a, b]) => Term::Bool(int(a).eq(int(b)).not()),
        Lang::Ge([a, b]) => Term::Bool(Int::le(&int(b), int(a))),
        Lang::Gt([a, b]) => Term::Bool(Int::lt(&int(b), int(a))),
        Lang::Le([a, b]) => Term::Bool(Int::le(&int(a), int(b))),
        Lang::Lt([a, b]) => Term::Bool(Int::lt(&int(a), int(b))),
        Lang::Leaf(Leaf::True) => Term::Bool(Bool::from_bool(true)),
        other => panic!("{other:?}: the rewrites' patterns use no features or `unique`"),
    }
}

/// Proves `rw` an equivalence: `Ok` if its two sides are equal under every
/// assignment of its variables; else the refuting assignment (or why the
/// rewrite is ill-sorted).
fn prove(rw: &Rewrite<Lang, Fold>) -> Result<(), String> {
    let (lhs, rhs) = match (rw.searcher.get_pattern_ast(), rw.applier.get_pattern_ast()) {
        (Some(l), Some(r)) => (l, r),
        _ => return Err(format!("{}: not a pattern rewrite", rw.name)),
    };
    let root = |ast: &PatternAst<Lang>| Id::from(ast.as_ref().len() - 1);
    let sort = own_sort(lhs, root(lhs)).or(own_sort(rhs, root(rhs))).unwrap_or(Sort::Int);
    let mut sorts = BTreeMap::new();
    sort_vars(lhs, root(lhs), sort, &mut sorts).map_err(|e| format!("{}: {e}", rw.name))?;
    sort_vars(rhs, root(rhs), sort, &mut sorts).map_err(|e| format!("{}: {e}", rw.name))?;
    let vars: BTreeMap<Var, Term> = sorts
        .iter()
        .map(|(v, s)| {
            let name = v.to_string();
            (*v, if *s == Sort::Int { Term::Int(Int::new_const(name)) } else { Term::Bool(Bool::new_const(name)) })
        })
        .collect();
    let differ = match (term(lhs, root(lhs), &vars), term(rhs, root(rhs), &vars)) {
        (Term::Int(a), Term::Int(b)) => a.eq(b).not(),
        (Term::Bool(a), Term::Bool(b)) => a.eq(b).not(),
        _ => return Err(format!("{}: the two sides have different sorts", rw.name)),
    };
    let solver = Solver::new();
    solver.assert(&differ);
    match solver.check() {
        SatResult::Unsat => Ok(()),
        SatResult::Unknown => Err(format!("{}: Z3 answered unknown (not proven)", rw.name)),
        SatResult::Sat => {
            let model = solver.get_model().expect("a model of a satisfiable query");
            let values: Vec<String> = vars
                .iter()
                .map(|(v, t)| match t {
                    Term::Int(x) => format!("{v} = {}", model.eval(x, true).expect("an integer value")),
                    Term::Bool(x) => format!("{v} = {}", model.eval(x, true).expect("a boolean value")),
                })
                .collect();
            Err(format!("{}: the sides differ when {}", rw.name, values.join(", ")))
        }
    }
}

/// Each of the 40 rewrites the e-graph runs is an equivalence.
#[test]
fn every_rewrite_is_an_equivalence() {
    let all = rewrites();
    assert_eq!(all.len(), 40);
    let failures: Vec<String> = all.iter().filter_map(|rw| prove(rw).err()).collect();
    assert!(failures.is_empty(), "rewrites not proven: {failures:#?}");
}

/// The checker is not vacuous: wrong rewrites planted among them (a flipped
/// subtraction, an off-by-one move, a cancellation of a factor, an `and`
/// that drops a conjunct, an ill-sorted one) are each refuted.
#[test]
fn a_planted_wrong_rewrite_is_caught() {
    use egg::rewrite as rw;
    let wrong: Vec<Rewrite<Lang, Fold>> = vec![
        rw!("sub-comm"; "(- ?a ?b)" => "(- ?b ?a)"),
        rw!("lt-one-wrong"; "(< ?a (+ ?b 1))" => "(< ?a ?b)"),
        rw!("mul-cancel"; "(< (* ?k ?a) (* ?k ?b))" => "(< ?a ?b)"),
        rw!("and-drop"; "(and ?a ?b)" => "?a"),
        rw!("not-to-int"; "(not ?a)" => "(+ ?a 1)"),
    ];
    for rw in &wrong {
        let refuted = prove(rw).expect_err(&rw.name.to_string());
        assert!(refuted.starts_with(&format!("{}: ", rw.name)), "{refuted}");
    }
    assert!(prove(&wrong[0]).unwrap_err().contains("the sides differ when ?a = "), "a counterexample is shown");
    // and the genuine rewrites still pass beside them
    assert!(rewrites().iter().all(|rw| prove(rw).is_ok()));
}
