//! A board as two bit masks per line (cells known filled, cells known
//! empty; bit `i` is cell `i` of the line), and line propagation on it to a
//! fixpoint with a memo of line results.
//!
//! This is the inner loop of the complete solver (`search`): a board is a
//! few hundred bytes, copied with one `memcpy` per probe, and a line state
//! the solver has seen before (probing sees the same ones again and again)
//! is answered from the memo keyed by (line, state) instead of the exact
//! line solver (`bitline`). Lines hold at most [`MAX_LINE`] cells.

use rustc_hash::FxHashMap;

use super::propagate::{Clues, Conflict};
use crate::domains::nonogram::line::bitline::{solve, Masks, MAX_LINE};
use crate::domains::nonogram::line::model::Cell;

/// The memo's largest size (entries); it is emptied when full, so memory
/// stays bounded whatever the search does.
const MEMO_LIMIT: usize = 1 << 18;

/// The value of cell `i` of a line.
#[inline]
fn cell(m: Masks, i: usize) -> Cell {
    if m.fill >> i & 1 == 1 {
        Cell::True
    } else if m.empty >> i & 1 == 1 {
        Cell::False
    } else {
        Cell::Unknown
    }
}

/// A board's known cells: one [`Masks`] per line, rows then columns as in
/// [`Clues`]. Both lines through a cell always agree on it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BitBoard {
    lines: Vec<Masks>,
    height: usize,
}

impl BitBoard {
    /// The board of `clues` with every cell unknown.
    pub fn new(clues: &Clues) -> BitBoard {
        assert!(clues.width().max(clues.height()) <= MAX_LINE, "bit boards hold lines of at most {MAX_LINE} cells");
        BitBoard { lines: vec![Masks::default(); clues.line_count()], height: clues.height() }
    }

    /// The value of the cell at row `r`, column `c`.
    #[inline]
    pub fn get(&self, r: usize, c: usize) -> Cell {
        cell(self.lines[r], c)
    }

    /// Sets the unknown cell at row `r`, column `c` in both its lines.
    #[inline]
    pub fn set(&mut self, r: usize, c: usize, value: bool) {
        let column = self.height + c;
        if value {
            self.lines[r].fill |= 1 << c;
            self.lines[column].fill |= 1 << r;
        } else {
            self.lines[r].empty |= 1 << c;
            self.lines[column].empty |= 1 << r;
        }
    }

    /// The number of unknown cells.
    pub fn unknown(&self, width: usize) -> usize {
        self.height * width - self.known()
    }

    /// The number of known cells.
    pub fn known(&self) -> usize {
        self.rows().iter().map(|m| m.known().count_ones() as usize).sum()
    }

    /// For each line (rows then columns), whether its known cells differ
    /// from `other`'s.
    pub fn changed_lines(&self, other: &BitBoard) -> Vec<bool> {
        self.lines.iter().zip(&other.lines).map(|(a, b)| a != b).collect()
    }

    /// The rows' known cells, top to bottom.
    pub fn rows(&self) -> &[Masks] {
        &self.lines[..self.height]
    }

    /// The unknown cells (grid indices, row by row).
    pub fn unknown_cells(&self, width: usize) -> Vec<usize> {
        let rows = self.lines[..self.height].iter().enumerate();
        rows.flat_map(|(r, m)| (0..width).filter(move |&c| m.known() >> c & 1 == 0).map(move |c| r * width + c))
            .collect()
    }

    /// The cells row by row, `true` = filled (unknown cells read as empty).
    pub fn filled(&self, width: usize) -> Vec<bool> {
        self.lines[..self.height].iter().flat_map(|m| (0..width).map(move |c| m.fill >> c & 1 == 1)).collect()
    }
}

/// Reusable buffers for propagation and the memo of line results. The memo
/// is keyed by line number: one propagator serves the boards of one set of
/// clues only.
#[derive(Debug, Default)]
pub struct BitPropagator {
    queue: Vec<usize>,
    queued: Vec<bool>,
    /// Line results by (line, known cells): the line's known cells after
    /// the exact line solver, `None` if the state has no solution.
    memo: FxHashMap<(u32, Masks), Option<Masks>>,
}

impl BitPropagator {
    /// A propagator with empty buffers and memo.
    pub fn new() -> BitPropagator {
        BitPropagator::default()
    }

    /// The line solver's answer for line `l` in state `m`, from the memo
    /// when it has it.
    fn solve_line(&mut self, clues: &Clues, l: usize, m: Masks) -> Option<Masks> {
        if let Some(&r) = self.memo.get(&(l as u32, m)) {
            return r;
        }
        let r = solve(clues.hints(l), clues.len(l), m);
        if self.memo.len() >= MEMO_LIMIT {
            self.memo.clear();
        }
        self.memo.insert((l as u32, m), r);
        r
    }

    fn push(&mut self, l: usize) {
        if !self.queued[l] {
            self.queued[l] = true;
            self.queue.push(l);
        }
    }

    fn reset(&mut self, clues: &Clues) {
        self.queue.clear();
        self.queued.clear();
        self.queued.resize(clues.line_count(), false);
    }

    /// Propagates from every line. Returns the number of cells it fixed.
    pub fn all(&mut self, clues: &Clues, board: &mut BitBoard) -> Result<usize, Conflict> {
        self.reset(clues);
        for l in (0..clues.line_count()).rev() {
            self.push(l);
        }
        self.run(clues, board)
    }

    /// Sets the unknown cell at row `r`, column `c` to `value` and
    /// propagates from its two lines. Returns the number of cells it fixed
    /// besides that one.
    pub fn assume(
        &mut self,
        clues: &Clues,
        board: &mut BitBoard,
        (r, c): (usize, usize),
        value: bool,
    ) -> Result<usize, Conflict> {
        self.reset(clues);
        board.set(r, c, value);
        self.push(r);
        self.push(clues.height() + c);
        self.run(clues, board)
    }

    /// Fixes the cells unknown in `board` that two boards grown from it
    /// (`a` and `b`, its two probes of one cell) fix to the same value, and
    /// propagates from their lines. Returns the number of cells fixed, the
    /// common ones included.
    pub fn merge(
        &mut self,
        clues: &Clues,
        board: &mut BitBoard,
        a: &BitBoard,
        b: &BitBoard,
    ) -> Result<usize, Conflict> {
        self.reset(clues);
        let mut common = 0;
        for l in 0..clues.line_count() {
            let (m, x, y) = (board.lines[l], a.lines[l], b.lines[l]);
            let fill = x.fill & y.fill & !m.fill;
            let empty = x.empty & y.empty & !m.empty;
            if fill | empty != 0 {
                board.lines[l] = Masks { fill: m.fill | fill, empty: m.empty | empty };
                if l < clues.height() {
                    common += (fill | empty).count_ones() as usize;
                }
                self.push(l);
            }
        }
        Ok(common + self.run(clues, board)?)
    }

    fn run(&mut self, clues: &Clues, board: &mut BitBoard) -> Result<usize, Conflict> {
        let h = clues.height();
        let mut fixed = 0;
        while let Some(l) = self.queue.pop() {
            self.queued[l] = false;
            let m = board.lines[l];
            let r = self.solve_line(clues, l, m).ok_or(Conflict { line: l })?;
            let mut new = r.known() & !m.known();
            if new == 0 {
                continue;
            }
            board.lines[l] = r;
            fixed += new.count_ones() as usize;
            // the crossing line of each new cell takes the value too
            let (base, pos) = if l < h { (h, l) } else { (0, l - h) };
            while new != 0 {
                let i = new.trailing_zeros() as usize;
                new &= new - 1;
                let cross = &mut board.lines[base + i];
                if r.fill >> i & 1 == 1 {
                    cross.fill |= 1 << pos;
                } else {
                    cross.empty |= 1 << pos;
                }
                self.push(base + i);
            }
        }
        Ok(fixed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::board::propagate::Propagator;

    /// The same fixpoint and conflicts as the cell-grid propagator.
    #[test]
    fn agrees_with_the_cell_propagator() {
        let clues = Clues::new(vec![vec![1, 1], vec![], vec![3]], vec![vec![1, 1], vec![1], vec![1, 1]]);
        let mut board = BitBoard::new(&clues);
        let mut p = BitPropagator::new();
        assert_eq!(p.all(&clues, &mut board), Ok(9));
        let text: String =
            (0..3).flat_map(|r| (0..3).map(move |c| (r, c))).map(|(r, c)| board.get(r, c).to_char()).collect();
        assert_eq!(text, "#x#xxx###");
        assert_eq!(board.unknown(3), 0);
        let mut grid = vec![Cell::Unknown; 9];
        Propagator::new().all(&clues, &mut grid).unwrap();
        assert_eq!(text, grid.iter().map(|c| c.to_char()).collect::<String>());
        let bad = Clues::new(vec![vec![2], vec![]], vec![vec![], vec![]]);
        assert!(BitPropagator::new().all(&bad, &mut BitBoard::new(&bad)).is_err());
    }
}
