//! The region features of a Witness state (docs/language.md, "Region features"): the
//! goal region R (unvisited vertices joined to the goal through unvisited
//! vertices), and per square `free` and `live`, and the global
//! `goal_reachable`. Broken edges are not grid steps: the fill never
//! crosses them and they never count in `free` or `live`.
//!
//! One flood fill from the goal per state, bit-parallel: a grid has at most
//! `(MAX_SIDE + 1)^2 = 121` vertices, so a vertex set is one `u128` and a
//! step of the fill is four shifts and masks. This module owns only these
//! values; the view and the search decide when to compute them.

use super::path::Path;
use crate::domains::witness::formats::puzzle::Puzzle;
use crate::domains::witness::model::grid::{BitSet, Grid, MAX_SIDE};

const _: () = assert!((MAX_SIDE + 1) * (MAX_SIDE + 1) <= 128);

/// Vertex-set masks of one puzzle's grid and broken edges, for the flood
/// fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Masks {
    grid: Grid,
    /// Every vertex of the grid.
    all: u128,
    /// Vertices whose edge to the right exists and is not broken.
    right: u128,
    /// Vertices whose edge upwards exists and is not broken.
    up: u128,
    /// Vertex-id distance of a step up.
    row: u32,
    /// The broken edges (edge ids).
    broken: BitSet,
}

impl Masks {
    /// The masks of `puzzle`'s grid, without its broken edges.
    pub fn new(puzzle: &Puzzle) -> Masks {
        let grid = puzzle.grid();
        let (mut all, mut right, mut up) = (0u128, 0u128, 0u128);
        let w1 = grid.width + 1;
        for v in 0..grid.num_vertices() {
            let (x, y) = grid.vertex(v);
            all |= 1 << v;
            if x < grid.width && !puzzle.is_broken(grid.edge_between(v, v + 1).expect("a right neighbour")) {
                right |= 1 << v;
            }
            if y < grid.height && !puzzle.is_broken(grid.edge_between(v, v + w1).expect("an upper neighbour")) {
                up |= 1 << v;
            }
        }
        Masks { grid, all, right, up, row: w1 as u32, broken: *puzzle.broken() }
    }

    /// Every vertex of the grid.
    pub fn all(&self) -> u128 {
        self.all
    }

    /// The grid.
    pub fn grid(&self) -> Grid {
        self.grid
    }

    /// The vertices of `set` and those joined to them by one grid step
    /// (an edge that is not broken).
    #[inline]
    pub fn grow(&self, set: u128) -> u128 {
        set | (set & self.right) << 1
            | (set >> 1) & self.right
            | (set & self.up) << self.row
            | (set >> self.row) & self.up
    }

    /// How many of square `s`'s four sides are not broken and have both
    /// ends in `set`.
    #[inline]
    pub fn sides_within(&self, s: usize, set: u128) -> u8 {
        let c = self.grid.square_corners(s);
        let e = self.grid.square_edges(s);
        let inside = c.map(|v| set >> v & 1 == 1);
        (0..4).filter(|&k| inside[k] && inside[(k + 1) % 4] && !self.broken.contains(e[k])).count() as u8
    }
}

/// The region of a state: its unvisited vertices, the goal region and the
/// head, as vertex sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    /// Unvisited vertices.
    pub unvisited: u128,
    /// The goal region R (empty if the goal is visited).
    pub goal_region: u128,
    /// The head (one vertex).
    pub head: u128,
    /// The goal (one vertex).
    pub goal: u128,
}

impl Region {
    /// The region of `path` on `puzzle` (`masks` of the puzzle's grid).
    pub fn new(masks: &Masks, puzzle: &Puzzle, path: &Path) -> Region {
        let unvisited = path.visited().iter().fold(masks.all, |acc, v| acc & !(1u128 << v));
        Region::from_sets(masks, unvisited, path.head_id(), path.grid().vertex_id(puzzle.goal()))
    }

    /// The region of a state given by its unvisited vertices, head and goal.
    pub fn from_sets(masks: &Masks, unvisited: u128, head: usize, goal: usize) -> Region {
        let goal = 1u128 << goal;
        Region { unvisited, goal_region: fill(masks, goal & unvisited, unvisited), head: 1 << head, goal }
    }

    /// The region after the path steps from this state's head to the
    /// unvisited neighbour `v`: R can only shrink, so the fill runs inside
    /// the old R, and is skipped when `v` was not in it.
    pub fn step(&self, masks: &Masks, v: usize) -> Region {
        let bit = 1u128 << v;
        let unvisited = self.unvisited & !bit;
        let goal_region = if self.goal_region & bit == 0 {
            self.goal_region
        } else {
            fill(masks, self.goal & unvisited, self.goal_region & !bit)
        };
        Region { unvisited, goal_region, head: bit, goal: self.goal }
    }

    /// The region before the last step of a path whose region this is:
    /// `previous` the vertex before the head.
    pub fn unstep(&self, masks: &Masks, previous: usize) -> Region {
        let unvisited = self.unvisited | self.head;
        Region {
            unvisited,
            goal_region: fill(masks, self.goal & unvisited, unvisited),
            head: 1 << previous,
            goal: self.goal,
        }
    }

    /// `goal_reachable`: 1 if the head is the goal or is grid-adjacent to a
    /// vertex of R, else 0.
    pub fn goal_reachable(&self, masks: &Masks) -> bool {
        self.head == self.goal || masks.grow(self.goal_region) & self.head != 0
    }

    /// `free` of square `s`: its edges, not broken, whose two ends are each
    /// unvisited or the head (such an edge is never on the path).
    pub fn free(&self, masks: &Masks, s: usize) -> u8 {
        masks.sides_within(s, self.unvisited | self.head)
    }

    /// `live` of square `s`: its edges, not broken, whose two ends are each
    /// in R or the head.
    pub fn live(&self, masks: &Masks, s: usize) -> u8 {
        masks.sides_within(s, self.goal_region | self.head)
    }

    /// Whether edge id `e` is *usable* (docs/language.md): not broken, not on the
    /// path, each end the head or in R (only such edges can be added by a
    /// completion).
    #[inline]
    pub fn usable(&self, masks: &Masks, e: usize) -> bool {
        let (a, b) = masks.grid.edge_ends(e);
        let ok = self.goal_region | self.head;
        ok >> a & 1 == 1 && ok >> b & 1 == 1 && !masks.broken.contains(e)
    }
}

/// The vertices of `within` joined to `seed` through `within`.
fn fill(masks: &Masks, seed: u128, within: u128) -> u128 {
    let mut r = seed & within;
    loop {
        let next = masks.grow(r) & within;
        if next == r {
            return r;
        }
        r = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_walled_off_head() {
        // 2x1 grid, path (0,0) (1,0) (1,1) (0,1): the head (0,1) has no
        // unvisited neighbour, so the goal (2,1) is out of reach.
        let puzzle = Puzzle::new(2, 1, (0, 0), (2, 1), &[]).unwrap();
        let path = Path::from_vertices(&puzzle, &[(0, 0), (1, 0), (1, 1), (0, 1)]).unwrap();
        let masks = Masks::new(&puzzle);
        let region = Region::new(&masks, &puzzle, &path);
        assert!(!region.goal_reachable(&masks));
        assert_eq!(region.goal_region.count_ones(), 2); // (2,0) and (2,1)
        assert_eq!((region.free(&masks, 0), region.live(&masks, 0)), (0, 0));
        assert_eq!((region.free(&masks, 1), region.live(&masks, 1)), (1, 1));
    }
}
