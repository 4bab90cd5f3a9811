//! A board as a formula in conjunctive normal form (DIMACS literals), for
//! the SAT fallback (`sat`).
//!
//! A variable per cell (grid index `i` is variable `i + 1`, true = filled),
//! a unit clause per cell the board knows, and per line the regular
//! constraint of its hints unrolled over the line's cells (Bacchus, "GAC
//! via unit propagation", CP 2007). The line's automaton reads the cells in
//! order; its state after `t` cells is how much of the tightest pattern
//! `1^h1 0 1^h2 0 ... 1^hk` has been matched, plus a last state for the
//! empty cells after the last block. Every state is entered by one letter
//! only (a state inside a block by a filled cell, the others by an empty
//! one), so a variable "state `s` after `t` cells" fixes cell `t - 1`, and
//! the clauses are short:
//! - a state's variable implies its letter on its cell;
//! - it implies one of its successors after the next cell, and one of its
//!   predecessors before its own cell;
//! - a cell's value implies one of the states after it entered by that
//!   value.
//!
//! Only states on some path from the start to an accepting state through
//! the cells the board allows get variables (the others are false anyway).
//! In a model, the states true after `t` cells include the automaton's run
//! on the cells (it is deterministic, and each state's letter is fixed), and
//! the run must end in an accepting state: the models' cells are the board's
//! solutions, and each solution has a model (its run). Unit propagation on
//! these clauses removes every state on no accepting path and every cell
//! value no such path takes: it is the exact line solver on every line, so
//! the SAT solver's propagation is as strong as the probing search's.
//!
//! This module knows clues and bit boards: not solvers, search or limits.

use super::bitboard::BitBoard;
use super::propagate::Clues;
use crate::domains::nonogram::line::model::Cell;

/// A formula: clauses of DIMACS literals over variables `1..=vars`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Cnf {
    /// The number of variables (the cells' come first).
    pub vars: i32,
    /// The clauses, each a disjunction of literals (`-v`: not `v`).
    pub clauses: Vec<Vec<i32>>,
}

impl Cnf {
    fn fresh(&mut self) -> i32 {
        self.vars += 1;
        self.vars
    }
}

/// The literal "grid cell `i` is filled".
pub fn cell_lit(i: usize) -> i32 {
    i as i32 + 1
}

/// The formula of `board` (see the module doc); `None` if some line has
/// no solution given the cells the board knows.
pub fn encode(clues: &Clues, board: &BitBoard) -> Option<Cnf> {
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
        if !encode_line(&mut cnf, clues.hints(l), &cells) {
            return None;
        }
    }
    Some(cnf)
}

/// The automaton of a line's hints (see the module doc).
struct Automaton {
    /// The letter (true = filled) that enters each state.
    letter: Vec<bool>,
    /// The accepting states.
    accepting: Vec<usize>,
}

impl Automaton {
    fn new(hints: &[u32]) -> Automaton {
        let mut letter = vec![false];
        for (j, &h) in hints.iter().enumerate() {
            if j > 0 {
                letter.push(false);
            }
            letter.extend(std::iter::repeat_n(true, h as usize));
        }
        let last = letter.len() - 1;
        if hints.is_empty() {
            return Automaton { letter, accepting: vec![0] };
        }
        letter.push(false);
        Automaton { letter, accepting: vec![last, last + 1] }
    }

    /// The state after reading `filled` in state `s`, if any: the next
    /// state if `filled` enters it, else `s` again if `s` is a stretch of
    /// empty cells (the start, a gap, the end) and the cell is empty. The
    /// state after an empty-cell state is a block's first cell, so at most
    /// one of the two applies.
    fn step(&self, s: usize, filled: bool) -> Option<usize> {
        if self.letter.get(s + 1) == Some(&filled) {
            Some(s + 1)
        } else {
            (!self.letter[s] && !filled).then_some(s)
        }
    }

    fn states(&self) -> usize {
        self.letter.len()
    }
}

/// The states alive after each number of cells: reachable from the start
/// and reaching an accepting state through values the cells allow.
fn alive(auto: &Automaton, cells: &[(Cell, i32)]) -> Vec<Vec<bool>> {
    let (n, q) = (cells.len(), auto.states());
    let allows = |t: usize, v: bool| cells[t].0 != if v { Cell::False } else { Cell::True };
    let mut fwd = vec![vec![false; q]; n + 1];
    fwd[0][0] = true;
    for t in 0..n {
        for s in 0..q {
            for v in [false, true] {
                if let Some(next) = auto.step(s, v).filter(|_| fwd[t][s] && allows(t, v)) {
                    fwd[t + 1][next] = true;
                }
            }
        }
    }
    let mut live = vec![vec![false; q]; n + 1];
    for &s in &auto.accepting {
        live[n][s] = fwd[n][s];
    }
    for t in (0..n).rev() {
        for s in (0..q).filter(|&s| fwd[t][s]) {
            live[t][s] = [false, true]
                .into_iter()
                .any(|v| allows(t, v) && auto.step(s, v).is_some_and(|next| live[t + 1][next]));
        }
    }
    live
}

/// Adds the clauses of one line (`cells`: each cell's value on the board
/// and literal); false if the line has no solution.
fn encode_line(cnf: &mut Cnf, hints: &[u32], cells: &[(Cell, i32)]) -> bool {
    let auto = Automaton::new(hints);
    let live = alive(&auto, cells);
    if !live[0][0] {
        return false;
    }
    let n = cells.len();
    // the variable of each live state after t cells (after 0 cells: the
    // start, always true, so none)
    let var: Vec<Vec<Option<i32>>> =
        (0..=n).map(|t| live[t].iter().map(|&a| (a && t > 0).then(|| cnf.fresh())).collect()).collect();
    for t in 1..=n {
        let cell = cells[t - 1].1;
        for s in (0..auto.states()).filter(|&s| live[t][s]) {
            let x = var[t][s].expect("a live state has a variable");
            cnf.clauses.push(vec![-x, if auto.letter[s] { cell } else { -cell }]);
            // its predecessors (after no cell: the start, always true)
            if t > 1 {
                let preds = (0..auto.states()).filter(|&p| live[t - 1][p] && auto.step(p, auto.letter[s]) == Some(s));
                cnf.clauses.push(std::iter::once(-x).chain(preds.filter_map(|p| var[t - 1][p])).collect());
            }
            if t < n {
                let succs = [false, true].into_iter().filter_map(|v| auto.step(s, v)).filter(|&q| live[t + 1][q]);
                cnf.clauses.push(std::iter::once(-x).chain(succs.filter_map(|q| var[t + 1][q])).collect());
            }
        }
        for v in [false, true] {
            let entered = (0..auto.states()).filter(|&s| live[t][s] && auto.letter[s] == v).filter_map(|s| var[t][s]);
            cnf.clauses.push(std::iter::once(if v { -cell } else { cell }).chain(entered).collect());
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domains::nonogram::line::model::hints_of;
    use rand::{Rng, SeedableRng};

    /// On one-row boards (every column free: hints of 0 or 1), each
    /// filling of the row satisfies the formula exactly when it has the
    /// row's hints and agrees with the cells the board knows; a board whose
    /// row has no solution has no formula.
    #[test]
    fn models_are_the_line_solutions() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..300 {
            let n = rng.gen_range(1..=8);
            let picture: Vec<bool> = (0..n).map(|_| rng.gen_bool(0.5)).collect();
            let hints = if rng.gen_bool(0.8) { hints_of(&picture) } else { vec![rng.gen_range(1..=3); 2] };
            let columns: Vec<Vec<u32>> = (0..n).map(|_| vec![]).collect();
            let clues = Clues::new(vec![hints.clone()], columns);
            let mut board = BitBoard::new(&clues);
            let known: Vec<Option<bool>> = (0..n).map(|_| rng.gen_bool(0.3).then(|| rng.gen_bool(0.5))).collect();
            for (c, k) in known.iter().enumerate() {
                if let Some(v) = k {
                    board.set(0, c, *v);
                }
            }
            // the columns' clauses would empty every cell: encode the row only
            let mut cnf = Cnf { vars: n as i32, clauses: vec![] };
            let cells: Vec<(Cell, i32)> = (0..n).map(|c| (board.get(0, c), cell_lit(c))).collect();
            let fits = |bits: &[bool]| {
                hints_of(bits) == hints && bits.iter().zip(&known).all(|(b, k)| k.is_none_or(|k| k == *b))
            };
            let all: Vec<Vec<bool>> =
                (0u32..1 << n).map(|m| (0..n).map(|i| m >> i & 1 == 1).collect::<Vec<bool>>()).collect();
            if !encode_line(&mut cnf, &hints, &cells) {
                assert!(!all.iter().any(|b| fits(b)), "{hints:?} {known:?}");
                continue;
            }
            let mut solver: cadical::Solver = cadical::Solver::new();
            for clause in &cnf.clauses {
                solver.add_clause(clause.iter().copied());
            }
            for bits in &all {
                let assume = bits.iter().enumerate().map(|(i, &b)| if b { cell_lit(i) } else { -cell_lit(i) });
                assert_eq!(solver.solve_with(assume), Some(fits(bits)), "{hints:?} {known:?} {bits:?}");
            }
        }
    }
}
