//! Partial paths on a Witness puzzle: a sequence of distinct vertices
//! beginning at the start, each joined to the next by an edge that is not
//! broken, with the incremental bookkeeping that search and the rule
//! language need (visited vertices, used edges, used edges per square),
//! and the solution check of docs/formats.md.
//!
//! This module owns the path *representation*; it does not decide whether a
//! path is completable (see `oracle`) nor how to search (see `search`).
//! A path can be extended ([`Path::push`]) and shrunk ([`Path::pop`]) in
//! O(1), so searches can explore in place.

use thiserror::Error;

use super::areas::regions_hold;
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::model::grid::{BitSet, Grid, Vertex};

/// A path starting at the puzzle's start vertex that never repeats a vertex.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Path {
    grid: Grid,
    /// Vertex ids, first = start, last = head.
    vertices: Vec<u8>,
    visited: BitSet,
    edges: BitSet,
    /// Used edges per square id.
    used: Vec<u8>,
    /// The puzzle's broken edges (never moves).
    broken: BitSet,
}

/// Why a vertex sequence is not a partial path of a puzzle.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum PathError {
    /// No vertices were given.
    #[error("a path needs at least the start vertex")]
    Empty,
    /// The first vertex is not the start.
    #[error("path starts at ({}, {}) but the puzzle starts at ({}, {})", .found.0, .found.1, .expected.0, .expected.1)]
    WrongStart {
        /// Puzzle start.
        expected: Vertex,
        /// First vertex given.
        found: Vertex,
    },
    /// A vertex outside the grid.
    #[error("vertex ({}, {}) is outside the grid", .0.0, .0.1)]
    Outside(Vertex),
    /// Two consecutive vertices are not grid neighbours.
    #[error("({}, {}) and ({}, {}) are not adjacent", .0.0, .0.1, .1.0, .1.1)]
    NotAdjacent(Vertex, Vertex),
    /// A vertex appears twice.
    #[error("vertex ({}, {}) is visited twice", .0.0, .0.1)]
    Revisit(Vertex),
    /// Two consecutive vertices are joined by a broken edge.
    #[error("the edge from ({}, {}) to ({}, {}) is broken: a path never uses a broken edge", .0.0, .0.1, .1.0, .1.1)]
    Broken(Vertex, Vertex),
}

impl Path {
    /// The path of length 0 that consists of the start vertex only.
    pub fn new(puzzle: &Puzzle) -> Path {
        let grid = puzzle.grid();
        let s = grid.vertex_id(puzzle.start());
        let mut visited = BitSet::EMPTY;
        visited.insert(s);
        Path {
            grid,
            vertices: vec![s as u8],
            visited,
            edges: BitSet::EMPTY,
            used: vec![0; grid.num_squares()],
            broken: *puzzle.broken(),
        }
    }

    /// The path through `vertices`, which must begin at the puzzle's start.
    pub fn from_vertices(puzzle: &Puzzle, vertices: &[Vertex]) -> Result<Path, PathError> {
        let first = *vertices.first().ok_or(PathError::Empty)?;
        if first != puzzle.start() {
            return Err(PathError::WrongStart { expected: puzzle.start(), found: first });
        }
        let mut p = Path::new(puzzle);
        for &v in &vertices[1..] {
            p.push(v)?;
        }
        Ok(p)
    }

    /// The grid the path lives on.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// Length in edges (`path_length`).
    #[inline]
    pub fn len(&self) -> usize {
        self.vertices.len() - 1
    }

    /// Whether the path has no edges (it is just the start vertex).
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.vertices.len() == 1
    }

    /// The last vertex.
    #[inline]
    pub fn head(&self) -> Vertex {
        self.grid.vertex(self.head_id())
    }

    /// Id of the last vertex.
    #[inline]
    pub fn head_id(&self) -> usize {
        *self.vertices.last().expect("a path always holds its start") as usize
    }

    /// Id of the vertex before the head (`None` for the start alone).
    #[inline]
    pub fn previous_id(&self) -> Option<usize> {
        self.vertices.len().checked_sub(2).map(|i| self.vertices[i] as usize)
    }

    /// The vertices in order.
    pub fn vertices(&self) -> impl Iterator<Item = Vertex> + '_ {
        self.vertices.iter().map(|&v| self.grid.vertex(v as usize))
    }

    /// Vertex ids in order.
    pub fn vertex_ids(&self) -> impl Iterator<Item = usize> + '_ {
        self.vertices.iter().map(|&v| v as usize)
    }

    /// The set of visited vertex ids.
    #[inline]
    pub fn visited(&self) -> &BitSet {
        &self.visited
    }

    /// The set of used edge ids.
    #[inline]
    pub fn edges(&self) -> &BitSet {
        &self.edges
    }

    /// Whether vertex `v` is on the path (false outside the grid).
    pub fn contains(&self, v: Vertex) -> bool {
        self.grid.contains_vertex(v) && self.visited.contains(self.grid.vertex_id(v))
    }

    /// How many of the four edges of square `(column, row)` the path uses
    /// (0 outside the grid).
    pub fn used(&self, col: usize, row: usize) -> u8 {
        if col < self.grid.width && row < self.grid.height {
            self.used[self.grid.square_id(col, row)]
        } else {
            0
        }
    }

    /// Used edges of square id `s`.
    #[inline]
    pub fn used_of(&self, s: usize) -> u8 {
        self.used[s]
    }

    /// Whether the head is a corner of square `(column, row)`.
    pub fn touches_head(&self, col: usize, row: usize) -> bool {
        let (x, y) = self.head();
        col < self.grid.width && row < self.grid.height && (x == col || x == col + 1) && (y == row || y == row + 1)
    }

    /// Whether the head is a corner of square id `s`.
    #[inline]
    pub fn touches_head_of(&self, s: usize) -> bool {
        let (c, r) = self.grid.square(s);
        self.touches_head(c, r)
    }

    /// Appends vertex `v`.
    pub fn push(&mut self, v: Vertex) -> Result<(), PathError> {
        if !self.grid.contains_vertex(v) {
            return Err(PathError::Outside(v));
        }
        let id = self.grid.vertex_id(v);
        if self.visited.contains(id) {
            return Err(PathError::Revisit(v));
        }
        match self.grid.edge_between(self.head_id(), id) {
            None => return Err(PathError::NotAdjacent(self.head(), v)),
            Some(e) if self.broken.contains(e) => return Err(PathError::Broken(self.head(), v)),
            Some(_) => {}
        }
        self.push_id(id);
        Ok(())
    }

    /// Appends vertex id `v`, which must be an unvisited neighbour of the
    /// head across an edge that is not broken (callers such as search
    /// guarantee it; checked in debug builds).
    #[inline]
    pub fn push_id(&mut self, v: usize) {
        let h = self.head_id();
        let e = self.grid.edge_between(h, v);
        debug_assert!(e.is_some_and(|e| !self.broken.contains(e)) && !self.visited.contains(v));
        if let Some(e) = e {
            self.edges.insert(e);
        }
        for s in self.grid.edge_squares(h, v) {
            self.used[s] += 1;
        }
        self.visited.insert(v);
        self.vertices.push(v as u8);
    }

    /// Removes and returns the head; never removes the start (returns `None`).
    pub fn pop(&mut self) -> Option<Vertex> {
        if self.vertices.len() <= 1 {
            return None;
        }
        let v = self.vertices.pop()? as usize;
        let h = self.head_id();
        if let Some(e) = self.grid.edge_between(h, v) {
            self.edges.remove(e);
        }
        for s in self.grid.edge_squares(h, v) {
            self.used[s] -= 1;
        }
        self.visited.remove(v);
        Some(self.grid.vertex(v))
    }

    /// The moves: unvisited neighbour ids of the head across edges that
    /// are not broken, in the grid's fixed order (right, up, left, down).
    pub fn successor_ids(&self) -> impl Iterator<Item = usize> + '_ {
        let h = self.head_id();
        self.grid.neighbours(h).filter(move |&u| {
            !self.visited.contains(u) && self.grid.edge_between(h, u).is_some_and(|e| !self.broken.contains(e))
        })
    }

    /// Whether the path ends at the goal.
    pub fn at_goal(&self, puzzle: &Puzzle) -> bool {
        self.head() == puzzle.goal()
    }

    /// Whether every square with triangles has exactly that many used edges
    /// (ignores where the path ends).
    pub fn satisfies_triangles(&self, puzzle: &Puzzle) -> bool {
        (0..self.used.len()).all(|s| {
            let t = puzzle.triangles_of(s);
            t == 0 || self.used[s] == t
        })
    }

    /// Whether the path, taken as complete, meets every constraint
    /// (ignores where it ends): the triangle counts, every dot vertex
    /// visited, every edge dot used, and the region constraints of the
    /// regions it cuts (broken edges it never uses).
    pub fn satisfies(&self, puzzle: &Puzzle) -> bool {
        self.satisfies_triangles(puzzle)
            && puzzle.dot_vertices().iter().all(|v| self.visited.contains(v))
            && puzzle.dot_edges().iter().all(|e| self.edges.contains(e))
            && regions_hold(puzzle, &self.edges)
    }

    /// Whether the path is a solution (docs/formats.md): it ends at the goal and
    /// meets every constraint ([`Path::satisfies`]).
    pub fn is_solution(&self, puzzle: &Puzzle) -> bool {
        self.at_goal(puzzle) && self.satisfies(puzzle)
    }

    /// The vertices as text `x,y x,y ...`.
    pub fn to_text(&self) -> String {
        self.vertices().map(|(x, y)| format!("{x},{y}")).collect::<Vec<_>>().join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fig21() -> Puzzle {
        Puzzle::new(2, 1, (0, 0), (2, 1), &[(0, 0, 1), (1, 0, 2)]).unwrap()
    }

    #[test]
    fn counts_edges_per_square() {
        let p = fig21();
        let mut path = Path::from_vertices(&p, &[(0, 0), (1, 0), (1, 1)]).unwrap();
        assert_eq!((path.used(0, 0), path.used(1, 0)), (2, 1));
        assert!(path.touches_head(0, 0) && path.touches_head(1, 0));
        assert_eq!(path.len(), 2);
        assert!(!path.is_solution(&p));
        path.pop();
        assert_eq!((path.used(0, 0), path.used(1, 0)), (1, 0));
        path.push((2, 0)).unwrap();
        path.push((2, 1)).unwrap();
        assert!(path.is_solution(&p));
        assert_eq!(path.to_text(), "0,0 1,0 2,0 2,1");
    }

    #[test]
    fn rejects_bad_vertex_sequences() {
        let p = fig21();
        assert_eq!(Path::from_vertices(&p, &[]), Err(PathError::Empty));
        assert!(matches!(Path::from_vertices(&p, &[(1, 0)]), Err(PathError::WrongStart { .. })));
        assert_eq!(Path::from_vertices(&p, &[(0, 0), (1, 1)]), Err(PathError::NotAdjacent((0, 0), (1, 1))));
        assert_eq!(Path::from_vertices(&p, &[(0, 0), (1, 0), (0, 0)]), Err(PathError::Revisit((0, 0))));
        assert_eq!(Path::from_vertices(&p, &[(0, 0), (0, 2)]), Err(PathError::Outside((0, 2))));
        let mut start = Path::new(&p);
        assert_eq!(start.pop(), None);
    }
}
