//! The SAT fallback on boards whose clues have symmetries (`symmetry`):
//! the symmetric solutions first, then the others one orbit at a time.
//!
//! The solutions of such a board are closed under its symmetry group `G`,
//! so they split into the `G`-invariant solutions (equal to every image)
//! and the others. The count is asked in two formulas, each on its own
//! solver (`sat`: the fallback's solver, on the root board's formula in
//! the fallback's encoding, `encoding`):
//! 1. the formula with every cell tied to its images (`x_j = x_s(j)` for
//!    each symmetry `s`): its models are exactly the invariant solutions,
//!    on a formula with a fraction of the free cells (a quarter under the
//!    quarter turn), where a puzzle drawn symmetric has its solution;
//! 2. the formula with the lex-leader clauses (`symmetry`: the least
//!    solution of each orbit only) and "the board differs from its image
//!    under some symmetry": its models are the least members of the orbits
//!    that are not invariant, and each brings the rest of its orbit.
//!
//! The two sets are disjoint and together are every solution. A known
//! solution (found by the search before the handover) brings its orbit,
//! and every member is blocked in both formulas, so nothing is counted
//! twice. When the first formula gives the wanted number of solutions
//! (Knotty: two symmetric ones), the second is never solved.
//!
//! This module knows clues, bit boards and formulas: not search or solvers.

use std::time::Instant;

use super::bitboard::BitBoard;
use super::cnf::{cell_lit, Cnf};
use super::encoding::{encode, Encoding};
use super::propagate::Clues;
use super::sat::{enumerate, unknown_cells, with_solver, Found, SatSolver};
use super::symmetry::{add_lex_leader, orbit, symmetries};

/// Up to `wanted` solutions of `board` other than those in `known` (which
/// must be solutions of it, and `board`'s known cells implied by the
/// clues), found by `by` before `deadline` as the module doc says;
/// `None` if the clues have no symmetry (nothing to gain: the caller
/// solves the plain formula).
pub fn solutions(
    (encoding, by): (Encoding, SatSolver),
    clues: &Clues,
    board: &BitBoard,
    known: &[Vec<bool>],
    wanted: usize,
    deadline: Option<Instant>,
) -> Option<Found> {
    let symmetries = symmetries(clues);
    if symmetries.is_empty() {
        return None;
    }
    let Some(cnf) = encode(encoding, clues, board) else {
        return Some(Found { solutions: vec![], complete: true });
    };
    let unknown = unknown_cells(clues, board);
    let mut count = Count { cells: clues.cells(), unknown, known: known.to_vec(), found: vec![], wanted, deadline };
    for solution in known {
        count.add_orbit(&symmetries, solution);
    }
    let mut tied = cnf.clone();
    add_invariance(&mut tied, &symmetries);
    if !count.run(by, &tied, &[]) {
        return Some(count.end(false));
    }
    let mut rest = cnf;
    add_lex_leader(&mut rest, &symmetries);
    add_asymmetry(&mut rest, &symmetries);
    let complete = count.run(by, &rest, &symmetries);
    Some(count.end(complete))
}

/// The counting state shared by the two formulas.
struct Count {
    cells: usize,
    /// The cells the board does not know (the blocking clauses' cells).
    unknown: Vec<usize>,
    /// Every solution known or found (blocked in each formula).
    known: Vec<Vec<bool>>,
    /// The new solutions, in the order found.
    found: Vec<Vec<bool>>,
    wanted: usize,
    deadline: Option<Instant>,
}

impl Count {
    fn full(&self) -> bool {
        self.found.len() >= self.wanted
    }

    /// Records every member of `solution`'s orbit not known yet.
    fn add_orbit(&mut self, symmetries: &[Vec<usize>], solution: &[bool]) {
        for image in orbit(symmetries, solution) {
            if !self.known.contains(&image) {
                self.known.push(image.clone());
                self.found.push(image);
            }
        }
    }

    /// Solves `cnf` on a fresh solver of kind `by` with every known
    /// solution blocked, recording each model's orbit under `symmetries`
    /// (none for the invariant formula) until the wanted number or no
    /// more; false if the deadline passed first.
    fn run(&mut self, by: SatSolver, cnf: &Cnf, symmetries: &[Vec<usize>]) -> bool {
        if self.full() {
            return true;
        }
        let blocked = self.known.clone();
        let (cells, unknown, deadline) = (self.cells, self.unknown.clone(), self.deadline);
        with_solver(by, cnf.vars, |solver| {
            enumerate(solver, cnf, (cells, &unknown), &blocked, deadline, |model| {
                self.add_orbit(symmetries, &model);
                !self.full()
            })
        })
    }

    /// The new solutions (at most the wanted number).
    fn end(mut self, complete: bool) -> Found {
        let complete = complete || self.full();
        self.found.truncate(self.wanted);
        Found { solutions: self.found, complete }
    }
}

/// Ties every cell to its images: `x_j = x_s(j)` for each symmetry `s`.
fn add_invariance(cnf: &mut Cnf, symmetries: &[Vec<usize>]) {
    for s in symmetries {
        for (j, &sj) in s.iter().enumerate().filter(|&(j, &sj)| j != sj) {
            cnf.clauses.push(vec![-cell_lit(j), cell_lit(sj)]);
            cnf.clauses.push(vec![cell_lit(j), -cell_lit(sj)]);
        }
    }
}

/// "The board differs from its image under some symmetry": a variable per
/// cell moved by a symmetry, implying the cell and its image differ, and
/// a clause asking for one of them.
fn add_asymmetry(cnf: &mut Cnf, symmetries: &[Vec<usize>]) {
    let mut some = vec![];
    for s in symmetries {
        for (j, &sj) in s.iter().enumerate().filter(|&(j, &sj)| j != sj) {
            cnf.vars += 1;
            let d = cnf.vars;
            cnf.clauses.push(vec![-d, cell_lit(j), cell_lit(sj)]);
            cnf.clauses.push(vec![-d, -cell_lit(j), -cell_lit(sj)]);
            some.push(d);
        }
    }
    cnf.clauses.push(some);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::board::brute::brute_force;
    use crate::domains::nonogram::formats::non::clues_of;
    use rand::{Rng, SeedableRng};

    /// A random square filling made invariant under the quarter turn, the
    /// half turn or the transpose (or left alone).
    fn symmetric_filling(rng: &mut impl Rng, n: usize) -> Vec<bool> {
        let density = rng.gen_range(0.3..0.7);
        let mut grid: Vec<bool> = (0..n * n).map(|_| rng.gen_bool(density)).collect();
        let turn = |(r, c): (usize, usize)| (c, n - 1 - r);
        match rng.gen_range(0..4) {
            0 => {
                for r in 0..n {
                    for c in 0..n {
                        let mut p = (r, c);
                        for _ in 0..3 {
                            p = turn(p);
                            grid[p.0 * n + p.1] = grid[r * n + c];
                        }
                    }
                }
            }
            1 => {
                for i in 0..n * n {
                    grid[n * n - 1 - i] = grid[i];
                }
            }
            2 => {
                for (r, c) in (0..n).flat_map(|r| (0..r).map(move |c| (r, c))) {
                    grid[c * n + r] = grid[r * n + c];
                }
            }
            _ => {}
        }
        grid
    }

    /// On random square boards up to 5x5, a third of them with clues
    /// invariant under the quarter turn, the solutions found (with none,
    /// or some, already known) are exactly brute force's others, distinct;
    /// with a limit of 2, two real new ones (or all there are). Boards
    /// without symmetry are left to the caller. Each board is counted by
    /// one of the four pairs of encoding and solver, in turn.
    #[test]
    fn matches_brute_force_on_symmetric_boards() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let (mut symmetric, mut orbits_used) = (0, 0);
        let pairs: Vec<(Encoding, SatSolver)> =
            Encoding::ALL.into_iter().flat_map(|e| SatSolver::ALL.map(|s| (e, s))).collect();
        for round in 0..400 {
            let by = pairs[round % pairs.len()];
            let n = rng.gen_range(1..=5);
            let (rows, columns) = clues_of(n, n, &symmetric_filling(&mut rng, n));
            let clues = Clues::new(rows, columns);
            let board = BitBoard::new(&clues);
            let all = brute_force(&clues);
            let Some(found) = solutions(by, &clues, &board, &[], 1000, None) else {
                assert!(symmetries(&clues).is_empty());
                continue;
            };
            symmetric += 1;
            assert!(found.complete);
            let mut got = found.solutions.clone();
            got.sort();
            got.dedup();
            assert_eq!(got.len(), found.solutions.len(), "{clues:?}");
            let mut expect = all.clone();
            expect.sort();
            assert_eq!(got, expect, "{clues:?} {by:?}");
            let known = &all[..all.len().min(rng.gen_range(0..=2))];
            let rest = solutions(by, &clues, &board, known, 1000, None).expect("symmetric");
            assert_eq!(rest.solutions.len() + known.len(), all.len(), "{clues:?}");
            assert!(rest.solutions.iter().all(|s| all.contains(s) && !known.contains(s)));
            let two = solutions(by, &clues, &board, &[], 2, None).expect("symmetric").solutions;
            assert_eq!(two.len(), all.len().min(2));
            assert!(two.iter().all(|s| all.contains(s)) && (two.len() < 2 || two[0] != two[1]));
            orbits_used += usize::from(all.iter().any(|s| orbit(&symmetries(&clues), s).len() > 1));
        }
        assert!(symmetric > 150 && orbits_used > 30, "{symmetric} {orbits_used}");
    }
}
