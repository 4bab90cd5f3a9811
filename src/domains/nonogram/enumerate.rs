//! Enumeration of every valid line state of small lengths: the exhaustive
//! table that rejects candidate rules before Z3, and the training states of
//! specification mining.

use super::domain::LineState;
use super::line::{Cell, Line};
use super::solver::LineSolver;

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
/// them) for an automaton whose states are positions in it.
struct Pattern {
    cells: Vec<bool>,
}

impl Pattern {
    fn new(hints: &[u32]) -> Pattern {
        let mut cells = vec![];
        for (i, &h) in hints.iter().enumerate() {
            if i > 0 {
                cells.push(false);
            }
            cells.extend(std::iter::repeat(true).take(h as usize));
        }
        Pattern { cells }
    }

    /// States reachable from `states` (a bitset of positions) reading `cell`.
    fn step(&self, states: u64, cell: Cell) -> u64 {
        let end = self.cells.len();
        let mut out = 0u64;
        for p in 0..=end {
            if states >> p & 1 == 0 {
                continue;
            }
            let may_be = |v: bool| cell == Cell::Unknown || cell == Cell::from_bool(v);
            // extra empty cells are allowed at the ends and after a separator
            if may_be(false) && (p == 0 || p == end || !self.cells[p - 1]) {
                out |= 1 << p;
            }
            if p < end && may_be(self.cells[p]) {
                out |= 1 << (p + 1);
            }
        }
        out
    }
}

/// Calls `f` with every valid line of exactly `len` cells and the given
/// hints: a depth-first walk over cells that keeps only prefixes some
/// solution extends.
fn for_each_valid_cells(hints: &[u32], len: usize, f: &mut impl FnMut(&[Cell])) {
    let pattern = Pattern::new(hints);
    let end = pattern.cells.len();
    // finish[r]: states from which r unknown cells can reach the end
    let mut finish = vec![1u64 << end];
    for r in 1..=len {
        let mut ok = 0u64;
        for p in 0..=end {
            if pattern.step(1 << p, Cell::Unknown) & finish[r - 1] != 0 {
                ok |= 1 << p;
            }
        }
        finish.push(ok);
    }
    let mut cells = Vec::with_capacity(len);
    fn walk(pattern: &Pattern, finish: &[u64], len: usize, states: u64, cells: &mut Vec<Cell>, f: &mut impl FnMut(&[Cell])) {
        if cells.len() == len {
            f(cells);
            return;
        }
        for c in [Cell::Unknown, Cell::True, Cell::False] {
            let next = pattern.step(states, c);
            if next & finish[len - cells.len() - 1] != 0 {
                cells.push(c);
                walk(pattern, finish, len, next, cells, f);
                cells.pop();
            }
        }
    }
    walk(&pattern, &finish, len, 1, &mut cells, f);
}

/// Calls `f` with every valid line state of exactly `len` cells and the
/// given hints, with its maximal transition.
pub fn for_each_valid_line(hints: &[u32], len: usize, mut f: impl FnMut(&LineState)) {
    let mut solver = LineSolver::new();
    for_each_valid_cells(hints, len, &mut |cells| {
        let line = Line::new(hints.to_vec(), cells.to_vec());
        let target = solver.solve(&line).expect("the walk yields only valid lines");
        f(&LineState { line, target });
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
    fn the_walk_yields_exactly_the_valid_lines() {
        let mut solver = LineSolver::new();
        for len in 1..=6 {
            for hints in hint_sequences(len) {
                let mut walked = vec![];
                for_each_valid_line(&hints, len, |s| walked.push(s.line.cells.clone()));
                let mut brute = vec![];
                for code in 0..3usize.pow(len as u32) {
                    let cells: Vec<Cell> = (0..len).map(|i| [Cell::Unknown, Cell::True, Cell::False][code / 3usize.pow(i as u32) % 3]).collect();
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
