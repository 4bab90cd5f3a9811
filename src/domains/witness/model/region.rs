//! The region features of a Witness state (docs/language.md, "Region features"): the
//! goal region R (unvisited vertices joined to the goal through unvisited
//! vertices), and per square `free` and `live`, and the global
//! `goal_reachable`.
//!
//! One flood fill from the goal per state, bit-parallel: a grid has at most
//! `(MAX_SIDE + 1)^2 = 121` vertices, so a vertex set is one `u128` and a
//! step of the fill is four shifts and masks. This module owns only these
//! values; the view and the search decide when to compute them.

use super::grid::{Grid, MAX_SIDE};
use super::path::Path;
use super::puzzle::Puzzle;

const _: () = assert!((MAX_SIDE + 1) * (MAX_SIDE + 1) <= 128);

/// Vertex-set masks of one grid size, for the flood fill.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Masks {
    /// Every vertex of the grid.
    all: u128,
    /// Vertices with `x > 0` (where a step to the right may land).
    not_left: u128,
    /// Vertices with `x < width` (where a step to the left may land).
    not_right: u128,
    /// Vertex-id distance of a step up.
    row: u32,
}

impl Masks {
    /// The masks of `grid`.
    pub fn new(grid: Grid) -> Masks {
        let (mut all, mut not_left, mut not_right) = (0u128, 0u128, 0u128);
        for v in 0..grid.num_vertices() {
            let (x, _) = grid.vertex(v);
            all |= 1 << v;
            if x > 0 {
                not_left |= 1 << v;
            }
            if x < grid.width {
                not_right |= 1 << v;
            }
        }
        Masks { all, not_left, not_right, row: grid.width as u32 + 1 }
    }

    /// Every vertex of the grid.
    pub fn all(&self) -> u128 {
        self.all
    }

    /// The vertices of `set` and their grid neighbours.
    #[inline]
    pub fn grow(&self, set: u128) -> u128 {
        (set | (set << 1) & self.not_left | (set >> 1) & self.not_right | set << self.row | set >> self.row) & self.all
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

    /// `free` of square `s`: its edges whose two ends are each unvisited or
    /// the head (such an edge is never on the path).
    pub fn free(&self, grid: Grid, s: usize) -> u8 {
        sides_within(grid, s, self.unvisited | self.head)
    }

    /// `live` of square `s`: its edges whose two ends are each in R or the
    /// head.
    pub fn live(&self, grid: Grid, s: usize) -> u8 {
        sides_within(grid, s, self.goal_region | self.head)
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

/// How many of square `s`'s four sides have both ends in `set`.
#[inline]
fn sides_within(grid: Grid, s: usize, set: u128) -> u8 {
    let c = grid.square_corners(s);
    let inside = c.map(|v| set >> v & 1 == 1);
    (0..4).filter(|&k| inside[k] && inside[(k + 1) % 4]).count() as u8
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::witness::model::oracle::enumerate_partial_paths;

    /// The definitions, by a plain breadth-first search over vertex ids.
    fn reference(puzzle: &Puzzle, path: &Path) -> (Vec<(u8, u8)>, bool) {
        let grid = puzzle.grid();
        let goal = grid.vertex_id(puzzle.goal());
        let head = path.head_id();
        let unvisited = |v: usize| !path.visited().contains(v);
        let mut region = vec![false; grid.num_vertices()];
        let mut stack = vec![];
        if unvisited(goal) {
            region[goal] = true;
            stack.push(goal);
        }
        while let Some(v) = stack.pop() {
            for u in grid.neighbours(v) {
                if unvisited(u) && !region[u] {
                    region[u] = true;
                    stack.push(u);
                }
            }
        }
        let per_square = (0..grid.num_squares())
            .map(|s| {
                let c = grid.square_corners(s);
                let sides =
                    |ok: &dyn Fn(usize) -> bool| (0..4).filter(|&k| ok(c[k]) && ok(c[(k + 1) % 4])).count() as u8;
                (sides(&|v| unvisited(v) || v == head), sides(&|v| region[v] || v == head))
            })
            .collect();
        let reachable = head == goal || grid.neighbours(head).any(|u| region[u]);
        (per_square, reachable)
    }

    #[test]
    fn region_features_match_their_definitions() {
        let mut states = 0;
        for (w, h, start, goal) in [(2, 2, (0, 0), (2, 2)), (3, 2, (1, 1), (0, 2)), (3, 3, (1, 1), (3, 1))] {
            let puzzle = Puzzle::new(w, h, start, goal, &[]).unwrap();
            let grid = puzzle.grid();
            let masks = Masks::new(grid);
            enumerate_partial_paths(&puzzle, &mut |path| {
                states += 1;
                let region = Region::new(&masks, &puzzle, path);
                let ids: Vec<usize> = path.vertex_ids().collect();
                if let [.., before, head] = ids[..] {
                    let mut parent = path.clone();
                    parent.pop();
                    let parent_region = Region::new(&masks, &puzzle, &parent);
                    assert_eq!(parent_region.step(&masks, head), region);
                    assert_eq!(region.unstep(&masks, before), parent_region);
                }
                let (per_square, reachable) = reference(&puzzle, path);
                assert_eq!(region.goal_reachable(&masks), reachable, "{}", path.to_text());
                for (s, &(free, live)) in per_square.iter().enumerate() {
                    assert_eq!(
                        (region.free(grid, s), region.live(grid, s)),
                        (free, live),
                        "square {s}, {}",
                        path.to_text()
                    );
                }
            });
        }
        assert!(states > 500, "{states}");
    }

    #[test]
    fn a_walled_off_head() {
        // 2x1 grid, path (0,0) (1,0) (1,1) (0,1): the head (0,1) has no
        // unvisited neighbour, so the goal (2,1) is out of reach.
        let puzzle = Puzzle::new(2, 1, (0, 0), (2, 1), &[]).unwrap();
        let path = Path::from_vertices(&puzzle, &[(0, 0), (1, 0), (1, 1), (0, 1)]).unwrap();
        let masks = Masks::new(puzzle.grid());
        let region = Region::new(&masks, &puzzle, &path);
        assert!(!region.goal_reachable(&masks));
        assert_eq!(region.goal_region.count_ones(), 2); // (2,0) and (2,1)
        assert_eq!((region.free(puzzle.grid(), 0), region.live(puzzle.grid(), 0)), (0, 0));
        assert_eq!((region.free(puzzle.grid(), 1), region.live(puzzle.grid(), 1)), (1, 1));
    }
}
