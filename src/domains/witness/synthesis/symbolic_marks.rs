//! The Z3 encoding of the region constraints (separation squares and stars)
//! and the must-cross dots, with the `mark` and `dot` elements and their
//! features as terms (docs/language.md, "Domain: Witness partial paths"), on top of
//! the path encoding of [`super::symbolic`].
//!
//! Each square of the bound grid has a colour (0: no mark, else 1-255)
//! and a star flag; a marked square is active and holds no triangles. Each
//! vertex and each edge may hold a dot, which the solution crosses.
//!
//! Three partitions of the active squares are encoded, each exactly, by
//! [`components`]: the solution's regions (squares joined by shared edges
//! off the solution), the *joined* classes (shared edges sealed: neither on
//! the path nor usable) and the *open areas* (shared edges off the path).
//! A partition is a label per square, equal across every connecting edge,
//! where a square whose label is not its own index has a connected
//! neighbour of smaller rank: following ranks down ends at the square the
//! label names, so labels are equal exactly when squares are connected.
//!
//! The solution's region constraints: in every region all separation
//! squares have one colour (a colour per region, equal across connecting
//! edges and equal to each separation square's: exact), and every star's
//! region holds exactly two marks of its colour.
//!
//! Implied (true in every state; tests prove them at small bounds): two
//! joined squares are in one region, two squares of one region in one
//! open area (a sealed edge is off the solution, which runs over usable
//! edges after the head; an edge off the solution is off the path), and
//! two squares of one region have one paint (it is equal across each
//! shared edge of the chain that joins them). They
//! chain the partitions, which Z3 could not otherwise relate without
//! following ranks. Per mark x, the same for the counts of marks of x's
//! colour: joined to x <= in x's region <= in x's open area (with x's
//! area closed, the last <= the first), and a star's region holds one
//! beside it. Z3 does not find that sums of pointwise implied terms are
//! ordered: without them a star joined to two marks of its colour took
//! it beyond 20 minutes at 5x5.

use super::symbolic_path::{count, ones, sparse_table, Asserts, BoundGrid, Directed, Order, Region, Shape, MAX_COLOUR};
use super::view::ViewIds;
use crate::dsl::symbolic::{Num, NumOps, SymTable};
use z3::ast::Bool;

/// The constraint kinds an encoding ranges over beyond triangles and broken
/// edges: without marks or dots the puzzles hold none.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodedKinds {
    /// Separation squares and stars.
    pub marks: bool,
    /// Must-cross dots on vertices and edges.
    pub dots: bool,
}

impl EncodedKinds {
    /// Every kind.
    pub const ALL: EncodedKinds = EncodedKinds { marks: true, dots: true };
}

/// The path encoding's parts the marks and dots are stated over.
pub(super) struct Parts<'a> {
    /// The bound grid.
    pub g: &'a BoundGrid,
    /// Size, start, goal, broken edges.
    pub shape: &'a Shape,
    /// The solution's edges.
    pub d: &'a Directed,
    /// Orders, prefix and head.
    pub order: &'a Order,
    /// The goal region, path edges and usable edges.
    pub region: &'a Region,
    /// Triangles per square.
    pub triangles: &'a [Num],
}

/// The marks and dots of an encoding, and the tables rules see.
#[derive(Clone)]
pub struct MarkTerms {
    /// Per square: 0 or the colour of its mark.
    pub colour: Vec<Num>,
    /// Per square: the mark is a star.
    pub star: Vec<Bool>,
    /// Per vertex of the bound grid: a dot.
    pub vertex_dot: Vec<Bool>,
    /// Per edge of the bound grid: a dot.
    pub edge_dot: Vec<Bool>,
    /// The `mark` table: slot j = square j.
    pub mark_table: SymTable,
    /// The `dot` table: the vertices' slots, then the edges'.
    pub dot_table: SymTable,
}

/// States the marks and dots (none of a kind `kinds` leaves out) and their
/// features.
pub(super) fn encode(ids: &ViewIds, kinds: EncodedKinds, p: &Parts, acc: &mut Asserts) -> MarkTerms {
    let g = p.g;
    let n = g.b * g.b;
    let (mut colour, mut star) = (vec![], vec![]);
    for s in 0..n {
        if !kinds.marks {
            colour.push(g.c(0));
            star.push(Bool::from_bool(false));
            continue;
        }
        let (col, st) = (Num::var(format!("c{s}"), g.wd), Bool::new_const(format!("star{s}")));
        let marked = col.sgt(&g.c(0));
        acc.valid.extend([col.sge(&g.c(0)), col.sle(&num(g, MAX_COLOUR)), st.implies(&marked)]);
        acc.valid.push(marked.implies(Bool::and(&[p.shape.active_square(g, s), p.triangles[s].same(&g.c(0))])));
        colour.push(col);
        star.push(st);
    }
    let (vertex_dot, edge_dot) = dots(kinds, p, &mut acc.valid);
    let marks = if kinds.marks { mark_features(p, &colour, &star, acc) } else { vec![vec![g.c(0); 4]; n] };
    let mark_slots = (0..n)
        .map(|s| {
            let mut row = vec![g.c(0); ids.features];
            row[ids.colour.0 as usize] = colour[s].clone();
            row[ids.star.0 as usize] = star[s].ite(&g.c(1), &g.c(0));
            for (f, v) in [ids.joined_same, ids.joined_other, ids.reach_same, ids.closed].iter().zip(&marks[s]) {
                row[f.0 as usize] = v.clone();
            }
            row
        })
        .collect();
    let mark_table = sparse_table(g, colour.iter().map(|c| c.sgt(&g.c(0))).collect(), mark_slots);
    let dot_table = dot_table(ids, p, &vertex_dot, &edge_dot);
    MarkTerms { colour, star, vertex_dot, edge_dot, mark_table, dot_table }
}

fn num(g: &BoundGrid, v: i64) -> Num {
    crate::dsl::symbolic::num(v, g.wd)
}

/// The dots: each on the solution (an edge dot on a solution edge, which
/// is active and not broken).
fn dots(kinds: EncodedKinds, p: &Parts, valid: &mut Vec<Bool>) -> (Vec<Bool>, Vec<Bool>) {
    let g = p.g;
    if !kinds.dots {
        return (vec![Bool::from_bool(false); g.nv], vec![Bool::from_bool(false); g.edges.len()]);
    }
    let vertex_dot: Vec<Bool> = (0..g.nv).map(|v| Bool::new_const(format!("vd{v}"))).collect();
    for (v, dot) in vertex_dot.iter().enumerate() {
        valid.push(dot.implies(p.order.ord[v].slt(&g.c(g.off_path()))));
    }
    let edge_dot: Vec<Bool> = (0..g.edges.len()).map(|e| Bool::new_const(format!("ed{e}"))).collect();
    for (e, dot) in edge_dot.iter().enumerate() {
        valid.push(dot.implies(&p.d.on_solution[e]));
    }
    (vertex_dot, edge_dot)
}

/// The `dot` table: vertex slots (row-major, so ordered by (y, x)) then
/// edge slots (ordered by their lower-left end, horizontal first).
fn dot_table(ids: &ViewIds, p: &Parts, vertex_dot: &[Bool], edge_dot: &[Bool]) -> SymTable {
    let (g, r) = (p.g, p.region);
    let flag = |b: &Bool| b.ite(&g.c(1), &g.c(0));
    let row = |crossed: Bool, reachable: Bool| {
        let mut row = vec![g.c(0); ids.features];
        row[ids.crossed.0 as usize] = flag(&crossed);
        row[ids.reachable.0 as usize] = flag(&reachable);
        row
    };
    let mut slots: Vec<Vec<Num>> = (0..g.nv)
        .map(|v| row(p.order.prefix[v].clone(), Bool::or(&[p.order.head[v].clone(), r.in_region[v].clone()])))
        .collect();
    slots.extend(
        (0..g.edges.len()).map(|e| row(r.on_path[e].clone(), Bool::or(&[r.on_path[e].clone(), r.usable[e].clone()]))),
    );
    let present = vertex_dot.iter().chain(edge_dot).cloned().collect();
    sparse_table(g, present, slots)
}

/// The solution's region constraints and, per square, the mark features
/// `joined_same`, `joined_other`, `reach_same`, `closed` (0/1).
fn mark_features(p: &Parts, colour: &[Num], star: &[Bool], acc: &mut Asserts) -> Vec<Vec<Num>> {
    let (g, r) = (p.g, p.region);
    let n = g.b * g.b;
    let active: Vec<Bool> = (0..n).map(|s| p.shape.active_square(g, s)).collect();
    let across = |open: &dyn Fn(usize) -> Bool| -> Vec<Bool> {
        g.pairs.iter().map(|&(s, t, e)| Bool::and(&[active[s].clone(), active[t].clone(), open(e)])).collect()
    };
    let apart = across(&|e| p.d.on_solution[e].not());
    let region = components(g, "rg", &apart, &mut acc.valid);
    let sealed = across(&|e| Bool::and(&[r.on_path[e].not(), r.usable[e].not()]));
    let joined = components(g, "jn", &sealed, &mut acc.valid);
    let open = components(g, "op", &across(&|e| r.on_path[e].not()), &mut acc.valid);
    let separation: Vec<Bool> = (0..n).map(|s| Bool::and(&[colour[s].sgt(&g.c(0)), star[s].not()])).collect();
    region_rules(g, (&apart, &region), colour, star, &separation, acc);
    for s in 0..n {
        for t in s + 1..n {
            acc.implied.push(joined[s].same(&joined[t]).implies(region[s].same(&region[t])));
            acc.implied.push(region[s].same(&region[t]).implies(open[s].same(&open[t])));
        }
    }
    (0..n)
        .map(|x| {
            let others = |label: &[Num], wanted: &dyn Fn(usize) -> Bool| {
                let hits: Vec<Bool> =
                    (0..n).filter(|&t| t != x).map(|t| Bool::and(&[wanted(t), label[t].same(&label[x])])).collect();
                count(&hits, g.wd)
            };
            let same = |t: usize| Bool::and(&[colour[t].sgt(&g.c(0)), colour[t].same(&colour[x])]);
            let other = |t: usize| Bool::and(&[separation[t].clone(), colour[t].same(&colour[x]).not()]);
            let closed: Vec<Bool> = (0..n)
                .filter(|&t| t != x)
                .map(|t| open[t].same(&open[x]).implies(joined[t].same(&joined[x])))
                .collect();
            let closed = Bool::and(&closed);
            let (joined_same, in_region, reach_same) =
                (others(&joined, &same), others(&region, &same), others(&open, &same));
            // implied: the counts of x's colour grow from its joined class
            // to its region to its open area (each hit of one is a hit of
            // the next), a closed area holds no more than the joined
            // class, and a star's region one mark of its colour beside it
            acc.implied.extend([
                joined_same.sle(&in_region),
                in_region.sle(&reach_same),
                closed.implies(reach_same.sle(&joined_same)),
                star[x].implies(in_region.same(&g.c(1))),
            ]);
            vec![joined_same, star[x].ite(&g.c(0), &others(&joined, &other)), reach_same, closed.ite(&g.c(1), &g.c(0))]
        })
        .collect()
}

/// The solution's region constraints over its region labels.
/// `regions` holds, per pair of [`BoundGrid::pairs`], whether the two
/// squares are active and their shared edge off the solution, and the
/// region labels.
fn region_rules(
    g: &BoundGrid,
    regions: (&[Bool], &[Num]),
    colour: &[Num],
    star: &[Bool],
    separation: &[Bool],
    acc: &mut Asserts,
) {
    let (apart, region) = regions;
    let n = g.b * g.b;
    // one colour per region: equal across the region's shared edges, and
    // each separation square's own
    let paint: Vec<Num> = (0..n).map(|s| Num::var(format!("paint{s}"), g.wd)).collect();
    for (k, &(s, t, _)) in g.pairs.iter().enumerate() {
        acc.valid.push(apart[k].implies(paint[s].same(&paint[t])));
    }
    // implied: one region, one paint (the paint is equal along every
    // chain of the region's shared edges)
    for s in 0..n {
        for t in s + 1..n {
            acc.implied.push(region[s].same(&region[t]).implies(paint[s].same(&paint[t])));
        }
    }
    for s in 0..n {
        acc.valid.push(separation[s].implies(paint[s].same(&colour[s])));
        let same: Vec<Bool> =
            (0..n).map(|t| Bool::and(&[colour[t].same(&colour[s]), region[t].same(&region[s])])).collect();
        acc.valid.push(star[s].implies(Bool::pb_eq(&ones(&same), 2)));
    }
}

/// Labels of the components of the squares under `connect` (per pair of
/// [`BoundGrid::pairs`]): equal exactly when two squares are connected.
fn components(g: &BoundGrid, name: &str, connect: &[Bool], valid: &mut Vec<Bool>) -> Vec<Num> {
    let n = g.b * g.b;
    let label: Vec<Num> = (0..n).map(|s| Num::var(format!("{name}{s}"), g.wd)).collect();
    let rank: Vec<Num> = (0..n).map(|s| Num::var(format!("{name}k{s}"), g.wd)).collect();
    let mut down: Vec<Vec<Bool>> = (0..n).map(|s| vec![label[s].same(&g.c(s))]).collect();
    for (k, &(s, t, _)) in g.pairs.iter().enumerate() {
        valid.push(connect[k].implies(label[s].same(&label[t])));
        down[s].push(Bool::and(&[connect[k].clone(), rank[t].slt(&rank[s])]));
        down[t].push(Bool::and(&[connect[k].clone(), rank[s].slt(&rank[t])]));
    }
    for s in 0..n {
        valid.extend([label[s].sge(&g.c(0)), label[s].slt(&g.c(n)), rank[s].sge(&g.c(0)), rank[s].slt(&g.c(n))]);
        valid.push(Bool::or(&down[s]));
    }
    label
}
