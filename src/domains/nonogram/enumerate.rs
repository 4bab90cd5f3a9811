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

/// Every valid line state of exactly `len` cells, with its maximal transition.
pub fn valid_lines_of_len(len: usize) -> Vec<LineState> {
    let mut solver = LineSolver::new();
    let mut out = vec![];
    let total = 3usize.pow(len as u32);
    for hints in hint_sequences(len) {
        for code in 0..total {
            let mut c = code;
            let cells: Vec<Cell> = (0..len)
                .map(|_| {
                    let cell = [Cell::Unknown, Cell::True, Cell::False][c % 3];
                    c /= 3;
                    cell
                })
                .collect();
            let line = Line::new(hints.clone(), cells);
            if let Some(target) = solver.solve(&line) {
                out.push(LineState { line, target });
            }
        }
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
    fn all_enumerated_lines_are_valid_and_complete_lines_are_counted() {
        let lines = valid_lines_of_len(4);
        // every complete line of 4 cells is valid for exactly one hint sequence
        let complete = lines.iter().filter(|s| s.line.is_complete()).count();
        assert_eq!(complete, 16);
        assert!(lines.iter().all(|s| s.target.len() == 4));
    }
}
