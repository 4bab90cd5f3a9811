//! The pattern lattice (DSL.md): which elements of a specification's state
//! a rule binds, and how generally. The most specific pattern for the k-th
//! of n elements is `singleton` (n = 1) or `constant(t, k)`; one step up
//! is `singleton` → `constant(t, 0)` → `arbitrary(t)`. The walk starts at
//! the most specific patterns of an element set and climbs while a sound
//! rule exists, ending on a maximally general node.

use crate::dsl::ast::{Decl, PatternKind, TypeId};
use crate::dsl::eval::{Binding, View};
use crate::dsl::parse::is_reserved;
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
/// one-step-more-general node has a solution, moves to the first such
/// (declarations in order). `solve` gives a node's solution, if any (it is
/// given the declarations and the binding of the specification's
/// elements). Returns the solution of the maximal node reached, or `None`
/// if the most specific node has none.
///
/// The paper explores the whole graph and keeps every maximal node; one
/// greedy climb per element set visits at most one node per step and
/// still ends on a maximally general rule (no parent is sound), at a
/// fraction of the cost.
pub fn climb<T>(set: &[Element], schema: &Schema, mut solve: impl FnMut(&[Decl], &Binding) -> Option<T>) -> Option<T> {
    let max_constant = schema.file.synthesis.max_constant;
    let names = names(set, schema);
    let binding: Binding = set.iter().map(|e| e.index).collect();
    let decls = |kinds: &[PatternKind]| -> Vec<Decl> {
        set.iter().zip(kinds).zip(&names).map(|((e, &kind), name)| Decl { name: name.clone(), ty: e.ty, kind }).collect()
    };
    let mut node: Vec<PatternKind> = set.iter().map(|e| most_specific(e, max_constant)).collect();
    let mut best = solve(&decls(&node), &binding)?;
    'climb: loop {
        for i in 0..node.len() {
            let Some(up) = parent(node[i]) else { continue };
            let mut next = node.clone();
            next[i] = up;
            if let Some(found) = solve(&decls(&next), &binding) {
                node = next;
                best = found;
                continue 'climb;
            }
        }
        return Some(best);
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
        let maximal = climb(&set, &schema, |decls, binding| {
            assert_eq!(binding, &vec![0, 1]);
            tried.push(decls.iter().map(|d| d.kind).collect::<Vec<_>>());
            (decls[1].kind != PatternKind::Arbitrary).then(|| decls.to_vec())
        });
        assert_eq!(tried[0], vec![PatternKind::Singleton, PatternKind::Constant(1)]);
        // singleton -> constant(0) -> arbitrary for h; b cannot climb
        let maximal = maximal.unwrap();
        assert_eq!(maximal[0].kind, PatternKind::Arbitrary);
        assert_eq!(maximal[1].kind, PatternKind::Constant(1));
        assert_eq!(maximal[0].name, "h");
        assert_eq!(maximal[1].name, "b");
        assert_eq!(tried.len(), 4);
    }
}
