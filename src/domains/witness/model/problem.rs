//! What can be wrong with a Witness puzzle description (docs/formats.md): one
//! typed error per case, each message naming the field, the square, vertex
//! or edge, and what was expected.

use thiserror::Error;

use super::grid::size_limit;

/// What is wrong with a puzzle description.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
pub enum Problem {
    /// Width or height outside `1..=MAX_SIDE`.
    #[error("grid size {width}x{height} is not supported: {}", size_limit())]
    BadSize {
        /// Given width.
        width: i64,
        /// Given height.
        height: i64,
    },
    /// A vertex outside the grid: the start, the goal, a dot or an edge's end.
    #[error("{which} vertex ({x}, {y}) is outside the grid: expected 0 <= x <= {width} and 0 <= y <= {height}")]
    VertexOutside {
        /// "start", "goal", "dot", "edge_dots end" or "broken end".
        which: &'static str,
        /// Given x.
        x: i64,
        /// Given y.
        y: i64,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// Start and goal coincide.
    #[error("start and goal are the same vertex ({x}, {y}): expected distinct vertices")]
    StartIsGoal {
        /// x of both.
        x: usize,
        /// y of both.
        y: usize,
    },
    /// The goal is an interior vertex.
    #[error("goal ({x}, {y}) is not on the border: expected x in {{0, {width}}} or y in {{0, {height}}}")]
    GoalNotOnBorder {
        /// Goal x.
        x: usize,
        /// Goal y.
        y: usize,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// A square outside the grid (in `field`).
    #[error(
        "{field}: square ({col}, {row}) is outside the grid: expected 0 <= column < {width} and 0 <= row < {height}"
    )]
    SquareOutside {
        /// "triangles", "colours" or "stars".
        field: &'static str,
        /// Given column.
        col: i64,
        /// Given row.
        row: i64,
        /// Grid width.
        width: usize,
        /// Grid height.
        height: usize,
    },
    /// A triangle count outside 1..=3.
    #[error("square ({col}, {row}) has {count} triangles: expected 1, 2 or 3")]
    BadCount {
        /// Column.
        col: usize,
        /// Row.
        row: usize,
        /// Given count.
        count: i64,
    },
    /// The same square is listed twice in one field.
    #[error("{field}: square ({col}, {row}) is listed more than once")]
    DuplicateSquare {
        /// "triangles", "colours" or "stars".
        field: &'static str,
        /// Column.
        col: usize,
        /// Row.
        row: usize,
    },
    /// A colour outside 1..=255.
    #[error("{what} at square ({col}, {row}) has colour {colour}: expected a colour from 1 to 255")]
    BadColour {
        /// "separation square" or "star".
        what: &'static str,
        /// Column.
        col: usize,
        /// Row.
        row: usize,
        /// Given colour.
        colour: i64,
    },
    /// A square holding two region constraints of different kinds.
    #[error("square ({col}, {row}) holds {first} and {second}: a square holds at most one region constraint")]
    TwoRegionConstraints {
        /// Column.
        col: usize,
        /// Row.
        row: usize,
        /// The constraint listed first ("triangles", "a separation square", "a star").
        first: &'static str,
        /// The other one.
        second: &'static str,
    },
    /// The same dot vertex is listed twice.
    #[error("dot ({x}, {y}) is listed more than once")]
    DuplicateDot {
        /// x.
        x: usize,
        /// y.
        y: usize,
    },
    /// An edge whose ends are not grid-adjacent.
    #[error("{field}: edge (({}, {}), ({}, {})) joins vertices that are not grid-adjacent: expected ends one step apart", .a.0, .a.1, .b.0, .b.1)]
    EdgeNotAdjacent {
        /// "edge_dots" or "broken".
        field: &'static str,
        /// One end.
        a: (usize, usize),
        /// The other end.
        b: (usize, usize),
    },
    /// The same edge is listed twice in one field.
    #[error("{field}: edge (({}, {}), ({}, {})) is listed more than once", .a.0, .a.1, .b.0, .b.1)]
    DuplicateEdge {
        /// "edge_dots" or "broken".
        field: &'static str,
        /// Lower-left end.
        a: (usize, usize),
        /// Other end.
        b: (usize, usize),
    },
    /// An edge dot on a broken edge.
    #[error("edge (({}, {}), ({}, {})) is both an edge dot and broken: an edge holds at most one path constraint", .a.0, .a.1, .b.0, .b.1)]
    DotOnBrokenEdge {
        /// Lower-left end.
        a: (usize, usize),
        /// Other end.
        b: (usize, usize),
    },
}
