//! A board as a formula (`cnf`), for the SAT fallback (`sat`) and cube
//! and conquer (`cubes`): a variable per cell, a unit clause per cell the
//! board knows, and per line the clauses of one of two encodings
//! ([`Encoding`]), each in its module with the same interface (a line's
//! hints and cells in, its clauses added to the formula, false if the line
//! has no solution given the cells known):
//! - [`regular`](super::regular): a regular constraint per line (a variable
//!   per state of the line's automaton after each cell), on which unit
//!   propagation is the exact line solver;
//! - [`starts`](super::starts): a variable per place a block may start.
//!
//! Either way the models' cells are exactly the board's solutions.
//!
//! This module knows clues and bit boards: not solvers, search or limits.

use super::bitboard::BitBoard;
use super::cnf::{cell_lit, Cnf};
use super::propagate::Clues;
use super::{regular, starts};
use crate::domains::nonogram::line::model::Cell;

/// How a line's hints become clauses (see the module doc).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Encoding {
    /// A regular constraint per line (`regular`).
    Regular,
    /// A variable per place a block may start (`starts`): the default on
    /// clues without symmetries, the faster on the tournament set
    /// (`docs/survey.md`).
    Starts,
}

impl Encoding {
    /// Both encodings.
    pub const ALL: [Encoding; 2] = [Encoding::Regular, Encoding::Starts];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            Encoding::Regular => "regular",
            Encoding::Starts => "starts",
        }
    }

    /// Adds the clauses of one line (`cells`: each cell's value on the
    /// board and literal); false if the line has no solution.
    fn encode_line(self, cnf: &mut Cnf, hints: &[u32], cells: &[(Cell, i32)]) -> bool {
        match self {
            Encoding::Regular => regular::encode_line(cnf, hints, cells),
            Encoding::Starts => starts::encode_line(cnf, hints, cells),
        }
    }
}

/// The formula of `board` in `encoding` (see the module doc); `None` if
/// the encoding finds some line without a solution given the cells the
/// board knows (else such a board's formula is unsatisfiable).
pub fn encode(encoding: Encoding, clues: &Clues, board: &BitBoard) -> Option<Cnf> {
    let mut cnf = Cnf { vars: clues.cells() as i32, clauses: vec![] };
    for i in 0..clues.cells() {
        match board.get(i / clues.width(), i % clues.width()) {
            Cell::True => cnf.clauses.push(vec![cell_lit(i)]),
            Cell::False => cnf.clauses.push(vec![-cell_lit(i)]),
            Cell::Unknown => {}
        }
    }
    for l in 0..clues.line_count() {
        let cells: Vec<(Cell, i32)> = (0..clues.len(l))
            .map(|i| {
                let p = clues.pos(l, i);
                (board.get(p / clues.width(), p % clues.width()), cell_lit(p))
            })
            .collect();
        if !encoding.encode_line(&mut cnf, clues.hints(l), &cells) {
            return None;
        }
    }
    Some(cnf)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::model::hints_of;
    use rand::{Rng, SeedableRng};

    /// On one row, in either encoding, each filling of the row satisfies
    /// the row's clauses with the known cells' unit clauses exactly when it
    /// has the row's hints and agrees with the cells known; a row the
    /// encoding finds without a solution has none.
    #[test]
    fn models_are_the_line_solutions() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..300 {
            let n = rng.gen_range(1..=8);
            let picture: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.5)).collect();
            let hints = match rng.gen_range(0..20) {
                0..=15 => hints_of(&picture),
                16 => vec![0],
                _ => vec![rng.gen_range(1..=3); 2],
            };
            let known: Vec<Option<bool>> = (0..n).map(|_| rng.gen_bool(0.3).then(|| rng.gen_bool(0.5))).collect();
            let cells: Vec<(Cell, i32)> = known
                .iter()
                .enumerate()
                .map(|(c, k)| (k.map_or(Cell::Unknown, Cell::from_bool), cell_lit(c)))
                .collect();
            let fits = |bits: &[bool]| {
                hints_of(bits) == hints.iter().copied().filter(|&h| h > 0).collect::<Vec<u32>>()
                    && bits.iter().zip(&known).all(|(b, k)| k.is_none_or(|k| k == *b))
            };
            let all: Vec<Vec<bool>> =
                (0u32..1 << n).map(|m| (0..n).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>()).collect();
            for encoding in Encoding::ALL {
                // the known cells' unit clauses, as `encode` adds them
                let units =
                    cells.iter().filter(|c| c.0.is_known()).map(|&(c, l)| vec![if c == Cell::True { l } else { -l }]);
                let mut cnf = Cnf { vars: n, clauses: units.collect() };
                if !encoding.encode_line(&mut cnf, &hints, &cells) {
                    assert!(!all.iter().any(|b| fits(b)), "{encoding:?} {hints:?} {known:?}");
                    continue;
                }
                let mut solver: cadical::Solver = cadical::Solver::new();
                for clause in &cnf.clauses {
                    solver.add_clause(clause.iter().copied());
                }
                for bits in &all {
                    let assume = bits.iter().enumerate().map(|(i, &b)| if b { cell_lit(i) } else { -cell_lit(i) });
                    let fit = Some(fits(bits));
                    assert_eq!(solver.solve_with(assume), fit, "{encoding:?} {hints:?} {known:?} {bits:?}");
                }
            }
        }
    }
}
