//! Cube and conquer for the complete solver (`complete`): after the
//! handover, the probing search goes on, and each node's board is a cube
//! given to one incremental CaDiCaL under assumptions, within a budget of
//! conflicts. A cube the solver settles (every solution in it found, or
//! none) is not split; a cube it cannot settle within the budget is split
//! by the probing search's branching, and its two children are cubes in
//! turn. The solver keeps every clause it learns from one cube to the next.
//!
//! The formula is the root board's in the regular encoding (`encoding`:
//! unit propagation on it is the line solver); a cube assumes every cell its
//! board knows that the root does not. Those cells are the search's
//! decisions and what probing and line propagation deduced from them, all
//! implied by the decisions under the formula, so assuming them keeps the
//! cube's solutions exactly; the solver starts from what probing learned
//! (a failed literal is not found by unit propagation).
//!
//! When the clues have symmetries (`symmetry`), the formula keeps only the
//! least solution of each orbit; the caller records the whole orbit of
//! every solution it finds (`Cubes::orbit`) and blocks each member.
//!
//! This module knows clues, bit boards and CaDiCaL: not search or nodes.

use std::time::Instant;

use super::bitboard::BitBoard;
use super::cnf::cell_lit;
use super::encoding::{encode, Encoding};
use super::propagate::Clues;
use super::sat::{blocking, unknown_cells, Deadline};
use super::symmetry::{add_lex_leader, orbit, symmetries};
use crate::domains::nonogram::line::model::Cell;

/// What the solver said of a cube.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The cube has no solution besides those blocked.
    Settled,
    /// A solution in the cube, row by row (to be blocked before the next
    /// solve, with the rest of its orbit).
    Solution(Vec<bool>),
    /// The budget of conflicts ran out.
    Open,
    /// The deadline passed.
    Stopped,
}

/// One incremental CaDiCaL on the formula of a root board.
pub struct Cubes {
    solver: cadical::Solver<Deadline>,
    /// The cells the root board does not know.
    unknown: Vec<usize>,
    cells: usize,
    /// The clues' symmetries (`symmetry`): the formula keeps the least
    /// solution of each orbit only.
    symmetries: Vec<Vec<usize>>,
}

impl Cubes {
    /// The solver of `root`'s formula; `None` if some line of `root` has no
    /// solution.
    pub fn new(clues: &Clues, root: &BitBoard) -> Option<Cubes> {
        let mut cnf = encode(Encoding::Regular, clues, root)?;
        let symmetries = symmetries(clues);
        add_lex_leader(&mut cnf, &symmetries);
        let mut solver: cadical::Solver<Deadline> = cadical::Solver::new();
        solver.reserve(cnf.vars);
        for clause in &cnf.clauses {
            solver.add_clause(clause.iter().copied());
        }
        let unknown = unknown_cells(clues, root);
        Some(Cubes { solver, unknown, cells: clues.cells(), symmetries })
    }

    /// The orbit of a solution under the clues' symmetries (the solution
    /// first): the formula keeps only its least member, so every member
    /// must be recorded once one is.
    pub fn orbit(&self, solution: &[bool]) -> Vec<Vec<bool>> {
        orbit(&self.symmetries, solution)
    }

    /// Excludes a solution from every later answer.
    pub fn block(&mut self, solution: &[bool]) {
        self.solver.add_clause(blocking(&self.unknown, solution));
    }

    /// Solves the cube of `board` (a board grown from the root) within
    /// `conflicts` conflicts and the deadline.
    pub fn solve(&mut self, clues: &Clues, board: &BitBoard, conflicts: i32, deadline: Option<Instant>) -> Verdict {
        let w = clues.width();
        let cube: Vec<i32> = self
            .unknown
            .iter()
            .filter_map(|&i| match board.get(i / w, i % w) {
                Cell::True => Some(cell_lit(i)),
                Cell::False => Some(-cell_lit(i)),
                Cell::Unknown => None,
            })
            .collect();
        self.solver.set_callbacks(Some(Deadline(deadline)));
        self.solver.set_limit("conflicts", conflicts).expect("CaDiCaL has a conflict limit");
        match self.solver.solve_with(cube) {
            Some(false) => Verdict::Settled,
            Some(true) => {
                Verdict::Solution((0..self.cells).map(|i| self.solver.value(cell_lit(i)).unwrap_or(false)).collect())
            }
            None if crate::deadline::past(deadline) => Verdict::Stopped,
            None => Verdict::Open,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two 1s on a 2x2 board: the two diagonals, one orbit under the
    /// board's symmetries. The formula keeps the least (row by row, empty
    /// first: `.# / #.`), found in the whole board; its orbit holds both;
    /// once blocked, nothing is left; the cube "top left filled" holds only
    /// the other diagonal, which the formula leaves to the orbit.
    #[test]
    fn finds_the_least_of_an_orbit_then_settles() {
        let clues = Clues::new(vec![vec![1], vec![1]], vec![vec![1], vec![1]]);
        let root = BitBoard::new(&clues);
        let mut cubes = Cubes::new(&clues, &root).expect("the lines have solutions");
        let least = vec![false, true, true, false];
        assert_eq!(cubes.solve(&clues, &root, 1000, None), Verdict::Solution(least.clone()));
        assert_eq!(cubes.orbit(&least), vec![least.clone(), vec![true, false, false, true]]);
        let mut top_left = root.clone();
        top_left.set(0, 0, true);
        assert_eq!(cubes.solve(&clues, &top_left, 1000, None), Verdict::Settled);
        cubes.block(&least);
        assert_eq!(cubes.solve(&clues, &root, 1000, None), Verdict::Settled);
        // a clue too long for its line: no formula
        let bad = Clues::new(vec![vec![3], vec![]], vec![vec![1], vec![1]]);
        assert!(Cubes::new(&bad, &BitBoard::new(&bad)).is_none());
    }
}
