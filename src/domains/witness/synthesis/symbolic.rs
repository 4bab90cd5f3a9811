//! The Z3 encoding of every Witness state that some solution begins with,
//! on puzzles up to `bound` x `bound` squares, with the rule language's
//! `square` elements, their features and the globals as terms; and reading
//! a puzzle and partial path back from a model.
//!
//! A puzzle lives on a `bound` x `bound` grid of squares of which the first
//! `W` columns and `H` rows are active (`1 <= W, H <= bound`); the start is
//! any active vertex, the goal any vertex on the active border other than
//! the start, and each active square holds 0-3 triangles.
//!
//! The solution is a set of directed edges between active vertices: the
//! start has one outgoing and no incoming edge, the goal one incoming and
//! no outgoing, every other vertex equally many (at most one) of each, and
//! every square with `t > 0` triangles has exactly `t` of its edges used.
//! Sub-tours are impossible because every vertex carries an order number:
//! the start has order 0 and a used edge `u -> v` means
//! `ord(v) = ord(u) + 1`; a vertex off the solution has order `M` (larger
//! than any path). The partial path is the solution's prefix of `L` edges,
//! `0 <= L <= ord(goal)` (the whole solution included: a solution begins
//! with itself): its vertices are those with `ord <= L`, its head the one
//! with `ord = L`. So `used(s)` counts the square's solution edges with
//! both ends of order `<= L`, `touches_head(s)` says some corner has order
//! `L`, and `path_length = L`.
//!
//! Region features (docs/language.md): a vertex is unvisited when it is active with
//! `ord > L`. The goal region R is an exact least fixpoint, stated with
//! ranks: `inR(v)` implies `v` unvisited; the goal, if unvisited, is in R;
//! R is closed under unvisited grid neighbours; and every vertex of R other
//! than the goal has a neighbour in R of smaller rank (so a chain of R
//! vertices leads it to the goal: R holds nothing the flood fill from the
//! goal does not reach). `free(s)` and `live(s)` count the square's sides
//! whose two ends are unvisited-or-head / in-R-or-head; `goal_reachable`
//! is 1 when the head is the goal or has a neighbour in R.
//!
//! The `square` elements are a sparse table ([`Sparse`]): slot `j` is
//! square `j` of the bound grid (row-major, `row * bound + column`, which
//! orders the active squares as the puzzle's (row, column) order does),
//! holding an element when the square holds triangles, with its rank the
//! number of such squares before it. Mapping the `k`-th element to slot `k`
//! instead (a dense table) would make every proof find which square a slot
//! is, a search over ranks that the fixed square slots avoid.
//!
//! Implied constraints (true in every state, stated so that Z3 need not
//! derive them in every proof): exactly one vertex is the head; a solution
//! edge with one end in the prefix leaves it from the head; the prefix is
//! closed towards the start; a square's prefix uses no more sides than its
//! solution does; the solution's vertices after the head are in R (the
//! rest of the solution joins them to the goal).

use super::view::ViewIds;
use crate::domains::witness::model::grid::Vertex;
use crate::domains::witness::model::path::Path;
use crate::domains::witness::model::puzzle::Puzzle;
use crate::domains::Encoding;
use crate::dsl::symbolic::{num, signed_value, Num, NumOps, Sparse, SymTable, SymView};
use z3::ast::Bool;
use z3::Model;

/// The terms of an encoding that rules do not see directly.
pub struct WitnessTerms {
    /// The grid side the encoding covers.
    bound: usize,
    /// Active width and height.
    w: Num,
    h: Num,
    /// Start and goal coordinates.
    start: (Num, Num),
    goal: (Num, Num),
    /// Triangles per square of the bound grid, index `row * bound + column`.
    triangles: Vec<Num>,
    /// Order number per vertex of the bound grid, index `y * (bound + 1) + x`.
    ord: Vec<Num>,
    /// The prefix length `L`.
    length: Num,
    /// The definition of a state (without the implied constraints).
    base: Bool,
    /// The implied constraints (each true in every state).
    implied: Vec<Bool>,
}

impl WitnessTerms {
    /// The definition of a state, without the implied constraints.
    pub fn base(&self) -> &Bool {
        &self.base
    }

    /// The implied constraints, each true in every state: `base` implies
    /// each (tests prove it with Z3 at small bounds).
    pub fn implied(&self) -> &[Bool] {
        &self.implied
    }
}

/// The bit width of an encoding up to `bound`: room for four times the
/// largest value (the off-path order `(bound + 1)^2`).
fn width(bound: usize) -> u32 {
    let m = 4 * ((bound as i64 + 1) * (bound as i64 + 1) + 1);
    let mut w = 2;
    while (1i64 << (w - 1)) <= m {
        w += 1;
    }
    w
}

/// `sum of [b]` over `bools`.
fn count(bools: &[Bool], w: u32) -> Num {
    bools.iter().fold(num(0, w), |acc, b| acc.plus(&b.ite(&num(1, w), &num(0, w))))
}

/// `values` weighted 1 each, for the pseudo-boolean constraints.
fn ones(bools: &[Bool]) -> Vec<(&Bool, i32)> {
    bools.iter().map(|b| (b, 1)).collect()
}

/// The bound grid every encoding ranges over: its side `b`, the bit width
/// `wd`, its `nv` vertices (vertex `y * (b + 1) + x`) and its undirected
/// edges `(u, v)` with `u < v`.
struct BoundGrid {
    b: usize,
    wd: u32,
    nv: usize,
    edges: Vec<(usize, usize)>,
}

impl BoundGrid {
    fn new(b: usize) -> BoundGrid {
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
        BoundGrid { b, wd: width(b), nv: (b + 1) * (b + 1), edges }
    }

    /// The constant `v` at the encoding's width.
    fn c(&self, v: usize) -> Num {
        num(v as i64, self.wd)
    }

    fn vid(&self, x: usize, y: usize) -> usize {
        y * (self.b + 1) + x
    }

    /// The order of a vertex off the solution: larger than any path length.
    fn off_path(&self) -> usize {
        self.nv
    }

    fn neighbours(&self, v: usize) -> Vec<usize> {
        self.edges
            .iter()
            .filter_map(|&(p, q)| {
                if p == v {
                    Some(q)
                } else if q == v {
                    Some(p)
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
struct Asserts {
    valid: Vec<Bool>,
    implied: Vec<Bool>,
}

/// The puzzle's shape: active width and height, start and goal.
struct Shape {
    w: Num,
    h: Num,
    start: (Num, Num),
    goal: (Num, Num),
}

impl Shape {
    /// Whether vertex `v` is active.
    fn active(&self, g: &BoundGrid, v: usize) -> Bool {
        Bool::and(&[g.c(v % (g.b + 1)).sle(&self.w), g.c(v / (g.b + 1)).sle(&self.h)])
    }
}

/// The solution's directed edges, per undirected edge of the grid.
struct Directed {
    forward: Vec<Bool>,
    backward: Vec<Bool>,
    on_solution: Vec<Bool>,
}

/// Order numbers, the prefix length and the prefix and head per vertex.
struct Order {
    ord: Vec<Num>,
    length: Num,
    prefix: Vec<Bool>,
    head: Vec<Bool>,
}

/// The region features' per-vertex terms and `goal_reachable`.
struct Region {
    goal_reachable: Bool,
    open_end: Vec<Bool>,
    live_end: Vec<Bool>,
}

/// The features of every square of the bound grid, row-major.
struct Squares {
    triangles: Vec<Num>,
    used: Vec<Num>,
    touches: Vec<Num>,
    free: Vec<Num>,
    live: Vec<Num>,
}

/// Encodes every partial path of every puzzle up to `bound` x `bound`
/// squares that some solution begins with.
pub fn encode(ids: &ViewIds, bound: usize) -> Encoding<WitnessTerms> {
    let g = BoundGrid::new(bound);
    let mut acc = Asserts { valid: vec![], implied: vec![] };
    let shape = shape_constraints(&g, &mut acc.valid);
    let directed = solution_edges(&g, &shape, &mut acc.valid);
    let order = order_constraints(&g, &shape, &directed, &mut acc);
    head_constraints(&g, &directed, &order, &mut acc.implied);
    let region = region_constraints(&g, &shape, &order, &mut acc);
    let squares = square_constraints(&g, &shape, &directed, &order, &region, &mut acc);
    let view = square_view(ids, &g, &squares, &order.length, &region.goal_reachable);
    let Asserts { mut valid, implied } = acc;
    let base = Bool::and(&valid);
    let Shape { w, h, start, goal } = shape;
    let extra = WitnessTerms {
        bound,
        w,
        h,
        start,
        goal,
        triangles: squares.triangles,
        ord: order.ord,
        length: order.length,
        base: base.clone(),
        implied: implied.clone(),
    };
    valid.extend(implied);
    Encoding { view, valid: Bool::and(&valid), extra }
}

/// The puzzle's shape: size within the bound, start and goal active, the
/// goal on the border and not the start.
fn shape_constraints(g: &BoundGrid, valid: &mut Vec<Bool>) -> Shape {
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
    Shape { w, h, start, goal }
}

/// The directed solution edges, each between active vertices.
fn solution_edges(g: &BoundGrid, shape: &Shape, valid: &mut Vec<Bool>) -> Directed {
    let forward: Vec<Bool> = g.edges.iter().map(|(u, v)| Bool::new_const(format!("d{u}_{v}"))).collect();
    let backward: Vec<Bool> = g.edges.iter().map(|(u, v)| Bool::new_const(format!("d{v}_{u}"))).collect();
    let on_solution: Vec<Bool> = forward.iter().zip(&backward).map(|(f, r)| Bool::or(&[f, r])).collect();
    for (e, &(u, v)) in g.edges.iter().enumerate() {
        valid.push(on_solution[e].implies(Bool::and(&[shape.active(g, u), shape.active(g, v)])));
    }
    Directed { forward, backward, on_solution }
}

/// Degrees, order numbers, and the prefix (order <= length).
fn order_constraints(g: &BoundGrid, shape: &Shape, d: &Directed, acc: &mut Asserts) -> Order {
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
        acc.valid.push(Bool::or(&[is_start.clone(), is_goal.clone()]).not().implies(Bool::and(&[
            Bool::pb_le(&ins, 1),
            Bool::pb_le(&outs, 1),
            entered.iff(Bool::or(&outgoing)),
        ])));
        let on = Bool::or(&[is_start, entered]);
        acc.valid.push(on.not().implies(ord[v].same(&c(g.off_path()))));
        acc.valid.push(Bool::and(&[ord[v].sge(&c(0)), ord[v].sle(&c(g.off_path()))]));
    }
    Order { ord, length, prefix, head }
}

/// Implied: exactly one vertex is the head, and a solution edge leaving
/// the prefix leaves it from the head (proofs about squares at the head
/// need both, and Z3 would otherwise rediscover them case by case).
fn head_constraints(g: &BoundGrid, d: &Directed, order: &Order, implied: &mut Vec<Bool>) {
    let (prefix, head) = (&order.prefix, &order.head);
    implied.push(Bool::pb_eq(&ones(head), 1));
    for (e, &(u, v)) in g.edges.iter().enumerate() {
        for (a, z) in [(u, v), (v, u)] {
            implied.push(Bool::and(&[d.on_solution[e].clone(), prefix[a].clone(), prefix[z].not()]).implies(&head[a]));
        }
    }
}

/// The goal region R: an exact least fixpoint, by ranks.
fn region_constraints(g: &BoundGrid, shape: &Shape, order: &Order, acc: &mut Asserts) -> Region {
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
        for u in g.neighbours(v) {
            // closed under unvisited neighbours
            acc.valid.push(Bool::and(&[in_region[u].clone(), unvisited[v].clone()]).implies(&in_region[v]));
            closer.push(Bool::and(&[in_region[u].clone(), rank[u].slt(&rank[v])]));
        }
        // justified: a neighbour in R closer to the goal (least fixpoint)
        acc.valid.push(in_region[v].implies(Bool::or(&closer)));
        acc.valid.extend([rank[v].sge(&c(0)), rank[v].sle(&c(nv))]);
        // implied: the solution after the head runs inside R
        acc.implied.push(Bool::and(&[ord[v].sgt(length), ord[v].slt(&c(g.off_path()))]).implies(&in_region[v]));
    }
    let goal_reachable = Bool::or(
        &(0..nv)
            .map(|v| {
                let mut reach = vec![goal_at[v].clone()];
                reach.extend(g.neighbours(v).into_iter().map(|u| in_region[u].clone()));
                Bool::and(&[head[v].clone(), Bool::or(&reach)])
            })
            .collect::<Vec<_>>(),
    );
    let open_end: Vec<Bool> = (0..nv).map(|v| Bool::or(&[unvisited[v].clone(), head[v].clone()])).collect();
    let live_end: Vec<Bool> = (0..nv).map(|v| Bool::or(&[in_region[v].clone(), head[v].clone()])).collect();
    Region { goal_reachable, open_end, live_end }
}

/// Squares: triangles, solution edges, prefix edges, head, region.
fn square_constraints(
    g: &BoundGrid,
    shape: &Shape,
    d: &Directed,
    order: &Order,
    region: &Region,
    acc: &mut Asserts,
) -> Squares {
    let (b, wd, c, edges) = (g.b, g.wd, |v: usize| g.c(v), &g.edges);
    let (on_solution, prefix, head) = (&d.on_solution, &order.prefix, &order.head);
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
            let prefix_sides: Vec<Bool> = sides
                .iter()
                .map(|&e| Bool::and(&[on_solution[e].clone(), prefix[edges[e].0].clone(), prefix[edges[e].1].clone()]))
                .collect();
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
                        .map(|&e| Bool::and(&[ends[edges[e].0].clone(), ends[edges[e].1].clone()]))
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

/// The view rules see: the globals and the `square` table, a sparse table
/// (slot j = square j, holding an element when the square holds triangles).
fn square_view(ids: &ViewIds, g: &BoundGrid, squares: &Squares, length: &Num, goal_reachable: &Bool) -> SymView {
    let (b, c) = (g.b, |v: usize| g.c(v));
    let nf = ids.features;
    let present: Vec<Bool> = squares.triangles.iter().map(|t| t.sgt(&c(0))).collect();
    let mut rank = vec![];
    let mut before = c(0);
    for p in &present {
        rank.push(before.clone());
        before = before.plus(&p.ite(&c(1), &c(0)));
    }
    let square_count = before;
    let slots: Vec<Vec<Num>> = (0..b * b)
        .map(|j| {
            let mut row = vec![c(0); nf];
            row[ids.triangles.0 as usize] = squares.triangles[j].clone();
            row[ids.used.0 as usize] = squares.used[j].clone();
            row[ids.touches_head.0 as usize] = squares.touches[j].clone();
            row[ids.free.0 as usize] = squares.free[j].clone();
            row[ids.live.0 as usize] = squares.live[j].clone();
            row
        })
        .collect();

    let mut globals = vec![c(0); ids.globals];
    globals[ids.path_length.0 as usize] = length.clone();
    globals[ids.goal_reachable.0 as usize] = goal_reachable.ite(&c(1), &c(0));
    let mut tables = vec![SymTable { count: c(0), slots: vec![], sparse: None }; ids.square.0 as usize + 1];
    tables[ids.square.0 as usize] = SymTable { count: square_count, slots, sparse: Some(Sparse { present, rank }) };
    // Every value a rule sees lies in [0, (bound + 1)^2]; the width holds
    // four times that.
    SymView { globals, tables, width: g.wd, magnitude: g.off_path() as i64 }
}

/// The puzzle and partial path of a model (`None` if they are not valid,
/// which would be an encoding fault).
pub fn decode(t: &WitnessTerms, model: &Model) -> Option<(Puzzle, Path)> {
    let get = |x: &Num| model.eval(x, true).and_then(|v| signed_value(&v));
    let b = t.bound;
    let to_usize = |x: &Num| get(x).and_then(|v| usize::try_from(v).ok());
    let (w, h) = (to_usize(&t.w)?, to_usize(&t.h)?);
    let start = (to_usize(&t.start.0)?, to_usize(&t.start.1)?);
    let goal = (to_usize(&t.goal.0)?, to_usize(&t.goal.1)?);
    if w > b || h > b {
        return None;
    }
    let mut tri = vec![];
    for r in 0..h {
        for col in 0..w {
            let k = get(&t.triangles[r * b + col])?;
            if k > 0 {
                tri.push((col, r, u8::try_from(k).ok()?));
            }
        }
    }
    let puzzle = Puzzle::new(w, h, start, goal, &tri).ok()?;
    let length = get(&t.length)?;
    let mut on_prefix: Vec<(i64, Vertex)> = vec![];
    for y in 0..=h {
        for x in 0..=w {
            let o = get(&t.ord[y * (b + 1) + x])?;
            if o <= length {
                on_prefix.push((o, (x, y)));
            }
        }
    }
    on_prefix.sort_unstable();
    let vertices: Vec<Vertex> = on_prefix.into_iter().map(|(_, v)| v).collect();
    let path = Path::from_vertices(&puzzle, &vertices).ok()?;
    (path.len() as i64 == length).then_some((puzzle, path))
}

impl WitnessTerms {
    /// The constraint that fixes the encoding's puzzle to `puzzle` (placed
    /// in the bound grid's corner), its solution to `solution` and the
    /// prefix length to `length`: with the encoding's constraints it is
    /// satisfiable exactly when they admit that state (tests check every
    /// real state is admitted, with its features).
    pub fn pin(&self, puzzle: &Puzzle, solution: &Path, length: usize) -> Bool {
        let b = self.bound;
        let c = |v: usize| num(v as i64, self.length.width());
        let mut parts = vec![
            self.w.same(&c(puzzle.width())),
            self.h.same(&c(puzzle.height())),
            self.start.0.same(&c(puzzle.start().0)),
            self.start.1.same(&c(puzzle.start().1)),
            self.goal.0.same(&c(puzzle.goal().0)),
            self.goal.1.same(&c(puzzle.goal().1)),
            self.length.same(&c(length)),
        ];
        for r in 0..b {
            for col in 0..b {
                let t = if col < puzzle.width() && r < puzzle.height() { puzzle.triangles_at(col, r) } else { 0 };
                parts.push(self.triangles[r * b + col].same(&c(usize::from(t))));
            }
        }
        let order: std::collections::HashMap<Vertex, usize> =
            solution.vertices().enumerate().map(|(i, v)| (v, i)).collect();
        for y in 0..=b {
            for x in 0..=b {
                let o = order.get(&(x, y)).copied().unwrap_or((b + 1) * (b + 1));
                parts.push(self.ord[y * (b + 1) + x].same(&c(o)));
            }
        }
        Bool::and(&parts)
    }
}
