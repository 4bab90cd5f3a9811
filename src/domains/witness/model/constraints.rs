//! The constraints of a Witness puzzle beyond its grid, start and goal
//! (docs/formats.md): the lists as a caller gives them ([`Constraints`]), and
//! their validation into per-square and per-edge tables with one typed
//! [`Problem`] per error case (outside the grid, duplicates, edge ends not
//! adjacent, colours out of range, two constraints on one square or edge).
//!
//! Checks run field by field in the file's order (triangles, colours,
//! stars, dots, edge_dots, broken), so the first error reported is the
//! first in that order.

use super::grid::{BitSet, Grid, Vertex};
use super::problem::Problem;

/// A region constraint other than triangles on one square: a separation
/// square or a star, with its colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Mark {
    /// Square id (see [`Grid::square_id`]).
    pub square: usize,
    /// Colour, 1 to 255.
    pub colour: u8,
    /// A star (else a separation square).
    pub star: bool,
}

/// A must-cross dot: on a vertex or on an edge (ids of [`Grid`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dot {
    /// A dot vertex: the path must visit it.
    Vertex(usize),
    /// An edge dot: the path must use the edge.
    Edge(usize),
}

/// A puzzle's constraints as lists, in any order: `(column, row, count)`
/// triangles, `(column, row, colour)` separation squares and stars, dot
/// vertices, and edges as their two ends in either order.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct Constraints {
    /// Triangles: (column, row, count 1-3).
    pub triangles: Vec<(usize, usize, u8)>,
    /// Separation squares: (column, row, colour).
    pub colours: Vec<(usize, usize, u8)>,
    /// Stars: (column, row, colour).
    pub stars: Vec<(usize, usize, u8)>,
    /// Must-cross vertices.
    pub dots: Vec<Vertex>,
    /// Must-cross edges.
    pub edge_dots: Vec<(Vertex, Vertex)>,
    /// Cannot-cross edges.
    pub broken: Vec<(Vertex, Vertex)>,
}

/// The region constraints, per square.
pub(crate) struct SquareTable {
    /// Triangles per square id.
    pub triangles: Vec<u8>,
    /// Separation squares and stars, by square id.
    pub marks: Vec<Mark>,
}

/// The path constraints, as edge and vertex sets.
pub(crate) struct PathTable {
    /// Dot vertices (vertex ids).
    pub dot_vertices: BitSet,
    /// Edge dots (edge ids).
    pub dot_edges: BitSet,
    /// Broken edges (edge ids).
    pub broken: BitSet,
}

/// The signed lists of a puzzle description, as read from a file.
pub(crate) struct RawLists<'a> {
    pub triangles: &'a [(i64, i64, i64)],
    pub colours: &'a [(i64, i64, i64)],
    pub stars: &'a [(i64, i64, i64)],
    pub dots: &'a [(i64, i64)],
    pub edge_dots: &'a [((i64, i64), (i64, i64))],
    pub broken: &'a [((i64, i64), (i64, i64))],
}

/// What a square holds, for the "two region constraints" error.
const KIND_NAMES: [&str; 3] = ["triangles", "a separation square", "a star"];

/// Validates the region constraints of a `grid`.
pub(crate) fn square_table(grid: Grid, raw: &RawLists<'_>) -> Result<SquareTable, Problem> {
    let (width, height) = (grid.width, grid.height);
    let mut kind: Vec<Option<usize>> = vec![None; grid.num_squares()];
    let mut triangles = vec![0u8; grid.num_squares()];
    let mut marks = Vec::new();
    let fields = [("triangles", raw.triangles), ("colours", raw.colours), ("stars", raw.stars)];
    for (k, (field, list)) in fields.into_iter().enumerate() {
        for &(col, row, value) in list {
            if !(0..width as i64).contains(&col) || !(0..height as i64).contains(&row) {
                return Err(Problem::SquareOutside { field, col, row, width, height });
            }
            let (col, row) = (col as usize, row as usize);
            let s = grid.square_id(col, row);
            match kind[s] {
                Some(j) if j == k => return Err(Problem::DuplicateSquare { field, col, row }),
                Some(j) => {
                    return Err(Problem::TwoRegionConstraints { col, row, first: KIND_NAMES[j], second: KIND_NAMES[k] })
                }
                None => kind[s] = Some(k),
            }
            if k == 0 {
                if !(1..=3).contains(&value) {
                    return Err(Problem::BadCount { col, row, count: value });
                }
                triangles[s] = value as u8;
            } else {
                if !(1..=255).contains(&value) {
                    let what = if k == 1 { "separation square" } else { "star" };
                    return Err(Problem::BadColour { what, col, row, colour: value });
                }
                marks.push(Mark { square: s, colour: value as u8, star: k == 2 });
            }
        }
    }
    marks.sort_by_key(|m| m.square);
    Ok(SquareTable { triangles, marks })
}

/// Validates the path constraints of a `grid`.
pub(crate) fn path_table(grid: Grid, raw: &RawLists<'_>) -> Result<PathTable, Problem> {
    let vertex = |which: &'static str, (x, y): (i64, i64)| {
        if (0..=grid.width as i64).contains(&x) && (0..=grid.height as i64).contains(&y) {
            Ok(grid.vertex_id((x as usize, y as usize)))
        } else {
            Err(Problem::VertexOutside { which, x, y, width: grid.width, height: grid.height })
        }
    };
    let mut dot_vertices = BitSet::EMPTY;
    for &d in raw.dots {
        let v = vertex("dot", d)?;
        if dot_vertices.contains(v) {
            let (x, y) = grid.vertex(v);
            return Err(Problem::DuplicateDot { x, y });
        }
        dot_vertices.insert(v);
    }
    let edges = |field: &'static str, which: &'static str, list: &[((i64, i64), (i64, i64))]| {
        let mut set = BitSet::EMPTY;
        for &(a, b) in list {
            let (a, b) = (vertex(which, a)?, vertex(which, b)?);
            let ends = |e: usize| {
                let (lo, hi) = grid.edge_ends(e);
                (grid.vertex(lo), grid.vertex(hi))
            };
            let Some(e) = grid.edge_between(a, b) else {
                return Err(Problem::EdgeNotAdjacent { field, a: grid.vertex(a), b: grid.vertex(b) });
            };
            if set.contains(e) {
                let (a, b) = ends(e);
                return Err(Problem::DuplicateEdge { field, a, b });
            }
            set.insert(e);
        }
        Ok(set)
    };
    let dot_edges = edges("edge_dots", "edge_dots end", raw.edge_dots)?;
    let broken = edges("broken", "broken end", raw.broken)?;
    if let Some(e) = dot_edges.iter().find(|&e| broken.contains(e)) {
        let (lo, hi) = grid.edge_ends(e);
        return Err(Problem::DotOnBrokenEdge { a: grid.vertex(lo), b: grid.vertex(hi) });
    }
    Ok(PathTable { dot_vertices, dot_edges, broken })
}

/// The edge ids of `set` in DSL order: by (y, x) of the lower-left end, a
/// horizontal edge before a vertical one at the same end.
pub fn edges_in_order(grid: Grid, set: &BitSet) -> Vec<usize> {
    let mut edges: Vec<usize> = set.iter().collect();
    edges.sort_by_key(|&e| (grid.edge_ends(e).0, grid.is_vertical(e)));
    edges
}
