//! Witness puzzles: the validated [`Puzzle`] type (grid, start, goal and
//! the five kinds of constraint of docs/formats.md: triangles, separation
//! squares, stars, must-cross dots on vertices and edges, broken edges) and
//! reading and writing lists of puzzles in its RON format.
//!
//! This module owns the puzzle *definition* and its file format; it knows
//! nothing about paths, search or the rule language. A puzzle is always
//! valid once constructed: every way of building one ([`Puzzle::new`],
//! [`Puzzle::with_constraints`], [`parse_puzzles`], [`read_puzzles`])
//! validates it and reports problems as typed errors that name the file,
//! the puzzle's line and column, and what was expected. A triangle-only
//! file reads, and is written, exactly as before the other kinds existed.

use std::fmt::Write as _;
use std::path::Path as FsPath;

use crate::located::Located;
use serde::Deserialize;
use thiserror::Error;

pub use super::ron_list::ListProblem;
pub(crate) use super::ron_list::{parse_ron_list, ListNames};
pub use crate::domains::witness::model::constraints::{Constraints, Dot, Mark};
pub use crate::domains::witness::model::problem::Problem;

use crate::domains::witness::model::constraints::{edges_in_order, path_table, square_table, RawEdge, RawLists};
use crate::domains::witness::model::grid::{BitSet, Grid, Vertex, MAX_SIDE};

/// A valid puzzle: a grid of `width` x `height` squares, distinct start and
/// goal vertices (the goal on the border), at most one region constraint
/// per square (1-3 triangles, a separation square or a star, the last two
/// coloured) and at most one path constraint per vertex or edge (a dot, or
/// for an edge a dot or broken).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    grid: Grid,
    start: Vertex,
    goal: Vertex,
    /// Triangles per square, indexed by square id (row * width + column).
    triangles: Vec<u8>,
    /// Ids of the squares holding triangles, increasing (= (row, column) order).
    constrained: Vec<usize>,
    /// Separation squares and stars in (row, column) order.
    marks: Vec<Mark>,
    /// Per square id: its index in `marks`, or `u8::MAX`.
    mark_index: Vec<u8>,
    /// Dots in DSL order: vertices by (y, x), then edges.
    dots: Vec<Dot>,
    dot_vertices: BitSet,
    dot_edges: BitSet,
    broken: BitSet,
}

/// Errors reading or writing puzzle files.
#[derive(Debug, Error)]
pub enum PuzzleError {
    /// The file could not be read or written, or is not UTF-8 text.
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The text is not a RON list of valid puzzles.
    #[error(transparent)]
    List(Located<ListProblem<Problem>>),
}

/// The serialized shape of a puzzle (docs/formats.md); signed integers so that
/// negative values become validation errors with a clear message.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, rename = "Puzzle")]
pub(crate) struct RawPuzzle {
    width: i64,
    height: i64,
    start: (i64, i64),
    goal: (i64, i64),
    #[serde(default)]
    triangles: Vec<(i64, i64, i64)>,
    #[serde(default)]
    colours: Vec<(i64, i64, i64)>,
    #[serde(default)]
    stars: Vec<(i64, i64, i64)>,
    #[serde(default)]
    dots: Vec<(i64, i64)>,
    #[serde(default)]
    edge_dots: Vec<RawEdge>,
    #[serde(default)]
    broken: Vec<RawEdge>,
}

impl Puzzle {
    /// Builds and validates a triangle puzzle. `triangles` lists
    /// `(column, row, count)` for squares holding triangles, in any order.
    pub fn new(
        width: usize,
        height: usize,
        start: Vertex,
        goal: Vertex,
        triangles: &[(usize, usize, u8)],
    ) -> Result<Puzzle, Problem> {
        let constraints = Constraints { triangles: triangles.to_vec(), ..Constraints::default() };
        Puzzle::with_constraints(width, height, start, goal, &constraints)
    }

    /// Builds and validates a puzzle with any constraints.
    pub fn with_constraints(
        width: usize,
        height: usize,
        start: Vertex,
        goal: Vertex,
        constraints: &Constraints,
    ) -> Result<Puzzle, Problem> {
        let n = |v: usize| i64::try_from(v).unwrap_or(i64::MAX);
        let v = |(x, y): Vertex| (n(x), n(y));
        let coloured = |list: &[(usize, usize, u8)]| list.iter().map(|&(c, r, k)| (n(c), n(r), i64::from(k))).collect();
        let edges = |list: &[(Vertex, Vertex)]| list.iter().map(|&(a, b)| (v(a), v(b))).collect();
        Puzzle::from_raw(&RawPuzzle {
            width: n(width),
            height: n(height),
            start: v(start),
            goal: v(goal),
            triangles: coloured(&constraints.triangles),
            colours: coloured(&constraints.colours),
            stars: coloured(&constraints.stars),
            dots: constraints.dots.iter().map(|&d| v(d)).collect(),
            edge_dots: edges(&constraints.edge_dots),
            broken: edges(&constraints.broken),
        })
    }

    pub(crate) fn from_raw(raw: &RawPuzzle) -> Result<Puzzle, Problem> {
        let max = MAX_SIDE as i64;
        if !(1..=max).contains(&raw.width) || !(1..=max).contains(&raw.height) {
            return Err(Problem::BadSize { width: raw.width, height: raw.height });
        }
        let (width, height) = (raw.width as usize, raw.height as usize);
        let grid = Grid::new(width, height);
        let vertex = |which, (x, y): (i64, i64)| {
            if (0..=raw.width).contains(&x) && (0..=raw.height).contains(&y) {
                Ok((x as usize, y as usize))
            } else {
                Err(Problem::VertexOutside { which, x, y, width, height })
            }
        };
        let start = vertex("start", raw.start)?;
        let goal = vertex("goal", raw.goal)?;
        if start == goal {
            return Err(Problem::StartIsGoal { x: start.0, y: start.1 });
        }
        if !grid.on_border(goal) {
            return Err(Problem::GoalNotOnBorder { x: goal.0, y: goal.1, width, height });
        }
        let lists = RawLists {
            triangles: &raw.triangles,
            colours: &raw.colours,
            stars: &raw.stars,
            dots: &raw.dots,
            edge_dots: &raw.edge_dots,
            broken: &raw.broken,
        };
        let squares = square_table(grid, &lists)?;
        let paths = path_table(grid, &lists)?;
        let triangles = squares.triangles;
        let constrained = (0..triangles.len()).filter(|&s| triangles[s] > 0).collect();
        let mut mark_index = vec![u8::MAX; grid.num_squares()];
        for (i, m) in squares.marks.iter().enumerate() {
            mark_index[m.square] = i as u8;
        }
        let dots = paths
            .dot_vertices
            .iter()
            .map(Dot::Vertex)
            .chain(edges_in_order(grid, &paths.dot_edges).into_iter().map(Dot::Edge))
            .collect();
        Ok(Puzzle {
            grid,
            start,
            goal,
            triangles,
            constrained,
            marks: squares.marks,
            mark_index,
            dots,
            dot_vertices: paths.dot_vertices,
            dot_edges: paths.dot_edges,
            broken: paths.broken,
        })
    }

    /// Number of columns of squares.
    pub fn width(&self) -> usize {
        self.grid.width
    }

    /// Number of rows of squares.
    pub fn height(&self) -> usize {
        self.grid.height
    }

    /// The grid geometry.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The start vertex.
    pub fn start(&self) -> Vertex {
        self.start
    }

    /// The goal vertex (on the border).
    pub fn goal(&self) -> Vertex {
        self.goal
    }

    /// Number of triangles (0-3) in square `(column, row)`; 0 outside the grid.
    pub fn triangles_at(&self, col: usize, row: usize) -> u8 {
        if col < self.width() && row < self.height() {
            self.triangles[self.grid.square_id(col, row)]
        } else {
            0
        }
    }

    /// Triangles of square id `s` (see [`Grid::square_id`]).
    #[inline]
    pub fn triangles_of(&self, s: usize) -> u8 {
        self.triangles[s]
    }

    /// Ids of the squares holding at least one triangle, in (row, column) order.
    pub fn constrained_squares(&self) -> &[usize] {
        &self.constrained
    }

    /// The `(column, row, count)` list of squares holding triangles, in
    /// (row, column) order.
    pub fn triangles(&self) -> Vec<(usize, usize, u8)> {
        self.constrained
            .iter()
            .map(|&s| {
                let (c, r) = self.grid.square(s);
                (c, r, self.triangles[s])
            })
            .collect()
    }

    /// The separation squares and stars, in (row, column) order (the
    /// DSL's `mark` elements).
    pub fn marks(&self) -> &[Mark] {
        &self.marks
    }

    /// The separation square or star on square id `s`, if any.
    #[inline]
    pub fn mark_of(&self, s: usize) -> Option<&Mark> {
        self.marks.get(usize::from(self.mark_index[s]))
    }

    /// Whether the puzzle has separation squares or stars.
    pub fn has_marks(&self) -> bool {
        !self.marks.is_empty()
    }

    /// The must-cross dots in DSL order (the `dot` elements): dot vertices
    /// by (y, x), then edge dots by (y, x) of their lower-left end, a
    /// horizontal edge before a vertical one.
    pub fn dots(&self) -> &[Dot] {
        &self.dots
    }

    /// The dot vertices (vertex ids).
    #[inline]
    pub fn dot_vertices(&self) -> &BitSet {
        &self.dot_vertices
    }

    /// The edge dots (edge ids).
    #[inline]
    pub fn dot_edges(&self) -> &BitSet {
        &self.dot_edges
    }

    /// The broken edges (edge ids).
    #[inline]
    pub fn broken(&self) -> &BitSet {
        &self.broken
    }

    /// Whether edge id `e` is broken.
    #[inline]
    pub fn is_broken(&self, e: usize) -> bool {
        self.broken.contains(e)
    }

    /// Whether the puzzle has triangles only (no other kind of constraint).
    pub fn is_triangle_only(&self) -> bool {
        self.marks.is_empty() && self.dots.is_empty() && self.broken.is_empty()
    }

    /// The separation squares or the stars as `(column, row, colour)`, in
    /// (row, column) order.
    fn coloured(&self, star: bool) -> Vec<(usize, usize, u8)> {
        self.marks
            .iter()
            .filter(|m| m.star == star)
            .map(|m| {
                let (c, r) = self.grid.square(m.square);
                (c, r, m.colour)
            })
            .collect()
    }

    /// The edges of `set` as their two ends, lower-left first, in DSL order.
    fn edge_list(&self, set: &BitSet) -> Vec<(Vertex, Vertex)> {
        edges_in_order(self.grid, set)
            .into_iter()
            .map(|e| {
                let (a, b) = self.grid.edge_ends(e);
                (self.grid.vertex(a), self.grid.vertex(b))
            })
            .collect()
    }

    /// The puzzle's constraints as lists, in the order the file is written.
    pub fn constraints(&self) -> Constraints {
        Constraints {
            triangles: self.triangles(),
            colours: self.coloured(false),
            stars: self.coloured(true),
            dots: self.dot_vertices.iter().map(|v| self.grid.vertex(v)).collect(),
            edge_dots: self.edge_list(&self.dot_edges),
            broken: self.edge_list(&self.broken),
        }
    }

    /// The puzzle in the one-line RON form of docs/formats.md, e.g.
    /// `(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1), (1, 0, 2)])`;
    /// the fields after `triangles` only when they are not empty.
    pub fn to_ron(&self) -> String {
        let c = self.constraints();
        let mut s = format!(
            "(width: {}, height: {}, start: ({}, {}), goal: ({}, {}), triangles: [{}]",
            self.width(),
            self.height(),
            self.start.0,
            self.start.1,
            self.goal.0,
            self.goal.1,
            join(&c.triangles, |(c, r, t)| format!("({c}, {r}, {t})"))
        );
        let triple = |&(c, r, k): &(usize, usize, u8)| format!("({c}, {r}, {k})");
        let vertex = |&(x, y): &Vertex| format!("({x}, {y})");
        let edge = |&((a, b), (x, y)): &(Vertex, Vertex)| format!("(({a}, {b}), ({x}, {y}))");
        for (name, text) in [
            ("colours", join(&c.colours, triple)),
            ("stars", join(&c.stars, triple)),
            ("dots", join(&c.dots, vertex)),
            ("edge_dots", join(&c.edge_dots, edge)),
            ("broken", join(&c.broken, edge)),
        ] {
            if !text.is_empty() {
                let _ = write!(s, ", {name}: [{text}]");
            }
        }
        s.push(')');
        s
    }
}

/// The items of `list`, each written by `item`, joined by ", ".
fn join<T>(list: &[T], item: impl Fn(&T) -> String) -> String {
    list.iter().map(item).collect::<Vec<_>>().join(", ")
}

/// Writes a list of puzzles as RON text, one puzzle per line.
pub fn puzzles_to_ron(puzzles: &[Puzzle]) -> String {
    let mut s = String::from("[\n");
    for p in puzzles {
        s.push_str("    ");
        s.push_str(&p.to_ron());
        s.push_str(",\n");
    }
    s.push_str("]\n");
    s
}

/// Parses a RON list of puzzles. `file` is only used in error messages.
pub fn parse_puzzles(text: &str, file: &str) -> Result<Vec<Puzzle>, PuzzleError> {
    let shape =
        "a RON list of puzzles like `(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1)])`";
    parse_ron_list(text, ListNames { file, noun: "puzzle", shape }, Puzzle::from_raw).map_err(PuzzleError::List)
}

/// Reads a RON file holding a list of puzzles.
pub fn read_puzzles(path: &FsPath) -> Result<Vec<Puzzle>, PuzzleError> {
    let file = path.display().to_string();
    let text = crate::files::read_text(path)?;
    parse_puzzles(&text, &file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::model::grid::size_limit;

    const FIG21: &str = "[\n    (width: 2, height: 1, start: (0, 0), goal: (2, 1),\n     triangles: [(0, 0, 1), (1, 0, 2)]),     // (column, row, count)\n]\n";

    #[test]
    fn parses_the_formats_example_and_round_trips() {
        let ps = parse_puzzles(FIG21, "ex.ron").unwrap();
        assert_eq!(ps.len(), 1);
        let p = &ps[0];
        assert_eq!((p.width(), p.height(), p.start(), p.goal()), (2, 1, (0, 0), (2, 1)));
        assert_eq!(p.triangles(), vec![(0, 0, 1), (1, 0, 2)]);
        assert_eq!(p.to_ron(), "(width: 2, height: 1, start: (0, 0), goal: (2, 1), triangles: [(0, 0, 1), (1, 0, 2)])");
        let again = parse_puzzles(&puzzles_to_ron(&ps), "x").unwrap();
        assert_eq!(again, ps);
    }

    fn invalid(text: &str) -> (usize, usize, usize, Problem) {
        match parse_puzzles(text, "f.ron") {
            Err(PuzzleError::List(Located {
                line, column, kind: ListProblem::Invalid { index, problem, .. }, ..
            })) => (index, line, column, problem),
            other => panic!("expected an invalid-puzzle error, got {other:?}"),
        }
    }

    #[test]
    fn validation_errors_name_the_puzzle_and_its_line() {
        let ok = "(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [])";
        let text = format!(
            "[\n  {ok},\n  // comment ( [\n  (width: 2, height: 2, start: (0, 0), goal: (1, 1), triangles: []),\n]"
        );
        let (index, line, column, problem) = invalid(&text);
        assert_eq!((index, line, column), (1, 4, 3));
        assert!(matches!(problem, Problem::GoalNotOnBorder { x: 1, y: 1, .. }));

        type Case = (&'static str, fn(&Problem) -> bool);
        let cases: Vec<Case> = vec![
            ("(width: 2, height: 2, start: (1, 0), goal: (1, 0))", |p| matches!(p, Problem::StartIsGoal { .. })),
            ("(width: 2, height: 2, start: (3, 0), goal: (1, 0))", |p| {
                matches!(p, Problem::VertexOutside { which: "start", .. })
            }),
            ("(width: 2, height: 2, start: (0, 0), goal: (2, -1))", |p| {
                matches!(p, Problem::VertexOutside { which: "goal", .. })
            }),
            ("(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 4)])", |p| {
                matches!(p, Problem::BadCount { count: 4, .. })
            }),
            ("(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(0, 0, 0)])", |p| {
                matches!(p, Problem::BadCount { count: 0, .. })
            }),
            ("(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(2, 0, 1)])", |p| {
                matches!(p, Problem::SquareOutside { col: 2, .. })
            }),
            ("(width: 2, height: 2, start: (0, 0), goal: (2, 2), triangles: [(1, 1, 1), (1, 1, 2)])", |p| {
                matches!(p, Problem::DuplicateSquare { col: 1, row: 1, .. })
            }),
            ("(width: 0, height: 2, start: (0, 0), goal: (0, 2))", |p| matches!(p, Problem::BadSize { .. })),
            ("(width: 9, height: 2, start: (0, 0), goal: (0, 2))", |p| matches!(p, Problem::BadSize { .. })),
        ];
        for (p, check) in cases {
            let (_, line, column, problem) = invalid(&format!("[{p}]"));
            assert_eq!((line, column), (1, 2));
            assert!(check(&problem), "{p}: {problem}");
        }
    }

    const FULL: &str = "[\n    (width: 4, height: 4, start: (0, 0), goal: (4, 4),\n     triangles: [(0, 0, 2)],\n     colours:   [(1, 0, 1), (2, 3, 2)],\n     stars:     [(3, 3, 1), (0, 3, 2)],\n     dots:      [(2, 2)],\n     edge_dots: [((0, 1), (0, 2))],\n     broken:    [((1, 1), (2, 1))]),\n]\n";

    #[test]
    fn reads_and_writes_every_kind_of_constraint() {
        let ps = parse_puzzles(FULL, "full.ron").unwrap();
        let p = &ps[0];
        assert_eq!(
            p.to_ron(),
            "(width: 4, height: 4, start: (0, 0), goal: (4, 4), triangles: [(0, 0, 2)], colours: [(1, 0, 1), (2, 3, 2)], \
             stars: [(0, 3, 2), (3, 3, 1)], dots: [(2, 2)], edge_dots: [((0, 1), (0, 2))], broken: [((1, 1), (2, 1))])"
        );
        let marks: Vec<(usize, u8, bool)> = p.marks().iter().map(|m| (m.square, m.colour, m.star)).collect();
        assert_eq!(marks, vec![(1, 1, false), (12, 2, true), (14, 2, false), (15, 1, true)]);
        let g = p.grid();
        let dot_edge = g.edge_between(g.vertex_id((0, 1)), g.vertex_id((0, 2))).unwrap();
        assert_eq!(p.dots(), &[Dot::Vertex(g.vertex_id((2, 2))), Dot::Edge(dot_edge)]);
        assert!(p.is_broken(g.edge_between(g.vertex_id((2, 1)), g.vertex_id((1, 1))).unwrap()));
        assert!(!p.is_triangle_only());
        assert_eq!(parse_puzzles(&puzzles_to_ron(&ps), "x").unwrap(), ps);
        let c = p.constraints();
        assert_eq!(Puzzle::with_constraints(4, 4, (0, 0), (4, 4), &c).unwrap(), *p);
    }

    #[test]
    fn dots_and_edges_are_in_dsl_order() {
        let c = Constraints {
            dots: vec![(1, 1), (0, 2), (2, 0)],
            edge_dots: vec![((1, 2), (1, 1)), ((2, 1), (1, 1)), ((0, 0), (1, 0))],
            ..Constraints::default()
        };
        let p = Puzzle::with_constraints(2, 2, (0, 0), (2, 2), &c).unwrap();
        let c = p.constraints();
        assert_eq!(c.dots, vec![(2, 0), (1, 1), (0, 2)]);
        assert_eq!(c.edge_dots, vec![((0, 0), (1, 0)), ((1, 1), (2, 1)), ((1, 1), (1, 2))]);
    }

    #[test]
    fn every_error_case_of_the_new_fields_is_located() {
        type Case = (&'static str, fn(&Problem) -> bool);
        let cases: Vec<Case> = vec![
            ("colours: [(0, 0, 0)]", |p| matches!(p, Problem::BadColour { colour: 0, .. })),
            ("stars: [(0, 0, 256)]", |p| matches!(p, Problem::BadColour { what: "star", colour: 256, .. })),
            ("colours: [(2, 0, 1)]", |p| matches!(p, Problem::SquareOutside { field: "colours", .. })),
            ("stars: [(0, -1, 1)]", |p| matches!(p, Problem::SquareOutside { field: "stars", .. })),
            ("colours: [(1, 1, 1), (1, 1, 2)]", |p| matches!(p, Problem::DuplicateSquare { field: "colours", .. })),
            ("triangles: [(1, 1, 1)], stars: [(1, 1, 2)]", |p| {
                matches!(p, Problem::TwoRegionConstraints { first: "triangles", second: "a star", .. })
            }),
            ("colours: [(0, 1, 1)], stars: [(0, 1, 1)]", |p| {
                matches!(p, Problem::TwoRegionConstraints { first: "a separation square", .. })
            }),
            ("dots: [(3, 0)]", |p| matches!(p, Problem::VertexOutside { which: "dot", .. })),
            ("dots: [(1, 1), (1, 1)]", |p| matches!(p, Problem::DuplicateDot { x: 1, y: 1 })),
            ("edge_dots: [((0, 0), (1, 1))]", |p| matches!(p, Problem::EdgeNotAdjacent { field: "edge_dots", .. })),
            ("broken: [((0, 0), (0, 3))]", |p| matches!(p, Problem::VertexOutside { which: "broken end", .. })),
            ("broken: [((0, 0), (0, 0))]", |p| matches!(p, Problem::EdgeNotAdjacent { field: "broken", .. })),
            ("broken: [((0, 0), (1, 0)), ((1, 0), (0, 0))]", |p| {
                matches!(p, Problem::DuplicateEdge { field: "broken", a: (0, 0), b: (1, 0) })
            }),
            ("edge_dots: [((1, 0), (1, 1))], broken: [((1, 1), (1, 0))]", |p| {
                matches!(p, Problem::DotOnBrokenEdge { a: (1, 0), b: (1, 1) })
            }),
        ];
        for (fields, check) in cases {
            let text = format!("[\n  (width: 2, height: 2, start: (0, 0), goal: (2, 2)),\n   (width: 2, height: 2, start: (0, 0), goal: (2, 2), {fields})]");
            let (index, line, column, problem) = invalid(&text);
            assert_eq!((index, line, column), (1, 3, 4), "{fields}");
            assert!(check(&problem), "{fields}: {problem}");
        }
        // legal though unsolvable: a lonely star, a dot walled in by broken edges
        let legal = "[(width: 1, height: 1, start: (0, 0), goal: (1, 1), stars: [(0, 0, 3)], dots: [(1, 0)], broken: [((1, 0), (0, 0)), ((1, 0), (1, 1))])]";
        assert!(parse_puzzles(legal, "f.ron").is_ok());
    }

    /// The reader's limit is the schema's: one limit, one message.
    #[test]
    fn the_size_limit_is_the_schemas() {
        let limit = crate::dsl::schema::Schema::witness().file.limits.max_state as usize;
        assert_eq!(limit, MAX_SIDE);
        let edge = format!("[(width: {MAX_SIDE}, height: 1, start: (0, 0), goal: ({MAX_SIDE}, 1))]");
        assert!(parse_puzzles(&edge, "f.ron").is_ok());
        let (_, _, _, problem) = invalid(&edge.replacen(&MAX_SIDE.to_string(), &(MAX_SIDE + 1).to_string(), 1));
        assert!(problem.to_string().ends_with(&size_limit()), "{problem}");
    }

    #[test]
    fn syntax_errors_carry_a_position() {
        let text = "[\n  (width: 2, height: 2, start: (0, 0), goal: (2, 2), triangle: []),\n]";
        match parse_puzzles(text, "f.ron") {
            Err(e @ PuzzleError::List(Located { line: 2, kind: ListProblem::Syntax { .. }, .. })) => {
                assert!(e.to_string().starts_with("f.ron:2:"), "{e}")
            }
            other => panic!("{other:?}"),
        }
        assert!(matches!(
            parse_puzzles("[(width: 2,", "f.ron"),
            Err(PuzzleError::List(Located { kind: ListProblem::Syntax { .. }, .. }))
        ));
    }
}
