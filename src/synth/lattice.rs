//! The pattern lattice (docs/language.md): which elements of a specification's state
//! a rule binds, and how generally. The most specific pattern for the k-th
//! of n elements is `singleton` (n = 1) or `constant(t, k)`; one step up
//! is `singleton` → `constant(t, 0)` → `arbitrary(t)`. The walk starts at
//! the most specific patterns of an element set and climbs while a sound
//! rule exists, ending on a maximally general node: greedily ([`climb`])
//! or along every way up ([`maximal`], every maximally general node).

use crate::dsl::ast::{Decl, PatternKind, TypeId};
use crate::dsl::eval::{ActionValue, Binding, View};
use crate::dsl::schema::{ParamKind, Schema};
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

/// Whether a rule binding the elements of `set` can conclude `deduction`:
/// each element its action takes (Flow's `link(c, d)`) is in the set (an
/// action on elements names bound variables only).
pub fn binds_arguments(set: &[Element], deduction: &ActionValue, schema: &Schema) -> bool {
    let def = &schema.file.actions[deduction.action.0 as usize];
    let ty = def.element.as_deref().and_then(|t| schema.type_id(t));
    def.params
        .iter()
        .zip(&deduction.args)
        .all(|(p, &arg)| *p != ParamKind::Element || set.iter().any(|e| Some(e.ty) == ty && e.index as i64 == arg))
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

/// The nodes one step more general than `node`, in declaration order.
fn parents(node: &[PatternKind]) -> Vec<Vec<PatternKind>> {
    (0..node.len())
        .filter_map(|i| {
            let mut kinds = node.to_vec();
            kinds[i] = parent(node[i])?;
            Some(kinds)
        })
        .collect()
}

/// Variable names: the type's initial, numbered when repeated.
fn names(set: &[Element], schema: &Schema) -> Vec<String> {
    let mut used: HashMap<String, usize> = HashMap::new();
    set.iter()
        .map(|e| {
            let mut base: String = schema.type_name(e.ty).chars().take(1).collect();
            while schema.reserved(&base).is_some() {
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

/// An element set's walk through its lattice: variable names, the
/// specification's binding and the declarations of a node.
struct Walk<'a> {
    set: &'a [Element],
    names: Vec<String>,
    binding: Binding,
    max_constant: u32,
}

impl<'a> Walk<'a> {
    fn new(set: &'a [Element], schema: &Schema) -> Walk<'a> {
        Walk {
            set,
            names: names(set, schema),
            binding: set.iter().map(|e| e.index).collect(),
            max_constant: schema.file.synthesis.max_constant,
        }
    }

    /// The most specific node.
    fn start(&self) -> Vec<PatternKind> {
        self.set.iter().map(|e| most_specific(e, self.max_constant)).collect()
    }

    /// A node's declarations.
    fn decls(&self, kinds: &[PatternKind]) -> Vec<Decl> {
        self.set
            .iter()
            .zip(kinds)
            .zip(&self.names)
            .map(|((e, &kind), name)| Decl { name: name.clone(), ty: e.ty, kind })
            .collect()
    }
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
    let walk = Walk::new(set, schema);
    let (binding, decls) = (&walk.binding, |kinds: &[PatternKind]| walk.decls(kinds));
    let mut node = walk.start();
    let mut best = solve(&decls(&node), binding)?;
    loop {
        let mut next: Option<(Vec<PatternKind>, T)> = None;
        for kinds in parents(&node) {
            let Some(found) = solve(&decls(&kinds), binding) else { continue };
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

/// Every node the climb of [`climb`] can end on, whichever better or
/// equal parent it takes at each step: the lattice of `set` is explored
/// from its most specific node through every parent whose solution scores
/// at least as high as its child's, each node solved once (memoised), and
/// the solutions of the nodes with no such parent are returned, in the
/// order they were reached (breadth first, parents in declaration order).
/// Empty if the most specific node has no solution.
pub fn maximal<T, K: Ord>(
    set: &[Element],
    schema: &Schema,
    mut solve: impl FnMut(&[Decl], &Binding) -> Option<T>,
    score: impl Fn(&T) -> K,
) -> Vec<T> {
    let walk = Walk::new(set, schema);
    let (binding, decls) = (&walk.binding, |kinds: &[PatternKind]| walk.decls(kinds));
    let start = walk.start();
    let Some(first) = solve(&decls(&start), binding) else { return vec![] };
    // solved nodes: their solution, whether no climb goes on from them,
    // whether a climb reaches them
    let mut solutions: Vec<T> = vec![first];
    let mut ends: Vec<bool> = vec![true];
    let mut reached: Vec<bool> = vec![true];
    let mut memo: HashMap<Vec<PatternKind>, Option<usize>> = HashMap::from([(start.clone(), Some(0))]);
    let mut queue = std::collections::VecDeque::from([(start, 0)]);
    while let Some((node, at)) = queue.pop_front() {
        for kinds in parents(&node) {
            let j = match memo.get(&kinds) {
                Some(&j) => j,
                None => {
                    let j = solve(&decls(&kinds), binding).map(|t| {
                        solutions.push(t);
                        ends.push(true);
                        reached.push(false);
                        solutions.len() - 1
                    });
                    memo.insert(kinds.clone(), j);
                    j
                }
            };
            let Some(j) = j else { continue };
            if score(&solutions[j]) >= score(&solutions[at]) {
                ends[at] = false;
                if !reached[j] {
                    reached[j] = true;
                    queue.push_back((kinds, j));
                }
            }
        }
    }
    solutions
        .into_iter()
        .zip(ends.into_iter().zip(reached))
        .filter(|(_, (end, reached))| *end && *reached)
        .map(|(t, _)| t)
        .collect()
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
            2 * rank(decls[1].kind) - if decls[0].kind == PatternKind::Arbitrary { 3 } else { 0 }
        };
        let maximal = climb(&set, &schema, |decls, _| Some(decls.to_vec()), score).unwrap();
        let kinds: Vec<PatternKind> = maximal.iter().map(|d| d.kind).collect();
        // (S, S) -> (S, C0) (scores 2, above (C0, S)'s 0) -> (S, A) -> (C0, A)
        // (4 = 4, the hint's move is not worse); (A, A) scores 1: refused
        assert_eq!(kinds, vec![PatternKind::Constant(0), PatternKind::Arbitrary]);
    }

    #[test]
    fn maximal_returns_every_end_of_every_climb_solving_each_node_once() {
        let schema = Schema::nonogram();
        let hint = schema.type_id("hint").unwrap();
        let block = schema.type_id("block").unwrap();
        let set = [Element { ty: hint, index: 0, count: 1 }, Element { ty: block, index: 1, count: 2 }];
        let mut tried: Vec<Vec<PatternKind>> = vec![];
        // solvable unless both patterns are arbitrary: two maximal nodes,
        // (A, C1) and (C0, A); the greedy climb reaches only one of them
        let found = maximal(
            &set,
            &schema,
            |decls, _| {
                let kinds: Vec<PatternKind> = decls.iter().map(|d| d.kind).collect();
                tried.push(kinds.clone());
                (kinds != [PatternKind::Arbitrary, PatternKind::Arbitrary]).then_some(kinds)
            },
            |_| 0,
        );
        assert_eq!(
            found,
            vec![
                vec![PatternKind::Arbitrary, PatternKind::Constant(1)],
                vec![PatternKind::Constant(0), PatternKind::Arbitrary]
            ]
        );
        let mut unique = tried.clone();
        unique.sort_by_key(|k| format!("{k:?}"));
        unique.dedup();
        assert_eq!(unique.len(), tried.len(), "a node was solved twice: {tried:?}");
        // all 3 x 2 nodes
        assert_eq!(tried.len(), 6);
        let greedy = climb(
            &set,
            &schema,
            |decls, _| {
                let kinds: Vec<PatternKind> = decls.iter().map(|d| d.kind).collect();
                (kinds != [PatternKind::Arbitrary, PatternKind::Arbitrary]).then_some(kinds)
            },
            |_| 0,
        );
        assert!(found.contains(&greedy.unwrap()));
    }

    #[test]
    fn maximal_does_not_climb_to_a_worse_parent() {
        let schema = Schema::nonogram();
        let hint = schema.type_id("hint").unwrap();
        let set = [Element { ty: hint, index: 0, count: 1 }];
        // singleton scores 2, constant(0) 1, arbitrary 3: the climb stops at singleton
        let score = |k: &PatternKind| match k {
            PatternKind::Singleton => 2,
            PatternKind::Constant(_) => 1,
            PatternKind::Arbitrary => 3,
        };
        let found = maximal(&set, &schema, |decls, _| Some(decls[0].kind), score);
        assert_eq!(found, vec![PatternKind::Singleton]);
    }
}
