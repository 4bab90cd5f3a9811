//! The path part of the Witness Z3 encoding ([`super::symbolic`]): the
//! bound grid, the puzzle's shape and broken edges, the solution's edges
//! and order numbers, the prefix and head, the goal region R, usable edges,
//! and the `square` features; each group of constraints pushed in a fixed
//! order (Z3's search depends on it). The encoding's meaning is described
//! in [`super::symbolic`].

use crate::dsl::symbolic::{num, Num, NumOps, Sparse, SymTable};
use z3::ast::Bool;

/// The largest colour (docs/formats.md).
pub const MAX_COLOUR: i64 = 255;

/// The bit width of an encoding up to `bound`: room for four times the
/// largest value (the off-path order `(bound + 1)^2`).
pub(super) fn width(bound: usize) -> u32 {
    let m = 4 * (magnitude(bound) + 1);
    let mut w = 2;
    while (1i64 << (w - 1)) <= m {
        w += 1;
    }
    w
}

/// The largest value a rule sees up to `bound`: the off-path order
/// `(bound + 1)^2` or the largest colour.
pub(super) fn magnitude(bound: usize) -> i64 {
    ((bound as i64 + 1) * (bound as i64 + 1)).max(MAX_COLOUR)
}

/// `sum of [b]` over `bools`.
pub(super) fn count(bools: &[Bool], w: u32) -> Num {
    bools.iter().fold(num(0, w), |acc, b| acc.plus(&b.ite(&num(1, w), &num(0, w))))
}

/// `values` weighted 1 each, for the pseudo-boolean constraints.
pub(super) fn ones(bools: &[Bool]) -> Vec<(&Bool, i32)> {
    bools.iter().map(|b| (b, 1)).collect()
}

/// The bound grid every encoding ranges over: its side `b`, the bit width
/// `wd`, its `nv` vertices (vertex `y * (b + 1) + x`) and its undirected
/// edges `(u, v)` with `u < v`.
pub(super) struct BoundGrid {
    pub(super) b: usize,
    pub(super) wd: u32,
    pub(super) nv: usize,
    pub(super) edges: Vec<(usize, usize)>,
    /// Side-adjacent squares `(s, t, shared edge)`, `s < t` (square
    /// `row * b + column`).
    pub(super) pairs: Vec<(usize, usize, usize)>,
}

impl BoundGrid {
    pub(super) fn new(b: usize) -> BoundGrid {
        let vid = |x: usize, y: usize| y * (b + 1) + x;
        let mut edges: Vec<(usize, usize)> = vec![];
        for y in 0..=b {
            for x in 0..=b {
                if x < b {
                    edges.push((vid(x, y), vid(x + 1, y)));
                }
                if y < b {
                    edges.push((vid(x, y), vid(x, y + 1)));
                }
            }
        }
        let mut g = BoundGrid { b, wd: width(b), nv: (b + 1) * (b + 1), edges, pairs: vec![] };
        for r in 0..b {
            for col in 0..b {
                let s = r * b + col;
                if col + 1 < b {
                    g.pairs.push((s, s + 1, g.edge_id(g.vid(col + 1, r), g.vid(col + 1, r + 1))));
                }
                if r + 1 < b {
                    g.pairs.push((s, s + b, g.edge_id(g.vid(col, r + 1), g.vid(col + 1, r + 1))));
                }
            }
        }
        g
    }

    /// The constant `v` at the encoding's width.
    pub(super) fn c(&self, v: usize) -> Num {
        num(v as i64, self.wd)
    }

    pub(super) fn vid(&self, x: usize, y: usize) -> usize {
        y * (self.b + 1) + x
    }

    /// The order of a vertex off the solution: larger than any path length.
    pub(super) fn off_path(&self) -> usize {
        self.nv
    }

    /// The edges at `v`, each with its other end.
    fn incident(&self, v: usize) -> Vec<(usize, usize)> {
        self.edges
            .iter()
            .enumerate()
            .filter_map(|(e, &(p, q))| {
                if p == v {
                    Some((e, q))
                } else if q == v {
                    Some((e, p))
                } else {
                    None
                }
            })
            .collect()
    }

    fn edge_id(&self, p: usize, q: usize) -> usize {
        let key = (p.min(q), p.max(q));
        self.edges.iter().position(|&e| e == key).expect("square sides are grid edges")
    }
}

/// The constraints gathered so far: `valid`, the definition of a state,
/// and `implied`, constraints true in every state, stated because they
/// speed up proofs (tests prove them from `valid` at small bounds). The
/// groups below push in a fixed order, which Z3's search depends on.
pub(super) struct Asserts {
    pub(super) valid: Vec<Bool>,
    pub(super) implied: Vec<Bool>,
}

/// The puzzle's shape: active width and height, start and goal, and its
/// broken edges (per edge of the bound grid).
pub(super) struct Shape {
    pub(super) w: Num,
    pub(super) h: Num,
    pub(super) start: (Num, Num),
    pub(super) goal: (Num, Num),
    pub(super) broken: Vec<Bool>,
}

impl Shape {
    /// Whether vertex `v` is active.
    pub(super) fn active(&self, g: &BoundGrid, v: usize) -> Bool {
        Bool::and(&[g.c(v % (g.b + 1)).sle(&self.w), g.c(v / (g.b + 1)).sle(&self.h)])
    }

    /// Whether square `s` (`row * b + column`) is active.
    pub(super) fn active_square(&self, g: &BoundGrid, s: usize) -> Bool {
        Bool::and(&[g.c(s % g.b).slt(&self.w), g.c(s / g.b).slt(&self.h)])
    }
}

/// The solution's directed edges, per undirected edge of the grid.
pub(super) struct Directed {
    forward: Vec<Bool>,
    backward: Vec<Bool>,
    pub(super) on_solution: Vec<Bool>,
}

/// Order numbers, the prefix length and the prefix and head per vertex.
pub(super) struct Order {
    pub(super) ord: Vec<Num>,
    pub(super) length: Num,
    pub(super) prefix: Vec<Bool>,
    pub(super) head: Vec<Bool>,
}

/// The region features' per-vertex terms, `goal_reachable`, and per edge
/// whether it is on the path and whether it is usable (docs/language.md).
pub(super) struct Region {
    pub(super) goal_reachable: Bool,
    open_end: Vec<Bool>,
    pub(super) live_end: Vec<Bool>,
    pub(super) in_region: Vec<Bool>,
    pub(super) on_path: Vec<Bool>,
    pub(super) usable: Vec<Bool>,
}

/// The features of every square of the bound grid, row-major.
pub(super) struct Squares {
    pub(super) triangles: Vec<Num>,
    pub(super) used: Vec<Num>,
    pub(super) touches: Vec<Num>,
    pub(super) free: Vec<Num>,
    pub(super) live: Vec<Num>,
}

/// The puzzle's shape: size within the bound, start and goal active, the
/// goal on the border and not the start.
pub(super) fn shape_constraints(g: &BoundGrid, valid: &mut Vec<Bool>) -> Shape {
    let (b, wd) = (g.b, g.wd);
    let w = Num::var("w".into(), wd);
    let h = Num::var("h".into(), wd);
    let start = (Num::var("sx".into(), wd), Num::var("sy".into(), wd));
    let goal = (Num::var("gx".into(), wd), Num::var("gy".into(), wd));
    valid.extend([w.sge(&g.c(1)), w.sle(&g.c(b)), h.sge(&g.c(1)), h.sle(&g.c(b))]);
    for (x, y) in [&start, &goal] {
        valid.extend([x.sge(&g.c(0)), x.sle(&w), y.sge(&g.c(0)), y.sle(&h)]);
    }
    valid.push(Bool::or(&[goal.0.same(&g.c(0)), goal.1.same(&g.c(0)), goal.0.same(&w), goal.1.same(&h)]));
    valid.push(Bool::and(&[start.0.same(&goal.0), start.1.same(&goal.1)]).not());
    let mut shape = Shape { w, h, start, goal, broken: vec![] };
    for &(u, v) in &g.edges {
        let broken = Bool::new_const(format!("x{u}_{v}"));
        valid.push(broken.implies(Bool::and(&[shape.active(g, u), shape.active(g, v)])));
        shape.broken.push(broken);
    }
    shape
}

/// The directed solution edges, each between active vertices.
pub(super) fn solution_edges(g: &BoundGrid, shape: &Shape, valid: &mut Vec<Bool>) -> Directed {
    let forward: Vec<Bool> = g.edges.iter().map(|(u, v)| Bool::new_const(format!("d{u}_{v}"))).collect();
    let backward: Vec<Bool> = g.edges.iter().map(|(u, v)| Bool::new_const(format!("d{v}_{u}"))).collect();
    let on_solution: Vec<Bool> = forward.iter().zip(&backward).map(|(f, r)| Bool::or(&[f, r])).collect();
    for (e, &(u, v)) in g.edges.iter().enumerate() {
        valid.push(on_solution[e].implies(Bool::and(&[shape.active(g, u), shape.active(g, v), shape.broken[e].not()])));
    }
    Directed { forward, backward, on_solution }
}

/// Degrees, order numbers, and the prefix (order <= length).
pub(super) fn order_constraints(g: &BoundGrid, shape: &Shape, d: &Directed, acc: &mut Asserts) -> Order {
    let (b, wd, c) = (g.b, g.wd, |v: usize| g.c(v));
    let (start, goal) = (&shape.start, &shape.goal);
    let ord: Vec<Num> = (0..g.nv).map(|v| Num::var(format!("ord{v}"), wd)).collect();
    let length = Num::var("length".into(), wd);
    acc.valid.push(length.sge(&c(0)));
    let prefix: Vec<Bool> = ord.iter().map(|o| o.sle(&length)).collect();
    let head: Vec<Bool> = ord.iter().map(|o| o.same(&length)).collect();
    for v in 0..g.nv {
        let (x, y) = (v % (b + 1), v / (b + 1));
        let mut incoming = vec![];
        let mut outgoing = vec![];
        for (e, &(p, q)) in g.edges.iter().enumerate() {
            let (out, inc, next) = if p == v {
                (&d.forward[e], &d.backward[e], q)
            } else if q == v {
                (&d.backward[e], &d.forward[e], p)
            } else {
                continue;
            };
            outgoing.push(out.clone());
            incoming.push(inc.clone());
            acc.valid.push(out.implies(ord[next].same(&ord[v].plus(&c(1)))));
            // implied: the prefix is closed towards the start (follows from
            // the order along the path, which Z3 would have to unroll)
            acc.implied.push(Bool::and(&[out.clone(), prefix[next].clone()]).implies(&prefix[v]));
        }
        let is_start = Bool::and(&[start.0.same(&c(x)), start.1.same(&c(y))]);
        let is_goal = Bool::and(&[goal.0.same(&c(x)), goal.1.same(&c(y))]);
        let (ins, outs) = (ones(&incoming), ones(&outgoing));
        acc.valid.push(is_start.implies(Bool::and(&[Bool::pb_eq(&outs, 1), Bool::pb_eq(&ins, 0), ord[v].same(&c(0))])));
        // the partial path ends at the goal at the latest
        acc.valid.push(is_goal.implies(Bool::and(&[Bool::pb_eq(&ins, 1), Bool::pb_eq(&outs, 0), ord[v].sge(&length)])));
        let entered = Bool::or(&incoming);
        // implied: the head, unless it is the goal, has a next edge
        acc.implied.push(Bool::and(&[head[v].clone(), is_goal.not()]).implies(Bool::or(&outgoing)));
        acc.valid.push(Bool::or(&[is_start.clone(), is_goal.clone()]).not().implies(Bool::and(&[
            Bool::pb_le(&ins, 1),
            Bool::pb_le(&outs, 1),
            entered.iff(Bool::or(&outgoing)),
        ])));
        let on = Bool::or(&[is_start, entered]);
        acc.valid.push(on.not().implies(ord[v].same(&c(g.off_path()))));
        // implied: a vertex on the solution has an order below `off_path`
        // (the solution visits each vertex once, so its orders stop below
        // the vertex count; Z3 would have to count them, a pigeonhole)
        acc.implied.push(on.implies(ord[v].slt(&c(g.off_path()))));
        acc.valid.push(Bool::and(&[ord[v].sge(&c(0)), ord[v].sle(&c(g.off_path()))]));
    }
    Order { ord, length, prefix, head }
}

/// Implied: exactly one vertex is the head, and a solution edge leaving
/// the prefix leaves it from the head (proofs about squares at the head
/// need both, and Z3 would otherwise rediscover them case by case).
pub(super) fn head_constraints(g: &BoundGrid, d: &Directed, order: &Order, implied: &mut Vec<Bool>) {
    let (prefix, head) = (&order.prefix, &order.head);
    implied.push(Bool::pb_eq(&ones(head), 1));
    for (e, &(u, v)) in g.edges.iter().enumerate() {
        for (a, z) in [(u, v), (v, u)] {
            implied.push(Bool::and(&[d.on_solution[e].clone(), prefix[a].clone(), prefix[z].not()]).implies(&head[a]));
        }
    }
}

/// The goal region R: an exact least fixpoint, by ranks.
pub(super) fn region_constraints(
    g: &BoundGrid,
    shape: &Shape,
    d: &Directed,
    order: &Order,
    acc: &mut Asserts,
) -> Region {
    let (b, nv, c) = (g.b, g.nv, |v: usize| g.c(v));
    let (ord, length, head, goal) = (&order.ord, &order.length, &order.head, &shape.goal);
    let goal_at: Vec<Bool> =
        (0..nv).map(|v| Bool::and(&[goal.0.same(&c(v % (b + 1))), goal.1.same(&c(v / (b + 1)))])).collect();
    let unvisited: Vec<Bool> = (0..nv).map(|v| Bool::and(&[shape.active(g, v), ord[v].sgt(length)])).collect();
    let in_region: Vec<Bool> = (0..nv).map(|v| Bool::new_const(format!("r{v}"))).collect();
    let rank: Vec<Num> = (0..nv).map(|v| Num::var(format!("rk{v}"), g.wd)).collect();
    for v in 0..nv {
        acc.valid.push(in_region[v].implies(&unvisited[v]));
        acc.valid.push(Bool::and(&[goal_at[v].clone(), unvisited[v].clone()]).implies(&in_region[v]));
        let mut closer = vec![goal_at[v].clone()];
        for (e, u) in g.incident(v) {
            // closed under unvisited neighbours over grid steps (edges not broken)
            let step = shape.broken[e].not();
            acc.valid
                .push(Bool::and(&[in_region[u].clone(), unvisited[v].clone(), step.clone()]).implies(&in_region[v]));
            closer.push(Bool::and(&[in_region[u].clone(), step, rank[u].slt(&rank[v])]));
        }
        // justified: a neighbour in R closer to the goal (least fixpoint)
        acc.valid.push(in_region[v].implies(Bool::or(&closer)));
        acc.valid.extend([rank[v].sge(&c(0)), rank[v].sle(&c(nv))]);
        // implied: the solution's next vertex after the head is in R
        for (e, u) in g.incident(v) {
            let out = if g.edges[e].0 == v { &d.forward[e] } else { &d.backward[e] };
            acc.implied.push(Bool::and(&[out.clone(), head[v].clone()]).implies(&in_region[u]));
        }
        // implied: the solution after the head runs inside R
        acc.implied.push(Bool::and(&[ord[v].sgt(length), ord[v].slt(&c(g.off_path()))]).implies(&in_region[v]));
    }
    let goal_reachable = Bool::or(
        &(0..nv)
            .map(|v| {
                let mut reach = vec![goal_at[v].clone()];
                reach.extend(
                    g.incident(v).into_iter().map(|(e, u)| Bool::and(&[in_region[u].clone(), shape.broken[e].not()])),
                );
                Bool::and(&[head[v].clone(), Bool::or(&reach)])
            })
            .collect::<Vec<_>>(),
    );
    let open_end: Vec<Bool> = (0..nv).map(|v| Bool::or(&[unvisited[v].clone(), head[v].clone()])).collect();
    let live_end: Vec<Bool> = (0..nv).map(|v| Bool::or(&[in_region[v].clone(), head[v].clone()])).collect();
    let prefix = &order.prefix;
    let on_path: Vec<Bool> = (g.edges.iter().enumerate())
        .map(|(e, &(p, q))| Bool::and(&[d.on_solution[e].clone(), prefix[p].clone(), prefix[q].clone()]))
        .collect();
    let usable: Vec<Bool> = (g.edges.iter().enumerate())
        .map(|(e, &(p, q))| {
            Bool::and(&[shape.broken[e].not(), on_path[e].not(), live_end[p].clone(), live_end[q].clone()])
        })
        .collect();
    Region { goal_reachable, open_end, live_end, in_region, on_path, usable }
}

/// Squares: triangles, solution edges, prefix edges, head, region.
pub(super) fn square_constraints(
    g: &BoundGrid,
    shape: &Shape,
    d: &Directed,
    order: &Order,
    region: &Region,
    acc: &mut Asserts,
) -> Squares {
    let (b, wd, c, edges) = (g.b, g.wd, |v: usize| g.c(v), &g.edges);
    let (on_solution, head) = (&d.on_solution, &order.head);
    let (w, h) = (&shape.w, &shape.h);
    let mut squares = Squares { triangles: vec![], used: vec![], touches: vec![], free: vec![], live: vec![] };
    for r in 0..b {
        for col in 0..b {
            let corners = [g.vid(col, r), g.vid(col + 1, r), g.vid(col + 1, r + 1), g.vid(col, r + 1)];
            let sides: Vec<usize> = (0..4).map(|k| g.edge_id(corners[k], corners[(k + 1) % 4])).collect();
            let t = Num::var(format!("t{col}_{r}"), wd);
            acc.valid.extend([t.sge(&c(0)), t.sle(&c(3))]);
            acc.valid.push(t.sgt(&c(0)).implies(Bool::and(&[c(col).slt(w), c(r).slt(h)])));
            let solution_sides: Vec<Bool> = sides.iter().map(|&e| on_solution[e].clone()).collect();
            for k in 1..=3 {
                acc.valid.push(t.same(&c(k)).implies(Bool::pb_eq(&ones(&solution_sides), k as i32)));
            }
            let prefix_sides: Vec<Bool> = sides.iter().map(|&e| region.on_path[e].clone()).collect();
            let u = count(&prefix_sides, wd);
            // implied: the prefix uses no more sides than the solution
            acc.implied.push(t.sgt(&c(0)).implies(u.sle(&t)));
            squares.used.push(u.clone());
            let touched = Bool::or(&corners.iter().map(|&v| head[v].clone()).collect::<Vec<_>>());
            squares.touches.push(touched.ite(&c(1), &c(0)));
            // implied: a solution side off the prefix is live (its ends are
            // the head or after it, hence in R)
            for (&e, done) in sides.iter().zip(&prefix_sides) {
                let (p, q) = edges[e];
                acc.implied.push(
                    Bool::and(&[on_solution[e].clone(), done.not()])
                        .implies(Bool::and(&[region.live_end[p].clone(), region.live_end[q].clone()])),
                );
            }
            let sides_within = |ends: &[Bool]| {
                count(
                    &sides
                        .iter()
                        .map(|&e| {
                            Bool::and(&[shape.broken[e].not(), ends[edges[e].0].clone(), ends[edges[e].1].clone()])
                        })
                        .collect::<Vec<_>>(),
                    wd,
                )
            };
            let live_count = sides_within(&region.live_end);
            // implied, summing the above: the live sides are at least the
            // solution's sides off the prefix
            acc.implied.push(live_count.sge(&count(&solution_sides, wd).minus(&u)));
            // implied: the triangles are the solution's sides, as a sum
            acc.implied.push(t.sgt(&c(0)).implies(t.same(&count(&solution_sides, wd))));
            squares.free.push(sides_within(&region.open_end));
            squares.live.push(live_count);
            squares.triangles.push(t);
        }
    }
    squares
}

/// A sparse table whose slot `j` holds an element when `present[j]`, with
/// the features `slots[j]`.
pub(super) fn sparse_table(g: &BoundGrid, present: Vec<Bool>, slots: Vec<Vec<Num>>) -> SymTable {
    let mut rank = vec![];
    let mut before = g.c(0);
    for p in &present {
        rank.push(before.clone());
        before = before.plus(&p.ite(&g.c(1), &g.c(0)));
    }
    SymTable { count: before, slots, sparse: Some(Sparse { present, rank }) }
}
