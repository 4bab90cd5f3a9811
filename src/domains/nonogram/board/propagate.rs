//! Whole-board line propagation with the exact line solver, on a flat grid
//! of cells: every line whose cells changed is solved again until nothing
//! changes, or a line has no solution (a contradiction).
//!
//! This is the inner loop of the complete solver (`search`): it must be fast
//! and allocation-free once warmed up, so it works on `&mut [Cell]` with the
//! clues kept apart ([`Clues`]) and reusable buffers ([`Propagator`]). It
//! knows nothing about probing, search or rules.

use crate::domains::nonogram::formats::non::Puzzle;
use crate::domains::nonogram::line::model::Cell;
use crate::domains::nonogram::line::solver::LineSolver;

/// The clues of a board: width, height and one hint list per line, rows
/// (top to bottom) first, then columns (left to right). Line `l` is row `l`
/// for `l < height`, column `l - height` otherwise.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Clues {
    width: usize,
    height: usize,
    lines: Vec<Vec<u32>>,
}

impl Clues {
    /// Clues from row hints (top to bottom) and column hints (left to right).
    pub fn new(rows: Vec<Vec<u32>>, columns: Vec<Vec<u32>>) -> Clues {
        let (width, height) = (columns.len(), rows.len());
        let mut lines = rows;
        lines.extend(columns);
        Clues { width, height, lines }
    }

    /// The clues of a puzzle.
    pub fn from_puzzle(p: &Puzzle) -> Clues {
        Clues::new(p.rows.clone(), p.columns.clone())
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.width * self.height
    }

    /// Number of lines (rows + columns).
    pub fn line_count(&self) -> usize {
        self.lines.len()
    }

    /// The hints of line `l`.
    pub fn hints(&self, l: usize) -> &[u32] {
        &self.lines[l]
    }

    /// The row hints, top to bottom.
    pub fn rows(&self) -> &[Vec<u32>] {
        &self.lines[..self.height]
    }

    /// The column hints, left to right.
    pub fn columns(&self) -> &[Vec<u32>] {
        &self.lines[self.height..]
    }

    /// The number of cells of line `l`.
    pub fn len(&self, l: usize) -> usize {
        if l < self.height {
            self.width
        } else {
            self.height
        }
    }

    /// True for a board without cells.
    pub fn is_empty(&self) -> bool {
        self.cells() == 0
    }

    /// Grid index of cell `i` of line `l`.
    #[inline]
    pub fn pos(&self, l: usize, i: usize) -> usize {
        if l < self.height {
            l * self.width + i
        } else {
            i * self.width + (l - self.height)
        }
    }

    /// The row line and the column line through grid index `p`.
    #[inline]
    pub fn lines_through(&self, p: usize) -> [usize; 2] {
        [p / self.width, self.height + p % self.width]
    }

    /// The cells of line `l` of `grid`, written into `out` (cleared first).
    pub fn read_line(&self, grid: &[Cell], l: usize, out: &mut Vec<Cell>) {
        out.clear();
        out.extend((0..self.len(l)).map(|i| grid[self.pos(l, i)]));
    }
}

/// A line had no solution: propagation reached a contradiction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line} has no solution")]
pub struct Conflict {
    /// The line (rows first, then columns; see [`Clues`]).
    pub line: usize,
}

/// Reusable buffers for propagation.
#[derive(Clone, Debug, Default)]
pub struct Propagator {
    solver: LineSolver,
    cells: Vec<Cell>,
    out: Vec<Cell>,
    queue: Vec<usize>,
    queued: Vec<bool>,
}

impl Propagator {
    /// A propagator with empty buffers.
    pub fn new() -> Propagator {
        Propagator::default()
    }

    fn reset(&mut self, clues: &Clues) {
        self.queue.clear();
        self.queued.clear();
        self.queued.resize(clues.line_count(), false);
    }

    fn push(&mut self, l: usize) {
        if !self.queued[l] {
            self.queued[l] = true;
            self.queue.push(l);
        }
    }

    /// Propagates from every line. Returns the number of cells it fixed.
    pub fn all(&mut self, clues: &Clues, grid: &mut [Cell]) -> Result<usize, Conflict> {
        self.reset(clues);
        for l in (0..clues.line_count()).rev() {
            self.push(l);
        }
        self.run(clues, grid)
    }

    /// Propagates from the lines through the grid cells `changed`. Returns
    /// the number of cells it fixed (besides `changed`).
    pub fn from_cells(&mut self, clues: &Clues, grid: &mut [Cell], changed: &[usize]) -> Result<usize, Conflict> {
        self.reset(clues);
        for &p in changed {
            for l in clues.lines_through(p) {
                self.push(l);
            }
        }
        self.run(clues, grid)
    }

    fn run(&mut self, clues: &Clues, grid: &mut [Cell]) -> Result<usize, Conflict> {
        let mut fixed = 0;
        while let Some(l) = self.queue.pop() {
            self.queued[l] = false;
            clues.read_line(grid, l, &mut self.cells);
            if !self.solver.solve_into(clues.hints(l), &self.cells, &mut self.out) {
                return Err(Conflict { line: l });
            }
            for i in 0..self.out.len() {
                if self.out[i] != self.cells[i] {
                    let p = clues.pos(l, i);
                    grid[p] = self.out[i];
                    fixed += 1;
                    let [row, col] = clues.lines_through(p);
                    self.push(if row == l { col } else { row });
                }
            }
        }
        Ok(fixed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn propagates_and_finds_conflicts() {
        // 101 / 000 / 111
        let clues = Clues::new(vec![vec![1, 1], vec![], vec![3]], vec![vec![1, 1], vec![1], vec![1, 1]]);
        let mut grid = vec![Cell::Unknown; 9];
        assert_eq!(Propagator::new().all(&clues, &mut grid), Ok(9));
        let bits: String = grid.iter().map(|c| c.to_char()).collect();
        assert_eq!(bits, "#x#xxx###");
        // a row of 2 in a board whose columns are empty
        let clues = Clues::new(vec![vec![2], vec![]], vec![vec![], vec![]]);
        let mut grid = vec![Cell::Unknown; 4];
        assert!(Propagator::new().all(&clues, &mut grid).is_err());
    }

    #[test]
    fn positions_of_rows_and_columns() {
        let clues = Clues::new(vec![vec![]; 2], vec![vec![]; 3]);
        assert_eq!(clues.pos(1, 2), 5);
        assert_eq!(clues.pos(2 + 2, 1), 5);
        assert_eq!(clues.lines_through(5), [1, 4]);
    }
}
