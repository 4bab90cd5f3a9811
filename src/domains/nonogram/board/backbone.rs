//! The cells where the solutions of a board's clues disagree: given one
//! solution, every cell some other solution sets the other way (the
//! complement of the clues' backbone). None: the solution is the only one.
//!
//! Line propagation first fixes what it can (sound: those cells are in
//! every solution). Then one incremental CaDiCaL on the propagated board's
//! formula (the regular encoding) is asked again and again for a solution
//! differing from the given one in some cell not yet seen to differ; each
//! answer adds every cell where it differs, and the next question asks for
//! a difference among the cells left. Each question's clause implies the
//! one before, so the clauses stay. Unsatisfiable: the cells left are in
//! every solution.
//!
//! This module knows clues, bit boards and CaDiCaL: not search or repair.

use std::time::Instant;

use super::bitboard::{BitBoard, BitPropagator};
use super::cnf::cell_lit;
use super::encoding::{encode, Encoding};
use super::propagate::Clues;
use super::sat::Deadline;

/// The cells where other solutions were seen to differ.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The cells (ascending) where some other solution was found to differ.
    pub cells: Vec<usize>,
    /// True if every other cell is proven the same in every solution (else
    /// a question ran out of conflicts: there may be more).
    pub complete: bool,
}

/// The cells where some solution of `clues` differs from `solution` (a
/// solution of them), each question to the solver given at most
/// `conflicts` conflicts (`None`: no limit); `None` if `deadline` passed.
pub fn disagreement(
    clues: &Clues,
    solution: &[bool],
    conflicts: Option<i32>,
    deadline: Option<Instant>,
) -> Option<Disagreement> {
    let everything = Disagreement { cells: (0..clues.cells()).collect(), complete: true };
    let mut root = BitBoard::new(clues);
    if BitPropagator::new().all(clues, &mut root).is_err() {
        // not the clues of `solution`: every cell is in doubt
        return Some(everything);
    }
    let Some(cnf) = encode(Encoding::Regular, clues, &root) else {
        return Some(everything);
    };
    let mut solver: cadical::Solver<Deadline> = cadical::Solver::new();
    solver.reserve(cnf.vars);
    for clause in &cnf.clauses {
        solver.add_clause(clause.iter().copied());
    }
    solver.set_callbacks(Some(Deadline(deadline)));
    let mut open = root.unknown_cells(clues.width());
    // solved under the solution itself, CaDiCaL keeps its values as the
    // phases it tries first: the next answers lie near it
    let same = |i: usize| if solution[i] { cell_lit(i) } else { -cell_lit(i) };
    let _ = solver.solve_with(open.iter().map(|&i| same(i)));
    let mut found = vec![];
    let complete = loop {
        if open.is_empty() {
            break true;
        }
        solver.add_clause(open.iter().map(|&i| -same(i)));
        if let Some(n) = conflicts {
            solver.set_limit("conflicts", n).expect("CaDiCaL has a conflict limit");
        }
        match solver.solve() {
            Some(true) => {
                let (now, still): (Vec<usize>, Vec<usize>) =
                    open.iter().partition(|&&i| solver.value(cell_lit(i)) == Some(!solution[i]));
                found.extend(now);
                open = still;
            }
            Some(false) => break true,
            None if crate::deadline::past(deadline) => return None,
            None => break false,
        }
    };
    found.sort_unstable();
    Some(Disagreement { cells: found, complete })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::board::brute;
    use crate::domains::nonogram::formats::non::clues_of;

    #[test]
    fn against_brute_force_on_every_3x3_and_some_4x4_pictures() {
        for (w, h, step) in [(3, 3, 1), (4, 4, 37)] {
            for m in (0..1u32 << (w * h)).step_by(step) {
                let cells: Vec<bool> = (0..w * h).map(|i| m >> i & 1 == 1).collect();
                let (rows, columns) = clues_of(w, h, &cells);
                let clues = Clues::new(rows, columns);
                let all = brute::brute_force(&clues);
                let want: Vec<usize> = (0..w * h).filter(|&i| all.iter().any(|s| s[i] != cells[i])).collect();
                assert_eq!(
                    disagreement(&clues, &cells, None, None),
                    Some(Disagreement { cells: want, complete: true }),
                    "{cells:?}"
                );
            }
        }
    }
}
