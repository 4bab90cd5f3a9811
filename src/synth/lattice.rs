//! The pattern lattice (DSL.md): which elements of a specification's state
//! a rule binds, and how generally. The most specific pattern for the k-th
//! of n elements is `singleton` (n = 1) or `constant(t, k)`; one step up
//! is `singleton` → `constant(t, 0)` → `arbitrary(t)`. The walk starts at
//! the most specific patterns of an element set and climbs while a sound
//! rule exists, ending on a maximally general node.

use crate::dsl::ast::{Decl, PatternKind, TypeId};
use crate::dsl::eval::{Binding, View};
use crate::dsl::lexer::is_reserved;
use crate::dsl::schema::Schema;
use std::collections::HashMap;

/// One element of a state: its type, index and how many of its type exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Element {
    /// The element type.
    pub ty: TypeId,
    /// Its index among elements of its type.
    pub index: usize,
    /// How many elements of its type the state has.
    pub count: usize,
}

/// Every element of a view, by type then index.
pub fn elements(view: &View, schema: &Schema) -> Vec<Element> {
    schema
        .types()
        .flat_map(|ty| {
            let count = view.table(ty).len();
            (0..count).map(move |index| Element { ty, index, count })
        })
        .collect()
}

/// Every `size`-element subset, in lexicographic order of positions.
pub fn subsets(elements: &[Element], size: usize) -> Vec<Vec<Element>> {
    let mut out = vec![];
    let mut pick: Vec<usize> = (0..size).collect();
    if size == 0 || size > elements.len() {
        return out;
    }
    loop {
        out.push(pick.iter().map(|&i| elements[i]).collect());
        // advance the rightmost index that can move
        let Some(i) = (0..size).rev().find(|&i| pick[i] < elements.len() - size + i) else {
            return out;
        };
        pick[i] += 1;
        for j in i + 1..size {
            pick[j] = pick[j - 1] + 1;
        }
    }
}

/// The most specific pattern binding `e`.
fn most_specific(e: &Element, max_constant: u32) -> PatternKind {
    if e.count == 1 && e.index == 0 {
        PatternKind::Singleton
    } else if e.index as u32 <= max_constant {
        PatternKind::Constant(e.index as u32)
    } else {
        PatternKind::Arbitrary
    }
}

/// One step more general, if any.
fn parent(kind: PatternKind) -> Option<PatternKind> {
    match kind {
        PatternKind::Singleton => Some(PatternKind::Constant(0)),
        PatternKind::Constant(_) => Some(PatternKind::Arbitrary),
        PatternKind::Arbitrary => None,
    }
}

/// Variable names: the type's initial, numbered when repeated.
fn names(set: &[Element], schema: &Schema) -> Vec<String> {
    let mut used: HashMap<String, usize> = HashMap::new();
    set.iter()
        .map(|e| {
            let mut base: String = schema.type_name(e.ty).chars().take(1).collect();
            if is_reserved(&base) {
                base.push('x');
            }
            let n = used.entry(base.clone()).or_insert(0);
            *n += 1;
            if *n == 1 {
                base
            } else {
                format!("{base}{n}")
            }
        })
        .collect()
}

/// Climbs the lattice of `set` from its most specific patterns: while some
/// one-step-more-general node has a solution that `score`s at least as
/// high as the current one, moves to the highest scoring such (the first,
/// in declaration order, among equals). `solve` gives a node's solution, if any (it is given the
/// declarations and the binding of the specification's elements); the
/// score measures how general a solution is (how many states it applies
/// to). Returns the solution of the last node reached, or `None` if the
/// most specific node has none.
///
/// The paper explores the whole graph and keeps every maximal node; one
/// greedy climb per element set visits at most one node per declaration
/// per step, at a fraction of the cost. The score keeps the climb from trading a rule
/// that applies widely for a more general pattern whose condition is so
/// narrow that the rule applies to fewer states (a singleton-hint rule
/// turned into an arbitrary-hint rule that only fires on the first hint).
pub fn climb<T, K: Ord>(
    set: &[Element],
    schema: &Schema,
    mut solve: impl FnMut(&[Decl], &Binding) -> Option<T>,
    score: impl Fn(&T) -> K,
) -> Option<T> {
    let max_constant = schema.file.synthesis.max_constant;
    let names = names(set, schema);
    let binding: Binding = set.iter().map(|e| e.index).collect();
    let decls = |kinds: &[PatternKind]| -> Vec<Decl> {
        set.iter().zip(kinds).zip(&names).map(|((e, &kind), name)| Decl { name: name.clone(), ty: e.ty, kind }).collect()
    };
    let mut node: Vec<PatternKind> = set.iter().map(|e| most_specific(e, max_constant)).collect();
    let mut best = solve(&decls(&node), &binding)?;
    loop {
        let mut next: Option<(Vec<PatternKind>, T)> = None;
        for i in 0..node.len() {
            let Some(up) = parent(node[i]) else { continue };
            let mut kinds = node.clone();
            kinds[i] = up;
            let Some(found) = solve(&decls(&kinds), &binding) else { continue };
            // at least as good as the current node; better than an earlier parent
            let better = match &next {
                None => score(&found) >= score(&best),
                Some((_, t)) => score(&found) > score(t),
            };
            if better {
                next = Some((kinds, found));
            }
        }
        match next {
            Some((kinds, found)) => {
                node = kinds;
                best = found;
            }
            None => return Some(best),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn subsets_are_all_combinations_in_order() {
        let e = |i| Element { ty: TypeId(0), index: i, count: 4 };
        let all: Vec<Element> = (0..4).map(e).collect();
        let two = subsets(&all, 2);
        assert_eq!(two.len(), 6);
        assert_eq!(two[0], vec![e(0), e(1)]);
        assert_eq!(two[5], vec![e(2), e(3)]);
        assert_eq!(subsets(&all, 4).len(), 1);
        assert!(subsets(&all, 5).is_empty());
    }

    #[test]
    fn climb_ends_on_a_maximal_node() {
        let schema = Schema::nonogram();
        let hint = schema.type_id("hint").unwrap();
        let block = schema.type_id("block").unwrap();
        let set = [Element { ty: hint, index: 0, count: 1 }, Element { ty: block, index: 1, count: 2 }];
        let mut tried = vec![];
        // "sound" when the block's pattern is not arbitrary
        let maximal = climb(
            &set,
            &schema,
            |decls, binding| {
                assert_eq!(binding, &vec![0, 1]);
                tried.push(decls.iter().map(|d| d.kind).collect::<Vec<_>>());
                (decls[1].kind != PatternKind::Arbitrary).then(|| decls.to_vec())
            },
            |_| 0,
        );
        assert_eq!(tried[0], vec![PatternKind::Singleton, PatternKind::Constant(1)]);
        // singleton -> constant(0) -> arbitrary for h; b cannot climb
        let maximal = maximal.unwrap();
        assert_eq!(maximal[0].kind, PatternKind::Arbitrary);
        assert_eq!(maximal[1].kind, PatternKind::Constant(1));
        assert_eq!(maximal[0].name, "h");
        assert_eq!(maximal[1].name, "b");
        // every parent of each node on the way is tried
        assert_eq!(tried.len(), 6);
    }

    #[test]
    fn climb_takes_the_best_scoring_parent_and_never_a_worse_one() {
        let schema = Schema::nonogram();
        let hint = schema.type_id("hint").unwrap();
        let block = schema.type_id("block").unwrap();
        let set = [Element { ty: hint, index: 0, count: 1 }, Element { ty: block, index: 0, count: 1 }];
        // every node is solvable; the score prefers a general block and a
        // specific hint: an arbitrary hint scores below a singleton one
        let score = |decls: &Vec<Decl>| {
            let rank = |k: PatternKind| match k {
                PatternKind::Singleton => 0,
                PatternKind::Constant(_) => 1,
                PatternKind::Arbitrary => 2,
            };
            2 * rank(decls[1].kind) as i32 - if decls[0].kind == PatternKind::Arbitrary { 3 } else { 0 }
        };
        let maximal = climb(&set, &schema, |decls, _| Some(decls.to_vec()), score).unwrap();
        let kinds: Vec<PatternKind> = maximal.iter().map(|d| d.kind).collect();
        // (S, S) -> (S, C0) (scores 2, above (C0, S)'s 0) -> (S, A) -> (C0, A)
        // (4 = 4, the hint's move is not worse); (A, A) scores 1: refused
        assert_eq!(kinds, vec![PatternKind::Constant(0), PatternKind::Arbitrary]);
    }
}
