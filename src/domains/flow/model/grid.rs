//! The geometry of a Flow board: cells addressed row by row from the
//! top-left, and *slots*, the pairs of side-adjacent cells, numbered
//! horizontal slots first (row by row), then vertical ones (row by row).
//!
//! This module knows positions and adjacency: not colours or states.

/// A cell, by its row-by-row index (`y * width + x`).
pub type Cell = usize;

/// A slot (a pair of side-adjacent cells), by its index in [`Grid::slots`].
pub type Slot = usize;

/// The largest width or height a board may have.
pub const MAX_SIDE: usize = 64;

/// The four sides of a cell, in the order of [`Grid::sides`].
pub const SIDES: [&str; 4] = ["left", "up", "right", "down"];

/// A board's cells and slots.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Grid {
    width: usize,
    height: usize,
    /// Per slot its two cells, the lesser first.
    slot_cells: Vec<[Cell; 2]>,
    /// Per cell its slot on each side (left, up, right, down), if any.
    cell_slots: Vec<[Option<Slot>; 4]>,
}

impl Grid {
    /// The grid of `width` x `height` cells (each side at least 1, at most
    /// [`MAX_SIDE`]; the caller checks).
    pub fn new(width: usize, height: usize) -> Grid {
        let horizontal = (width - 1) * height;
        let mut slot_cells = Vec::with_capacity(horizontal + width * (height - 1));
        let mut cell_slots = vec![[None; 4]; width * height];
        for y in 0..height {
            for x in 0..width - 1 {
                let c = y * width + x;
                cell_slots[c][2] = Some(slot_cells.len());
                cell_slots[c + 1][0] = Some(slot_cells.len());
                slot_cells.push([c, c + 1]);
            }
        }
        for y in 0..height - 1 {
            for x in 0..width {
                let c = y * width + x;
                cell_slots[c][3] = Some(slot_cells.len());
                cell_slots[c + width][1] = Some(slot_cells.len());
                slot_cells.push([c, c + width]);
            }
        }
        Grid { width, height, slot_cells, cell_slots }
    }

    /// Columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Number of slots.
    pub fn slots(&self) -> usize {
        self.slot_cells.len()
    }

    /// The cell at column `x`, row `y`.
    pub fn cell(&self, x: usize, y: usize) -> Cell {
        y * self.width + x
    }

    /// The column and row of `c`.
    pub fn xy(&self, c: Cell) -> (usize, usize) {
        (c % self.width, c / self.width)
    }

    /// The two cells of slot `s`, the lesser first.
    pub fn ends(&self, s: Slot) -> [Cell; 2] {
        self.slot_cells[s]
    }

    /// The cell across slot `s` from `c` (one of its cells).
    pub fn across(&self, s: Slot, c: Cell) -> Cell {
        let [a, b] = self.slot_cells[s];
        if a == c {
            b
        } else {
            a
        }
    }

    /// The slots of `c` on each side (left, up, right, down), if any.
    pub fn sides(&self, c: Cell) -> [Option<Slot>; 4] {
        self.cell_slots[c]
    }

    /// The slots of `c`.
    pub fn slots_of(&self, c: Cell) -> impl Iterator<Item = Slot> + '_ {
        self.cell_slots[c].iter().flatten().copied()
    }

    /// The slot between `a` and `b`, if they are side-adjacent.
    pub fn slot_between(&self, a: Cell, b: Cell) -> Option<Slot> {
        self.slots_of(a).find(|&s| self.across(s, a) == b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every slot joins two side-adjacent cells, is found from both, and
    /// every side-adjacent pair has exactly one slot.
    #[test]
    fn slots_are_the_pairs_of_side_adjacent_cells() {
        for (w, h) in [(1, 1), (1, 4), (3, 1), (3, 2), (5, 4)] {
            let g = Grid::new(w, h);
            assert_eq!(g.slots(), (w - 1) * h + w * (h - 1));
            let mut pairs = 0;
            for a in 0..g.cells() {
                for b in 0..g.cells() {
                    let ((ax, ay), (bx, by)) = (g.xy(a), g.xy(b));
                    let adjacent = ax.abs_diff(bx) + ay.abs_diff(by) == 1;
                    assert_eq!(g.slot_between(a, b).is_some(), adjacent, "{w}x{h} {a} {b}");
                    if let Some(s) = g.slot_between(a, b) {
                        pairs += 1;
                        assert_eq!(g.ends(s), [a.min(b), a.max(b)]);
                        assert_eq!(g.across(s, a), b);
                    }
                }
            }
            assert_eq!(pairs, 2 * g.slots());
        }
        let g = Grid::new(3, 2);
        assert_eq!(
            g.sides(4),
            [
                Some(g.slot_between(4, 3).unwrap()),
                Some(g.slot_between(4, 1).unwrap()),
                Some(g.slot_between(4, 5).unwrap()),
                None
            ]
        );
        assert_eq!((g.cell(2, 1), g.xy(5)), (5, (2, 1)));
    }
}
