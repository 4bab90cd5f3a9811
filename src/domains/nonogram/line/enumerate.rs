//! Enumeration of every valid line state of small lengths: the exhaustive
//! table that rejects candidate rules before Z3, and the training states of
//! specification mining.

use super::model::{Cell, Line};
use super::state::LineState;

/// Every hint sequence that fits in `len` cells (including no hints).
pub fn hint_sequences(len: usize) -> Vec<Vec<u32>> {
    let mut out = vec![vec![]];
    let mut stack: Vec<(Vec<u32>, usize)> = vec![(vec![], 0)];
    while let Some((hints, used)) = stack.pop() {
        // `used` counts the cells the hints take, with one separator each
        let room = len.saturating_sub(used + usize::from(!hints.is_empty()));
        for h in 1..=room {
            let mut next = hints.clone();
            next.push(h as u32);
            out.push(next.clone());
            stack.push((next, used + usize::from(!hints.is_empty()) + h));
        }
    }
    out.sort();
    out
}

/// The hint pattern as a string of cells (`1`s for hints, one `0` between
/// them) for an automaton whose states are positions in it, as bit masks
/// over positions `0..=end` (so patterns are at most 63 cells).
struct Pattern {
    /// One past the last position.
    end: usize,
    /// Positions before a `1` of the pattern (reading true advances).
    ones: u64,
    /// Positions before a separator `0` (reading false advances).
    zeros: u64,
    /// Positions where an extra false cell is allowed: the two ends and
    /// right after a separator.
    stay: u64,
}

impl Pattern {
    fn new(hints: &[u32]) -> Pattern {
        let mut cells = vec![];
        for (i, &h) in hints.iter().enumerate() {
            if i > 0 {
                cells.push(false);
            }
            cells.extend(std::iter::repeat_n(true, h as usize));
        }
        let end = cells.len();
        let mut p = Pattern { end, ones: 0, zeros: 0, stay: 1 | 1 << end };
        for (i, &c) in cells.iter().enumerate() {
            if c {
                p.ones |= 1 << i;
            } else {
                p.zeros |= 1 << i;
                p.stay |= 1 << (i + 1);
            }
        }
        p
    }

    /// States reachable from `states` reading `cell`.
    fn step(&self, states: u64, cell: Cell) -> u64 {
        let on_false = (states & self.stay) | (states & self.zeros) << 1;
        let on_true = (states & self.ones) << 1;
        match cell {
            Cell::Unknown => on_false | on_true,
            Cell::True => on_true,
            Cell::False => on_false,
        }
    }

    /// States from which reading `cell` reaches one of `states`.
    fn back(&self, states: u64, cell: Cell) -> u64 {
        let on_false = (states & self.stay) | (states >> 1 & self.zeros);
        let on_true = states >> 1 & self.ones;
        match cell {
            Cell::Unknown => on_false | on_true,
            Cell::True => on_true,
            Cell::False => on_false,
        }
    }

    /// The accepting state.
    fn accept(&self) -> u64 {
        1 << self.end
    }
}

/// Calls `f(cells, target)` with the cells of every valid line of exactly
/// `len` cells and the given hints and its maximal transition, in the
/// walk's order: a depth-first walk over cells (unknown, true, false) that
/// keeps only prefixes some solution extends. The maximal transition comes
/// from the same automaton: a cell can take a value if a state reached
/// before it steps on that value into a state that can finish the line.
///
/// # Panics
/// If the hints need more than 63 cells.
pub fn for_each_valid_solved(hints: &[u32], len: usize, mut f: impl FnMut(&[Cell], &[Cell])) {
    assert!(Line::min_len(hints) < 64, "hint patterns longer than 63 cells are not supported");
    let pattern = Pattern::new(hints);
    // finish[r]: states from which r unknown cells can reach the end
    let mut finish = vec![pattern.accept()];
    for r in 1..=len {
        finish.push(pattern.back(finish[r - 1], Cell::Unknown));
    }
    if finish[len] & 1 == 0 {
        return;
    }
    struct Walk<'a> {
        pattern: &'a Pattern,
        finish: &'a [u64],
        len: usize,
        cells: Vec<Cell>,
        /// `reached[i]`: the states after the first i cells.
        reached: Vec<u64>,
        target: Vec<Cell>,
    }
    impl Walk<'_> {
        fn leaf(&mut self, f: &mut impl FnMut(&[Cell], &[Cell])) {
            let mut after = self.pattern.accept();
            for i in (0..self.len).rev() {
                let c = self.cells[i];
                let can = |v: Cell| c.agrees_with(v) && self.pattern.step(self.reached[i], v) & after != 0;
                self.target[i] = match (can(Cell::True), can(Cell::False)) {
                    (true, false) => Cell::True,
                    (false, true) => Cell::False,
                    _ => Cell::Unknown,
                };
                after = self.pattern.back(after, c);
            }
            f(&self.cells, &self.target);
        }

        fn walk(&mut self, f: &mut impl FnMut(&[Cell], &[Cell])) {
            let depth = self.cells.len();
            if depth == self.len {
                self.leaf(f);
                return;
            }
            for c in [Cell::Unknown, Cell::True, Cell::False] {
                let next = self.pattern.step(self.reached[depth], c);
                if next & self.finish[self.len - depth - 1] != 0 {
                    self.cells.push(c);
                    self.reached.push(next);
                    self.walk(f);
                    self.cells.pop();
                    self.reached.pop();
                }
            }
        }
    }
    let mut walk = Walk {
        pattern: &pattern,
        finish: &finish,
        len,
        cells: Vec::with_capacity(len),
        reached: vec![1],
        target: vec![Cell::Unknown; len],
    };
    walk.walk(&mut f);
}

/// Calls `f` with every valid line state of exactly `len` cells and the
/// given hints, with its maximal transition.
pub fn for_each_valid_line(hints: &[u32], len: usize, mut f: impl FnMut(&LineState)) {
    for_each_valid_solved(hints, len, |cells, target| {
        f(&LineState { line: Line::new(hints.to_vec(), cells.to_vec()), target: target.to_vec() });
    });
}

/// Every valid line state of exactly `len` cells, with its maximal transition.
pub fn valid_lines_of_len(len: usize) -> Vec<LineState> {
    let mut out = vec![];
    for hints in hint_sequences(len) {
        for_each_valid_line(&hints, len, |s| out.push(s.clone()));
    }
    out
}

/// Every valid line state of 1..=max_len cells.
pub fn valid_lines(max_len: usize) -> Vec<LineState> {
    (1..=max_len).flat_map(valid_lines_of_len).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::solver::LineSolver;

    #[test]
    fn hint_sequences_fit() {
        // compositions with separators: 1 + 3 + ... ; for 3 cells: [], 1, 2, 3, 1 1
        assert_eq!(hint_sequences(3), vec![vec![], vec![1], vec![1, 1], vec![2], vec![3]]);
        for len in 0..9 {
            for h in hint_sequences(len) {
                assert!(Line::min_len(&h) <= len as u64);
            }
        }
    }

    #[test]
    fn the_walk_yields_exactly_the_valid_lines_with_their_maximal_transitions() {
        let mut solver = LineSolver::new();
        for len in 1..=6 {
            for hints in hint_sequences(len) {
                let mut walked = vec![];
                for_each_valid_line(&hints, len, |s| {
                    assert_eq!(solver.solve(&s.line).as_ref(), Some(&s.target), "{}", s.line);
                    walked.push(s.line.cells.clone());
                });
                let mut brute = vec![];
                for code in 0..3usize.pow(len as u32) {
                    let cells: Vec<Cell> = (0..len)
                        .map(|i| [Cell::Unknown, Cell::True, Cell::False][code / 3usize.pow(i as u32) % 3])
                        .collect();
                    if solver.is_valid(&hints, &cells) {
                        brute.push(cells);
                    }
                }
                walked.sort();
                brute.sort();
                assert_eq!(walked, brute, "hints {hints:?} len {len}");
            }
        }
    }

    #[test]
    fn all_enumerated_lines_are_valid_and_complete_lines_are_counted() {
        let lines = valid_lines_of_len(4);
        // every complete line of 4 cells is valid for exactly one hint sequence
        let complete = lines.iter().filter(|s| s.line.is_complete()).count();
        assert_eq!(complete, 16);
        assert!(lines.iter().all(|s| s.target.len() == 4));
    }
}
