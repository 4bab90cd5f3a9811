//! What the rule language sees of a Witness state (puzzle + partial path):
//! the `square` elements with their features and the global `path_length`
//! (docs/language.md, "Domain: Witness partial paths").
//!
//! This module computes concrete feature values only; it does not know the
//! rule language, costs or the symbolic (Z3) encoding.
//!
//! Required features (docs/language.md): `triangles`, `used`, `touches_head`, and the
//! global `path_length`.
//!
//! Proposed extra features — natural things a puzzle designer would name,
//! each computable from one square and the path's head, none of which is a
//! pruning verdict in itself. What the path's future allows (`free`, `live`,
//! `goal_reachable`) is computed in `model/region.rs`, the `mark` and `dot`
//! features in `marks.rs`; this module offers no per-square reachability:
//! - `column`, `row`: the square's position;
//! - `on_border`: the square touches the outer boundary of the grid;
//! - `head_distance`: Manhattan distance from the head to the nearest
//!   corner of the square (0 iff `touches_head`);
//! - `corners_visited`: how many of the square's four corners the path visits;
//! - global `head_to_goal`: Manhattan distance from the head to the goal
//!   (the search's `h`).

use crate::domains::witness::board::path::Path;
use crate::domains::witness::formats::puzzle::Puzzle;

/// Feature values of one square holding at least one triangle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SquareFeatures {
    /// Column (0 = left).
    pub column: usize,
    /// Row (0 = bottom).
    pub row: usize,
    /// Number of triangles, 1-3 (also the element's `size`).
    pub triangles: u8,
    /// How many of the square's four edges the path uses.
    pub used: u8,
    /// The head is a corner of the square.
    pub touches_head: bool,
    /// Extra: the square lies on the border of the grid.
    pub on_border: bool,
    /// Extra: Manhattan distance from the head to the nearest corner.
    pub head_distance: usize,
    /// Extra: number of the square's corners the path visits.
    pub corners_visited: u8,
}

/// All features of a state.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Features {
    /// The `square` elements, ordered by (row, column).
    pub squares: Vec<SquareFeatures>,
    /// Global: number of edges in the path.
    pub path_length: usize,
    /// Extra global: Manhattan distance from the head to the goal.
    pub head_to_goal: usize,
}

/// Computes the features of `path` on `puzzle`.
pub fn features(puzzle: &Puzzle, path: &Path) -> Features {
    let grid = puzzle.grid();
    let (hx, hy) = path.head();
    let squares = puzzle
        .constrained_squares()
        .iter()
        .map(|&s| {
            let (column, row) = grid.square(s);
            let dx = if hx < column { column - hx } else { hx.saturating_sub(column + 1) };
            let dy = if hy < row { row - hy } else { hy.saturating_sub(row + 1) };
            let corners_visited = grid.square_corners(s).iter().filter(|&&v| path.visited().contains(v)).count() as u8;
            SquareFeatures {
                column,
                row,
                triangles: puzzle.triangles_of(s),
                used: path.used_of(s),
                touches_head: dx == 0 && dy == 0,
                on_border: column == 0 || row == 0 || column + 1 == grid.width || row + 1 == grid.height,
                head_distance: dx + dy,
                corners_visited,
            }
        })
        .collect();
    let goal = puzzle.goal();
    Features { squares, path_length: path.len(), head_to_goal: hx.abs_diff(goal.0) + hy.abs_diff(goal.1) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn features_of_a_small_state() {
        let p = Puzzle::new(3, 2, (0, 0), (3, 2), &[(2, 1, 3), (0, 0, 1)]).unwrap();
        let path = Path::from_vertices(&p, &[(0, 0), (1, 0), (1, 1)]).unwrap();
        let f = features(&p, &path);
        assert_eq!(f.path_length, 2);
        assert_eq!(f.head_to_goal, 3);
        assert_eq!(f.squares.len(), 2);
        let a = f.squares[0]; // (0, 0): ordered by (row, column)
        assert_eq!((a.column, a.row, a.triangles, a.used), (0, 0, 1, 2));
        assert!(a.touches_head && a.on_border);
        assert_eq!((a.head_distance, a.corners_visited), (0, 3));
        let b = f.squares[1]; // (2, 1)
        assert_eq!((b.column, b.row, b.triangles, b.used), (2, 1, 3, 0));
        assert!(!b.touches_head);
        assert_eq!((b.head_distance, b.corners_visited), (1, 0));
    }
}
