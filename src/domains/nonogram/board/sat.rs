//! The complete solver's fallback for boards its probing search finds hard:
//! the board as a Boolean formula given to Z3's SAT solver (conflict-driven
//! clause learning, which the probing search lacks), and its solutions
//! counted up to a limit by blocking each one found.
//!
//! The formula of a board (every cell it knows is a unit clause): a
//! variable per cell (true = filled) and, per line, one per place its block
//! `j` (of `h` cells) may start — `s` such that cells `s..s+h` are not known
//! empty and the cells just before and after are not known filled. For
//! each block exactly one start; the starts of blocks `j` and `j+1` at
//! least `h + 1` apart; a block's start fills its cells; a filled cell is
//! covered by some start. Redundant clauses help propagation: a start
//! empties the cells around its block and needs a start of the next and
//! the previous block with room between. Those starts make the line's
//! filled cells exactly its blocks in order with gaps between, so the
//! formula's models are the board's solutions.
//!
//! This module knows clues, bit boards and Z3: not search, nodes or limits
//! other than a deadline.

use std::time::Instant;

use z3::ast::Bool;
use z3::{Params, SatResult, Solver};

use super::bitboard::BitBoard;
use super::propagate::Clues;
use crate::domains::nonogram::line::model::Cell;

/// Solutions of a board besides the ones already known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// New solutions (row by row, `true` = filled), distinct, in the order
    /// found.
    pub solutions: Vec<Vec<bool>>,
    /// True unless the deadline passed before Z3 knew whether there were
    /// more (as many as wanted, or no more).
    pub complete: bool,
}

/// Up to `wanted` solutions of `board` other than those in `known` (which
/// must be solutions of it), found by Z3 before `deadline`.
pub fn solutions(
    clues: &Clues,
    board: &BitBoard,
    known: &[Vec<bool>],
    wanted: usize,
    deadline: Option<Instant>,
) -> Found {
    z3::with_z3_config(&z3::Config::new(), || {
        let cells: Vec<Bool> = (0..clues.cells()).map(|i| Bool::new_const(format!("c{i}"))).collect();
        let solver = Solver::new_for_logic("QF_FD").unwrap_or_default();
        if !assert_board(&solver, clues, board, &cells) {
            return Found { solutions: vec![], complete: true };
        }
        let unknown: Vec<usize> = (0..clues.cells()).filter(|&i| !cell_of(board, clues, i).is_known()).collect();
        for solution in known {
            block(&solver, &cells, &unknown, solution);
        }
        let mut found = vec![];
        while found.len() < wanted {
            if let Some(d) = deadline {
                let left = d.saturating_duration_since(Instant::now()).as_millis();
                if left == 0 {
                    return Found { solutions: found, complete: false };
                }
                let mut params = Params::new();
                params.set_u32("timeout", left.min(u32::MAX as u128) as u32);
                solver.set_params(&params);
            }
            match solver.check() {
                SatResult::Unsat => break,
                SatResult::Unknown => return Found { solutions: found, complete: false },
                SatResult::Sat => {
                    let model = solver.get_model().expect("a satisfiable check has a model");
                    let solution: Vec<bool> =
                        cells.iter().map(|c| model.eval(c, true).and_then(|v| v.as_bool()).unwrap_or(false)).collect();
                    block(&solver, &cells, &unknown, &solution);
                    found.push(solution);
                }
            }
        }
        Found { solutions: found, complete: true }
    })
}

/// The value of grid cell `i` on `board`.
fn cell_of(board: &BitBoard, clues: &Clues, i: usize) -> Cell {
    board.get(i / clues.width(), i % clues.width())
}

/// Excludes `solution` from the models: some unknown cell differs.
fn block(solver: &Solver, cells: &[Bool], unknown: &[usize], solution: &[bool]) {
    let differs: Vec<Bool> =
        unknown.iter().map(|&i| if solution[i] { cells[i].not() } else { cells[i].clone() }).collect();
    solver.assert(Bool::or(&differs));
}

/// Asserts the formula of `board` (see the module doc); false if some
/// block has nowhere to start (no solution).
fn assert_board(solver: &Solver, clues: &Clues, board: &BitBoard, cells: &[Bool]) -> bool {
    for (i, cell) in cells.iter().enumerate() {
        match cell_of(board, clues, i) {
            Cell::True => solver.assert(cell),
            Cell::False => solver.assert(cell.not()),
            Cell::Unknown => {}
        }
    }
    (0..clues.line_count()).all(|l| assert_line(solver, clues, board, cells, l))
}

/// Asserts the clauses of line `l`; false if a block has nowhere to start.
fn assert_line(solver: &Solver, clues: &Clues, board: &BitBoard, cells: &[Bool], l: usize) -> bool {
    let n = clues.len(l);
    let hints = clues.hints(l);
    let at = |i: usize| cell_of(board, clues, clues.pos(l, i));
    let line_cell = |i: usize| &cells[clues.pos(l, i)];
    let total: usize = hints.iter().map(|&h| h as usize + 1).sum();
    if total > n + 1 {
        return false;
    }
    // the starts of each block, with their variables
    let mut starts: Vec<Vec<(usize, Bool)>> = vec![];
    let mut earliest = 0;
    for (j, &h) in hints.iter().enumerate() {
        let h = h as usize;
        let latest = n + 1 - hints[j..].iter().map(|&h| h as usize + 1).sum::<usize>();
        let places: Vec<(usize, Bool)> = (earliest..=latest)
            .filter(|&s| (s..s + h).all(|i| at(i) != Cell::False))
            .filter(|&s| (s == 0 || at(s - 1) != Cell::True) && (s + h == n || at(s + h) != Cell::True))
            .map(|s| (s, Bool::fresh_const("start")))
            .collect();
        if places.is_empty() {
            return false;
        }
        earliest += h + 1;
        starts.push(places);
    }
    for (j, places) in starts.iter().enumerate() {
        let h = hints[j] as usize;
        solver.assert(any_of(places.iter()));
        for (a, (_, va)) in places.iter().enumerate() {
            for (_, vb) in &places[a + 1..] {
                solver.assert(Bool::or(&[va.not(), vb.not()]));
            }
        }
        for (s, v) in places {
            for i in *s..s + h {
                solver.assert(v.implies(line_cell(i)));
            }
            // redundant, for propagation: the cells around the block are
            // empty, and the neighbouring blocks have room
            for i in [s.checked_sub(1), Some(s + h).filter(|&i| i < n)].into_iter().flatten() {
                solver.assert(v.implies(line_cell(i).not()));
            }
            if let Some(next) = starts.get(j + 1) {
                for (_, vn) in next.iter().filter(|(t, _)| *t <= s + h) {
                    solver.assert(Bool::or(&[v.not(), vn.not()]));
                }
                solver.assert(v.implies(any_of(next.iter().filter(|(t, _)| *t > s + h))));
            }
            if j > 0 {
                let hb = hints[j - 1] as usize;
                solver.assert(v.implies(any_of(starts[j - 1].iter().filter(|(t, _)| t + hb < *s))));
            }
        }
    }
    for i in 0..n {
        let covering = starts
            .iter()
            .zip(hints)
            .flat_map(|(places, &h)| places.iter().filter(move |(s, _)| *s <= i && i < s + h as usize));
        solver.assert(line_cell(i).implies(any_of(covering)));
    }
    true
}

/// True iff some of the starts' variables is.
fn any_of<'a>(starts: impl Iterator<Item = &'a (usize, Bool)>) -> Bool {
    Bool::or(&starts.map(|(_, v)| v.clone()).collect::<Vec<_>>())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two 1s on a 2x2 board: the two diagonals, found and then blocked.
    #[test]
    fn counts_the_diagonals_and_stops_at_the_limit() {
        let clues = Clues::new(vec![vec![1], vec![1]], vec![vec![1], vec![1]]);
        let board = BitBoard::new(&clues);
        let all = solutions(&clues, &board, &[], 10, None);
        let mut got = all.solutions.clone();
        got.sort();
        assert_eq!(got, vec![vec![false, true, true, false], vec![true, false, false, true]]);
        assert!(all.complete);
        let one = solutions(&clues, &board, &all.solutions[..1], 10, None);
        assert_eq!(one.solutions, all.solutions[1..]);
        assert_eq!(solutions(&clues, &board, &[], 1, None).solutions.len(), 1);
        // a clue too long for its line: nothing
        let bad = Clues::new(vec![vec![3], vec![]], vec![vec![1], vec![1]]);
        assert_eq!(solutions(&bad, &BitBoard::new(&bad), &[], 2, None), Found { solutions: vec![], complete: true });
    }
}
