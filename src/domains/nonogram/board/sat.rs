//! The complete solver's fallback for boards its probing search finds hard:
//! the board as a formula in conjunctive normal form (`cnf`: a regular
//! constraint per line, on which unit propagation is the exact line solver)
//! given to CaDiCaL, a conflict-driven clause-learning SAT solver (what the
//! probing search lacks), and its solutions counted up to a limit by
//! blocking each one found and solving again on the same solver, which
//! keeps the clauses it learnt.
//!
//! CaDiCaL was chosen by measurement: on the formulas of the survey's
//! hardest boards it is several times faster than Z3's SAT solver (the
//! figures are in docs/workbench.md).
//!
//! This module knows clues, bit boards and the SAT solver: not search,
//! nodes or limits other than a deadline.

use std::time::Instant;

use super::bitboard::BitBoard;
use super::cnf::{cell_lit, encode};
use super::propagate::Clues;

/// Solutions of a board besides the ones already known.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// New solutions (row by row, `true` = filled), distinct, in the order
    /// found.
    pub solutions: Vec<Vec<bool>>,
    /// True unless the deadline passed before the solver knew whether there
    /// were more (as many as wanted, or no more).
    pub complete: bool,
}

/// Stops CaDiCaL at a deadline (it asks every few thousand steps).
struct Deadline(Option<Instant>);

impl cadical::Callbacks for Deadline {
    fn terminate(&mut self) -> bool {
        self.0.is_some_and(|d| Instant::now() >= d)
    }
}

/// Up to `wanted` solutions of `board` other than those in `known` (which
/// must be solutions of it), found by CaDiCaL before `deadline`.
pub fn solutions(
    clues: &Clues,
    board: &BitBoard,
    known: &[Vec<bool>],
    wanted: usize,
    deadline: Option<Instant>,
) -> Found {
    let Some(cnf) = encode(clues, board) else {
        return Found { solutions: vec![], complete: true };
    };
    let mut solver: cadical::Solver<Deadline> = cadical::Solver::new();
    solver.reserve(cnf.vars);
    for clause in cnf.clauses {
        solver.add_clause(clause);
    }
    solver.set_callbacks(Some(Deadline(deadline)));
    let unknown: Vec<usize> =
        (0..clues.cells()).filter(|&i| !board.get(i / clues.width(), i % clues.width()).is_known()).collect();
    for solution in known {
        solver.add_clause(blocking(&unknown, solution));
    }
    let mut found = vec![];
    while found.len() < wanted {
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return Found { solutions: found, complete: false };
        }
        match solver.solve() {
            Some(false) => break,
            None => return Found { solutions: found, complete: false },
            Some(true) => {
                let solution: Vec<bool> =
                    (0..clues.cells()).map(|i| solver.value(cell_lit(i)).unwrap_or(false)).collect();
                solver.add_clause(blocking(&unknown, &solution));
                found.push(solution);
            }
        }
    }
    Found { solutions: found, complete: true }
}

/// The clause excluding `solution`: some unknown cell differs.
fn blocking(unknown: &[usize], solution: &[bool]) -> Vec<i32> {
    unknown.iter().map(|&i| if solution[i] { -cell_lit(i) } else { cell_lit(i) }).collect()
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
