//! The complete solver's fallback for boards its probing search finds hard:
//! the board as a formula in conjunctive normal form (`encoding`: either
//! encoding of the lines) given to a conflict-driven clause-learning SAT
//! solver (what the probing search lacks), and its solutions counted up to
//! a limit by blocking each one found and solving again on the same
//! solver, which keeps the clauses it learnt.
//!
//! Two solvers can take either formula ([`SatSolver`]): CaDiCaL and Z3's
//! SAT solver (`QF_FD`); `bench --boards --sat-compare` measures the four
//! pairs of encoding and solver against each other on the same boards.
//!
//! This module knows clues, bit boards and the SAT solvers: not search,
//! nodes or limits other than a deadline.

use std::time::Instant;

use z3::ast::Bool;
use z3::{Params, SatResult};

use super::bitboard::BitBoard;
use super::cnf::{cell_lit, Cnf};
use super::encoding::{encode, Encoding};
use super::propagate::Clues;

/// The SAT solver of the fallback.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SatSolver {
    /// CaDiCaL 1.9.5 (the `cadical` crate).
    Cadical,
    /// Z3's SAT solver (the `QF_FD` logic), through the system libz3: the
    /// default, the faster on the tournament set with the default
    /// encoding (`docs/survey.md`).
    #[default]
    Z3,
}

impl SatSolver {
    /// Both solvers.
    pub const ALL: [SatSolver; 2] = [SatSolver::Cadical, SatSolver::Z3];

    /// The name used in reports.
    pub fn name(self) -> &'static str {
        match self {
            SatSolver::Cadical => "CaDiCaL",
            SatSolver::Z3 => "Z3",
        }
    }
}

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

/// What the counting loop needs of a SAT solver.
pub(super) trait Incremental {
    /// Adds a clause (DIMACS literals).
    fn add(&mut self, clause: &[i32]);
    /// Solves: `Some(true)` with a model, `Some(false)` if unsatisfiable,
    /// `None` if stopped by the deadline.
    fn solve(&mut self, deadline: Option<Instant>) -> Option<bool>;
    /// The value of a literal in the last model.
    fn value(&self, lit: i32) -> bool;
}

/// Stops CaDiCaL at a deadline (it asks every few thousand steps).
pub(super) struct Deadline(pub(super) Option<Instant>);

impl cadical::Callbacks for Deadline {
    fn terminate(&mut self) -> bool {
        crate::deadline::past(self.0)
    }
}

impl Incremental for cadical::Solver<Deadline> {
    fn add(&mut self, clause: &[i32]) {
        self.add_clause(clause.iter().copied());
    }

    fn solve(&mut self, deadline: Option<Instant>) -> Option<bool> {
        self.set_callbacks(Some(Deadline(deadline)));
        cadical::Solver::solve(self)
    }

    fn value(&self, lit: i32) -> bool {
        cadical::Solver::value(self, lit).unwrap_or(false)
    }
}

/// Z3's solver with a constant per variable (variable `v` is `vars[v - 1]`)
/// and the last model's values.
struct Z3Sat {
    solver: z3::Solver,
    vars: Vec<Bool>,
    model: Vec<bool>,
}

impl Z3Sat {
    fn new(vars: i32) -> Z3Sat {
        Z3Sat {
            solver: z3::Solver::new_for_logic("QF_FD").unwrap_or_default(),
            vars: (1..=vars).map(|v| Bool::new_const(format!("v{v}"))).collect(),
            model: vec![],
        }
    }

    fn lit(&self, lit: i32) -> Bool {
        let v = &self.vars[lit.unsigned_abs() as usize - 1];
        if lit > 0 {
            v.clone()
        } else {
            v.not()
        }
    }
}

impl Incremental for Z3Sat {
    fn add(&mut self, clause: &[i32]) {
        let lits: Vec<Bool> = clause.iter().map(|&l| self.lit(l)).collect();
        self.solver.assert(Bool::or(&lits));
    }

    fn solve(&mut self, deadline: Option<Instant>) -> Option<bool> {
        if let Some(d) = deadline {
            let left = d.saturating_duration_since(Instant::now()).as_millis();
            if left == 0 {
                return None;
            }
            let mut params = Params::new();
            params.set_u32("timeout", left.min(u32::MAX as u128) as u32);
            self.solver.set_params(&params);
        }
        // a cancelled request's check stops at once, not at its deadline
        let context = z3::Context::thread_local();
        let handle = context.handle();
        match crate::deadline::interruptible(|| handle.interrupt(), || self.solver.check()) {
            SatResult::Unsat => Some(false),
            SatResult::Unknown => None,
            SatResult::Sat => {
                let model = self.solver.get_model().expect("a satisfiable check has a model");
                self.model =
                    self.vars.iter().map(|v| model.eval(v, true).and_then(|b| b.as_bool()).unwrap_or(false)).collect();
                Some(true)
            }
        }
    }

    fn value(&self, lit: i32) -> bool {
        self.model.get(lit.unsigned_abs() as usize - 1).is_some_and(|&b| b == (lit > 0))
    }
}

/// Up to `wanted` solutions of `board` other than those in `known` (which
/// must be solutions of it), found by `by` on the formula in `encoding`
/// before `deadline`.
pub fn solutions(
    (encoding, by): (Encoding, SatSolver),
    clues: &Clues,
    board: &BitBoard,
    known: &[Vec<bool>],
    wanted: usize,
    deadline: Option<Instant>,
) -> Found {
    let Some(cnf) = encode(encoding, clues, board) else {
        return Found { solutions: vec![], complete: true };
    };
    if wanted == 0 {
        return Found { solutions: vec![], complete: true };
    }
    let unknown = unknown_cells(clues, board);
    let mut found = vec![];
    let complete = with_solver(by, cnf.vars, |solver| {
        enumerate(solver, &cnf, (clues.cells(), &unknown), known, deadline, |solution| {
            found.push(solution);
            found.len() < wanted
        })
    });
    Found { solutions: found, complete }
}

/// Runs `f` on a fresh solver of kind `by` for a formula over `vars`
/// variables.
pub(super) fn with_solver<R: Send + Sync>(
    by: SatSolver,
    vars: i32,
    f: impl FnOnce(&mut dyn Incremental) -> R + Send + Sync,
) -> R {
    match by {
        SatSolver::Cadical => {
            let mut solver: cadical::Solver<Deadline> = cadical::Solver::new();
            solver.reserve(vars);
            f(&mut solver)
        }
        SatSolver::Z3 => z3::with_z3_config(&z3::Config::new(), || f(&mut Z3Sat::new(vars))),
    }
}

/// How many clauses are given to a solver between two readings of the
/// deadline (a large board's formula has millions, and Z3 takes seconds
/// to take them in).
const DEADLINE_EVERY: usize = 4096;

/// The counting loop on `solver`: `cnf`, the solutions in `blocked`
/// excluded, then solve, exclude the model and hand it (the board's
/// `cells`, row by row) to `take`, until `take` answers false (enough) or
/// there are no more models. False if the deadline passed first. Models
/// are excluded by their `unknown` cells (the others are fixed by `cnf`).
pub(super) fn enumerate(
    solver: &mut dyn Incremental,
    cnf: &Cnf,
    (cells, unknown): (usize, &[usize]),
    blocked: &[Vec<bool>],
    deadline: Option<Instant>,
    mut take: impl FnMut(Vec<bool>) -> bool,
) -> bool {
    let past = || crate::deadline::past(deadline);
    for (i, clause) in cnf.clauses.iter().enumerate() {
        if i % DEADLINE_EVERY == 0 && past() {
            return false;
        }
        solver.add(clause);
    }
    for solution in blocked {
        solver.add(&blocking(unknown, solution));
    }
    loop {
        if past() {
            return false;
        }
        match solver.solve(deadline) {
            Some(false) => return true,
            None => return false,
            Some(true) => {
                let model: Vec<bool> = (0..cells).map(|i| solver.value(cell_lit(i))).collect();
                solver.add(&blocking(unknown, &model));
                if !take(model) {
                    return true;
                }
            }
        }
    }
}

/// The cells `board` does not know (a blocking clause's cells).
pub(super) fn unknown_cells(clues: &Clues, board: &BitBoard) -> Vec<usize> {
    (0..clues.cells()).filter(|&i| !board.get(i / clues.width(), i % clues.width()).is_known()).collect()
}

/// The clause excluding `solution`: some unknown cell differs.
pub(super) fn blocking(unknown: &[usize], solution: &[bool]) -> Vec<i32> {
    unknown.iter().map(|&i| if solution[i] { -cell_lit(i) } else { cell_lit(i) }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two 1s on a 2x2 board: the two diagonals, found and then blocked,
    /// by either solver on either encoding.
    #[test]
    fn counts_the_diagonals_and_stops_at_the_limit() {
        for by in Encoding::ALL.into_iter().flat_map(|e| SatSolver::ALL.map(|s| (e, s))) {
            let clues = Clues::new(vec![vec![1], vec![1]], vec![vec![1], vec![1]]);
            let board = BitBoard::new(&clues);
            let all = solutions(by, &clues, &board, &[], 10, None);
            let mut got = all.solutions.clone();
            got.sort();
            assert_eq!(got, vec![vec![false, true, true, false], vec![true, false, false, true]], "{by:?}");
            assert!(all.complete);
            let one = solutions(by, &clues, &board, &all.solutions[..1], 10, None);
            assert_eq!(one.solutions, all.solutions[1..]);
            assert_eq!(solutions(by, &clues, &board, &[], 1, None).solutions.len(), 1);
            // a clue too long for its line: nothing
            let bad = Clues::new(vec![vec![3], vec![]], vec![vec![1], vec![1]]);
            let none = solutions(by, &bad, &BitBoard::new(&bad), &[], 2, None);
            assert_eq!(none, Found { solutions: vec![], complete: true });
        }
    }

    /// A Z3 check far from its deadline stops, unknown, soon after the work
    /// it is part of is cancelled (a studio request given up): on twelve
    /// pigeons in eleven holes, which Z3 does not refute in minutes.
    #[test]
    fn a_cancelled_z3_check_stops_at_once() {
        let (pigeons, holes) = (12, 11);
        let var = |p: i32, h: i32| p * holes + h + 1;
        let cancel = crate::deadline::Cancel::new();
        let setter = {
            let cancel = cancel.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(200));
                cancel.set();
            })
        };
        let started = Instant::now();
        let answer = z3::with_z3_config(&z3::Config::new(), || {
            let mut sat = Z3Sat::new(pigeons * holes);
            for p in 0..pigeons {
                sat.add(&(0..holes).map(|h| var(p, h)).collect::<Vec<_>>());
            }
            for h in 0..holes {
                for p in 0..pigeons {
                    for q in p + 1..pigeons {
                        sat.add(&[-var(p, h), -var(q, h)]);
                    }
                }
            }
            cancel.run(|| sat.solve(Some(Instant::now() + std::time::Duration::from_secs(120))))
        });
        setter.join().unwrap();
        assert_eq!(answer, None);
        assert!(started.elapsed() < std::time::Duration::from_secs(10), "{:?}", started.elapsed());
    }
}
