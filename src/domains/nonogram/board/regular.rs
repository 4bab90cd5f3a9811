//! The regular-constraint encoding of a line for the SAT fallback's
//! formula (`cnf`): the line's hints unrolled over its cells (Bacchus, "GAC
//! via unit propagation", CP 2007).
//!
//! The line's automaton reads the cells in order; its state after `t`
//! cells is how much of the tightest pattern `1^h1 0 1^h2 0 ... 1^hk` has
//! been matched, plus a last state for the empty cells after the last
//! block. Every state is entered by one letter only (a state inside a block
//! by a filled cell, the others by an empty one), so a variable "state `s`
//! after `t` cells" fixes cell `t - 1`, and the clauses are short:
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
//! the run must end in an accepting state: the models' cells are the line's
//! solutions, and each solution has a model (its run). Unit propagation on
//! these clauses removes every state on no accepting path and every cell
//! value no such path takes: it is the exact line solver.
//!
//! This module knows hints and cells: not boards, solvers or search.

use super::cnf::{implies_any, Cnf};
use crate::domains::nonogram::line::model::Cell;

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
/// and literal; see the module doc); false if the line has no solution.
pub(super) fn encode_line(cnf: &mut Cnf, hints: &[u32], cells: &[(Cell, i32)]) -> bool {
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
                cnf.clauses.push(implies_any(x, preds.filter_map(|p| var[t - 1][p])));
            }
            if t < n {
                let succs = [false, true].into_iter().filter_map(|v| auto.step(s, v)).filter(|&q| live[t + 1][q]);
                cnf.clauses.push(implies_any(x, succs.filter_map(|q| var[t + 1][q])));
            }
        }
        for v in [false, true] {
            let entered = (0..auto.states()).filter(|&s| live[t][s] && auto.letter[s] == v).filter_map(|s| var[t][s]);
            cnf.clauses.push(implies_any(if v { cell } else { -cell }, entered));
        }
    }
    true
}
