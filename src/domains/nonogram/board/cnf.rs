//! Formulas in conjunctive normal form (DIMACS literals) over a board's
//! cells, for the SAT fallback (`sat`) and cube and conquer (`cubes`):
//! a variable per cell (grid index `i` is variable `i + 1`, true =
//! filled), then the variables an encoding adds (`encoding`).
//!
//! This module knows formulas: not clues, boards, solvers or search.

/// A formula: clauses of DIMACS literals over variables `1..=vars`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// The number of variables (the cells' come first).
    pub vars: i32,
    /// The clauses, each a disjunction of literals (`-v`: not `v`).
    pub clauses: Vec<Vec<i32>>,
}

impl Cnf {
    /// A new variable.
    pub(super) fn fresh(&mut self) -> i32 {
        self.vars += 1;
        self.vars
    }
}

/// The clause "`x` implies one of `lits`".
pub(super) fn implies_any(x: i32, lits: impl IntoIterator<Item = i32>) -> Vec<i32> {
    std::iter::once(-x).chain(lits).collect()
}

/// The literal "grid cell `i` is filled".
pub fn cell_lit(i: usize) -> i32 {
    i as i32 + 1
}
