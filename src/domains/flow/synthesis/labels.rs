//! Reachability on a Flow grid as exact Z3 constraints, the building blocks
//! of the encoding ([`super::symbolic`]): a well-founded descent (every
//! cell of a set reaches a target within the set) and least-index component
//! labels (a chain's `chain(c)`, an area's first cell).
//!
//! A label is exact both ways: labels are equal across every edge (so a
//! component carries one label), every member's label is at most its own
//! index, and a member whose label is not its own index descends to a
//! neighbour of smaller distance (so following the descent reaches a
//! member whose label is its own index: the label is the index of a member
//! of the component, hence the least one).

use crate::domains::flow::model::grid::Grid;
use crate::dsl::symbolic::{num, Num, NumOps};
use z3::ast::Bool;

/// The bit width of the encoding's terms (ignored for integers): every
/// value (a cell index, a count, a distance below the number of cells)
/// stays below `2^15` on boards up to 64 x 64.
pub const WIDTH: u32 = 16;

/// A constant at the encoding's width.
pub fn c(v: i64) -> Num {
    num(v, WIDTH)
}

/// 1 if `b`, else 0.
pub fn flag(b: &Bool) -> Num {
    b.ite(&c(1), &c(0))
}

/// How many of `bools` hold.
pub fn count(bools: &[Bool]) -> Num {
    bools.iter().fold(c(0), |acc, b| acc.plus(&flag(b)))
}

/// Every cell in `from` but not in `target` has a neighbour in `from`,
/// across a slot where `edge` holds, of smaller distance (fresh distances
/// `{name}{c}`, each at least 0): so a walk over such slots within `from`
/// leads from every cell of `from` to `target`.
pub fn descend(g: &Grid, from: &[Bool], target: &[Bool], edge: &[Bool], name: &str, acc: &mut Vec<Bool>) {
    let dist: Vec<Num> = (0..g.cells()).map(|x| Num::var(format!("{name}{x}"), WIDTH)).collect();
    for x in 0..g.cells() {
        acc.push(dist[x].sge(&c(0)));
        let steps: Vec<Bool> = g
            .slots_of(x)
            .map(|s| {
                let d = g.across(s, x);
                Bool::and(&[edge[s].clone(), from[d].clone(), dist[d].slt(&dist[x])])
            })
            .collect();
        acc.push(Bool::and(&[from[x].clone(), target[x].not()]).implies(Bool::or(&steps)));
    }
}

/// The components of the graph whose nodes are the cells in `member` and
/// whose edges are the slots where `edge` holds between two members: per
/// cell a label (fresh, `{name}{c}`), for every member the least index of
/// a cell of its component (unconstrained for other cells).
pub fn least_labels(g: &Grid, member: &[Bool], edge: &[Bool], name: &str, acc: &mut Vec<Bool>) -> Vec<Num> {
    let label: Vec<Num> = (0..g.cells()).map(|x| Num::var(format!("{name}{x}"), WIDTH)).collect();
    for x in 0..g.cells() {
        acc.push(member[x].implies(Bool::and(&[label[x].sge(&c(0)), label[x].sle(&c(x as i64))])));
    }
    for (s, e) in edge.iter().enumerate() {
        let [a, b] = g.ends(s);
        acc.push(Bool::and(&[e.clone(), member[a].clone(), member[b].clone()]).implies(label[a].same(&label[b])));
    }
    let root: Vec<Bool> = (0..g.cells()).map(|x| label[x].same(&c(x as i64))).collect();
    descend(g, member, &root, edge, &format!("{name}d"), acc);
    label
}
