//! The Z3 encoding of every Witness state that some solution begins with,
//! on puzzles up to `bound` x `bound` squares, with the rule language's
//! `square`, `mark` and `dot` elements, their features and the globals as
//! terms; and reading a puzzle and partial path back from a model. The path
//! part is built by [`super::symbolic_path`], the marks, dots and the
//! solution's region constraints by [`super::symbolic_marks`].
//!
//! A puzzle lives on a `bound` x `bound` grid of squares of which the first
//! `W` columns and `H` rows are active (`1 <= W, H <= bound`); the start is
//! any active vertex, the goal any vertex on the active border other than
//! the start, each active square holds 0-3 triangles or a mark (colour
//! 1-255, star or separation square), and any edge between active
//! vertices may be broken, any active vertex or edge hold a dot. An
//! encoding may leave out the marks or the dots ([`EncodedKinds`]): the domain
//! does so for a rule that declares none (see its `encode_for`).
//!
//! The solution is a set of directed edges between active vertices, none
//! broken, crossing every dot: the
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
//! R is closed under unvisited neighbours over edges not broken (grid
//! steps); and every vertex of R other
//! than the goal has a neighbour in R of smaller rank (so a chain of R
//! vertices leads it to the goal: R holds nothing the flood fill from the
//! goal does not reach). `free(s)` and `live(s)` count the square's sides,
//! not broken, whose two ends are unvisited-or-head / in-R-or-head;
//! `goal_reachable` is 1 when the head is the goal or has a neighbour in R
//! over an edge not broken. An edge is usable when it is not broken, not
//! on the path, and its ends are each in R or the head.
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
//! derive them in every proof): exactly one vertex is the head; a vertex on
//! the solution has an order below `M`; the head, unless it is the goal,
//! has a next edge, whose end is in R; a solution
//! edge with one end in the prefix leaves it from the head; the prefix is
//! closed towards the start; a square's prefix uses no more sides than its
//! solution does; the solution's vertices after the head are in R (the
//! rest of the solution joins them to the goal).

use super::symbolic_marks::{self as marks, EncodedKinds, MarkTerms};
use super::symbolic_path::{
    head_constraints, magnitude, order_constraints, region_constraints, shape_constraints, solution_edges,
    sparse_table, square_constraints, Asserts, BoundGrid, Shape, Squares,
};
use super::view::ViewIds;
use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::{Constraints, Puzzle};
use crate::domains::witness::model::grid::Vertex;
use crate::domains::Encoding;
use crate::dsl::symbolic::{num, signed_value, Num, NumOps, SymTable, SymView};
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
    /// The bound grid's edges (vertex pairs, `y * (bound + 1) + x`).
    edges: Vec<(usize, usize)>,
    /// Per edge of the bound grid: broken.
    broken: Vec<Bool>,
    /// The marks and dots.
    marks: MarkTerms,
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

/// Encodes every partial path of every puzzle up to `bound` x `bound`
/// squares that some solution begins with.
pub fn encode(ids: &ViewIds, bound: usize, kinds: EncodedKinds) -> Encoding<WitnessTerms> {
    let g = BoundGrid::new(bound);
    let mut acc = Asserts { valid: vec![], implied: vec![] };
    let shape = shape_constraints(&g, &mut acc.valid);
    let directed = solution_edges(&g, &shape, &mut acc.valid);
    let order = order_constraints(&g, &shape, &directed, &mut acc);
    head_constraints(&g, &directed, &order, &mut acc.implied);
    let region = region_constraints(&g, &shape, &directed, &order, &mut acc);
    let squares = square_constraints(&g, &shape, &directed, &order, &region, &mut acc);
    let parts = marks::Parts {
        g: &g,
        shape: &shape,
        d: &directed,
        order: &order,
        region: &region,
        triangles: &squares.triangles,
    };
    let marks = marks::encode(ids, kinds, &parts, &mut acc);
    let mut view = square_view(ids, &g, &squares, &order.length, &region.goal_reachable);
    view.tables[ids.mark.0 as usize] = marks.mark_table.clone();
    view.tables[ids.dot.0 as usize] = marks.dot_table.clone();
    let Asserts { mut valid, implied } = acc;
    let base = Bool::and(&valid);
    let Shape { w, h, start, goal, broken } = shape;
    let extra = WitnessTerms {
        bound,
        w,
        h,
        start,
        goal,
        edges: g.edges.clone(),
        broken,
        marks,
        triangles: squares.triangles,
        ord: order.ord,
        length: order.length,
        base: base.clone(),
        implied: implied.clone(),
    };
    valid.extend(implied);
    Encoding { view, valid: Bool::and(&valid), extra }
}

/// The view rules see: the globals and the `square` table, a sparse table
/// (slot j = square j, holding an element when the square holds triangles).
fn square_view(ids: &ViewIds, g: &BoundGrid, squares: &Squares, length: &Num, goal_reachable: &Bool) -> SymView {
    let (b, c) = (g.b, |v: usize| g.c(v));
    let nf = ids.features;
    let present: Vec<Bool> = squares.triangles.iter().map(|t| t.sgt(&c(0))).collect();
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
    let mut tables = vec![SymTable { count: c(0), slots: vec![], sparse: None }; ids.types];
    tables[ids.square.0 as usize] = sparse_table(g, present, slots);
    // Every value a rule sees lies in [0, max((bound + 1)^2, 255)]; the
    // width holds four times that.
    SymView { globals, tables, pairs: vec![], width: g.wd, magnitude: magnitude(g.b) }
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
    let puzzle = Puzzle::with_constraints(w, h, start, goal, &constraints(t, model, (w, h))?).ok()?;
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

/// The constraints of a model's puzzle of `size` (`None` if a value is
/// missing or out of range, which would be an encoding fault).
fn constraints(t: &WitnessTerms, model: &Model, size: (usize, usize)) -> Option<Constraints> {
    let get = |x: &Num| model.eval(x, true).and_then(|v| signed_value(&v));
    let truth = |x: &Bool| model.eval(x, true).and_then(|v| v.as_bool());
    let (b, (w, h)) = (t.bound, size);
    let vertex = |v: usize| (v % (b + 1), v / (b + 1));
    let inside = |(x, y): Vertex| x <= w && y <= h;
    let mut out = Constraints::default();
    for r in 0..h {
        for col in 0..w {
            let s = r * b + col;
            let k = u8::try_from(get(&t.triangles[s])?).ok()?;
            let colour = u8::try_from(get(&t.marks.colour[s])?).ok()?;
            match (k, colour, truth(&t.marks.star[s])?) {
                (0, 0, _) => {}
                (k, 0, _) => out.triangles.push((col, r, k)),
                (_, colour, false) => out.colours.push((col, r, colour)),
                (_, colour, true) => out.stars.push((col, r, colour)),
            }
        }
    }
    for (v, dot) in t.marks.vertex_dot.iter().enumerate() {
        if inside(vertex(v)) && truth(dot)? {
            out.dots.push(vertex(v));
        }
    }
    for (e, &(p, q)) in t.edges.iter().enumerate() {
        let ends = (vertex(p), vertex(q));
        if inside(ends.0) && inside(ends.1) {
            if truth(&t.marks.edge_dot[e])? {
                out.edge_dots.push(ends);
            }
            if truth(&t.broken[e])? {
                out.broken.push(ends);
            }
        }
    }
    Some(out)
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
        let grid = puzzle.grid();
        let inside = |(x, y): Vertex| x <= puzzle.width() && y <= puzzle.height();
        for r in 0..b {
            for col in 0..b {
                let active = col < puzzle.width() && r < puzzle.height();
                let t = if active { puzzle.triangles_at(col, r) } else { 0 };
                parts.push(self.triangles[r * b + col].same(&c(usize::from(t))));
                let mark = if active { puzzle.mark_of(grid.square_id(col, r)) } else { None };
                parts.push(self.marks.colour[r * b + col].same(&c(mark.map_or(0, |m| usize::from(m.colour)))));
                parts.push(self.marks.star[r * b + col].iff(Bool::from_bool(mark.is_some_and(|m| m.star))));
            }
        }
        let vertex = |v: usize| (v % (b + 1), v / (b + 1));
        for (v, dot) in self.marks.vertex_dot.iter().enumerate() {
            let on = inside(vertex(v)) && puzzle.dot_vertices().contains(grid.vertex_id(vertex(v)));
            parts.push(dot.iff(Bool::from_bool(on)));
        }
        for (e, &(p, q)) in self.edges.iter().enumerate() {
            let (p, q) = (vertex(p), vertex(q));
            let id =
                (inside(p) && inside(q)).then(|| grid.edge_between(grid.vertex_id(p), grid.vertex_id(q))).flatten();
            let dot = id.is_some_and(|id| puzzle.dot_edges().contains(id));
            let broken = id.is_some_and(|id| puzzle.is_broken(id));
            parts.push(self.marks.edge_dot[e].iff(Bool::from_bool(dot)));
            parts.push(self.broken[e].iff(Bool::from_bool(broken)));
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
