//! Nonogram boards: row and column hints and a grid of cells, solved line by
//! line to a fixpoint with a caller-supplied line deducer, and rendered as
//! text with the clues.
//!
//! The deducer is any `FnMut(&Line) -> Result<Vec<Cell>, E>`: the exact
//! solver ([`exact`]), or a rule set supplied by the engine. The board only
//! applies what the deducer returns and checks it never contradicts a known
//! cell; it knows nothing about rules.

use std::collections::VecDeque;
use std::fmt;

use thiserror::Error;

use crate::domains::nonogram::formats::non::Puzzle;
use crate::domains::nonogram::line::model::{Cell, Line};
use crate::domains::nonogram::line::solver::solve;

/// Rows or columns.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Axis {
    /// A row (left to right).
    Row,
    /// A column (top to bottom).
    Column,
}

/// One line of a board: a row or column and its 0-based index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineId {
    /// Row or column.
    pub axis: Axis,
    /// 0-based index (rows from the top, columns from the left).
    pub index: usize,
}

impl fmt::Display for LineId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.axis {
            Axis::Row => write!(f, "row {}", self.index),
            Axis::Column => write!(f, "column {}", self.index),
        }
    }
}

/// The exact solver found no solution of a line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("no solution extends the line `{0}`")]
pub struct Contradiction(pub String);

/// The exact line deducer: the maximal transition, or a [`Contradiction`].
pub fn exact(line: &Line) -> Result<Vec<Cell>, Contradiction> {
    solve(line).ok_or_else(|| Contradiction(line.to_string()))
}

/// Errors from solving a board.
#[derive(Debug, Error)]
pub enum BoardError<E> {
    /// The deducer failed on a line (for the exact solver: the line is invalid).
    #[error("{line}: {source}")]
    Deducer {
        /// The line.
        line: LineId,
        /// The deducer's error.
        #[source]
        source: E,
    },
    /// The deducer returned the wrong number of cells.
    #[error("{line}: deducer returned {found} cells, expected {expected}")]
    Length {
        /// The line.
        line: LineId,
        /// The line length.
        expected: usize,
        /// Cells returned.
        found: usize,
    },
    /// The deducer contradicted a known cell.
    #[error("{line}: deducer sets cell {cell} to {new:?} but it is {old:?}")]
    Conflict {
        /// The line.
        line: LineId,
        /// 0-based cell index within the line.
        cell: usize,
        /// The known value.
        old: Cell,
        /// The deduced value.
        new: Cell,
    },
}

/// The outcome of solving a board to a fixpoint.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// True if every cell is known.
    pub solved: bool,
    /// Cells known at the end.
    pub known: usize,
    /// All cells (width x height).
    pub total: usize,
    /// Number of deducer calls made.
    pub deductions: usize,
}

/// A nonogram board: hints for every row and column and a grid of cells.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    width: usize,
    height: usize,
    row_hints: Vec<Vec<u32>>,
    col_hints: Vec<Vec<u32>>,
    cells: Vec<Cell>,
}

impl Board {
    /// An empty board (all cells unknown); height = number of row hints,
    /// width = number of column hints.
    pub fn new(row_hints: Vec<Vec<u32>>, col_hints: Vec<Vec<u32>>) -> Board {
        let (width, height) = (col_hints.len(), row_hints.len());
        Board { width, height, row_hints, col_hints, cells: vec![Cell::Unknown; width * height] }
    }

    /// The empty board of a puzzle.
    pub fn from_puzzle(p: &Puzzle) -> Board {
        Board::new(p.rows.clone(), p.columns.clone())
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }

    /// The hints of a line.
    pub fn hints(&self, id: LineId) -> &[u32] {
        match id.axis {
            Axis::Row => &self.row_hints[id.index],
            Axis::Column => &self.col_hints[id.index],
        }
    }

    /// All cells, row by row.
    pub fn cells(&self) -> &[Cell] {
        &self.cells
    }

    /// The cell at (row, column).
    pub fn get(&self, row: usize, col: usize) -> Cell {
        self.cells[row * self.width + col]
    }

    /// Sets the cell at (row, column).
    pub fn set(&mut self, row: usize, col: usize, cell: Cell) {
        self.cells[row * self.width + col] = cell;
    }

    /// Every line: rows top to bottom, then columns left to right.
    pub fn line_ids(&self) -> impl Iterator<Item = LineId> {
        let rows = (0..self.height).map(|index| LineId { axis: Axis::Row, index });
        let cols = (0..self.width).map(|index| LineId { axis: Axis::Column, index });
        rows.chain(cols)
    }

    /// Index in the grid of cell `i` of a line.
    fn pos(&self, id: LineId, i: usize) -> usize {
        match id.axis {
            Axis::Row => id.index * self.width + i,
            Axis::Column => i * self.width + id.index,
        }
    }

    /// The length of a line.
    pub fn line_len(&self, id: LineId) -> usize {
        match id.axis {
            Axis::Row => self.width,
            Axis::Column => self.height,
        }
    }

    /// The current state of a line (its hints and cells).
    pub fn line(&self, id: LineId) -> Line {
        let cells = (0..self.line_len(id)).map(|i| self.cells[self.pos(id, i)]).collect();
        Line::new(self.hints(id).to_vec(), cells)
    }

    /// Writes deduced cells into a line. Unknown entries in `cells` change
    /// nothing; known ones must agree with known board cells. Returns the
    /// indices (within the line) of the cells that became known.
    pub fn apply<E>(&mut self, id: LineId, cells: &[Cell]) -> Result<Vec<usize>, BoardError<E>> {
        let n = self.line_len(id);
        if cells.len() != n {
            return Err(BoardError::Length { line: id, expected: n, found: cells.len() });
        }
        for (i, &new) in cells.iter().enumerate() {
            let old = self.cells[self.pos(id, i)];
            if old.is_known() && new.is_known() && old != new {
                return Err(BoardError::Conflict { line: id, cell: i, old, new });
            }
        }
        let mut changed = Vec::new();
        for (i, &new) in cells.iter().enumerate() {
            let p = self.pos(id, i);
            if new.is_known() && !self.cells[p].is_known() {
                self.cells[p] = new;
                changed.push(i);
            }
        }
        Ok(changed)
    }

    /// The number of known cells.
    pub fn known_count(&self) -> usize {
        self.cells.iter().filter(|c| c.is_known()).count()
    }

    /// True if every cell is known.
    pub fn is_solved(&self) -> bool {
        self.cells.iter().all(|c| c.is_known())
    }

    /// The line crossing `id` at its cell `i`.
    pub fn crossing(id: LineId, i: usize) -> LineId {
        match id.axis {
            Axis::Row => LineId { axis: Axis::Column, index: i },
            Axis::Column => LineId { axis: Axis::Row, index: i },
        }
    }

    /// Solves line by line to a fixpoint: every line is deduced once, and a
    /// line again whenever a cell in it becomes known, until nothing changes.
    pub fn solve_with<E, F>(&mut self, mut deduce: F) -> Result<SolveReport, BoardError<E>>
    where
        F: FnMut(&Line) -> Result<Vec<Cell>, E>,
    {
        let ids: Vec<LineId> = self.line_ids().collect();
        let slot = |id: LineId, height: usize| match id.axis {
            Axis::Row => id.index,
            Axis::Column => height + id.index,
        };
        let mut queued = vec![true; ids.len()];
        let mut queue: VecDeque<LineId> = ids.into_iter().collect();
        let mut deductions = 0;
        while let Some(id) = queue.pop_front() {
            queued[slot(id, self.height)] = false;
            let line = self.line(id);
            deductions += 1;
            let cells = deduce(&line).map_err(|source| BoardError::Deducer { line: id, source })?;
            for i in self.apply(id, &cells)? {
                let other = Board::crossing(id, i);
                let s = slot(other, self.height);
                if !queued[s] {
                    queued[s] = true;
                    queue.push_back(other);
                }
            }
        }
        Ok(self.report(deductions))
    }

    /// Solves to a fixpoint with the exact line solver.
    pub fn solve_exact(&mut self) -> Result<SolveReport, BoardError<Contradiction>> {
        self.solve_with(exact)
    }

    fn report(&self, deductions: usize) -> SolveReport {
        SolveReport { solved: self.is_solved(), known: self.known_count(), total: self.cells.len(), deductions }
    }

    /// True if every known cell agrees with a solution given row by row
    /// (`true` = filled).
    pub fn agrees_with(&self, solution: &[bool]) -> bool {
        solution.len() == self.cells.len()
            && self.cells.iter().zip(solution).all(|(c, &v)| c.agrees_with(Cell::from_bool(v)))
    }
}

/// Text rendering: column clues stacked above the grid, row clues to the
/// left, cells as `#` (filled), `x` (crossed) and `.` (unknown). An empty
/// clue is shown as `0`.
impl fmt::Display for Board {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let show = |h: &[u32]| -> Vec<String> {
            if h.is_empty() {
                vec!["0".to_string()]
            } else {
                h.iter().map(u32::to_string).collect()
            }
        };
        let cols: Vec<Vec<String>> = self.col_hints.iter().map(|h| show(h)).collect();
        let rows: Vec<String> = self.row_hints.iter().map(|h| show(h).join(" ")).collect();
        let cw = cols.iter().flatten().map(String::len).max().unwrap_or(1);
        let rw = rows.iter().map(String::len).max().unwrap_or(0);
        let depth = cols.iter().map(Vec::len).max().unwrap_or(0);
        for d in 0..depth {
            write!(f, "{:rw$} |", "")?;
            for c in &cols {
                let skip = depth - c.len();
                let s = if d >= skip { c[d - skip].as_str() } else { "" };
                write!(f, " {s:>cw$}")?;
            }
            writeln!(f)?;
        }
        write!(f, "{:-<rw$}-+", "")?;
        writeln!(f, "{}", "-".repeat((cw + 1) * self.width))?;
        for (r, clue) in rows.iter().enumerate() {
            write!(f, "{clue:>rw$} |")?;
            for c in 0..self.width {
                write!(f, " {:>cw$}", self.get(r, c).to_char())?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn duck() -> Board {
        // 101 / 000 / 111
        Board::new(vec![vec![1, 1], vec![], vec![3]], vec![vec![1, 1], vec![1], vec![1, 1]])
    }

    #[test]
    fn solves_and_renders() {
        let mut b = duck();
        let r = b.solve_exact().unwrap();
        assert!(r.solved);
        assert_eq!((r.known, r.total), (9, 9));
        assert!(b.agrees_with(&[true, false, true, false, false, false, true, true, true]));
        let text = b.to_string();
        assert_eq!(text, "    | 1   1\n    | 1 1 1\n----+------\n1 1 | # x #\n  0 | x x x\n  3 | # # #\n");
    }

    #[test]
    fn contradiction_is_an_error() {
        let mut b = Board::new(vec![vec![2], vec![]], vec![vec![], vec![]]);
        let e = b.solve_exact().unwrap_err();
        assert!(matches!(e, BoardError::Deducer { .. }), "{e}");
    }

    #[test]
    fn a_weak_deducer_stops_early() {
        // A deducer that never deduces anything leaves the board unknown.
        let mut b = duck();
        let r = b.solve_with(|l: &Line| Ok::<_, Contradiction>(l.cells.clone())).unwrap();
        assert!(!r.solved);
        assert_eq!(r.known, 0);
        assert_eq!(r.deductions, 6);
    }

    #[test]
    fn conflicting_deducer_is_caught() {
        let mut b = duck();
        b.set(0, 0, Cell::True);
        let e = b.solve_with(|l: &Line| Ok::<_, Contradiction>(vec![Cell::False; l.len()])).unwrap_err();
        assert!(matches!(e, BoardError::Conflict { cell: 0, .. }), "{e}");
    }
}
